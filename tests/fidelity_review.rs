//! Second fidelity review against Nomad at 8ac3e642e6 (PR #12333), as
//! black-box tests through `replay`: behaviour Nomad's own ported tests
//! (`tests/nomad_reconcile_*.rs`) do not reach. Each test cites the Go code
//! (file:line at 8ac3e642e6) that decides its expectation, traced through
//! `scheduler/generic_sched.go` to the plan.
//!
//! Tests marked `#[ignore = "discrepancy: ..."]` show where plan-inspect
//! differs from Nomad; the others pin behaviour that matches.
mod common;
use common::*;

use std::collections::HashMap;
use std::sync::Arc;

use plan_inspect::model::*;
use plan_inspect::reconciler::{DesiredChanges, desc, trigger};
use plan_inspect::replay::{Options, replay};
use plan_inspect::report::{Buckets, JobReport};
use plan_inspect::time::{Duration, SECOND, Time};
use serde_json::json;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// `mock.Job()` with one group of `count` and the given reschedule policy.
fn job_of(count: i64, policy: Option<ReschedulePolicy>) -> Job {
    let mut j = mock_job();
    j.task_groups[0].count = count;
    j.task_groups[0].reschedule_policy = policy;
    j
}

/// A reschedule policy with `unlimited` set and no attempts: always eligible,
/// so only the delay decides when.
fn unlimited(delay: Duration, function: &str, max_delay: Duration) -> ReschedulePolicy {
    ReschedulePolicy {
        attempts: 0,
        interval: 0,
        delay,
        delay_function: function.into(),
        max_delay,
        unlimited: true,
    }
}

/// The bucket name of every allocation of group `group`.
fn buckets_by_id(r: &JobReport, group: &str) -> HashMap<String, &'static str> {
    let b: &Buckets = &super_group(r, group).buckets;
    let mut out = HashMap::new();
    for (name, set) in [
        ("untainted", &b.untainted),
        ("migrate", &b.migrate),
        ("lost", &b.lost),
        ("disconnecting", &b.disconnecting),
        ("reconnecting", &b.reconnecting),
        ("ignore", &b.ignore),
    ] {
        for e in set {
            assert!(
                out.insert(e.id.clone(), name).is_none(),
                "{} in two buckets",
                e.id
            );
        }
    }
    out
}

fn super_group<'r>(r: &'r JobReport, name: &str) -> &'r plan_inspect::report::GroupReport {
    group(r, name)
}

/// The bucket of allocation `id` in group "web".
fn bucket_of(r: &JobReport, id: &str) -> &'static str {
    buckets_by_id(r, "web")
        .get(id)
        .copied()
        .unwrap_or_else(|| panic!("{id} in no bucket"))
}

/// The desired changes of group "web".
fn web_changes(r: &JobReport) -> DesiredChanges {
    group(r, "web").desired_changes.clone()
}

/// `(alloc_id, description, client_status)` of every stop, sorted.
fn stops(r: &JobReport) -> Vec<(String, String, Option<String>)> {
    sorted(
        r.plan
            .stop
            .iter()
            .map(|s| (s.alloc_id.clone(), s.description.clone(), s.client_status.clone())),
    )
}

/// `(name, previous, reschedule, lost)` of every placement, sorted.
fn places(r: &JobReport) -> Vec<(String, Option<String>, bool, bool)> {
    sorted(r.plan.place.iter().map(|p| {
        (
            p.name.clone(),
            p.previous_alloc_id.clone(),
            p.reschedule,
            p.lost,
        )
    }))
}

/// `job.web[i]` for `mock_job()`.
fn name(i: u64) -> String {
    format!("{JOB}.web[{i}]")
}

/// Replays with `options` and returns the only job's report.
fn replay_with(c: &Cluster, options: &Options) -> JobReport {
    let mut r = replay(&c.snapshot, options).expect("replay failed");
    assert_eq!(r.jobs.len(), 1);
    r.jobs.remove(0)
}

/// A drain strategy as `mock.DrainNode` leaves it.
fn drain_strategy() -> GoValue {
    GoValue(json!({
        "DrainSpec": {"Deadline": 0, "IgnoreSystemJobs": false},
        "ForceDeadline": "0001-01-01T00:00:00Z",
        "StartedAt": "0001-01-01T00:00:00Z"
    }))
}

/// Adds a `Reconnected` event `ago` before now on task `task` of `id`,
/// keeping other task states.
fn reconnect_event(c: &mut Cluster, id: &str, task: &str, ago: Duration) {
    let a = c.alloc_mut(id);
    let mut state = a.task_states.get(task).cloned().unwrap_or_else(|| TaskState {
        state: "running".into(),
        ..TaskState::default()
    });
    state.events.push(TaskEvent {
        event_type: TASK_CLIENT_RECONNECTED.into(),
        time: now().add(-ago).unix_nanos_i64(),
    });
    a.task_states.insert(task.into(), state);
}

/// Records a client-status transition to `value` `ago` before now.
fn client_state(c: &mut Cluster, id: &str, value: &str, ago: Duration) {
    c.alloc_mut(id).alloc_states.push(AllocState {
        field: AllocStateField::ClientStatus,
        value: value.into(),
        time: now().add(-ago),
    });
}

/// A failed allocation whose only task finished `ago` before now.
fn failed_since(c: &mut Cluster, id: &str, ago: Duration) {
    fail_at(c.alloc_mut(id), now().add(-ago));
}

// ---------------------------------------------------------------------------
// 1. filterByTainted, the whole matrix
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq)]
enum NodeKind {
    Ready,
    Initializing,
    Down,
    Disconnected,
    ReadyDraining,
    InitializingDraining,
    DisconnectedDraining,
    DownDraining,
    Missing,
}

impl NodeKind {
    const ALL: [NodeKind; 9] = [
        NodeKind::Ready,
        NodeKind::Initializing,
        NodeKind::Down,
        NodeKind::Disconnected,
        NodeKind::ReadyDraining,
        NodeKind::InitializingDraining,
        NodeKind::DisconnectedDraining,
        NodeKind::DownDraining,
        NodeKind::Missing,
    ];

    fn status(self) -> &'static str {
        match self {
            NodeKind::Ready | NodeKind::ReadyDraining => node_status::READY,
            NodeKind::Initializing | NodeKind::InitializingDraining => node_status::INIT,
            NodeKind::Down | NodeKind::DownDraining => node_status::DOWN,
            NodeKind::Disconnected | NodeKind::DisconnectedDraining => node_status::DISCONNECTED,
            NodeKind::Missing => "",
        }
    }

    fn draining(self) -> bool {
        matches!(
            self,
            NodeKind::ReadyDraining
                | NodeKind::InitializingDraining
                | NodeKind::DisconnectedDraining
                | NodeKind::DownDraining
        )
    }
}

#[derive(Clone, Copy, Debug)]
struct TaintCase {
    node: NodeKind,
    client: &'static str,
    desired: &'static str,
    migrate: bool,
    /// When the client status last went to unknown, if ever.
    unknown_ago: Option<Duration>,
    /// When a task last recorded a `Reconnected` event, if ever.
    reconnect_ago: Option<Duration>,
}

/// Nomad's `filterByTainted` (scheduler/reconcile_util.go:227-307) for one
/// allocation, transcribed from the Go with its predicates inlined:
/// `TerminalStatus` (structs.go:9708), `Expired` (structs.go:10168-10195),
/// `Reconnected` (structs.go:10215-10235) and `taintedNodes`
/// (scheduler/util.go:356-388).
fn nomad_bucket(c: &TaintCase, mcd: Option<Duration>, supports: bool) -> &'static str {
    let terminal = matches!(c.desired, "stop" | "evict")
        || matches!(c.client, "complete" | "failed" | "lost");
    if terminal {
        return "untainted";
    }
    if c.migrate {
        return "migrate";
    }
    let expired = |at: Time| {
        c.client == "unknown"
            && match (c.unknown_ago, mcd) {
                (Some(ago), Some(m)) => at >= now().add(-ago).add(m),
                _ => false,
            }
    };
    if supports && expired(now()) {
        return "lost";
    }
    if supports && c.client == "unknown" {
        return "ignore";
    }
    let reconnected = c.reconnect_ago.map(|ago| expired(now().add(-ago)));
    // taintedNodes: missing (nil), down, draining, or disconnected.
    let tainted: Option<Option<NodeKind>> = match c.node {
        NodeKind::Missing => Some(None),
        n if n.status() == node_status::DOWN
            || n.draining()
            || n.status() == node_status::DISCONNECTED =>
        {
            Some(Some(n))
        }
        _ => None,
    };
    let Some(tainted) = tainted else {
        return match reconnected {
            Some(true) => "lost",
            Some(false) => "reconnecting",
            None => "untainted",
        };
    };
    if let Some(n) = tainted {
        if n.status() == node_status::DISCONNECTED {
            if supports && c.client == "running" {
                return "disconnecting";
            }
            if c.client == "pending" {
                return "lost";
            }
        } else if n.status() == node_status::READY
            && let Some(expired) = reconnected
        {
            return if expired { "lost" } else { "reconnecting" };
        }
    }
    match tainted {
        None => "lost",
        Some(n) if n.status() == node_status::DOWN => "lost",
        Some(_) => "untainted",
    }
}

fn taint_cases() -> Vec<TaintCase> {
    let mut out = Vec::new();
    for node in NodeKind::ALL {
        for client in status::CLIENT {
            for desired in status::DESIRED {
                for migrate in [false, true] {
                    for unknown_ago in [None, Some(MINUTE), Some(HOUR)] {
                        for reconnect_ago in [None, Some(30 * SECOND), Some(2 * HOUR)] {
                            out.push(TaintCase {
                                node,
                                client,
                                desired,
                                migrate,
                                unknown_ago,
                                reconnect_ago,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

/// Every combination of node (ready, initializing, down, disconnected, each
/// with and without a drain strategy, and garbage-collected) x client status
/// x desired status x migrate transition x last unknown transition (never,
/// 1m ago, 1h ago) x last `Reconnected` event (never, 30s ago, 2h ago), with
/// and without `max_client_disconnect` (5m) and disconnected-client support:
/// the bucket in the report is the one Nomad's `filterByTainted`
/// (scheduler/reconcile_util.go:219-310) picks, called from
/// `computeGroup` (scheduler/reconcile.go:409).
#[test]
fn filter_by_tainted_matrix_matches_nomad() {
    let cases = taint_cases();
    let mut checked = 0;
    for supports in [true, false] {
        for mcd in [None, Some(5 * MINUTE)] {
            let mut c = Cluster::new();
            c.snapshot.supports_disconnected_clients = Some(supports);
            let mut spec = job_of(cases.len() as i64, None);
            spec.task_groups[0].max_client_disconnect = mcd;
            let job = c.job(spec);
            let mut ids = Vec::new();
            for (i, case) in cases.iter().enumerate() {
                let id = c.alloc(&job, i as u64);
                let node = c.alloc_ref(&id).node_id.clone();
                if case.node == NodeKind::Missing {
                    c.snapshot.nodes.retain(|n| n.id != node);
                } else {
                    let n = c.node_mut(&node);
                    n.status = case.node.status().into();
                    if case.node.draining() {
                        n.drain_strategy = drain_strategy();
                        n.scheduling_eligibility = "ineligible".into();
                    }
                }
                {
                    let a = c.alloc_mut(&id);
                    a.client_status = case.client.into();
                    a.desired_status = case.desired.into();
                    if case.migrate {
                        a.desired_transition.migrate = Some(true);
                    }
                }
                if let Some(ago) = case.unknown_ago {
                    client_state(&mut c, &id, status::UNKNOWN, ago);
                }
                if let Some(ago) = case.reconnect_ago {
                    reconnect_event(&mut c, &id, "web", ago);
                }
                ids.push(id);
            }
            let r = c.replay_job(JOB);
            let got = buckets_by_id(&r, "web");
            if supports && mcd.is_some() {
                let mut seen: Vec<&str> = got.values().copied().collect();
                seen.sort();
                seen.dedup();
                assert_eq!(seen.len(), 6, "every bucket is exercised: {seen:?}");
            }
            for (case, id) in cases.iter().zip(&ids) {
                let want = nomad_bucket(case, mcd, supports);
                assert_eq!(
                    got.get(id).copied(),
                    Some(want),
                    "{case:?} mcd={mcd:?} supports={supports}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 4 * 9 * 6 * 3 * 2 * 3 * 3);
}
