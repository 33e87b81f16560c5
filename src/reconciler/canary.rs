//! Canaries: cancelling stale ones and placing new ones.

use std::borrow::Cow;

use super::{
    AllocSet, Bucket, DesiredChanges, GroupTrace, NameIndex, PlaceResult, Reconciler, SetAside,
    desc,
};
use crate::model::{DeploymentState, TaskGroup};

impl<'a> Reconciler<'a, '_> {
    /// `cancelUnneededCanaries`: stops unpromoted canaries of an older or
    /// failed deployment and canaries on draining or lost nodes; returns the
    /// remaining canaries and the group's allocations without the stopped ones.
    pub(super) fn cancel_unneeded_canaries(
        &mut self,
        all: AllocSet<'a>,
        changes: &mut DesiredChanges,
        trace: &mut GroupTrace<'a>,
    ) -> (AllocSet<'a>, AllocSet<'a>) {
        let unpromoted = |d: &crate::model::Deployment| -> Vec<String> {
            d.task_groups
                .values()
                .filter(|s| !s.promoted)
                .flat_map(|s| s.placed_canaries.iter().cloned())
                .collect()
        };
        let mut stop_ids = Vec::new();
        if let Some(old) = &self.old_deployment {
            stop_ids.extend(unpromoted(old));
        }
        if let Some(d) = &self.deployment
            && d.status == crate::model::deployment_status::FAILED
        {
            stop_ids.extend(unpromoted(d));
        }
        let stop_set = all.from_keys(&stop_ids);
        self.mark_stop(&stop_set, None, desc::NOT_NEEDED);
        changes.stop += stop_set.len() as u64;
        trace
            .set_aside
            .extend(stop_set.iter().map(|a| (a, SetAside::CancelledCanary)));
        let mut all = all.difference(&[&stop_set]);

        let Some(d) = &self.deployment else {
            return (AllocSet::new(), all);
        };
        let canary_ids: Vec<String> = d
            .task_groups
            .values()
            .flat_map(|s| s.placed_canaries.iter().cloned())
            .collect();
        let canaries = all.from_keys(&canary_ids);
        let mut sets = canaries.filter_by_tainted(self.taint_ctx());
        self.mark_stop(&sets[Bucket::Migrate], None, desc::MIGRATING);
        self.mark_stop(&sets[Bucket::Lost], Some("lost"), desc::LOST);
        trace.set_aside.extend(
            sets[Bucket::Migrate]
                .iter()
                .map(|a| (a, SetAside::CanaryMigrating)),
        );
        trace
            .set_aside
            .extend(sets[Bucket::Lost].iter().map(|a| (a, SetAside::CanaryLost)));
        all = all.difference(&[&sets[Bucket::Migrate], &sets[Bucket::Lost]]);
        (std::mem::take(&mut sets[Bucket::Untainted]), all)
    }

    /// `computeCanaries`: sets the desired canaries and, unless the
    /// deployment is paused or failed, places the missing ones.
    pub(super) fn compute_canaries(
        &mut self,
        tg: &'a TaskGroup,
        dstate: &mut DeploymentState,
        destructive: &AllocSet<'a>,
        canaries: &AllocSet<'a>,
        changes: &mut DesiredChanges,
        name_index: &mut NameIndex,
    ) {
        let wanted = tg.update.as_ref().map_or(0, |u| u.canary);
        dstate.desired_canaries = wanted;
        if self.deployment_paused || self.deployment_failed {
            return;
        }
        changes.canary += (wanted - canaries.len() as i64).max(0) as u64;
        for name in name_index.next_canaries(changes.canary, canaries, destructive) {
            self.result.place.push(PlaceResult {
                name: Cow::Owned(name),
                task_group: &tg.name,
                canary: true,
                previous: None,
                reschedule: false,
                lost: false,
                downgrade_non_canary: false,
                min_job_version: 0,
            });
        }
    }
}
