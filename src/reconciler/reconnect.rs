//! `reconcileReconnecting` and `pickReconnectingAlloc`: from C-2 on, each
//! reconnecting allocation is settled against its replacements before
//! anything else in its group is reconciled.

use super::alloc_set::AllocSet;
use super::reconnect_decision::{ReconnectDecision, ReconnectVerdict};
use super::reconnect_picker::pick_reconnecting_alloc;
use super::results::desc;
use super::rules::Rules;
use super::stop::must_not_resume;
use crate::model::{Allocation, ClientStatus, Id, Job, TaskGroup};
use crate::time::Time;
use crate::version::Switch;

/// What reconciling the reconnecting allocations decided.
#[derive(Clone, Debug, Default)]
pub struct ReconnectOutcome<'a> {
    /// The reconnecting allocations that resume; they join the untainted.
    pub reconnect: AllocSet<'a>,
    /// Every allocation stopped, taken out of every bucket.
    pub stopped: AllocSet<'a>,
    /// The stops in the order they were decided, each with the client status
    /// it sets and its description; before E-2 a replacement beaten by two
    /// reconnecting allocations is listed twice, as Nomad appends it twice.
    pub stops: Vec<(&'a Allocation, Option<ClientStatus>, &'static str)>,
    pub decisions: Vec<ReconnectDecision<'a>>,
}

/// `reconcileReconnecting`: a reconnecting allocation that failed on its
/// client is stopped as failed; one that may not resume is stopped; every
/// other one is weighed against each allocation of the group (`all`, any
/// bucket) with its name, a higher create index and no server-terminal
/// status, and the loser of each pair is stopped. From D-1 the only
/// replacement is the allocation's `NextAllocation`, and one that failed is
/// not stopped when the original wins; from E-2 the replacements are the
/// whole chain of `NextAllocation`s in the group, and every one not stopped
/// yet is stopped when the original wins, failed or not. Each pair is weighed by the
/// strategy of the current job's group `tg` at the evaluation time `now`.
/// Allocations are visited in ID order.
pub fn reconcile_reconnecting<'a>(
    reconnecting: &AllocSet<'a>,
    all: &AllocSet<'a>,
    job: &Job,
    tg: &TaskGroup,
    now: Time,
    rules: &Rules,
) -> ReconnectOutcome<'a> {
    let successor_only = rules.has(Switch::D1);
    let whole_chain = rules.has(Switch::E2);
    let strategy = rules.reconcile_strategy(tg);
    let mut out = ReconnectOutcome::default();
    for rec in reconnecting.iter() {
        let failed = !rec.server_terminal_status() && rec.client_status == ClientStatus::Failed;
        if failed || must_not_resume(rec, job) {
            let (verdict, client_status, description) = if failed {
                (
                    ReconnectVerdict::FailedReconnect,
                    Some(ClientStatus::Failed),
                    desc::RESCHEDULED,
                )
            } else {
                (ReconnectVerdict::MustNotResume, None, desc::NOT_NEEDED)
            };
            out.decisions.push(ReconnectDecision {
                reconnecting: rec,
                replacement: None,
                scores: (None, None),
                starts: None,
                verdict,
            });
            out.stopped.insert(rec);
            out.stops.push((rec, client_status, description));
            continue;
        }
        let chain = if whole_chain {
            replacement_chain(rec, all)
        } else {
            Vec::new()
        };
        let replacements = all.iter().filter(|r| {
            let replacement = if whole_chain {
                chain.contains(&&r.id)
            } else if successor_only {
                r.id == rec.next_allocation
            } else {
                r.id != rec.id && r.same_name(rec) && r.create_index > rec.create_index
            };
            replacement && !r.server_terminal_status()
        });
        for replacement in replacements {
            let decision = pick_reconnecting_alloc(strategy, rec, replacement, now);
            let verdict = decision.verdict;
            out.decisions.push(decision);
            if verdict.reconnecting_kept() {
                let spared = if whole_chain {
                    out.stopped.contains(&replacement.id)
                } else {
                    successor_only && replacement.client_status == ClientStatus::Failed
                };
                if spared {
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

/// The IDs of the allocations of `all` that follow `rec` through
/// `NextAllocation`, nearest first. A chain that comes back to `rec` or to
/// one of its members ends there (Nomad would follow it forever).
fn replacement_chain<'a>(rec: &Allocation, all: &AllocSet<'a>) -> Vec<&'a Id> {
    let mut chain: Vec<&'a Id> = Vec::new();
    let mut next = &rec.next_allocation;
    while let Some(a) = all.get(next) {
        if a.id == rec.id || chain.contains(&&a.id) {
            break;
        }
        chain.push(&a.id);
        next = &a.next_allocation;
    }
    chain
}
