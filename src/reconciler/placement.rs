//! What to place: new allocations, replacements, destructive updates and
//! migrations.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use super::alloc_set::{AllocSet, name_order};
use super::context::GroupContext;
use super::name_index::NameIndex;
use super::results::{AllocUpdate, DestructiveResult, PlaceResult, StopResult, desc};
use super::update::Difference;
use crate::model::{Allocation, ClientStatus, Id, TaskGroup};
use crate::version::Switch;

/// The sets placements are counted from, after stops.
pub(super) struct PlacementSets<'s, 'a> {
    pub untainted: &'s AllocSet<'a>,
    pub migrate: &'s AllocSet<'a>,
    pub reschedule: &'s AllocSet<'a>,
    pub lost: &'s AllocSet<'a>,
    pub reconnecting: &'s AllocSet<'a>,
}

/// What `computeReplacements` let go ahead.
pub(super) struct Replacements<'a> {
    pub place: Vec<PlaceResult<'a>>,
    /// The failed allocations the placements replace.
    pub stop: Vec<StopResult<'a>>,
    /// How many allocations the update strategy still lets this evaluation
    /// replace.
    pub under_provisioned_by: i64,
}

/// What `computeMigrations` decided: each migrating allocation stopped and
/// placed again.
pub(super) struct Migrations<'a> {
    pub stop: Vec<StopResult<'a>>,
    pub place: Vec<PlaceResult<'a>>,
}

fn stop_result<'a>(alloc: &'a Allocation, description: &'static str) -> StopResult<'a> {
    StopResult {
        alloc,
        client_status: None,
        description,
        followup_eval_id: None,
    }
}

impl<'a> GroupContext<'_, 'a, '_> {
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
        let Some(d) = self.deployment else {
            return update.max_parallel;
        };
        if self.job.deployment.paused || self.job.deployment.failed || is_canarying {
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
    pub(super) fn compute_placements(
        &self,
        tg: &'a TaskGroup,
        name_index: &mut NameIndex,
        sets: &PlacementSets<'_, 'a>,
        is_canarying: bool,
    ) -> Vec<PlaceResult<'a>> {
        let mut place = Vec::new();
        for alloc in sets.reschedule.iter() {
            place.push(PlaceResult {
                name: Cow::Owned(alloc.name().to_string()),
                task_group: &tg.name,
                canary: alloc.is_canary(),
                previous: Some(alloc),
                reschedule: true,
                lost: false,
                downgrade_non_canary: is_canarying && !alloc.is_canary(),
                min_job_version: alloc.job_version(),
            });
        }
        let mut existing = (sets.untainted.len()
            + sets.migrate.len()
            + sets.reschedule.len()
            + sets.reconnecting.len()) as i64;
        for alloc in sets.lost.iter() {
            if existing >= tg.count {
                break;
            }
            existing += 1;
            place.push(PlaceResult {
                name: Cow::Owned(alloc.name().to_string()),
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

    /// `computeReplacements`: the placements go ahead when the deployment
    /// allows it; otherwise only lost replacements and reschedules (outside
    /// a failed deployment) do. A disconnecting allocation is rescheduled
    /// without being stopped, since it has not failed. Only the ready path
    /// spares unknown and migrating allocations too; the other stops every
    /// rescheduled one but a disconnect update, in every release (v1.4.14
    /// scheduler/reconcile.go:819-822 against :869-876).
    pub(super) fn compute_replacements(
        &self,
        place_ready: bool,
        place: Vec<PlaceResult<'a>>,
        sets: &PlacementSets<'_, 'a>,
        disconnect_updates: &BTreeMap<&'a Id, AllocUpdate<'a>>,
        under_provisioned_by: i64,
    ) -> Replacements<'a> {
        // From D-1 an unknown allocation is kept while its replacement runs.
        let unknown_kept = self.rules.has(Switch::D1);
        let disconnecting = |a: &Allocation| {
            disconnect_updates.contains_key(&a.id)
                || (unknown_kept && a.client_status == ClientStatus::Unknown)
        };
        // From 1.11.0 a migrating allocation rescheduled now is stopped by
        // its migration alone.
        let migrating = |a: &Allocation| self.rules.has(Switch::G0) && sets.migrate.contains(&a.id);
        if place_ready {
            let placed = place.len() as i64;
            let stop = sets
                .reschedule
                .iter()
                .filter(|a| !disconnecting(a) && !migrating(a))
                .map(|a| stop_result(a, desc::RESCHEDULED))
                .collect();
            return Replacements {
                place,
                stop,
                under_provisioned_by: under_provisioned_by - placed.min(under_provisioned_by),
            };
        }

        let mut out = Replacements {
            place: Vec::new(),
            stop: Vec::new(),
            under_provisioned_by,
        };
        if !sets.lost.is_empty() {
            let allowed = sets.lost.len().min(place.len());
            out.place.extend_from_slice(&place[..allowed]);
        }
        if sets.reschedule.is_empty() || place.is_empty() {
            return out;
        }
        let failed_deployment_id = self
            .deployment
            .filter(|_| self.job.deployment.failed)
            .map(|d| &d.id);
        for p in &place {
            let Some(prev) = p.previous else { continue };
            let part_of_failed = failed_deployment_id.is_some_and(|id| *id == prev.deployment_id);
            if part_of_failed || !p.reschedule {
                continue;
            }
            out.place.push(p.clone());
            if !disconnect_updates.contains_key(&prev.id) {
                out.stop.push(stop_result(prev, desc::RESCHEDULED));
            }
        }
        out
    }

    /// `computeDestructiveUpdates`: as many as the update strategy allows,
    /// lowest names first; the caller ignores the rest for now. `destructive`
    /// is in ID order, each allocation with why it is destructive.
    pub(super) fn compute_destructive_updates(
        &self,
        tg: &'a TaskGroup,
        destructive: &[(&'a Allocation, Arc<Difference>)],
        under_provisioned_by: i64,
    ) -> Vec<DestructiveResult<'a>> {
        let n = (destructive.len() as i64).min(under_provisioned_by).max(0) as usize;
        name_order(destructive, |d| d.0)
            .into_iter()
            .take(n)
            .map(|(alloc, reason)| DestructiveResult {
                name: alloc.name().to_string(),
                task_group: tg.name.clone(),
                alloc,
                reason: reason.reason.clone(),
                label: reason.label,
            })
            .collect()
    }

    /// `computeMigrations`: stop and replace every migrating allocation.
    pub(super) fn compute_migrations(
        &self,
        tg: &'a TaskGroup,
        migrate: &AllocSet<'a>,
        is_canarying: bool,
    ) -> Migrations<'a> {
        let order = migrate.name_order();
        let stop = order
            .iter()
            .map(|a| stop_result(a, desc::MIGRATING))
            .collect();
        // From 1.11.0 a batch allocation stopped with `alloc stop` is
        // replaced by its reschedule, a drained one not at all.
        let replaced_elsewhere = |a: &Allocation| {
            let t = &a.desired_transition;
            self.rules.has(Switch::G0)
                && a.job.as_ref().is_some_and(|j| j.is_batch())
                && (t.should_reschedule() || t.should_disable_migration_placement())
        };
        let place = order
            .into_iter()
            .filter(|a| !replaced_elsewhere(a))
            .map(|alloc| PlaceResult {
                name: Cow::Owned(alloc.name().to_string()),
                task_group: &tg.name,
                canary: alloc.is_canary(),
                previous: Some(alloc),
                reschedule: false,
                lost: false,
                downgrade_non_canary: is_canarying && !alloc.is_canary(),
                min_job_version: alloc.job_version(),
            })
            .collect();
        Migrations { stop, place }
    }
}
