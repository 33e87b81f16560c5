//! What to place: new allocations, replacements, destructive updates and
//! migrations.

use std::borrow::Cow;
use std::sync::Arc;

use super::alloc_set::name_order;
use super::{
    AllocSet, DesiredChanges, DestructiveResult, NameIndex, PlaceResult, Reconciler, desc,
};
use crate::model::{Allocation, TaskGroup, status};

impl<'a> Reconciler<'a, '_> {
    /// `computeUnderProvisionedBy`: how many allocations the update strategy
    /// lets this evaluation replace.
    pub(super) fn compute_under_provisioned_by(
        &self,
        tg: &'a TaskGroup,
        untainted: &AllocSet<'a>,
        destructive: &AllocSet<'a>,
        migrate: &AllocSet<'a>,
        is_canarying: bool,
    ) -> i64 {
        let Some(update) = tg.update_strategy() else {
            return tg.count;
        };
        if destructive.len() + migrate.len() == 0 {
            return tg.count;
        }
        let Some(d) = &self.deployment else {
            return update.max_parallel;
        };
        if self.deployment_paused || self.deployment_failed || is_canarying {
            return 0;
        }
        let mut under = update.max_parallel;
        for alloc in untainted.of_deployment(&d.id).iter() {
            if alloc.is_unhealthy() {
                return 0;
            }
            if !alloc.is_healthy() {
                under -= 1;
            }
        }
        under.max(0)
    }

    /// `computePlacements`: rescheduled allocations, replacements for lost
    /// ones up to the count, then new names up to the count.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn compute_placements(
        &self,
        tg: &'a TaskGroup,
        name_index: &mut NameIndex,
        untainted: &AllocSet<'a>,
        migrate: &AllocSet<'a>,
        reschedule: &AllocSet<'a>,
        lost: &AllocSet<'a>,
        reconnecting: &AllocSet<'a>,
        is_canarying: bool,
    ) -> Vec<PlaceResult<'a>> {
        let mut place = Vec::new();
        for alloc in reschedule.iter() {
            place.push(PlaceResult {
                name: Cow::Borrowed(&alloc.name),
                task_group: &tg.name,
                canary: alloc.is_canary(),
                previous: Some(alloc),
                reschedule: true,
                lost: false,
                downgrade_non_canary: is_canarying && !alloc.is_canary(),
                min_job_version: alloc.job_version(),
            });
        }
        let mut existing =
            (untainted.len() + migrate.len() + reschedule.len() + reconnecting.len()) as i64;
        for alloc in lost.iter() {
            if existing >= tg.count {
                break;
            }
            existing += 1;
            place.push(PlaceResult {
                name: Cow::Borrowed(&alloc.name),
                task_group: &tg.name,
                canary: alloc.is_canary(),
                previous: Some(alloc),
                reschedule: false,
                lost: true,
                downgrade_non_canary: is_canarying && !alloc.is_canary(),
                min_job_version: alloc.job_version(),
            });
        }
        if existing < tg.count {
            for name in name_index.next((tg.count - existing) as u64) {
                place.push(PlaceResult {
                    name: Cow::Owned(name),
                    task_group: &tg.name,
                    canary: false,
                    previous: None,
                    reschedule: false,
                    lost: false,
                    downgrade_non_canary: is_canarying,
                    min_job_version: 0,
                });
            }
        }
        place
    }

    /// `computeReplacements`: applies the placements when the deployment
    /// allows it; otherwise only lost replacements and reschedules (outside
    /// a failed deployment) go ahead. Returns what is still under-provisioned.
    pub(super) fn compute_replacements(
        &mut self,
        place_ready: bool,
        changes: &mut DesiredChanges,
        place: Vec<PlaceResult<'a>>,
        reschedule_now: &AllocSet<'a>,
        lost: &AllocSet<'a>,
        under_provisioned_by: i64,
    ) -> i64 {
        // Disconnecting allocations are rescheduled but have not failed.
        let unknown_kept = self.input.rules.counts_unknown_allocs();
        let failed = reschedule_now.filter(|a| {
            let unknown = unknown_kept && a.client_status == status::UNKNOWN;
            !unknown && !self.result.disconnect_updates.contains_key(a.id.as_str())
        });

        if place_ready {
            let placed = place.len();
            changes.place += placed as u64;
            self.result.place.extend(place);
            self.mark_stop(&failed, None, desc::RESCHEDULED);
            changes.stop += failed.len() as u64;
            return under_provisioned_by - (placed as i64).min(under_provisioned_by);
        }

        if !lost.is_empty() {
            let allowed = lost.len().min(place.len());
            changes.place += allowed as u64;
            self.result.place.extend_from_slice(&place[..allowed]);
        }
        if reschedule_now.is_empty() || place.is_empty() {
            return under_provisioned_by;
        }
        let failed_deployment_id = self
            .deployment
            .as_ref()
            .filter(|_| self.deployment_failed)
            .map(|d| d.id.clone());
        for p in &place {
            let Some(prev) = p.previous else { continue };
            let part_of_failed =
                failed_deployment_id.as_deref() == Some(prev.deployment_id.as_str());
            if part_of_failed || !p.reschedule {
                continue;
            }
            self.result.place.push(p.clone());
            changes.place += 1;
            if self
                .result
                .disconnect_updates
                .contains_key(prev.id.as_str())
            {
                continue;
            }
            self.stop(prev, None, desc::RESCHEDULED, None);
            changes.stop += 1;
        }
        under_provisioned_by
    }

    /// `computeDestructiveUpdates`: as many as the update strategy allows,
    /// lowest names first; the rest are ignored for now. `destructive` is in
    /// ID order, each allocation with why it is destructive.
    pub(super) fn compute_destructive_updates(
        &mut self,
        destructive: &[(&'a Allocation, Arc<str>)],
        under_provisioned_by: i64,
        changes: &mut DesiredChanges,
        tg: &'a TaskGroup,
    ) {
        let n = (destructive.len() as i64).min(under_provisioned_by).max(0) as usize;
        changes.destructive_update += n as u64;
        changes.ignore += (destructive.len() - n) as u64;
        for (alloc, reason) in name_order(destructive, |d| d.0).into_iter().take(n) {
            self.result.destructive_update.push(DestructiveResult {
                name: alloc.name.clone(),
                task_group: tg.name.clone(),
                alloc,
                reason: reason.to_string(),
            });
        }
    }

    /// `computeMigrations`: stop and replace every migrating allocation.
    pub(super) fn compute_migrations(
        &mut self,
        changes: &mut DesiredChanges,
        migrate: &AllocSet<'a>,
        tg: &'a TaskGroup,
        is_canarying: bool,
    ) {
        changes.migrate += migrate.len() as u64;
        for alloc in migrate.name_order() {
            self.stop(alloc, None, desc::MIGRATING, None);
            self.result.place.push(PlaceResult {
                name: Cow::Borrowed(&alloc.name),
                task_group: &tg.name,
                canary: alloc.is_canary(),
                previous: Some(alloc),
                reschedule: false,
                lost: false,
                downgrade_non_canary: is_canarying && !alloc.is_canary(),
                min_job_version: alloc.job_version(),
            });
        }
    }
}
