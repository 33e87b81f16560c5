//! Which allocations to stop when a group has more than it needs:
//! `computeStop` and `computeStopByReconnecting`.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

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
        untainted: &AllocSet<'a>,
        migrate: &mut AllocSet<'a>,
        lost: &AllocSet<'a>,
        canaries: &AllocSet<'a>,
        reconnecting: &mut AllocSet<'a>,
        is_canarying: bool,
        followup_evals: &HashMap<&str, Arc<str>>,
    ) -> AllocSet<'a> {
        let mut stop: Vec<&'a Allocation> = lost.iter().collect();
        for alloc in lost.iter() {
            let followup = followup_evals.get(alloc.id.as_str()).cloned();
            self.stop(alloc, Some(status::LOST), desc::LOST, followup);
        }
        let without_canaries;
        let untainted = if is_canarying {
            without_canaries = untainted.difference(&[canaries]);
            &without_canaries
        } else {
            untainted
        };
        let counted = if self.input.rules.counts_unknown_allocs() {
            untainted
                .iter()
                .filter(|a| a.client_status != status::UNKNOWN)
                .count()
        } else {
            untainted.len()
        };
        let remove = counted as i64 + migrate.len() as i64 + reconnecting.len() as i64 - tg.count;
        if remove > 0 {
            let sets = StopSets {
                untainted: untainted.non_terminal(),
                migrate,
                canaries,
                reconnecting,
            };
            self.stop_surplus(tg, name_index, sets, &mut stop, remove, is_canarying);
        }
        stop.into_iter().collect()
    }

    /// The part of `computeStop` after lost allocations: stops `remove`
    /// allocations (fewer if it runs out), adding each to `stop`.
    ///
    /// Each pass walks a set while stopping some of its members; the stopped
    /// ones are taken out of the set in one go once the pass ends.
    fn stop_surplus(
        &mut self,
        tg: &TaskGroup,
        name_index: &mut NameIndex,
        sets: StopSets<'_, 'a>,
        stop: &mut Vec<&'a Allocation>,
        mut remove: i64,
        is_canarying: bool,
    ) {
        let StopSets {
            mut untainted,
            migrate,
            canaries,
            reconnecting,
        } = sets;
        if !is_canarying && !canaries.is_empty() {
            let canary_names = canaries.name_set();
            let mut stopped = AllocSet::new();
            for alloc in untainted.difference(&[canaries]).iter() {
                if canary_names.contains(alloc.name.as_str()) {
                    self.stop_not_needed(stop, alloc);
                    stopped.insert(alloc);
                    remove -= 1;
                    if remove == 0 {
                        return;
                    }
                }
            }
            untainted = untainted.difference(&[&stopped]);
        }

        if !migrate.is_empty() {
            let mut migrating_names =
                NameIndex::new(self.input.job_id, &tg.name, tg.count, &[migrate]);
            let remove_names = migrating_names.highest(remove as u64);
            let mut stopped = AllocSet::new();
            for alloc in migrate.iter() {
                if !remove_names.contains(&alloc.name) {
                    continue;
                }
                self.stop_not_needed(stop, alloc);
                stopped.insert(alloc);
                name_index.unset_index(alloc.index());
                remove -= 1;
                if remove == 0 {
                    break;
                }
            }
            *migrate = migrate.difference(&[&stopped]);
            if remove == 0 {
                return;
            }
        }

        if !reconnecting.is_empty() {
            remove = self.compute_stop_by_reconnecting(&mut untainted, reconnecting, stop, remove);
            if remove == 0 {
                return;
            }
        }

        let remove_names = name_index.highest(remove.max(0) as u64);
        let mut stopped = AllocSet::new();
        for alloc in untainted.iter() {
            if remove_names.contains(&alloc.name) {
                self.stop_not_needed(stop, alloc);
                stopped.insert(alloc);
                remove -= 1;
                if remove == 0 {
                    return;
                }
            }
        }

        // Duplicate names can leave too many; stop any that remain.
        for alloc in untainted.difference(&[&stopped]).iter() {
            self.stop_not_needed(stop, alloc);
            remove -= 1;
            if remove == 0 {
                return;
            }
        }
    }

    /// Stops `alloc` as no longer needed and adds it to the stop set.
    fn stop_not_needed(&mut self, stop: &mut Vec<&'a Allocation>, alloc: &'a Allocation) {
        stop.push(alloc);
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
        stop: &mut Vec<&'a Allocation>,
        remove: i64,
    ) -> i64 {
        if remove == 0 {
            return remove;
        }
        // Nomad walks all of `untainted` for each reconnecting allocation
        // and skips other names; only the same-named ones, in ID order, count.
        let names: HashSet<&str> = reconnecting.iter().map(|a| a.name.as_str()).collect();
        let mut replacements: HashMap<&str, Vec<&'a Allocation>> = HashMap::new();
        for alloc in untainted.iter().filter(|a| names.contains(a.name.as_str())) {
            replacements.entry(&alloc.name).or_default().push(alloc);
        }
        let mut pass = ReconnectPass {
            replacements,
            stopped_untainted: Vec::new(),
            stopped_reconnecting: AllocSet::new(),
            remove,
        };
        for rec in reconnecting.iter() {
            if self.settle_reconnecting(rec, &mut pass, stop) {
                break;
            }
        }
        *reconnecting = reconnecting.difference(&[&pass.stopped_reconnecting]);
        let stopped: AllocSet<'a> = pass.stopped_untainted.into_iter().collect();
        *untainted = untainted.difference(&[&stopped]);
        pass.remove
    }

    /// Decides one reconnecting allocation against its same-named
    /// replacements; returns whether nothing more needs stopping.
    fn settle_reconnecting(
        &mut self,
        rec: &'a Allocation,
        pass: &mut ReconnectPass<'a>,
        stop: &mut Vec<&'a Allocation>,
    ) -> bool {
        if must_not_resume(rec, self.input.job) {
            self.reconnect_decisions.push(ReconnectDecision {
                reconnecting: rec,
                replacement: None,
                scores: (None, None),
                verdict: ReconnectVerdict::MustNotResume,
            });
            stop.push(rec);
            self.stop(rec, None, desc::NOT_NEEDED, None);
            pass.stopped_reconnecting.insert(rec);
            pass.remove -= 1;
            return pass.remove == 0;
        }
        let Some(candidates) = pass.replacements.get_mut(rec.name.as_str()) else {
            return false;
        };
        let mut i = 0;
        while i < candidates.len() {
            let replacement = candidates[i];
            let rep_score =
                AllocMetric::max_norm_score(replacement.metrics.as_ref()).map(|m| m.norm_score);
            let rec_score = AllocMetric::max_norm_score(rec.metrics.as_ref()).map(|m| m.norm_score);
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
                i += 1;
                continue;
            }
            let (loser, description) = if !verdict.reconnecting_kept() {
                pass.stopped_reconnecting.insert(rec);
                i += 1;
                (rec, desc::NOT_NEEDED)
            } else {
                // Out of `untainted`: no later reconnecting allocation meets it.
                candidates.remove(i);
                pass.stopped_untainted.push(replacement);
                (replacement, desc::RECONNECTED)
            };
            stop.push(loser);
            self.stop(loser, None, description, None);
            pass.remove -= 1;
            if pass.remove == 0 {
                return true;
            }
        }
        false
    }
}

/// The sets `computeStop` stops surplus allocations from.
struct StopSets<'s, 'a> {
    /// Non-terminal untainted allocations (without canaries while canarying).
    untainted: AllocSet<'a>,
    migrate: &'s mut AllocSet<'a>,
    canaries: &'s AllocSet<'a>,
    reconnecting: &'s mut AllocSet<'a>,
}

/// What `computeStopByReconnecting` has done so far.
struct ReconnectPass<'a> {
    /// Untainted allocations by name, in ID order, for the reconnecting names.
    replacements: HashMap<&'a str, Vec<&'a Allocation>>,
    stopped_untainted: Vec<&'a Allocation>,
    stopped_reconnecting: AllocSet<'a>,
    remove: i64,
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
