//! Which allocations to stop when a group has more than it needs:
//! `computeStop` and `computeStopByReconnecting`.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::alloc_set::AllocSet;
use super::bucket::Bucket;
use super::context::GroupContext;
use super::name_index::NameIndex;
use super::reconnect_decision::{ReconnectDecision, ReconnectVerdict};
use super::results::{StopResult, desc};
use super::rules::Rules;
use super::tainted::TaintedSets;
use crate::model::{Allocation, ClientStatus, DesiredStatus, Id, Job, Name, TaskGroup};
use crate::version::Switch;

/// The sets `computeStop` reads.
pub(super) struct StopInput<'s, 'a> {
    pub untainted: &'s AllocSet<'a>,
    pub migrate: &'s AllocSet<'a>,
    pub lost: &'s AllocSet<'a>,
    pub canaries: &'s AllocSet<'a>,
    pub reconnecting: &'s AllocSet<'a>,
    pub is_canarying: bool,
    /// The follow-up eval each lost allocation's stop names, if any.
    pub followup_evals: &'s HashMap<&'a Id, Arc<str>>,
}

/// What `computeStop` decided.
pub(super) struct Stops<'a> {
    /// In the order decided.
    pub results: Vec<StopResult<'a>>,
    pub stopped: AllocSet<'a>,
    /// The migrating and reconnecting allocations that were not stopped.
    pub migrate: AllocSet<'a>,
    pub reconnecting: AllocSet<'a>,
    /// Every decision of `computeStopByReconnecting`, in order.
    pub reconnect_decisions: Vec<ReconnectDecision<'a>>,
}

/// The stops decided so far, in order.
#[derive(Default)]
struct Stopping<'a> {
    results: Vec<StopResult<'a>>,
    allocs: Vec<&'a Allocation>,
    reconnect_decisions: Vec<ReconnectDecision<'a>>,
}

impl<'a> Stopping<'a> {
    fn stop(
        &mut self,
        alloc: &'a Allocation,
        client_status: Option<ClientStatus>,
        description: &'static str,
    ) {
        self.allocs.push(alloc);
        self.results.push(StopResult {
            alloc,
            client_status,
            description,
            followup_eval_id: None,
        });
    }

    /// Stops a lost allocation, naming the eval that replaces it later, if any.
    fn lost(&mut self, alloc: &'a Allocation, followup_eval_id: Option<Arc<str>>) {
        self.allocs.push(alloc);
        self.results.push(StopResult {
            alloc,
            client_status: Some(ClientStatus::Lost),
            description: desc::LOST,
            followup_eval_id,
        });
    }

    /// Stops `alloc` as no longer needed.
    fn not_needed(&mut self, alloc: &'a Allocation) {
        self.stop(alloc, None, desc::NOT_NEEDED);
    }
}

/// `filterAndStopAll`'s stops: every bucket but the ignored one, of which
/// from 1.3.0 the unknown allocations are stopped too, and of the
/// expiring ones those still unknown.
pub(super) fn stop_all<'a>(buckets: &TaintedSets<'a>, rules: &Rules) -> Vec<StopResult<'a>> {
    let mut stopping = Stopping::default();
    for (bucket, set) in buckets.iter() {
        let (client_status, description) = match bucket {
            Bucket::Ignore => continue,
            Bucket::Lost => (Some(ClientStatus::Lost), desc::LOST),
            _ => (None, desc::NOT_NEEDED),
        };
        // Expiring allocations the client reported on again are left alone.
        let still_unknown = |a: &&Allocation| {
            bucket != Bucket::Expiring || a.client_status == ClientStatus::Unknown
        };
        for alloc in set.iter().filter(still_unknown) {
            stopping.stop(alloc, client_status.clone(), description);
        }
    }
    if rules.has(Switch::A3) {
        let unknown = buckets[Bucket::Ignore]
            .iter()
            .filter(|a| a.client_status == ClientStatus::Unknown);
        for alloc in unknown {
            stopping.not_needed(alloc);
        }
    }
    stopping.results
}

impl<'a> GroupContext<'_, 'a, '_> {
    /// `computeStop`: stops lost allocations, then as many others as the
    /// group is over its count, preferring (in order) untainted allocations
    /// sharing a name with a promoted canary, migrating allocations, the loser
    /// of each reconnecting/replacement pair, and the highest names.
    pub(super) fn compute_stop(
        &self,
        tg: &TaskGroup,
        name_index: &mut NameIndex,
        input: StopInput<'_, 'a>,
    ) -> Stops<'a> {
        let mut stopping = Stopping::default();
        for alloc in input.lost.iter() {
            let followup = input.followup_evals.get(&alloc.id).cloned();
            stopping.lost(alloc, followup);
        }
        let without_canaries;
        let untainted = if input.is_canarying {
            without_canaries = input.untainted.difference(&[input.canaries]);
            &without_canaries
        } else {
            input.untainted
        };
        let mut migrate = input.migrate.clone();
        let mut reconnecting = input.reconnecting.clone();
        // From 1.3.0, until C-2 settles them first: failed reconnects
        // are stopped as failed, to be replaced, and not counted.
        if self.rules.has(Switch::A1) {
            let failed = reconnecting
                .filter(|a| !a.server_terminal_status() && a.client_status == ClientStatus::Failed);
            for alloc in failed.iter() {
                stopping.reconnect_decisions.push(ReconnectDecision {
                    reconnecting: alloc,
                    replacement: None,
                    scores: (None, None),
                    starts: None,
                    verdict: ReconnectVerdict::FailedReconnect,
                });
                stopping.stop(alloc, Some(ClientStatus::Failed), desc::RESCHEDULED);
            }
            reconnecting = reconnecting.difference(&[&failed]);
        }
        // From D-1 unknown allocations are left out of the surplus.
        let counted = if self.rules.has(Switch::D1) {
            untainted
                .iter()
                .filter(|a| a.client_status != ClientStatus::Unknown)
                .count()
        } else {
            untainted.len()
        };
        let remove = counted as i64 + migrate.len() as i64 + reconnecting.len() as i64 - tg.count;
        if remove > 0 {
            let sets = StopSets {
                untainted: if self.rules.has(Switch::H3) {
                    untainted.filter(|a| !a.server_terminal_status())
                } else {
                    untainted.non_terminal()
                },
                migrate: &mut migrate,
                canaries: input.canaries,
                reconnecting: &mut reconnecting,
            };
            let is_canarying = input.is_canarying;
            self.stop_surplus(tg, name_index, sets, &mut stopping, remove, is_canarying);
        }
        let Stopping {
            results,
            allocs,
            reconnect_decisions,
        } = stopping;
        Stops {
            results,
            stopped: allocs.into_iter().collect(),
            migrate,
            reconnecting,
            reconnect_decisions,
        }
    }

    /// The part of `computeStop` after lost allocations: stops `remove`
    /// allocations (fewer if it runs out), adding each to `stop`.
    ///
    /// Each pass walks a set while stopping some of its members; the stopped
    /// ones are taken out of the set in one go once the pass ends.
    fn stop_surplus(
        &self,
        tg: &TaskGroup,
        name_index: &mut NameIndex,
        sets: StopSets<'_, 'a>,
        stop: &mut Stopping<'a>,
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
                if canary_names.contains(&alloc.name()) {
                    stop.not_needed(alloc);
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
                NameIndex::new(self.job.job_id, &tg.name, tg.count, migrate, false);
            let remove_names = migrating_names.highest(remove as u64);
            let mut stopped = AllocSet::new();
            for alloc in migrate.iter() {
                if !remove_names.contains(alloc.name().as_str()) {
                    continue;
                }
                stop.not_needed(alloc);
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
            if remove_names.contains(alloc.name().as_str()) {
                stop.not_needed(alloc);
                stopped.insert(alloc);
                remove -= 1;
                if remove == 0 {
                    return;
                }
            }
        }

        // Duplicate names can leave too many; stop any that remain.
        for alloc in untainted.difference(&[&stopped]).iter() {
            stop.not_needed(alloc);
            remove -= 1;
            if remove == 0 {
                return;
            }
        }
    }

    /// `computeStopByReconnecting`: stops reconnecting allocations that must
    /// not resume, and decides each reconnecting/replacement pair by job
    /// version, then by the first node score (`MaxNormScore`); the
    /// reconnecting one wins ties. Returns how many still need stopping.
    ///
    /// As in Nomad, a reconnecting allocation that loses to one replacement
    /// is compared again with any further same-named replacement.
    fn compute_stop_by_reconnecting(
        &self,
        untainted: &mut AllocSet<'a>,
        reconnecting: &mut AllocSet<'a>,
        stop: &mut Stopping<'a>,
        remove: i64,
    ) -> i64 {
        if remove == 0 {
            return remove;
        }
        // Nomad walks all of `untainted` for each reconnecting allocation
        // and skips other names; only the same-named ones, in ID order, count.
        let names: HashSet<Name> = reconnecting.iter().map(|a| a.name()).collect();
        let mut replacements: HashMap<Name, Vec<&'a Allocation>> = HashMap::new();
        for alloc in untainted.iter() {
            let name = alloc.name();
            if names.contains(&name) {
                replacements.entry(name).or_default().push(alloc);
            }
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
        &self,
        rec: &'a Allocation,
        pass: &mut ReconnectPass<'a>,
        stop: &mut Stopping<'a>,
    ) -> bool {
        if must_not_resume(rec, self.job.job) {
            stop.reconnect_decisions.push(ReconnectDecision {
                reconnecting: rec,
                replacement: None,
                scores: (None, None),
                starts: None,
                verdict: ReconnectVerdict::MustNotResume,
            });
            stop.not_needed(rec);
            pass.stopped_reconnecting.insert(rec);
            pass.remove -= 1;
            return pass.remove == 0;
        }
        let Some(candidates) = pass.replacements.get_mut(&rec.name()) else {
            return false;
        };
        let mut i = 0;
        while i < candidates.len() {
            let replacement = candidates[i];
            let rep_score = replacement.norm_score.get();
            let rec_score = rec.norm_score.get();
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
            stop.reconnect_decisions.push(ReconnectDecision {
                reconnecting: rec,
                replacement: Some(replacement),
                scores: (rec_score, rep_score),
                starts: None,
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
            stop.stop(loser, None, description);
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
    replacements: HashMap<Name, Vec<&'a Allocation>>,
    stopped_untainted: Vec<&'a Allocation>,
    stopped_reconnecting: AllocSet<'a>,
    remove: i64,
}

/// A reconnecting allocation that is not to resume: no longer desired to
/// run, asked to migrate or reschedule, or of an older job.
pub(super) fn must_not_resume(alloc: &Allocation, job: &Job) -> bool {
    let t = &alloc.desired_transition;
    alloc.desired_status != DesiredStatus::Run
        || t.should_migrate()
        || t.should_reschedule()
        || t.should_force_reschedule()
        || alloc.job_version() < job.version
        || alloc.job_create_index() < job.create_index
}
