//! Canaries: cancelling stale ones and placing new ones.

use std::borrow::Cow;

use super::alloc_set::AllocSet;
use super::bucket::Bucket;
use super::context::GroupContext;
use super::name_index::NameIndex;
use super::results::PlaceResult;
use super::set_aside::SetAside;
use crate::model::{Allocation, Deployment, Id, TaskGroup, deployment_status};

/// What `computeCanaries` decided.
pub(super) struct Canaries<'a> {
    /// The canaries the update strategy asks for.
    pub wanted: i64,
    /// How many are placed now (none while the deployment is paused or failed).
    pub count: u64,
    pub place: Vec<PlaceResult<'a>>,
}

impl<'a> GroupContext<'_, 'a, '_> {
    /// `cancelUnneededCanaries`: sets aside unpromoted canaries of an older or
    /// failed deployment and canaries on draining or lost nodes (all to be
    /// stopped); returns the remaining canaries and the group's allocations
    /// without the set-aside ones.
    pub(super) fn cancel_unneeded_canaries(
        &self,
        all: AllocSet<'a>,
        set_aside: &mut Vec<(&'a Allocation, SetAside)>,
    ) -> (AllocSet<'a>, AllocSet<'a>) {
        let unpromoted = |d: &Deployment| -> Vec<Id> {
            d.task_groups
                .values()
                .filter(|s| !s.promoted)
                .flat_map(|s| s.placed_canaries.iter().cloned())
                .collect()
        };
        let mut stop_ids = Vec::new();
        if let Some(old) = self.job.old_deployment {
            stop_ids.extend(unpromoted(old));
        }
        if let Some(d) = self.deployment
            && d.status == deployment_status::FAILED
        {
            stop_ids.extend(unpromoted(d));
        }
        let stop_set = all.from_keys(&stop_ids);
        set_aside.extend(stop_set.iter().map(|a| (a, SetAside::CancelledCanary)));
        let all = all.difference(&[&stop_set]);

        let Some(d) = self.deployment else {
            return (AllocSet::new(), all);
        };
        let canary_ids: Vec<Id> = d
            .task_groups
            .values()
            .flat_map(|s| s.placed_canaries.iter().cloned())
            .collect();
        let canaries = all.from_keys(&canary_ids);
        let [untainted, migrate, lost] = {
            let sets = canaries.filter_by_tainted(self.cluster.taint());
            [Bucket::Untainted, Bucket::Migrate, Bucket::Lost].map(|b| sets[b].clone())
        };
        set_aside.extend(migrate.iter().map(|a| (a, SetAside::CanaryMigrating)));
        set_aside.extend(lost.iter().map(|a| (a, SetAside::CanaryLost)));
        (untainted, all.difference(&[&migrate, &lost]))
    }

    /// `computeCanaries`: the canaries wanted and, unless the deployment is
    /// paused or failed, placements for the missing ones.
    pub(super) fn compute_canaries(
        &self,
        tg: &'a TaskGroup,
        destructive: &AllocSet<'a>,
        canaries: &AllocSet<'a>,
        name_index: &mut NameIndex,
    ) -> Canaries<'a> {
        let wanted = tg.update.as_ref().map_or(0, |u| u.canary);
        if self.job.deployment.paused || self.job.deployment.failed {
            return Canaries {
                wanted,
                count: 0,
                place: Vec::new(),
            };
        }
        let count = (wanted - canaries.len() as i64).max(0) as u64;
        let place = name_index
            .next_canaries(count, canaries, destructive)
            .into_iter()
            .map(|name| PlaceResult {
                name: Cow::Owned(name),
                task_group: &tg.name,
                canary: true,
                previous: None,
                reschedule: false,
                lost: false,
                downgrade_non_canary: false,
                min_job_version: 0,
            })
            .collect();
        Canaries {
            wanted,
            count,
            place,
        }
    }
}
