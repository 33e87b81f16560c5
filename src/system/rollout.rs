//! The system scheduler's side of system deployments (1.11.0 on,
//! scheduler/scheduler_system.go `computeJobAllocs` from :297, with
//! `evictAndPlace` :690, `evictUnneededCanaries` :729,
//! `isDeploymentComplete` :825 and `setDeploymentStatusAndUpdates` :840):
//! the feasible nodes per group, `max_parallel` per group, the canaries and
//! the deployment's status.

use std::collections::{BTreeMap, HashSet};

use super::deployment_state::{GroupCounts, StatusUpdate, WorkingDeployment};
use super::diff::{Category, DiffEntry};
use super::schedule::{SystemPlacement, SystemSchedule};
use crate::model::deployment_status as ds;
use crate::model::{Allocation, Id, Job, TaskGroup};
use crate::reconciler::Difference;

/// The `max_parallel` of a group: its own, else the job's, else none
/// (every destructive update at once).
fn group_limit(job: &Job, tg: &TaskGroup, updates: usize) -> i64 {
    match tg.update.as_ref().filter(|u| u.max_parallel > 0) {
        Some(u) => u.max_parallel,
        None => match job.update.as_ref().filter(|u| u.max_parallel > 0) {
            Some(u) => u.max_parallel,
            None => i64::try_from(updates).unwrap_or(i64::MAX),
        },
    }
}

impl<'a> SystemSchedule<'a> {
    /// `evictAndPlace`'s limits per group; from #27284 an allocation of the
    /// current deployment neither healthy nor unhealthy yet takes a slot.
    pub(super) fn group_limits(
        &self,
        job: Option<&Job>,
        updates: usize,
        pending_limit: bool,
    ) -> BTreeMap<String, i64> {
        let mut limits = BTreeMap::new();
        let Some(job) = job.filter(|j| !j.stop) else {
            return limits;
        };
        for tg in &job.task_groups {
            limits.insert(tg.name.clone(), group_limit(job, tg, updates));
        }
        let current = self.deployment.as_ref().map(|d| &d.deployment.id);
        if let (true, Some(current)) = (pending_limit, current) {
            for e in self.diff.of(Category::Ignore) {
                let Some(a) = e.alloc else { continue };
                if a.deployment_id != *current || a.is_unhealthy() || a.is_healthy() {
                    continue;
                }
                *limits.entry(a.task_group.to_string()).or_default() -= 1;
            }
        }
        limits
    }

    /// The candidate, destructive and canary counts before placement.
    pub(super) fn count_candidates(&mut self, destructive: &[(DiffEntry<'a>, Difference)]) {
        let mut counts: BTreeMap<String, GroupCounts> = BTreeMap::new();
        fn count<'c>(
            counts: &'c mut BTreeMap<String, GroupCounts>,
            group: &str,
        ) -> &'c mut GroupCounts {
            counts.entry(group.to_string()).or_default()
        }
        for e in self.diff.of(Category::Place) {
            if let Some(tg) = e.task_group {
                count(&mut counts, &tg.name).candidates += 1;
            }
        }
        for a in self.in_place.iter().chain(&self.in_place_terminal) {
            count(&mut counts, &a.task_group).candidates += 1;
        }
        for e in self.diff.of(Category::Ignore) {
            if let Some(tg) = e.task_group {
                let c = count(&mut counts, &tg.name);
                c.candidates += 1;
                if e.alloc.is_some_and(Allocation::is_canary) {
                    c.existing_canaries += 1;
                }
            }
        }
        for (e, _) in destructive {
            if let Some(tg) = e.task_group {
                let c = count(&mut counts, &tg.name);
                c.candidates += 1;
                c.destructive += 1;
            }
        }
        self.counts = counts;
    }

    /// A placement no node took: one candidate less, and one destructive
    /// update less when it replaces an allocation (a terminal one too).
    pub(super) fn placement_failed(&mut self, group: &str, replaces: bool) {
        let c = self.counts.entry(group.to_string()).or_default();
        c.candidates -= 1;
        if replaces {
            c.destructive -= 1;
        }
    }

    /// After placement: the annotation's `Place`, the deployment's totals
    /// and canaries, its status, and whether the plan carries it.
    pub(super) fn finish_deployment(&mut self, job: &Job) {
        for (group, c) in &self.counts {
            // Nomad converts the count as is: a negative one would wrap.
            self.desired.entry(group.clone()).or_default().place = c.candidates as u64;
        }
        let Some(mut d) = self.deployment.take() else {
            self.deployment_updates.clear();
            return;
        };
        let mut complete = true;
        for tg in &job.task_groups {
            let counts = self.counts.get(&tg.name).copied().unwrap_or_default();
            if counts.candidates < 1 {
                if d.deployment.status == ds::SUCCESSFUL {
                    d.groups.insert(tg.name.clone(), None);
                }
                continue;
            }
            let Some(Some(state)) = d.groups.get_mut(&tg.name) else {
                continue;
            };
            let update = tg.update.as_ref().filter(|u| u.max_parallel != 0);
            let canary = update.map_or(0, |u| u.canary);
            let canarying =
                canary > 0 && !state.promoted && job.version != 0 && counts.destructive > 0;
            state.desired_total = counts.candidates;
            if canarying {
                let max_parallel = update.map_or(0, |u| u.max_parallel);
                let over = counts.destructive + counts.existing_canaries;
                let required = (canary * over + 99).div_euclid(100).min(max_parallel);
                state.desired_canaries = required;
                let placed = self.evict_unneeded_canaries(required, &tg.name);
                self.desired.entry(tg.name.clone()).or_default().canary = placed;
            }
            complete &= !canarying && state.healthy_allocs >= state.desired_total;
        }
        let mut updates = std::mem::take(&mut self.deployment_updates);
        updates.extend(status_updates(&mut d, complete, job));
        if d.groups.values().all(Option::is_none) {
            return;
        }
        self.deployment = Some(d);
        self.deployment_updates = updates;
    }

    /// `evictUnneededCanaries`: keeps the canaries the group needs, the
    /// running ones first, and takes the rest out of the plan with the
    /// stop of the allocation each replaced. Replacements of failed
    /// canaries (of any group) are always kept and counted twice, as
    /// Nomad counts them. Nomad walks the plan's nodes as a map;
    /// plan-inspect by node ID. Returns how many canaries the group has.
    fn evict_unneeded_canaries(&mut self, required: i64, group: &str) -> u64 {
        if required == 0 {
            return 0;
        }
        let failed: HashSet<&Id> = self
            .placements
            .iter()
            .filter_map(|p| p.previous)
            .filter(|a| a.is_canary())
            .map(|a| &a.id)
            .collect();
        let preferred =
            |p: &SystemPlacement<'_>| p.previous.is_some_and(|a| failed.contains(&a.id));
        let mut counter = required
            - i64::try_from(self.placements.iter().filter(|p| preferred(p)).count()).unwrap_or(0);
        let mut placed: u64 = 0;
        for e in self.diff.of(Category::Ignore) {
            let ours = e.task_group.is_some_and(|tg| tg.name == group);
            if ours && e.alloc.is_some_and(Allocation::is_canary) {
                placed += 1;
                counter -= 1;
            }
        }
        let mut order: Vec<usize> = (0..self.placements.len()).collect();
        order.sort_by_key(|&i| self.placements[i].node_id);
        let mut dropped: Vec<usize> = Vec::new();
        for i in order {
            let p = &self.placements[i];
            if !p.canary || p.task_group.name != group {
                continue;
            }
            if counter > 0 || preferred(p) {
                counter -= 1;
                placed += 1;
            } else {
                dropped.push(i);
            }
        }
        dropped.sort_unstable();
        for i in dropped.into_iter().rev() {
            let p = self.placements.remove(i);
            let Some(prev) = p.previous else { continue };
            self.stops.retain(|s| s.alloc.id != prev.id);
            for d in self
                .destructive
                .iter_mut()
                .filter(|d| d.alloc.id == prev.id)
            {
                d.evicted = false;
            }
        }
        placed
    }
}

/// `setDeploymentStatusAndUpdates`.
fn status_updates(d: &mut WorkingDeployment, complete: bool, job: &Job) -> Vec<StatusUpdate> {
    let mut out = Vec::new();
    let states = || d.groups.values().flatten();
    let running = d.deployment.status == ds::RUNNING;
    let waiting = states().any(|s| s.desired_canaries > 0 && !s.promoted);
    if running && waiting {
        let auto = states().all(|s| s.desired_canaries <= 0 || s.auto_promote);
        d.deployment.status_description = match auto {
            true => ds::DESC_AUTO_PROMOTION,
            false => ds::DESC_NEEDS_PROMOTION,
        }
        .into();
        return out;
    }
    let id = d.deployment.id.clone();
    if complete {
        if job.is_multiregion() {
            if !matches!(
                d.deployment.status.as_str(),
                ds::UNBLOCKING | ds::SUCCESSFUL
            ) {
                out.push(StatusUpdate {
                    deployment_id: id.clone(),
                    status: ds::BLOCKED,
                    description: ds::DESC_BLOCKED,
                });
            }
        } else {
            out.push(StatusUpdate {
                deployment_id: id.clone(),
                status: ds::SUCCESSFUL,
                description: ds::DESC_SUCCESSFUL,
            });
        }
    }
    if d.deployment.status == ds::INITIALIZING {
        out.push(StatusUpdate {
            deployment_id: id,
            status: ds::PENDING,
            description: ds::DESC_PENDING_FOR_PEER,
        });
    }
    out
}

#[cfg(test)]
mod tests;
