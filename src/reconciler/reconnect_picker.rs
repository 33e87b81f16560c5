//! `PickReconnectingAlloc`: which of a reconnecting allocation and one of
//! its replacements is kept, by the group's `disconnect.reconcile` strategy
//! (Nomad 1.8.0 on; before, always by the best score).

use super::reconnect_decision::{ReconnectDecision, ReconnectVerdict};
use crate::model::{Allocation, ClientStatus, ReconcileStrategy, TaskGroup};
use crate::time::Time;

/// Weighs `original` against `replacement`: a replacement of a newer job
/// (version, or create index of the embedded job) is kept whatever the
/// strategy; otherwise `strategy` decides. `now` is the evaluation time,
/// where Nomad reads the wall clock (`longest_running` ignores task starts
/// not before it).
pub fn pick_reconnecting_alloc<'a>(
    strategy: ReconcileStrategy,
    original: &'a Allocation,
    replacement: &'a Allocation,
    now: Time,
) -> ReconnectDecision<'a> {
    let score = |a: &Allocation| a.norm_score.get();
    let mut decision = ReconnectDecision {
        reconnecting: original,
        replacement: Some(replacement),
        scores: (score(original), score(replacement)),
        starts: None,
        verdict: ReconnectVerdict::OriginalPreferred,
    };
    decision.verdict = if replacement.job_version() > original.job_version() {
        ReconnectVerdict::ReplacementNewerVersion
    } else if replacement.job_create_index() > original.job_create_index() {
        ReconnectVerdict::ReplacementNewerJob
    } else {
        match strategy {
            ReconcileStrategy::BestScore => best_score(&decision),
            ReconcileStrategy::KeepOriginal => ReconnectVerdict::OriginalByStrategy,
            ReconcileStrategy::KeepReplacement => ReconnectVerdict::ReplacementByStrategy,
            ReconcileStrategy::LongestRunning => {
                // Both are measured by the original's job version's tasks.
                let tg = original.own_task_group();
                let starts = (
                    start_of_leader_or_oldest_task(original, tg, now),
                    start_of_leader_or_oldest_task(replacement, tg, now),
                );
                decision.starts = Some(starts);
                match (starts.0.is_zero(), starts.1.is_zero()) {
                    (true, true) => best_score(&decision),
                    (false, false) if starts.0 < starts.1 => ReconnectVerdict::OriginalRanLonger,
                    (false, true) => ReconnectVerdict::OriginalRanLonger,
                    _ => ReconnectVerdict::ReplacementRanLonger,
                }
            }
        }
    };
    decision
}

/// `pickBestScore`: the replacement if it scored better (or alone has a
/// score) and it is running or the original is not.
fn best_score(d: &ReconnectDecision<'_>) -> ReconnectVerdict {
    let better = match d.scores {
        (None, Some(_)) => true,
        (Some(o), Some(r)) => r > o,
        _ => false,
    };
    let running = |a: &Allocation| a.client_status == ClientStatus::Running;
    let replacement_running = d.replacement.is_some_and(running);
    if better && (replacement_running || !running(d.reconnecting)) {
        ReconnectVerdict::ReplacementHigherScore
    } else {
        ReconnectVerdict::OriginalPreferred
    }
}

/// `startOfLeaderOrOldestTaskInMain`: the last start of the group's leader
/// task if it has one, else the oldest last start among its tasks that is
/// before `now`; zero if none.
fn start_of_leader_or_oldest_task(alloc: &Allocation, tg: Option<&TaskGroup>, now: Time) -> Time {
    let mut oldest = now;
    for task in tg.map_or(&[][..], |tg| &tg.tasks) {
        let start = alloc
            .task_states
            .get(&task.name)
            .map_or(Time::ZERO, |s| s.last_start);
        if task.leader {
            return start;
        }
        if !start.is_zero() && start < oldest {
            oldest = start;
        }
    }
    if oldest == now { Time::ZERO } else { oldest }
}
