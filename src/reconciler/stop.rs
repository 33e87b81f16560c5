//! Which allocations to stop when a group has more than it needs:
//! `computeStop` and `computeStopByReconnecting`.

use std::collections::HashMap;

use super::{AllocSet, NameIndex, Reconciler, ReconnectDecision, ReconnectVerdict, desc};
use crate::model::{AllocMetric, Allocation, TaskGroup, status};

impl<'a> Reconciler<'a, '_> {
    /// `computeStop`: stops lost allocations, then as many others as the
    /// group is over its count, preferring (in order) untainted allocations
    /// sharing a name with a promoted canary, migrating allocations, the loser
    /// of each reconnecting/replacement pair, and the highest names.
    ///
    /// Like Nomad, it removes what it stops from `migrate` and `reconnecting`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn compute_stop(
        &mut self,
        tg: &TaskGroup,
        name_index: &mut NameIndex,
        untainted: AllocSet<'a>,
        migrate: &mut AllocSet<'a>,
        lost: &AllocSet<'a>,
        canaries: &AllocSet<'a>,
        reconnecting: &mut AllocSet<'a>,
        is_canarying: bool,
        followup_evals: &HashMap<String, String>,
    ) -> AllocSet<'a> {
        let mut stop = lost.clone();
        for alloc in lost.iter() {
            let followup = followup_evals.get(&alloc.id).cloned();
            self.stop(alloc, Some(status::LOST), desc::LOST, followup);
        }

        let mut untainted = if is_canarying {
            untainted.difference(&[canaries])
        } else {
            untainted
        };
        let mut remove =
            untainted.len() as i64 + migrate.len() as i64 + reconnecting.len() as i64 - tg.count;
        if remove <= 0 {
            return stop;
        }
        untainted = untainted.non_terminal();

        if !is_canarying && !canaries.is_empty() {
            let canary_names = canaries.name_set();
            for alloc in untainted.difference(&[canaries]).iter() {
                if canary_names.contains(alloc.name.as_str()) {
                    self.stop_not_needed(&mut stop, alloc);
                    untainted.remove(&alloc.id);
                    remove -= 1;
                    if remove == 0 {
                        return stop;
                    }
                }
            }
        }

        if !migrate.is_empty() {
            let mut migrating_names =
                NameIndex::new(self.input.job_id, &tg.name, tg.count, migrate);
            let remove_names = migrating_names.highest(remove as u64);
            for alloc in migrate.clone().iter() {
                if !remove_names.contains(&alloc.name) {
                    continue;
                }
                self.stop_not_needed(&mut stop, alloc);
                migrate.remove(&alloc.id);
                name_index.unset_index(alloc.index());
                remove -= 1;
                if remove == 0 {
                    return stop;
                }
            }
        }

        if !reconnecting.is_empty() {
            remove =
                self.compute_stop_by_reconnecting(&mut untainted, reconnecting, &mut stop, remove);
            if remove == 0 {
                return stop;
            }
        }

        let remove_names = name_index.highest(remove.max(0) as u64);
        for alloc in untainted.clone().iter() {
            if remove_names.contains(&alloc.name) {
                self.stop_not_needed(&mut stop, alloc);
                untainted.remove(&alloc.id);
                remove -= 1;
                if remove == 0 {
                    return stop;
                }
            }
        }

        // Duplicate names can leave too many; stop any that remain.
        for alloc in untainted.iter() {
            self.stop_not_needed(&mut stop, alloc);
            remove -= 1;
            if remove == 0 {
                return stop;
            }
        }
        stop
    }

    /// Stops `alloc` as no longer needed and adds it to the stop set.
    fn stop_not_needed(&mut self, stop: &mut AllocSet<'a>, alloc: &'a Allocation) {
        stop.insert(alloc);
        self.stop(alloc, None, desc::NOT_NEEDED, None);
    }

    /// `computeStopByReconnecting`: stops reconnecting allocations that must
    /// not resume, and decides each reconnecting/replacement pair by job
    /// version, then by the first node score (`MaxNormScore`); the
    /// reconnecting one wins ties. Returns how many still need stopping.
    ///
    /// As in Nomad, a reconnecting allocation that loses to one replacement
    /// is compared again with any further same-named replacement.
    pub(super) fn compute_stop_by_reconnecting(
        &mut self,
        untainted: &mut AllocSet<'a>,
        reconnecting: &mut AllocSet<'a>,
        stop: &mut AllocSet<'a>,
        mut remove: i64,
    ) -> i64 {
        if remove == 0 {
            return remove;
        }
        let job = self.input.job;
        for rec in reconnecting.clone().iter() {
            if must_not_resume(rec, job) {
                self.reconnect_decisions.push(ReconnectDecision {
                    reconnecting: rec,
                    replacement: None,
                    scores: (None, None),
                    verdict: ReconnectVerdict::MustNotResume,
                });
                stop.insert(rec);
                self.stop(rec, None, desc::NOT_NEEDED, None);
                reconnecting.remove(&rec.id);
                remove -= 1;
                if remove == 0 {
                    return remove;
                }
                continue;
            }
            for replacement in untainted.clone().iter() {
                if replacement.name != rec.name {
                    continue;
                }
                let rep_score =
                    AllocMetric::max_norm_score(replacement.metrics.as_ref()).map(|m| m.norm_score);
                let rec_score =
                    AllocMetric::max_norm_score(rec.metrics.as_ref()).map(|m| m.norm_score);
                let verdict = match (rec_score, rep_score) {
                    // Nomad logs "metrics not available" and skips the pair.
                    (None, _) | (_, None) => ReconnectVerdict::NoMetrics,
                    _ if replacement.job_version() > rec.job_version() => {
                        ReconnectVerdict::ReplacementNewerVersion
                    }
                    _ if replacement.job_create_index() > rec.job_create_index() => {
                        ReconnectVerdict::ReplacementNewerJob
                    }
                    (Some(rec), Some(rep)) if rep > rec => ReconnectVerdict::ReplacementHigherScore,
                    _ => ReconnectVerdict::ReconnectingKept,
                };
                self.reconnect_decisions.push(ReconnectDecision {
                    reconnecting: rec,
                    replacement: Some(replacement),
                    scores: (rec_score, rep_score),
                    verdict,
                });
                if verdict == ReconnectVerdict::NoMetrics {
                    continue;
                }
                let (loser, description) = if !verdict.reconnecting_kept() {
                    reconnecting.remove(&rec.id);
                    (rec, desc::NOT_NEEDED)
                } else {
                    untainted.remove(&replacement.id);
                    (replacement, desc::RECONNECTED)
                };
                stop.insert(loser);
                self.stop(loser, None, description, None);
                remove -= 1;
                if remove == 0 {
                    return remove;
                }
            }
        }
        remove
    }
}

/// A reconnecting allocation that is not to resume: no longer desired to
/// run, asked to migrate or reschedule, or of an older job.
fn must_not_resume(alloc: &Allocation, job: Option<&crate::model::Job>) -> bool {
    let t = &alloc.desired_transition;
    alloc.desired_status != status::RUN
        || t.should_migrate()
        || t.should_reschedule()
        || t.should_force_reschedule()
        || job.is_some_and(|j| {
            alloc.job_version() < j.version || alloc.job_create_index() < j.create_index
        })
}
