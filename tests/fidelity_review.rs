//! Second fidelity review against Nomad at 8ac3e642e6 (PR #12333), as
//! black-box tests through `replay`: behaviour Nomad's own ported tests
//! (`tests/nomad_reconcile_*.rs`) do not reach. Each test cites the Go code
//! (file:line at 8ac3e642e6) that decides its expectation, traced through
//! `scheduler/generic_sched.go` to the plan.
//!
//! A test that showed plan-inspect differing from Nomad would be marked
//! `#[ignore = "discrepancy: ..."]`; this review found none, so every test
//! here pins behaviour that matches Nomad, odd parts included.
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
    let b: &Buckets = &common::group(r, group).buckets;
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
    sorted(r.plan.stop.iter().map(|s| {
        (
            s.alloc_id.clone(),
            s.description.to_string(),
            s.client_status.as_deref().map(str::to_owned),
        )
    }))
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
    let mut state = a
        .task_states
        .get(task)
        .cloned()
        .unwrap_or_else(|| TaskState {
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
    let terminal =
        matches!(c.desired, "stop" | "evict") || matches!(c.client, "complete" | "failed" | "lost");
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

// ---------------------------------------------------------------------------
// 2. Expired, LastUnknown, Reconnected, DisconnectTimeout and the follow-up
//    evals of disconnecting allocations
// ---------------------------------------------------------------------------

/// A job of `count` with `max_client_disconnect` set to `mcd`.
fn resumable(count: i64, mcd: Option<Duration>) -> Job {
    let mut j = job_of(count, mock_job().task_groups[0].reschedule_policy.clone());
    j.task_groups[0].max_client_disconnect = mcd;
    j
}

/// An unknown allocation `job.web[index]` on a disconnected node that went
/// unknown `ago` before now.
fn unknown_alloc(c: &mut Cluster, job: &Arc<Job>, index: u64, ago: Duration) -> String {
    let id = c.alloc(job, index);
    c.set_node_status(&id, node_status::DISCONNECTED);
    c.alloc_mut(&id).client_status = status::UNKNOWN.into();
    client_state(c, &id, status::UNKNOWN, ago);
    id
}

/// `Expired` is inclusive: an unknown allocation is lost from the very
/// instant its last unknown transition plus `max_client_disconnect` is
/// reached (nomad/structs/structs.go:10193 `After || Equal`), and ignored a
/// nanosecond before (scheduler/reconcile_util.go:241-250). The lost one is
/// stopped as lost and replaced; the ignored one is not counted, so its name
/// is placed afresh (scheduler/reconcile.go:700-731).
#[test]
fn expiry_is_reached_at_the_exact_instant() {
    let mut c = Cluster::new();
    let job = c.job(resumable(2, Some(5 * MINUTE)));
    let expired = unknown_alloc(&mut c, &job, 0, 5 * MINUTE);
    let waiting = unknown_alloc(&mut c, &job, 1, 5 * MINUTE - 1);

    let r = c.replay_job(JOB);
    assert_eq!(bucket_of(&r, &expired), "lost");
    assert_eq!(bucket_of(&r, &waiting), "ignore");
    assert_eq!(
        stops(&r),
        [(expired.clone(), desc::LOST.into(), Some("lost".into()))]
    );
    assert_eq!(
        places(&r),
        [
            (name(0), Some(expired), false, true),
            (name(1), None, false, false)
        ]
    );
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            place: 2,
            stop: 1,
            ignore: 1,
            ..dc()
        }
    );
}

/// `LastUnknown` is the latest `ClientStatus` transition to unknown
/// (nomad/structs/structs.go:10198-10212); transitions of another field are
/// not read.
#[test]
fn last_unknown_is_the_latest_client_status_transition() {
    let mut c = Cluster::new();
    let job = c.job(resumable(2, Some(5 * MINUTE)));
    // Unknown an hour ago, running again, unknown again a minute ago: not expired.
    let again = unknown_alloc(&mut c, &job, 0, HOUR);
    client_state(&mut c, &again, status::RUNNING, 50 * MINUTE);
    client_state(&mut c, &again, status::UNKNOWN, MINUTE);
    // Unknown an hour ago; a recent "unknown" of another field does not count.
    let other_field = unknown_alloc(&mut c, &job, 1, HOUR);
    c.alloc_mut(&other_field).alloc_states.push(AllocState {
        field: AllocStateField::Other(1),
        value: status::UNKNOWN.into(),
        time: now().add(-MINUTE),
    });

    let r = c.replay_job(JOB);
    assert_eq!(bucket_of(&r, &again), "ignore");
    assert_eq!(bucket_of(&r, &other_field), "lost");
}

/// `Reconnected` takes the latest `Reconnected` event over all tasks and asks
/// whether the allocation had expired at that instant
/// (nomad/structs/structs.go:10215-10235). Without disconnected-client
/// support an unknown allocation reaches that check
/// (scheduler/reconcile_util.go:241-263): reconnected after its expiry, lost;
/// before, reconnecting.
#[test]
fn reconnected_reads_the_latest_event_of_any_task() {
    let mut c = Cluster::new();
    c.snapshot.supports_disconnected_clients = Some(false);
    let job = c.job(resumable(3, Some(5 * MINUTE)));
    let unknown_on_ready = |c: &mut Cluster, index| {
        let id = unknown_alloc(c, &job, index, HOUR);
        c.set_node_status(&id, node_status::READY);
        id
    };
    // Expiry was 55m ago: an event 2h ago is before it, one 30s ago after.
    let early_only = unknown_on_ready(&mut c, 0);
    reconnect_event(&mut c, &early_only, "web", 2 * HOUR);
    let late_only = unknown_on_ready(&mut c, 1);
    reconnect_event(&mut c, &late_only, "web", 30 * SECOND);
    let both = unknown_on_ready(&mut c, 2);
    reconnect_event(&mut c, &both, "web", 2 * HOUR);
    reconnect_event(&mut c, &both, "sidecar", 30 * SECOND);

    let r = c.replay_job(JOB);
    assert_eq!(bucket_of(&r, &early_only), "reconnecting");
    assert_eq!(bucket_of(&r, &late_only), "lost");
    assert_eq!(bucket_of(&r, &both), "lost");
}

/// Go's zero `time.Time` is year 1, so a `Reconnected` event at Unix time 0
/// still counts as a reconnect (nomad/structs/structs.go:10221-10232).
#[test]
fn a_reconnect_event_at_the_unix_epoch_counts() {
    let mut c = Cluster::new();
    let job = c.job(resumable(1, Some(5 * MINUTE)));
    let id = c.alloc(&job, 0);
    c.alloc_mut(&id).task_states.insert(
        "web".into(),
        TaskState {
            state: "running".into(),
            events: vec![TaskEvent {
                event_type: TASK_CLIENT_RECONNECTED.into(),
                time: 0,
            }],
            ..TaskState::default()
        },
    );
    let r = c.replay_job(JOB);
    assert_eq!(bucket_of(&r, &id), "reconnecting");
    assert_eq!(r.plan.reconnect_updates.len(), 1);
}

/// `Expired` reads `max_client_disconnect` from the job version embedded in
/// the allocation, not the current job (nomad/structs/structs.go:10183-10191).
#[test]
fn expiry_reads_the_allocations_own_job_version() {
    // (own version's timeout, current version's timeout, bucket)
    for (own, current, want) in [
        (Some(5 * MINUTE), None, "lost"),
        (None, Some(5 * MINUTE), "ignore"),
    ] {
        let mut c = Cluster::new();
        let mut spec = resumable(1, current);
        spec.version = 1;
        c.job(spec);
        let id = unknown_alloc(&mut c, &Arc::new(resumable(1, own)), 0, HOUR);
        let r = c.replay_job(JOB);
        assert_eq!(bucket_of(&r, &id), want, "own {own:?}, current {current:?}");
    }
}

/// `DisconnectTimeout` also reads the allocation's own job version
/// (nomad/structs/structs.go:9915-9931): the follow-up eval waits for that
/// version's `max_client_disconnect`.
#[test]
fn disconnect_timeout_reads_the_allocations_own_job_version() {
    let mut c = Cluster::new();
    let mut current = resumable(1, Some(5 * MINUTE));
    current.version = 1;
    c.job(current);
    let old = Arc::new(resumable(1, Some(10 * MINUTE)));
    let id = c.alloc(&old, 0);
    c.set_node_status(&id, node_status::DISCONNECTED);

    let r = c.replay_job(JOB);
    assert_eq!(bucket_of(&r, &id), "disconnecting");
    assert_eq!(r.plan.followup_evals.len(), 1);
    assert_eq!(r.plan.followup_evals[0].wait_until, now().add(10 * MINUTE));
}

/// `createTimeoutLaterEvals` sorts the timeouts and starts a new eval when
/// one is 5 s or more after the first of the current batch; every one of
/// these evals carries the description (scheduler/reconcile.go:1260-1319).
#[test]
fn timeout_evals_batch_in_five_second_windows() {
    let mut c = Cluster::new();
    c.job(resumable(3, Some(5 * MINUTE)));
    let mut ids = Vec::new();
    for (i, extra) in [0, 5 * SECOND - 1, 5 * SECOND].into_iter().enumerate() {
        let own = Arc::new(resumable(3, Some(5 * MINUTE + extra)));
        let id = c.alloc(&own, i as u64);
        c.set_node_status(&id, node_status::DISCONNECTED);
        ids.push(id);
    }

    let r = c.replay_job(JOB);
    let evals = &r.plan.followup_evals;
    assert_eq!(evals.len(), 2);
    assert_eq!(evals[0].wait_until, now().add(5 * MINUTE));
    assert_eq!(
        sorted(evals[0].alloc_ids.clone()),
        [ids[0].clone(), ids[1].clone()]
    );
    assert_eq!(evals[1].wait_until, now().add(5 * MINUTE + 5 * SECOND));
    assert_eq!(evals[1].alloc_ids, [ids[2].clone()]);
    for e in evals {
        assert_eq!(e.triggered_by, trigger::MAX_DISCONNECT_TIMEOUT);
        assert_eq!(e.status_description, desc::DISCONNECT_TIMEOUT_FOLLOWUP);
    }
    let by_alloc: HashMap<_, _> = r
        .plan
        .disconnect_updates
        .iter()
        .map(|u| (u.alloc_id.clone(), u.followup_eval_id.clone()))
        .collect();
    assert_eq!(by_alloc[&ids[0]], evals[0].id);
    assert_eq!(by_alloc[&ids[1]], evals[0].id);
    assert_eq!(by_alloc[&ids[2]], evals[1].id);
    // All three are replaced at once, none stopped.
    assert!(r.plan.stop.is_empty());
    assert_eq!(r.plan.place.len(), 3);
    assert!(r.plan.place.iter().all(|p| p.reschedule && !p.lost));
}

/// If one disconnecting allocation of a group has no future timeout,
/// `createTimeoutLaterEvals` gives up for the whole group
/// (scheduler/reconcile.go:1254-1258): no unknown updates, no eval, and
/// `computeReplacements` then stops every disconnecting allocation as
/// rescheduled (scheduler/reconcile.go:745-763).
#[test]
fn one_disconnecting_alloc_without_a_timeout_blocks_all_unknown_updates() {
    let mut c = Cluster::new();
    c.job(resumable(2, Some(5 * MINUTE)));
    let with = c.alloc(&Arc::new(resumable(2, Some(5 * MINUTE))), 0);
    let without = c.alloc(&Arc::new(resumable(2, None)), 1);
    for id in [&with, &without] {
        c.set_node_status(id, node_status::DISCONNECTED);
    }

    let r = c.replay_job(JOB);
    assert!(r.plan.disconnect_updates.is_empty());
    assert!(r.plan.followup_evals.is_empty());
    assert_eq!(
        stops(&r),
        sorted([
            (with.clone(), desc::RESCHEDULED.into(), None),
            (without.clone(), desc::RESCHEDULED.into(), None)
        ])
    );
    assert_eq!(
        places(&r),
        [
            (name(0), Some(with), true, false),
            (name(1), Some(without), true, false)
        ]
    );
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            place: 2,
            stop: 2,
            ..dc()
        }
    );
}

/// A snapshot in JSON with one job of one group (count 2) whose
/// `MaxClientDisconnect` is `mcd` (raw JSON), an unknown allocation on a
/// disconnected node that went unknown a second ago, and a running
/// allocation on another disconnected node.
fn zero_timeout_snapshot(mcd: &str) -> Snapshot {
    let text = format!(
        r#"{{
        "Now": "2022-04-01T12:00:00Z",
        "Jobs": [{{"ID": "j", "Namespace": "default", "Type": "service", "Version": 0,
                   "Datacenters": ["dc1"], "JobModifyIndex": 10,
                   "TaskGroups": [{{"Name": "g", "Count": 2, "MaxClientDisconnect": {mcd},
                                    "Tasks": [{{"Name": "t", "Driver": "exec"}}]}}]}}],
        "Nodes": [{{"ID": "n1", "Datacenter": "dc1", "Status": "disconnected"}},
                  {{"ID": "n2", "Datacenter": "dc1", "Status": "disconnected"}}],
        "Allocs": [
          {{"ID": "a-unknown", "Namespace": "default", "JobID": "j", "TaskGroup": "g",
            "Name": "j.g[0]", "NodeID": "n1", "DesiredStatus": "run", "ClientStatus": "unknown",
            "AllocStates": [{{"Field": 0, "Value": "unknown", "Time": "2022-04-01T11:59:59Z"}}]}},
          {{"ID": "b-running", "Namespace": "default", "JobID": "j", "TaskGroup": "g",
            "Name": "j.g[1]", "NodeID": "n2", "DesiredStatus": "run", "ClientStatus": "running"}}
        ]
    }}"#
    );
    let mut s = plan_inspect::read::read_snapshot_from(text.as_bytes(), "zero.json").unwrap();
    // The allocations embed no job: give them the current one, as Nomad would
    // have embedded it.
    let job = s.jobs[0].clone();
    for a in &mut s.allocs {
        a.job = Some(job.clone());
    }
    s
}

/// `"MaxClientDisconnect": 0` is a set timeout of zero, unlike `null`: an
/// unknown allocation expires at once (nomad/structs/structs.go:10187-10194),
/// and a disconnecting one gets no unknown update because its timeout is not
/// after now (scheduler/reconcile_util.go:490-494, reconcile.go:1255), so it
/// is stopped as rescheduled. With `null` the unknown allocation is ignored
/// and the running one is never given a timeout either.
#[test]
fn a_zero_max_client_disconnect_is_set_not_absent() {
    let zero = zero_timeout_snapshot("0");
    assert_eq!(zero.jobs[0].task_groups[0].max_client_disconnect, Some(0));
    let r = replay(&zero, &Options::default()).unwrap().jobs.remove(0);
    let b = buckets_by_id(&r, "g");
    assert_eq!(b["a-unknown"], "lost");
    assert_eq!(b["b-running"], "disconnecting");
    assert!(r.plan.disconnect_updates.is_empty());
    assert_eq!(
        stops(&r),
        [
            ("a-unknown".into(), desc::LOST.into(), Some("lost".into())),
            ("b-running".into(), desc::RESCHEDULED.into(), None)
        ]
    );

    let null = zero_timeout_snapshot("null");
    assert_eq!(null.jobs[0].task_groups[0].max_client_disconnect, None);
    let r = replay(&null, &Options::default()).unwrap().jobs.remove(0);
    let b = buckets_by_id(&r, "g");
    assert_eq!(b["a-unknown"], "ignore");
    assert_eq!(b["b-running"], "disconnecting");
    assert!(r.plan.disconnect_updates.is_empty());
}

/// A batch job's disconnecting allocation is left to `shouldFilter` as
/// untainted, so it is not rescheduled (scheduler/reconcile_util.go:333-338,
/// 373-388), yet it still gets its unknown update and timeout eval
/// (scheduler/reconcile.go:425); not counted as existing, its name is placed
/// afresh, with no previous allocation (scheduler/reconcile.go:700-731).
#[test]
fn a_batch_disconnecting_alloc_gets_a_fresh_placement_not_a_reschedule() {
    let mut c = Cluster::new();
    let mut spec = resumable(1, Some(5 * MINUTE));
    spec.job_type = "batch".into();
    let job = c.job(spec);
    let id = c.alloc(&job, 0);
    c.set_node_status(&id, node_status::DISCONNECTED);

    let r = c.replay_job(JOB);
    assert_eq!(bucket_of(&r, &id), "disconnecting");
    assert!(group(&r, "web").reschedule_now.is_empty());
    assert_eq!(r.plan.disconnect_updates.len(), 1);
    assert_eq!(r.plan.followup_evals.len(), 1);
    assert!(r.plan.stop.is_empty());
    assert_eq!(places(&r), [(name(0), None, false, false)]);
    assert_eq!(web_changes(&r), DesiredChanges { place: 1, ..dc() });
}

/// A disconnecting allocation of an active deployment is rescheduled anyway:
/// `updateByReschedulable` refuses it, but `filterByRescheduleable` puts
/// every disconnecting allocation in `rescheduleNow`
/// (scheduler/reconcile_util.go:345-353, 411-413).
#[test]
fn a_disconnecting_alloc_of_an_active_deployment_is_rescheduled() {
    let mut c = Cluster::new();
    let mut spec = resumable(1, Some(5 * MINUTE));
    spec.task_groups[0].update = Some(no_canary_update());
    let job = c.job(spec);
    let d = c.new_deployment(&job);
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            desired_total: 1,
            ..DeploymentState::default()
        },
    );
    let id = c.alloc(&job, 0);
    c.alloc_mut(&id).deployment_id = d.clone();
    c.set_node_status(&id, node_status::DISCONNECTED);

    let r = c.replay_job(JOB);
    assert_eq!(group(&r, "web").reschedule_now, std::slice::from_ref(&id));
    assert_eq!(places(&r), [(name(0), Some(id), true, false)]);
    assert!(r.plan.stop.is_empty());
    assert_eq!(r.plan.disconnect_updates.len(), 1);
    assert!(r.plan.deployment_updates.is_empty());
}

// ---------------------------------------------------------------------------
// 3. Reschedule now / later / not: NextRescheduleTime, NextDelay, shouldFilter
// ---------------------------------------------------------------------------

/// What `filterByRescheduleable` decided for one allocation.
#[derive(Debug, PartialEq)]
enum Resched {
    Now,
    Later(Time),
    Not,
}

fn resched_of(r: &JobReport, id: &str) -> Resched {
    let g = group(r, "web");
    if g.reschedule_now.iter().any(|x| x == id) {
        Resched::Now
    } else if let Some(l) = g.reschedule_later.iter().find(|l| l.id == id) {
        Resched::Later(l.at)
    } else {
        Resched::Not
    }
}

/// A service job of one with `policy`, and its allocation `web[0]`, failed
/// `ago` before now, with the given reschedule events.
fn one_failed(
    policy: ReschedulePolicy,
    events: Option<Vec<RescheduleEvent>>,
    ago: Duration,
) -> (Cluster, String) {
    let mut c = Cluster::new();
    let job = c.job(job_of(1, Some(policy)));
    let id = c.alloc(&job, 0);
    failed_since(&mut c, &id, ago);
    if let Some(events) = events {
        c.alloc_mut(&id).reschedule_tracker = Some(RescheduleTracker {
            events: Some(events),
            ..RescheduleTracker::default()
        });
    }
    (c, id)
}

/// A reschedule event `ago` before now with delay `delay`.
fn event(ago: Duration, delay: Duration) -> RescheduleEvent {
    RescheduleEvent {
        delay,
        ..reschedule_event(ago, "prev")
    }
}

/// `mock.Job()`'s policy (2 attempts in 10m) with a 30s constant delay.
fn policy_30s() -> ReschedulePolicy {
    let mut p = mock_job().task_groups[0].reschedule_policy.clone().unwrap();
    p.delay = 30 * SECOND;
    p
}

/// The failure time is the latest `FinishedAt` over all tasks
/// (`LastEventTime`, nomad/structs/structs.go:9800-9815), plus the delay
/// (structs.go:9846-9849); due more than 1s from now, the allocation waits
/// for a follow-up eval at that time and is updated with its ID
/// (scheduler/reconcile_util.go:428-434, reconcile.go:1140-1151).
#[test]
fn reschedule_time_counts_from_the_latest_finished_task() {
    let (mut c, id) = one_failed(policy_30s(), None, MINUTE);
    c.alloc_mut(&id)
        .task_states
        .insert("sidecar".into(), finished_state(now().add(-10 * SECOND)));
    let r = c.replay_job(JOB);
    let at = now().add(20 * SECOND);
    assert_eq!(resched_of(&r, &id), Resched::Later(at));
    assert_eq!(r.plan.followup_evals.len(), 1);
    let e = &r.plan.followup_evals[0];
    assert_eq!(e.wait_until, at);
    assert_eq!(e.triggered_by, trigger::RETRY_FAILED_ALLOC);
    assert_eq!(e.status_description, desc::RESCHEDULING_FOLLOWUP);
    assert_eq!(r.plan.attribute_updates.len(), 1);
    assert_eq!(r.plan.attribute_updates[0].followup_eval_id, e.id);
    assert!(r.plan.place.is_empty() && r.plan.stop.is_empty());
    assert_eq!(web_changes(&r), DesiredChanges { ignore: 1, ..dc() });
}

/// Without a `FinishedAt`, the failure time is the allocation's `ModifyTime`
/// (nomad/structs/structs.go:9811-9813).
#[test]
fn reschedule_time_falls_back_to_modify_time() {
    let (mut c, id) = one_failed(policy_30s(), None, 0);
    let a = c.alloc_mut(&id);
    a.task_states = TaskStates::default();
    a.modify_time = now().add(-10 * SECOND).unix_nanos_i64();
    let r = c.replay_job(JOB);
    assert_eq!(resched_of(&r, &id), Resched::Later(now().add(20 * SECOND)));
}

/// An allocation due within 1s of now is rescheduled now, the bound
/// included (`rescheduleWindowSize`, scheduler/reconcile.go:24,
/// reconcile_util.go:428).
#[test]
fn the_reschedule_window_is_one_second_inclusive() {
    let (c, id) = one_failed(policy_30s(), None, 29 * SECOND);
    let r = c.replay_job(JOB);
    assert_eq!(resched_of(&r, &id), Resched::Now);
    assert_eq!(places(&r), [(name(0), Some(id.clone()), true, false)]);
    assert_eq!(stops(&r), [(id, desc::RESCHEDULED.into(), None)]);

    let (c, id) = one_failed(policy_30s(), None, 29 * SECOND - 1);
    let r = c.replay_job(JOB);
    assert_eq!(resched_of(&r, &id), Resched::Later(now().add(SECOND + 1)));
}

/// An allocation whose `FollowupEvalID` is the evaluation being processed is
/// rescheduled now however far its time; one waiting on another eval is
/// neither now nor later (scheduler/reconcile_util.go:428-434).
#[test]
fn the_followup_eval_id_decides_before_the_time() {
    let (mut c, id) = one_failed(policy_30s(), None, 0);
    c.alloc_mut(&id).followup_eval_id = "eval-x".into();
    c.snapshot.eval_id = Some("eval-x".into());
    let r = c.replay_job(JOB);
    assert_eq!(resched_of(&r, &id), Resched::Now);

    c.snapshot.eval_id = Some("eval-y".into());
    let r = c.replay_job(JOB);
    assert_eq!(resched_of(&r, &id), Resched::Not);
    assert!(r.plan.followup_evals.is_empty());
    assert!(r.plan.attribute_updates.is_empty());
    assert!(r.plan.place.is_empty());
}

/// An explicit empty `EvalID` matches every allocation without a follow-up
/// eval, as in Nomad's unit tests (scheduler/reconcile_util.go:428).
#[test]
fn an_explicit_empty_eval_id_reschedules_now() {
    let (mut c, id) = one_failed(policy_30s(), None, 0);
    c.snapshot.eval_id = Some(String::new());
    let r = c.replay_job(JOB);
    assert_eq!(resched_of(&r, &id), Resched::Now);
}

/// Attempts are the reschedule events less than the interval before the
/// failure time (`rescheduleInfo`, nomad/structs/structs.go:9773-9791).
#[test]
fn attempts_count_events_within_the_interval_of_the_failure() {
    let policy = mock_job().task_groups[0].reschedule_policy.clone().unwrap();
    // 2 attempts in 10m; failed 1m ago, so due 55s ago.
    let (c, id) = one_failed(
        policy.clone(),
        Some(vec![event(3 * MINUTE, 0), event(2 * MINUTE, 0)]),
        MINUTE,
    );
    assert_eq!(resched_of(&c.replay_job(JOB), &id), Resched::Not);
    // The first event is 19m before the failure: outside the interval.
    let (c, id) = one_failed(
        policy,
        Some(vec![event(20 * MINUTE, 0), event(2 * MINUTE, 0)]),
        MINUTE,
    );
    assert_eq!(resched_of(&c.replay_job(JOB), &id), Resched::Now);
}

/// With reschedule events, the next delay must also be shorter than the
/// interval; a first failure is not held to that
/// (nomad/structs/structs.go:9846-9858).
#[test]
fn a_delay_not_shorter_than_the_interval_ends_rescheduling() {
    let policy = ReschedulePolicy {
        attempts: 3,
        interval: MINUTE,
        delay: 30 * SECOND,
        delay_function: "exponential".into(),
        max_delay: 0,
        unlimited: false,
    };
    // Last delay 40s: the next is 80s, not under the 60s interval.
    let (c, id) = one_failed(policy.clone(), Some(vec![event(2 * HOUR, 40 * SECOND)]), 0);
    assert_eq!(resched_of(&c.replay_job(JOB), &id), Resched::Not);

    let first = ReschedulePolicy {
        delay: 90 * SECOND,
        ..policy
    };
    let (c, id) = one_failed(first, None, 0);
    assert_eq!(
        resched_of(&c.replay_job(JOB), &id),
        Resched::Later(now().add(90 * SECOND))
    );
}

/// A reschedule tracker whose `Events` is nil makes a limited policy
/// ineligible: neither "no tracker" nor "has events" holds
/// (nomad/structs/structs.go:9849-9851). An empty, non-nil list is counted.
#[test]
fn a_tracker_with_nil_events_is_not_eligible() {
    let (mut c, id) = one_failed(policy_30s(), None, 0);
    c.alloc_mut(&id).reschedule_tracker = Some(RescheduleTracker {
        events: None,
        ..RescheduleTracker::default()
    });
    assert_eq!(resched_of(&c.replay_job(JOB), &id), Resched::Not);

    c.alloc_mut(&id).reschedule_tracker = Some(RescheduleTracker {
        events: Some(Vec::new()),
        ..RescheduleTracker::default()
    });
    assert_eq!(
        resched_of(&c.replay_job(JOB), &id),
        Resched::Later(now().add(30 * SECOND))
    );
}

/// `Unlimited` makes an allocation eligible only while the policy has no
/// attempts: with attempts and events, the attempt count decides
/// (nomad/structs/structs.go:9848-9853).
#[test]
fn unlimited_still_counts_attempts_when_attempts_are_set() {
    let policy = ReschedulePolicy {
        attempts: 1,
        interval: 10 * MINUTE,
        delay: 5 * SECOND,
        delay_function: "constant".into(),
        max_delay: 0,
        unlimited: true,
    };
    let events = || Some(vec![event(2 * MINUTE, 5 * SECOND)]);
    let (c, id) = one_failed(policy.clone(), events(), 0);
    assert_eq!(resched_of(&c.replay_job(JOB), &id), Resched::Not);

    let no_attempts = ReschedulePolicy {
        attempts: 0,
        ..policy
    };
    let (c, id) = one_failed(no_attempts, events(), 0);
    assert_eq!(
        resched_of(&c.replay_job(JOB), &id),
        Resched::Later(now().add(5 * SECOND))
    );
}

/// A policy, its reschedule events as (ago, delay), and the delay expected.
type DelayCase = (ReschedulePolicy, Vec<(Duration, Duration)>, Duration);

/// `NextDelay` (nomad/structs/structs.go:9933-9976), observed as the
/// reschedule time of an allocation failed now: constant ignores history;
/// exponential doubles the last delay; fibonacci adds the last two, restarts
/// after a reset to the base delay, and uses the base delay with a single
/// event; above `MaxDelay` the delay is capped, and reset to the base delay
/// when more than `MaxDelay` passed between the last reschedule and the
/// failure.
#[test]
fn next_delay_functions_and_max_delay() {
    let s = SECOND;
    // (policy, events as (ago, delay), expected delay)
    let cases: Vec<DelayCase> = vec![
        (
            unlimited(30 * s, "constant", 0),
            vec![(HOUR, 40 * s)],
            30 * s,
        ),
        (
            unlimited(30 * s, "constant", 10 * s),
            vec![(HOUR, 40 * s)],
            30 * s,
        ),
        (
            unlimited(5 * s, "exponential", 0),
            vec![(HOUR, 20 * s)],
            40 * s,
        ),
        (
            unlimited(5 * s, "exponential", 30 * s),
            vec![(20 * s, 20 * s)],
            30 * s,
        ),
        (
            unlimited(5 * s, "exponential", 30 * s),
            vec![(10 * MINUTE, 20 * s)],
            5 * s,
        ),
        (
            unlimited(5 * s, "fibonacci", 0),
            vec![(HOUR, 10 * s)],
            5 * s,
        ),
        (
            unlimited(5 * s, "fibonacci", 0),
            vec![(HOUR, 10 * s), (HOUR, 20 * s)],
            30 * s,
        ),
        (
            unlimited(5 * s, "fibonacci", 60 * s),
            vec![(HOUR, 60 * s), (HOUR, 5 * s)],
            5 * s,
        ),
        (
            unlimited(5 * s, "fibonacci", 60 * s),
            vec![(HOUR, 60 * s), (s, 10 * s)],
            60 * s,
        ),
        (unlimited(7 * s, "", 0), vec![(HOUR, 40 * s)], 7 * s),
    ];
    for (policy, events, delay) in cases {
        let events: Vec<_> = events.into_iter().map(|(a, d)| event(a, d)).collect();
        let (c, id) = one_failed(policy.clone(), Some(events.clone()), 0);
        assert_eq!(
            resched_of(&c.replay_job(JOB), &id),
            Resched::Later(now().add(delay)),
            "{policy:?} {events:?}"
        );
    }
}

/// Batch allocations told to stop are ignored unless they ran successfully,
/// in which case they count as untainted (scheduler/reconcile_util.go:373-380):
/// the ignored one's name is placed afresh.
#[test]
fn batch_allocs_told_to_stop_count_only_if_they_succeeded() {
    let mut c = Cluster::new();
    let mut spec = job_of(2, None);
    spec.job_type = "batch".into();
    let job = c.job(spec);
    let failed = c.alloc(&job, 0);
    {
        let a = c.alloc_mut(&failed);
        a.desired_status = status::STOP.into();
        a.client_status = status::FAILED.into();
        a.task_states
            .insert("web".into(), failed_state(now().add(-MINUTE)));
    }
    let done = c.alloc(&job, 1);
    {
        let a = c.alloc_mut(&done);
        a.desired_status = status::STOP.into();
        a.client_status = status::COMPLETE.into();
        a.task_states.insert(
            "web".into(),
            TaskState {
                state: "dead".into(),
                finished_at: now().add(-MINUTE),
                ..TaskState::default()
            },
        );
    }
    let r = c.replay_job(JOB);
    assert_eq!(places(&r), [(name(0), None, false, false)]);
    assert!(r.plan.stop.is_empty());
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            place: 1,
            ignore: 1,
            ..dc()
        }
    );
}

/// A terminal allocation that already has a `NextAllocation` is dropped
/// before anything else, not even counted as untainted
/// (scheduler/reconcile_util.go:329-331): its name is placed afresh.
#[test]
fn a_terminal_alloc_with_a_next_allocation_is_not_counted() {
    let (mut c, id) = one_failed(policy_30s(), None, HOUR);
    c.alloc_mut(&id).next_allocation = "replacement-gone".into();
    let r = c.replay_job(JOB);
    assert_eq!(resched_of(&r, &id), Resched::Not);
    assert_eq!(places(&r), [(name(0), None, false, false)]);
    assert!(r.plan.stop.is_empty());
}

// ---------------------------------------------------------------------------
// 4. Reschedule-later batching
// ---------------------------------------------------------------------------

/// `createLostLaterEvals` batches delays less than 5s after the first of a
/// batch into one eval; only the first eval it creates carries a
/// description (scheduler/reconcile.go:1186-1243), and each allocation is
/// updated with its eval's ID (reconcile.go:1140-1151).
#[test]
fn reschedule_later_evals_batch_in_five_second_windows() {
    let mut c = Cluster::new();
    let job = c.job(job_of(3, Some(policy_30s())));
    let mut ids = Vec::new();
    // Due at now+10s, now+15s-1ns and now+15s.
    for (i, ago) in [20 * SECOND, 15 * SECOND + 1, 15 * SECOND]
        .into_iter()
        .enumerate()
    {
        let id = c.alloc(&job, i as u64);
        failed_since(&mut c, &id, ago);
        ids.push(id);
    }
    let r = c.replay_job(JOB);
    let evals = &r.plan.followup_evals;
    assert_eq!(evals.len(), 2);
    assert_eq!(evals[0].wait_until, now().add(10 * SECOND));
    assert_eq!(
        sorted(evals[0].alloc_ids.clone()),
        [ids[0].clone(), ids[1].clone()]
    );
    assert_eq!(evals[0].status_description, desc::RESCHEDULING_FOLLOWUP);
    assert_eq!(evals[1].wait_until, now().add(15 * SECOND));
    assert_eq!(evals[1].alloc_ids, [ids[2].clone()]);
    assert_eq!(evals[1].status_description, "");
    let by_alloc: HashMap<_, _> = r
        .plan
        .attribute_updates
        .iter()
        .map(|u| (u.alloc_id.clone(), u.followup_eval_id.clone()))
        .collect();
    assert_eq!(by_alloc.len(), 3);
    assert_eq!(by_alloc[&ids[1]], evals[0].id);
    assert_eq!(by_alloc[&ids[2]], evals[1].id);
    assert!(r.plan.place.is_empty() && r.plan.stop.is_empty());
}

/// A group with both a delayed lost allocation (`stop_after_client_disconnect`)
/// and a failed allocation to reschedule later calls `createLostLaterEvals`
/// twice: each call describes its first eval (scheduler/reconcile.go:421,
/// 433, 1201-1212). The lost allocation is stopped with its eval's ID
/// (reconcile.go:920); nothing is placed while a lost allocation waits
/// (reconcile.go:482).
#[test]
fn lost_later_and_reschedule_later_evals_are_described_separately() {
    let mut c = Cluster::new();
    let mut spec = job_of(2, Some(policy_30s()));
    spec.task_groups[0].stop_after_client_disconnect = Some(MINUTE);
    let job = c.job(spec);
    let lost = c.alloc(&job, 0);
    c.set_node_status(&lost, node_status::DOWN);
    let failed = c.alloc(&job, 1);
    failed_since(&mut c, &failed, 20 * SECOND);

    let r = c.replay_job(JOB);
    let evals = &r.plan.followup_evals;
    assert_eq!(evals.len(), 2);
    // Sorted by time: the reschedule at +10s, the lost one at +1m5s
    // (stop_after_client_disconnect plus the default 5s kill timeout).
    assert_eq!(evals[0].wait_until, now().add(10 * SECOND));
    assert_eq!(evals[0].alloc_ids, std::slice::from_ref(&failed));
    assert_eq!(evals[1].wait_until, now().add(65 * SECOND));
    assert_eq!(evals[1].alloc_ids, std::slice::from_ref(&lost));
    for e in evals {
        assert_eq!(e.triggered_by, trigger::RETRY_FAILED_ALLOC);
        assert_eq!(e.status_description, desc::RESCHEDULING_FOLLOWUP);
    }
    assert_eq!(r.plan.stop.len(), 1);
    assert_eq!(r.plan.stop[0].alloc_id, lost);
    assert_eq!(r.plan.stop[0].client_status.as_deref(), Some("lost"));
    assert_eq!(
        r.plan.stop[0].followup_eval_id.as_deref(),
        Some(evals[1].id.as_str())
    );
    assert!(r.plan.place.is_empty());
    assert_eq!(r.plan.attribute_updates[0].followup_eval_id, evals[0].id);
}

// ---------------------------------------------------------------------------
// 5. computeStop: which allocations are stopped
// ---------------------------------------------------------------------------

/// A group over its count whose highest name belongs to a failed allocation
/// rescheduled now: `Highest` picks that name (the name index holds
/// `rescheduleNow`, scheduler/reconcile.go:438), no untainted allocation has
/// it, so the duplicate-names loop stops an arbitrary running one
/// (reconcile.go:989-1021), and the failed one is still replaced
/// (reconcile.go:685-697): three allocations for a count of two.
#[test]
fn stopping_below_a_rescheduled_name_stops_an_arbitrary_running_alloc() {
    let mut c = Cluster::new();
    let job = c.job(job_of(
        2,
        mock_job().task_groups[0].reschedule_policy.clone(),
    ));
    let running = c.allocs(&job, 3);
    let failed = c.alloc(&job, 3);
    failed_since(&mut c, &failed, HOUR);

    let r = c.replay_job(JOB);
    let s = stops(&r);
    assert_eq!(s.len(), 2);
    assert!(s.contains(&(failed.clone(), desc::RESCHEDULED.into(), None)));
    let not_needed: Vec<_> = s
        .iter()
        .filter(|(_, d, _)| d == desc::NOT_NEEDED)
        .map(|(id, _, _)| id.clone())
        .collect();
    assert_eq!(not_needed.len(), 1);
    assert!(running.contains(&not_needed[0]));
    assert_eq!(places(&r), [(name(3), Some(failed), true, false)]);
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            place: 1,
            stop: 2,
            ignore: 2,
            ..dc()
        }
    );
}

/// A reconnecting allocation `web[1]` with score `rec_score` (none: no
/// metrics) next to a replacement `web[1]` scoring 0.5 and `web[0]`, `web[2]`
/// scoring 0.9; the group has `count`.
fn reconnect_pair(count: i64, rec_score: Option<f64>) -> (Cluster, String, String, Vec<String>) {
    let mut c = Cluster::new();
    let job = c.job(resumable(count, Some(5 * MINUTE)));
    let mut others = Vec::new();
    for i in (0..count as u64).filter(|&i| i != 1) {
        let id = c.alloc(&job, i);
        set_node_score(&mut c, &id, 0.9);
        others.push(id);
    }
    let replacement = c.alloc(&job, 1);
    set_node_score(&mut c, &replacement, 0.5);
    let rec = c.alloc(&job, 1);
    client_state(&mut c, &rec, status::UNKNOWN, 2 * MINUTE);
    reconnect_event(&mut c, &rec, "web", 30 * SECOND);
    if let Some(score) = rec_score {
        set_node_score(&mut c, &rec, score);
    }
    (c, rec, replacement, others)
}

/// On equal scores the reconnecting allocation is kept and the replacement
/// stopped: only a strictly higher replacement score wins
/// (scheduler/reconcile.go:1082-1090).
#[test]
fn a_reconnecting_alloc_wins_a_score_tie() {
    let (c, rec, replacement, _) = reconnect_pair(2, Some(0.5));
    let r = c.replay_job(JOB);
    assert_eq!(bucket_of(&r, &rec), "reconnecting");
    assert_eq!(stops(&r), [(replacement, desc::RECONNECTED.into(), None)]);
    assert_eq!(r.plan.reconnect_updates.len(), 1);
    assert_eq!(r.plan.reconnect_updates[0].alloc_id, rec);
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            stop: 1,
            ignore: 2,
            ..dc()
        }
    );
}

/// A reconnecting allocation without score metadata is not compared (Nomad
/// logs and skips the pair, scheduler/reconcile.go:1077-1080); the count is
/// then met by stopping the highest name in the index, `web[2]`
/// (reconcile.go:989-1005), and the reconnecting allocation resumes next to
/// its replacement.
#[test]
fn a_reconnecting_alloc_without_metrics_makes_the_highest_name_stop() {
    let (c, rec, replacement, others) = reconnect_pair(3, None);
    let r = c.replay_job(JOB);
    let highest = others
        .iter()
        .find(|id| c.alloc_ref(id).name == name(2))
        .unwrap();
    assert_eq!(
        stops(&r),
        [(highest.clone(), desc::NOT_NEEDED.into(), None)]
    );
    assert_eq!(r.plan.reconnect_updates.len(), 1);
    assert_eq!(r.plan.reconnect_updates[0].alloc_id, rec);
    assert!(!r.plan.stop.iter().any(|s| s.alloc_id == replacement));
    assert!(r.plan.place.is_empty());
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            stop: 1,
            ignore: 3,
            ..dc()
        }
    );
}

/// A reconnecting allocation with a reschedule transition must not resume:
/// it is stopped as not needed without a comparison, and gets no reconnect
/// update (scheduler/reconcile.go:1036-1055, 1166-1171).
#[test]
fn a_reconnecting_alloc_marked_for_reschedule_is_stopped() {
    let (mut c, rec, _, _) = reconnect_pair(2, Some(0.9));
    c.alloc_mut(&rec).desired_transition.reschedule = Some(true);
    let r = c.replay_job(JOB);
    assert_eq!(bucket_of(&r, &rec), "reconnecting");
    assert_eq!(stops(&r), [(rec, desc::NOT_NEEDED.into(), None)]);
    assert!(r.plan.reconnect_updates.is_empty());
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            stop: 1,
            ignore: 2,
            ..dc()
        }
    );
}

/// A reconnecting allocation that loses to two same-named replacements is
/// stopped twice (the inner loop goes on after a loss,
/// scheduler/reconcile.go:1059-1103), each stop taking one off `remove`;
/// `DesiredUpdates.Stop` counts the stop *set*, so it is stopped once there
/// (reconcile.go:444), and both replacements stay: three allocations for a
/// count of two.
#[test]
fn a_reconnecting_alloc_losing_twice_is_stopped_twice_but_counted_once() {
    let (mut c, rec, _, _) = reconnect_pair(2, Some(0.2));
    let job = c.snapshot.jobs[0].clone();
    let second = c.alloc(&job, 1);
    set_node_score(&mut c, &second, 0.6);

    let r = c.replay_job(JOB);
    assert_eq!(
        stops(&r),
        [
            (rec.clone(), desc::NOT_NEEDED.into(), None),
            (rec, desc::NOT_NEEDED.into(), None)
        ]
    );
    assert!(r.plan.reconnect_updates.is_empty());
    assert!(r.plan.place.is_empty());
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            stop: 1,
            ignore: 3,
            ..dc()
        }
    );
}

// ---------------------------------------------------------------------------
// 6. Placements: previous allocation, reschedule and lost flags
// ---------------------------------------------------------------------------

/// A batch job's running allocation on a down node is lost: stopped as lost
/// and replaced with the lost flag (scheduler/reconcile.go:918-920,
/// 702-721); its complete allocation on the same kind of node is terminal,
/// untainted and counted (reconcile_util.go:229-232, 383-386), so not
/// replaced.
#[test]
fn a_batch_alloc_on_a_down_node_is_replaced_a_complete_one_is_kept() {
    let mut c = Cluster::new();
    let mut spec = job_of(2, None);
    spec.job_type = "batch".into();
    let job = c.job(spec);
    let running = c.alloc(&job, 0);
    c.set_node_status(&running, node_status::DOWN);
    let complete = c.alloc(&job, 1);
    c.alloc_mut(&complete).client_status = status::COMPLETE.into();
    c.set_node_status(&complete, node_status::DOWN);

    let r = c.replay_job(JOB);
    assert_eq!(bucket_of(&r, &running), "lost");
    assert_eq!(bucket_of(&r, &complete), "untainted");
    assert_eq!(
        stops(&r),
        [(running.clone(), desc::LOST.into(), Some("lost".into()))]
    );
    assert_eq!(places(&r), [(name(0), Some(running), false, true)]);
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            place: 1,
            stop: 1,
            ignore: 1,
            ..dc()
        }
    );
}

/// While a lost allocation waits out `stop_after_client_disconnect`, the
/// group places nothing (scheduler/reconcile.go:482), yet
/// `computeReplacements` still stops a failed allocation due for
/// rescheduling now, unreplaced (reconcile.go:756-763).
#[test]
fn a_waiting_lost_alloc_holds_every_placement_but_not_the_reschedule_stop() {
    let mut c = Cluster::new();
    let mut spec = job_of(2, mock_job().task_groups[0].reschedule_policy.clone());
    spec.task_groups[0].stop_after_client_disconnect = Some(MINUTE);
    let job = c.job(spec);
    let lost = c.alloc(&job, 0);
    c.set_node_status(&lost, node_status::DOWN);
    let failed = c.alloc(&job, 1);
    failed_since(&mut c, &failed, HOUR);

    let r = c.replay_job(JOB);
    assert_eq!(
        group(&r, "web").reschedule_now,
        std::slice::from_ref(&failed)
    );
    assert!(r.plan.place.is_empty());
    let evals = &r.plan.followup_evals;
    assert_eq!(evals.len(), 1);
    assert_eq!(
        stops(&r),
        sorted([
            (lost, desc::LOST.into(), Some("lost".into())),
            (failed, desc::RESCHEDULED.into(), None)
        ])
    );
    assert_eq!(web_changes(&r), DesiredChanges { stop: 2, ..dc() });
}

/// `WaitClientStop` counts from the first lost transition and adds the
/// longest kill timeout (at least the 5s default); a wait already over does
/// not delay (nomad/structs/structs.go:9883-9913,
/// scheduler/reconcile_util.go:466-484).
#[test]
fn wait_client_stop_counts_from_the_first_lost_transition() {
    let build = |first_lost_ago: Duration| {
        let mut c = Cluster::new();
        let mut spec = job_of(1, None);
        spec.task_groups[0].stop_after_client_disconnect = Some(MINUTE);
        spec.task_groups[0].tasks[0].kill_timeout = 20 * SECOND;
        let mut sidecar = spec.task_groups[0].tasks[0].clone();
        sidecar.name = "sidecar".into();
        sidecar.kill_timeout = 3 * SECOND;
        spec.task_groups[0].tasks.push(sidecar);
        let job = c.job(spec);
        let id = c.alloc(&job, 0);
        c.set_node_status(&id, node_status::DOWN);
        client_state(&mut c, &id, status::LOST, first_lost_ago);
        client_state(&mut c, &id, status::LOST, 10 * SECOND);
        (c, id)
    };
    let (c, _) = build(30 * SECOND);
    let r = c.replay_job(JOB);
    assert_eq!(r.plan.followup_evals.len(), 1);
    assert_eq!(r.plan.followup_evals[0].wait_until, now().add(50 * SECOND));
    assert!(r.plan.place.is_empty());

    let (c, id) = build(2 * MINUTE);
    let r = c.replay_job(JOB);
    assert!(r.plan.followup_evals.is_empty());
    assert_eq!(places(&r), [(name(0), Some(id), false, true)]);
}

/// At count 0 a failed allocation due now is still rescheduled:
/// `computePlacements` adds every reschedule before looking at the count
/// (scheduler/reconcile.go:685-697), while the running allocation is stopped.
#[test]
fn count_zero_still_reschedules_a_failed_alloc() {
    let mut c = Cluster::new();
    let job = c.job(job_of(
        0,
        mock_job().task_groups[0].reschedule_policy.clone(),
    ));
    let running = c.alloc(&job, 0);
    let failed = c.alloc(&job, 1);
    failed_since(&mut c, &failed, HOUR);

    let r = c.replay_job(JOB);
    assert_eq!(
        stops(&r),
        sorted([
            (running, desc::NOT_NEEDED.into(), None),
            (failed.clone(), desc::RESCHEDULED.into(), None)
        ])
    );
    assert_eq!(places(&r), [(name(1), Some(failed), true, false)]);
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            place: 1,
            stop: 2,
            ..dc()
        }
    );
}

// ---------------------------------------------------------------------------
// 7. computeUpdates: ignore, in-place, destructive
// ---------------------------------------------------------------------------

/// The current job (version 1) is `change(old)`; `web[0]` embeds `old` and
/// has failed, with no reschedule policy to replace it.
fn failed_of_older_version(change: fn(&Job) -> Job) -> (Cluster, String) {
    let mut c = Cluster::new();
    let old = Arc::new(job_of(1, None));
    let mut current = change(&old);
    current.version = 1;
    c.job(current);
    let id = c.alloc(&old, 0);
    failed_since(&mut c, &id, HOUR);
    (c, id)
}

/// `genericAllocUpdateFn` checks the task changes before the terminal status
/// (scheduler/util.go:1041-1061): a failed, unreschedulable allocation of an
/// older version with changed tasks is a destructive update, which replaces
/// it (scheduler/reconcile.go:814-828); with only in-place changes it is
/// ignored.
#[test]
fn a_terminal_alloc_with_changed_tasks_is_destructively_updated() {
    let (c, id) = failed_of_older_version(destructive_update);
    let r = c.replay_job(JOB);
    assert_eq!(r.plan.destructive_update.len(), 1);
    assert_eq!(r.plan.destructive_update[0].alloc_id, id);
    assert!(r.plan.stop.is_empty() && r.plan.place.is_empty());
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            destructive_update: 1,
            ..dc()
        }
    );

    let (c, _) = failed_of_older_version(inplace_update);
    let r = c.replay_job(JOB);
    assert!(r.plan.in_place_update.is_empty() && r.plan.destructive_update.is_empty());
    assert_eq!(web_changes(&r), DesiredChanges { ignore: 1, ..dc() });
}

/// A running allocation whose node is no longer in the job's datacenters
/// needs a destructive update even when the tasks did not change
/// (scheduler/util.go:1075-1078).
#[test]
fn a_node_outside_the_new_datacenters_forces_a_destructive_update() {
    let mut c = Cluster::new();
    let old = Arc::new(job_of(1, None));
    let mut current = inplace_update(&old);
    current.datacenters = vec!["dc2".into()];
    let current = c.job(current);
    let id = c.alloc(&old, 0);
    let r = c.replay_job(JOB);
    assert_eq!(r.plan.destructive_update.len(), 1);
    assert_eq!(r.plan.destructive_update[0].alloc_id, id);
    assert!(r.plan.destructive_update[0].reason.contains("datacenters"));

    // The same job in dc1 again is an in-place update.
    let mut back = (*current).clone();
    back.datacenters = vec!["dc1".into()];
    c.job(back);
    let r = c.replay_job(JOB);
    assert_eq!(r.plan.in_place_update.len(), 1);
}

/// Task meta is compared combined with group and job meta
/// (`CombinedTaskMeta`, scheduler/util.go:483-487): changing job meta is
/// destructive, moving a job meta key to the group is not.
#[test]
fn task_meta_is_compared_combined_with_group_and_job_meta() {
    let changed = |edit: fn(&mut Job)| {
        let mut c = Cluster::new();
        let old = Arc::new(job_of(1, None));
        let mut current = inplace_update(&old);
        edit(&mut current);
        c.job(current);
        c.alloc(&old, 0);
        c.replay_job(JOB)
    };
    let r = changed(|j| {
        j.meta.insert("owner".into(), "bob".into());
    });
    assert_eq!(r.plan.destructive_update.len(), 1);
    assert!(r.plan.destructive_update[0].reason.contains("meta"));

    let r = changed(|j| {
        let owner = j.meta.remove("owner").unwrap();
        j.task_groups[0].meta.insert("owner".into(), owner);
    });
    assert!(r.plan.destructive_update.is_empty());
    assert_eq!(r.plan.in_place_update.len(), 1);
}

// ---------------------------------------------------------------------------
// 8. Deployments
// ---------------------------------------------------------------------------

/// A job with one group per `(name, auto_promote)`, each of count 2 with one
/// canary, whose allocations embed the version before a destructive change.
fn canary_rollout(groups: &[(&str, bool)]) -> Cluster {
    let mut c = Cluster::new();
    let mut old = mock_job();
    let template = old.task_groups[0].clone();
    old.task_groups = groups
        .iter()
        .map(|(name, auto)| {
            let mut tg = template.clone();
            tg.name = (*name).into();
            tg.count = 2;
            tg.update = Some(UpdateStrategy {
                canary: 1,
                max_parallel: 1,
                auto_promote: *auto,
                ..UpdateStrategy::default()
            });
            tg
        })
        .collect();
    let old = Arc::new(old);
    let mut current = destructive_update(&old);
    current.version = 1;
    c.job(current);
    for (name, _) in groups {
        for i in 0..2 {
            c.alloc_in(&old, name, i);
        }
    }
    c
}

/// A deployment created with unpromoted canaries is described as needing
/// promotion, automatic only if every canarying group auto-promotes
/// (scheduler/reconcile.go:256-265, nomad/structs/structs.go:9201-9224).
#[test]
fn a_created_canary_deployment_says_how_it_will_be_promoted() {
    for (groups, description) in [
        (&[("web", true)][..], deployment_status::DESC_AUTO_PROMOTION),
        (
            &[("web", false)][..],
            deployment_status::DESC_NEEDS_PROMOTION,
        ),
        (
            &[("a", true), ("b", false)][..],
            deployment_status::DESC_NEEDS_PROMOTION,
        ),
    ] {
        let r = canary_rollout(groups).replay_job(JOB);
        let d = r.plan.deployment.as_ref().expect("a created deployment");
        assert_eq!(d.status, deployment_status::RUNNING);
        assert_eq!(d.status_description, description, "{groups:?}");
        assert_eq!(d.groups.len(), groups.len());
        for (name, auto) in groups {
            let g = &d.groups[*name];
            assert_eq!((g.desired_total, g.desired_canaries), (2, 1));
            assert_eq!(g.auto_promote, *auto);
        }
        assert_eq!(r.plan.place.len(), groups.len());
        assert!(r.plan.place.iter().all(|p| p.canary));
        assert!(r.plan.destructive_update.is_empty());
    }
}

/// A created deployment's desired total counts destructive and in-place
/// updates and placements (scheduler/reconcile.go:455-457, 484-486), and the
/// in-place updates join it (generic_sched.go:404-425).
#[test]
fn a_created_deployment_counts_in_place_updates_and_placements() {
    let mut c = Cluster::new();
    let mut old = job_of(3, None);
    old.task_groups[0].update = Some(no_canary_update());
    let old = Arc::new(old);
    let mut current = inplace_update(&old);
    current.version = 1;
    current.task_groups[0].count = 5;
    c.job(current);
    c.allocs(&old, 3);

    let r = c.replay_job(JOB);
    let d = r.plan.deployment.as_ref().expect("a created deployment");
    assert_eq!(d.groups["web"].desired_total, 5);
    assert_eq!(d.status_description, deployment_status::DESC_RUNNING);
    assert_eq!(r.plan.in_place_update.len(), 3);
    assert!(
        r.plan
            .in_place_update
            .iter()
            .all(|u| u.deployment_id.as_deref() == Some(d.id.as_str()))
    );
    assert_eq!(
        places(&r),
        [(name(3), None, false, false), (name(4), None, false, false)]
    );
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            place: 2,
            in_place_update: 3,
            ..dc()
        }
    );
}

/// `computeDeploymentUpdates` marks the current deployment successful when
/// every group is complete, whatever its status, so a failed deployment
/// whose allocations are all healthy is marked successful
/// (scheduler/reconcile.go:233-254, 890-909).
#[test]
fn a_failed_deployment_with_everything_healthy_is_marked_successful() {
    let mut c = Cluster::new();
    let mut spec = job_of(2, None);
    spec.task_groups[0].update = Some(no_canary_update());
    let job = c.job(spec);
    let d = c.new_deployment(&job);
    c.deployment_mut(&d).status = deployment_status::FAILED.into();
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            desired_total: 2,
            healthy_allocs: 2,
            ..DeploymentState::default()
        },
    );
    healthy_deployment_allocs(&mut c, &job, "web", &d, 0..2);
    for a in &mut c.snapshot.allocs {
        a.client_status = status::RUNNING.into();
    }

    let r = c.replay_job(JOB);
    assert_deployment_update(
        &r,
        &d,
        deployment_status::SUCCESSFUL,
        deployment_status::DESC_SUCCESSFUL,
    );
}

/// A paused deployment places only lost replacements and reschedules
/// (scheduler/reconcile.go:770-812). `place[:len(lost)]` takes the first
/// placements, and reschedules come first (reconcile.go:685-697): with one
/// failed and one lost allocation the reschedule is placed twice and the lost
/// allocation is not replaced.
#[test]
fn a_paused_deployment_places_the_reschedule_twice_instead_of_the_lost_alloc() {
    let mut c = Cluster::new();
    let mut spec = job_of(2, mock_job().task_groups[0].reschedule_policy.clone());
    spec.task_groups[0].update = Some(no_canary_update());
    let job = c.job(spec);
    let d = c.new_deployment(&job);
    c.deployment_mut(&d).status = deployment_status::PAUSED.into();
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            desired_total: 2,
            ..DeploymentState::default()
        },
    );
    let failed = c.alloc(&job, 0);
    failed_since(&mut c, &failed, HOUR);
    let lost = c.alloc(&job, 1);
    c.set_node_status(&lost, node_status::DOWN);

    let r = c.replay_job(JOB);
    let rescheduled = (name(0), Some(failed.clone()), true, false);
    assert_eq!(places(&r), [rescheduled.clone(), rescheduled]);
    assert_eq!(
        stops(&r),
        sorted([
            (failed, desc::RESCHEDULED.into(), None),
            (lost, desc::LOST.into(), Some("lost".into()))
        ])
    );
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            place: 2,
            stop: 2,
            ..dc()
        }
    );
    assert!(r.plan.deployment_updates.is_empty());
}

// ---------------------------------------------------------------------------
// 9. Stopped and purged jobs, removed groups, allocations already stopping
// ---------------------------------------------------------------------------

/// A stopped job cancels its active deployment (scheduler/reconcile.go:292-305)
/// and `handleStop` stops every non-terminal allocation, lost ones as lost,
/// counting the unknown one it leaves alone (reconcile.go:335-354); terminal
/// allocations are set aside (reconcile_util.go:439-447).
#[test]
fn a_stopped_job_stops_everything_but_unknown_allocs() {
    let mut c = Cluster::new();
    let mut spec = resumable(4, Some(5 * MINUTE));
    spec.task_groups[0].update = Some(no_canary_update());
    spec.stop = true;
    let job = c.job(spec);
    let d = c.new_deployment(&job);
    let running = c.alloc(&job, 0);
    let unknown = unknown_alloc(&mut c, &job, 1, MINUTE);
    let lost = c.alloc(&job, 2);
    c.set_node_status(&lost, node_status::DOWN);
    let complete = c.alloc(&job, 3);
    c.alloc_mut(&complete).client_status = status::COMPLETE.into();

    let r = c.replay_job(JOB);
    assert!(r.stopped);
    assert_deployment_update(
        &r,
        &d,
        deployment_status::CANCELLED,
        deployment_status::DESC_STOPPED_JOB,
    );
    assert_eq!(bucket_of(&r, &unknown), "ignore");
    assert_eq!(
        stops(&r),
        [
            (running, desc::NOT_NEEDED.into(), None),
            (lost, desc::LOST.into(), Some("lost".into()))
        ]
    );
    assert_eq!(web_changes(&r), DesiredChanges { stop: 3, ..dc() });
    let aside: Vec<_> = group(&r, "web")
        .set_aside
        .iter()
        .map(|e| e.id.clone())
        .collect();
    assert_eq!(aside, [complete]);
    assert!(r.plan.place.is_empty());
}

/// A job absent from the state store is a nil job, which `Stopped()` calls
/// stopped (nomad/structs/structs.go:4513-4515): its deployment is cancelled
/// and its allocations stopped (scheduler/reconcile.go:212-215, 292-305).
#[test]
fn a_purged_job_is_stopped_and_its_deployment_cancelled() {
    let mut c = Cluster::new();
    let mut spec = job_of(2, None);
    spec.id = "gone".into();
    spec.task_groups[0].update = Some(no_canary_update());
    let job = Arc::new(spec);
    let d = c.new_deployment(&job);
    let a = c.alloc(&job, 0);
    let b = c.alloc(&job, 1);
    c.set_node_status(&b, node_status::DOWN);

    let r = c.replay_job("gone");
    assert!(r.purged && r.stopped);
    assert_deployment_update(
        &r,
        &d,
        deployment_status::CANCELLED,
        deployment_status::DESC_STOPPED_JOB,
    );
    assert_eq!(
        stops(&r),
        [
            (a, desc::NOT_NEEDED.into(), None),
            (b, desc::LOST.into(), Some("lost".into()))
        ]
    );
    assert_eq!(group(&r, "web").desired_changes.stop, 2);
}

/// A task group removed from the job stops all its allocations through
/// `filterAndStopAll`, terminal ones included (scheduler/reconcile.go:394-397,
/// 346-354), while the new group is placed.
#[test]
fn a_removed_group_stops_its_allocs_terminal_ones_included() {
    let mut c = Cluster::new();
    let old = Arc::new(job_of(2, None));
    let mut current = destructive_update(&old);
    current.version = 1;
    current.task_groups[0].name = "api".into();
    current.task_groups[0].count = 1;
    c.job(current);
    let running = c.alloc(&old, 0);
    let failed = c.alloc(&old, 1);
    failed_since(&mut c, &failed, HOUR);

    let r = c.replay_job(JOB);
    assert!(group(&r, "web").removed);
    assert_eq!(
        stops(&r),
        sorted([
            (running, desc::NOT_NEEDED.into(), None),
            (failed, desc::NOT_NEEDED.into(), None)
        ])
    );
    assert_eq!(group(&r, "web").desired_changes.stop, 2);
    assert_eq!(r.plan.place.len(), 1);
    assert_eq!(&*r.plan.place[0].task_group, "api");
}

/// Before reconciling, the scheduler marks allocations already told to stop
/// but still pending or running on a down or garbage-collected node as lost
/// (scheduler/generic_sched.go:376, util.go:1007-1030); a disconnected node
/// does not count, and none of it is in the desired changes.
#[test]
fn allocs_told_to_stop_on_down_nodes_are_marked_lost() {
    let mut c = Cluster::new();
    let job = c.job(job_of(1, None));
    let kept = c.alloc(&job, 0);
    let stopping = |c: &mut Cluster, client: &str, node: Option<&str>| {
        let id = c.alloc(&job, 1);
        let a = c.alloc_mut(&id);
        a.desired_status = status::STOP.into();
        a.client_status = client.into();
        match node {
            Some(s) => c.set_node_status(&id, s),
            None => {
                let n = c.alloc_ref(&id).node_id.clone();
                c.snapshot.nodes.retain(|x| x.id != n);
            }
        }
        id
    };
    let on_down = stopping(&mut c, status::RUNNING, Some(node_status::DOWN));
    let on_gone = stopping(&mut c, status::PENDING, None);
    let _disconnected = stopping(&mut c, status::RUNNING, Some(node_status::DISCONNECTED));
    let _complete = stopping(&mut c, status::COMPLETE, Some(node_status::DOWN));

    let r = c.replay_job(JOB);
    assert_eq!(
        stops(&r),
        [
            (on_down, desc::LOST.into(), Some("lost".into())),
            (on_gone, desc::LOST.into(), Some("lost".into()))
        ]
    );
    assert_eq!(bucket_of(&r, &kept), "untainted");
    assert_eq!(web_changes(&r), DesiredChanges { ignore: 1, ..dc() });
}

// ---------------------------------------------------------------------------
// 10. Counting across groups
// ---------------------------------------------------------------------------

/// Each group's `Ignore` adds the reconnect updates of every group reconciled
/// so far (scheduler/reconcile.go:449); plan-inspect reconciles groups by
/// name, one of the orders Go's map can take.
#[test]
fn ignore_counts_reconnect_updates_of_earlier_groups() {
    let mut c = Cluster::new();
    let mut spec = resumable(1, Some(5 * MINUTE));
    let mut b = spec.task_groups[0].clone();
    spec.task_groups[0].name = "a".into();
    b.name = "b".into();
    b.count = 2;
    spec.task_groups.push(b);
    let job = c.job(spec);
    let rec = c.alloc_in(&job, "a", 0);
    client_state(&mut c, &rec, status::UNKNOWN, 2 * MINUTE);
    reconnect_event(&mut c, &rec, "web", 30 * SECOND);
    c.alloc_in(&job, "b", 0);
    c.alloc_in(&job, "b", 1);

    let r = c.replay_job(JOB);
    assert_eq!(r.plan.reconnect_updates.len(), 1);
    assert_eq!(
        group(&r, "a").desired_changes,
        DesiredChanges { ignore: 1, ..dc() }
    );
    assert_eq!(
        group(&r, "b").desired_changes,
        DesiredChanges { ignore: 3, ..dc() }
    );
}

// ---------------------------------------------------------------------------
// 11. Canaries and multiregion deployments
// ---------------------------------------------------------------------------

/// A canary on a disconnected node is disconnecting, so
/// `cancelUnneededCanaries` no longer counts it as a canary
/// (scheduler/reconcile.go:619-624): the group places a new canary
/// (reconcile.go:465-468, 539-553) and also reschedules the disconnected one,
/// as a canary, through `computeReplacements` even though the deployment is
/// canarying (reconcile.go:787-808).
#[test]
fn a_disconnected_canary_is_rescheduled_and_replaced_by_a_new_canary() {
    let mut c = Cluster::new();
    let mut old = resumable(2, Some(5 * MINUTE));
    old.task_groups[0].update = Some(UpdateStrategy {
        canary: 1,
        max_parallel: 1,
        ..UpdateStrategy::default()
    });
    let old = Arc::new(old);
    let mut current = destructive_update(&old);
    current.version = 1;
    let job = c.job(current);
    let d = c.new_deployment(&job);
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            desired_canaries: 1,
            desired_total: 2,
            ..DeploymentState::default()
        },
    );
    c.allocs(&old, 2);
    let canary = c.alloc(&job, 0);
    {
        let a = c.alloc_mut(&canary);
        a.deployment_id = d.clone();
        a.deployment_status = Some(AllocDeploymentStatus {
            canary: true,
            healthy: None,
        });
    }
    c.add_placed_canary(&d, "web", &canary);
    c.set_node_status(&canary, node_status::DISCONNECTED);

    let r = c.replay_job(JOB);
    assert_eq!(bucket_of(&r, &canary), "disconnecting");
    let mut got: Vec<_> = r
        .plan
        .place
        .iter()
        .map(|p| {
            (
                p.name.clone(),
                p.canary,
                p.previous_alloc_id.clone(),
                p.reschedule,
            )
        })
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            (name(0), true, None, false),
            (name(0), true, Some(canary.clone()), true)
        ]
    );
    assert!(r.plan.stop.is_empty());
    assert_eq!(r.plan.disconnect_updates.len(), 1);
    assert!(r.plan.destructive_update.is_empty());
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            place: 1,
            canary: 1,
            ignore: 2,
            ..dc()
        }
    );
}

/// `mock.Job()` as a multiregion job of `count`, with a rolling update.
fn multiregion(count: i64) -> Job {
    let mut j = job_of(count, None);
    j.task_groups[0].update = Some(no_canary_update());
    j.multiregion = Some(Multiregion {
        regions: GoValue(json!([{"Name": "east"}, {"Name": "west"}])),
    });
    j
}

/// A multiregion job without a deployment is paused: nothing is placed
/// (scheduler/reconcile.go:274-280, 491, 770-784), yet the deployment it
/// creates is pending, waiting for its peers (reconcile.go:876-883).
#[test]
fn a_new_multiregion_job_waits_for_its_peers() {
    let mut c = Cluster::new();
    c.job(multiregion(2));
    let r = c.replay_job(JOB);
    assert!(r.plan.place.is_empty());
    let d = r.plan.deployment.as_ref().expect("a created deployment");
    assert_eq!(d.status, deployment_status::PENDING);
    assert_eq!(
        d.status_description,
        deployment_status::DESC_PENDING_FOR_PEER
    );
    assert_eq!(d.groups["web"].desired_total, 2);
    assert_eq!(web_changes(&r), dc());
}

/// `computeDeploymentPaused` spares periodic *or* parameterized multiregion
/// jobs, `createDeployment` only those that are both
/// (scheduler/reconcile.go:278 vs 879): a periodic multiregion job places at
/// once and still creates a pending deployment.
#[test]
fn a_periodic_multiregion_job_places_but_its_deployment_is_pending() {
    let mut c = Cluster::new();
    let mut spec = multiregion(2);
    spec.periodic = GoValue(json!({"Enabled": true, "Spec": "*/5 * * * *"}));
    c.job(spec);
    let r = c.replay_job(JOB);
    assert_eq!(r.plan.place.len(), 2);
    let d = r.plan.deployment.as_ref().expect("a created deployment");
    assert_eq!(d.status, deployment_status::PENDING);
}

/// A complete multiregion deployment is marked blocked, waiting for its
/// peers, unless it is already unblocking or successful
/// (scheduler/reconcile.go:235-246).
#[test]
fn a_complete_multiregion_deployment_is_blocked() {
    for (status, update) in [
        (deployment_status::RUNNING, true),
        (deployment_status::BLOCKED, true),
        (deployment_status::UNBLOCKING, false),
    ] {
        let mut c = Cluster::new();
        let job = c.job(multiregion(2));
        let d = c.new_deployment(&job);
        c.deployment_mut(&d).status = status.into();
        c.set_deployment_state(
            &d,
            "web",
            DeploymentState {
                desired_total: 2,
                healthy_allocs: 2,
                ..DeploymentState::default()
            },
        );
        healthy_deployment_allocs(&mut c, &job, "web", &d, 0..2);
        let r = c.replay_job(JOB);
        if update {
            assert_deployment_update(
                &r,
                &d,
                deployment_status::BLOCKED,
                deployment_status::DESC_BLOCKED,
            );
        } else {
            assert!(r.plan.deployment_updates.is_empty(), "{status}");
        }
    }
}

/// Only an active deployment is cancelled: a paused one of an older version
/// is cancelled as superseded, a failed one is left as it is; a stopped job's
/// failed deployment gets no update either (scheduler/reconcile.go:291-325,
/// nomad/structs/structs.go:9160-9167).
#[test]
fn only_active_deployments_are_cancelled() {
    for (stop_job, status, cancelled) in [
        (
            false,
            deployment_status::PAUSED,
            Some(deployment_status::DESC_NEWER_JOB),
        ),
        (false, deployment_status::FAILED, None),
        (
            true,
            deployment_status::PAUSED,
            Some(deployment_status::DESC_STOPPED_JOB),
        ),
        (true, deployment_status::FAILED, None),
    ] {
        let mut c = Cluster::new();
        let mut old = job_of(2, None);
        old.task_groups[0].update = Some(no_canary_update());
        let old = Arc::new(old);
        let d = c.new_deployment(&old);
        c.deployment_mut(&d).status = status.into();
        let mut current = (*old).clone();
        if stop_job {
            current.stop = true;
        } else {
            current.version = 1;
        }
        c.job(current);
        c.allocs(&old, 2);
        let r = c.replay_job(JOB);
        match cancelled {
            Some(description) => {
                assert_deployment_update(&r, &d, deployment_status::CANCELLED, description)
            }
            None => assert!(r.plan.deployment_updates.is_empty(), "{stop_job} {status}"),
        }
    }
}

/// A successful deployment is no longer current (scheduler/reconcile.go:327-331);
/// replacing a lost allocation of the same job version then creates no new
/// deployment, since the job already ran and its spec is not changing
/// (reconcile.go:859-873).
#[test]
fn a_lost_replacement_after_a_successful_deployment_creates_none() {
    let mut c = Cluster::new();
    let mut spec = job_of(2, None);
    spec.task_groups[0].update = Some(no_canary_update());
    let job = c.job(spec);
    let d = c.new_deployment(&job);
    c.deployment_mut(&d).status = deployment_status::SUCCESSFUL.into();
    let ids = c.allocs(&job, 2);
    c.set_node_status(&ids[1], node_status::DOWN);
    let r = c.replay_job(JOB);
    assert_eq!(places(&r), [(name(1), Some(ids[1].clone()), false, true)]);
    assert!(r.plan.deployment.is_none());
    assert!(r.plan.deployment_updates.is_empty());
}

/// `computeUpdates` sorts untainted allocations by the update they need
/// (scheduler/reconcile.go:1116-1135, util.go:1035-1061): the current version
/// is ignored, a version differing only outside the tasks is updated in
/// place, older task definitions are destructive; without a deployment,
/// `max_parallel` bounds the destructive updates and the rest count as
/// ignored (reconcile.go:641-644, 814-821). The deployment created counts all
/// of them (reconcile.go:455-457).
#[test]
fn ignore_in_place_and_destructive_are_counted_apart() {
    let mut c = Cluster::new();
    let mut v0 = job_of(4, None);
    v0.task_groups[0].update = Some(UpdateStrategy {
        max_parallel: 1,
        ..UpdateStrategy::default()
    });
    let v0 = Arc::new(v0);
    let mut v1 = destructive_update(&v0);
    v1.version = 1;
    let v1 = Arc::new(v1);
    let mut v2 = inplace_update(&v1);
    v2.version = 2;
    let v2 = c.job(v2);
    c.alloc(&v2, 0);
    let inplace = c.alloc(&v1, 1);
    let first = c.alloc(&v0, 2);
    c.alloc(&v0, 3);

    let r = c.replay_job(JOB);
    assert_eq!(r.plan.in_place_update.len(), 1);
    assert_eq!(r.plan.in_place_update[0].alloc_id, inplace);
    assert_eq!(r.plan.destructive_update.len(), 1);
    assert_eq!(r.plan.destructive_update[0].alloc_id, first);
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            ignore: 2,
            in_place_update: 1,
            destructive_update: 1,
            ..dc()
        }
    );
    let d = r.plan.deployment.as_ref().expect("a created deployment");
    assert_eq!(d.groups["web"].desired_total, 3);
    assert_eq!(
        r.plan.in_place_update[0].deployment_id.as_deref(),
        Some(d.id.as_str())
    );
}
