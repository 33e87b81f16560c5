//! `reconcileReconnecting` and `pickReconnectingAlloc`: from C-2 on, each
//! reconnecting allocation is settled against its replacements before
//! anything else in its group is reconciled.

use super::stop::must_not_resume;
use super::{AllocSet, ReconnectDecision, ReconnectVerdict, Rules, desc};
use crate::model::{AllocMetric, Allocation, Job, status};

/// What reconciling the reconnecting allocations decided.
#[derive(Clone, Debug, Default)]
pub struct ReconnectOutcome<'a> {
    /// The reconnecting allocations that resume; they join the untainted.
    pub reconnect: AllocSet<'a>,
    /// Every allocation stopped, taken out of every bucket.
    pub stopped: AllocSet<'a>,
    /// The stops in the order they were decided, each with the client status
    /// it sets and its description; a replacement beaten by two
    /// reconnecting allocations is listed twice, as Nomad appends it twice.
    pub stops: Vec<(&'a Allocation, Option<&'static str>, &'static str)>,
    pub decisions: Vec<ReconnectDecision<'a>>,
}

/// `reconcileReconnecting`: a reconnecting allocation that failed on its
/// client is stopped as failed; one that may not resume is stopped; every
/// other one is weighed against each allocation of the group (`all`, any
/// bucket) with its name, a higher create index and no server-terminal
/// status, and the loser of each pair is stopped. From D-1 the only
/// replacement is the allocation's `NextAllocation`, and one that failed is
/// not stopped when the original wins. Allocations are visited in ID order.
pub fn reconcile_reconnecting<'a>(
    reconnecting: &AllocSet<'a>,
    all: &AllocSet<'a>,
    job: &Job,
    rules: &Rules,
) -> ReconnectOutcome<'a> {
    let successor_only = rules.replaces_reconnecting_by_next_allocation();
    let mut out = ReconnectOutcome::default();
    for rec in reconnecting.iter() {
        let failed = !rec.server_terminal_status() && rec.client_status == status::FAILED;
        if failed || must_not_resume(rec, job) {
            let (verdict, client_status, description) = if failed {
                (
                    ReconnectVerdict::FailedReconnect,
                    Some(status::FAILED),
                    desc::RESCHEDULED,
                )
            } else {
                (ReconnectVerdict::MustNotResume, None, desc::NOT_NEEDED)
            };
            out.decisions.push(ReconnectDecision {
                reconnecting: rec,
                replacement: None,
                scores: (None, None),
                verdict,
            });
            out.stopped.insert(rec);
            out.stops.push((rec, client_status, description));
            continue;
        }
        let replacements = all.iter().filter(|r| {
            let replacement = if successor_only {
                r.id == rec.next_allocation
            } else {
                r.id != rec.id && r.name == rec.name && r.create_index > rec.create_index
            };
            replacement && !r.server_terminal_status()
        });
        for replacement in replacements {
            let decision = pick(rec, replacement);
            let verdict = decision.verdict;
            out.decisions.push(decision);
            if verdict.reconnecting_kept() {
                if successor_only && replacement.client_status == status::FAILED {
                    continue;
                }
                out.stopped.insert(replacement);
                out.stops.push((replacement, None, desc::RECONNECTED));
            } else if !out.stopped.contains(&rec.id) {
                out.stopped.insert(rec);
                out.stops.push((rec, None, desc::NOT_NEEDED));
            }
        }
    }
    out.reconnect = reconnecting.difference(&[&out.stopped]);
    out
}

/// `pickReconnectingAlloc`: the replacement wins if its job is newer, or if
/// it scored better (or alone has a score) and is running or the original
/// is not; otherwise the original is kept.
fn pick<'a>(original: &'a Allocation, replacement: &'a Allocation) -> ReconnectDecision<'a> {
    let score =
        |a: &Allocation| AllocMetric::max_norm_score(a.metrics.as_ref()).map(|m| m.norm_score);
    let scores = (score(original), score(replacement));
    let better_score = match scores {
        (None, Some(_)) => true,
        (Some(o), Some(r)) => r > o,
        _ => false,
    };
    let running = |a: &Allocation| a.client_status == status::RUNNING;
    let verdict = if replacement.job_version() > original.job_version() {
        ReconnectVerdict::ReplacementNewerVersion
    } else if replacement.job_create_index() > original.job_create_index() {
        ReconnectVerdict::ReplacementNewerJob
    } else if better_score && (running(replacement) || !running(original)) {
        ReconnectVerdict::ReplacementHigherScore
    } else {
        ReconnectVerdict::OriginalPreferred
    };
    ReconnectDecision {
        reconnecting: original,
        replacement: Some(replacement),
        scores,
        verdict,
    }
}
