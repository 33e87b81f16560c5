//! Allocations on tainted nodes: `filterByTainted`'s buckets, lost and
//! draining nodes, `stop_after_client_disconnect`.
//!
//! Nomad's tests from scheduler/reconcile_test.go and reconcile_util_test.go
//! at 8ac3e642e6 keep their names (snake case). `filterByTainted` is tested on
//! the core directly, as Nomad does (an explicit tainted-node map, an
//! `AllocSet` and a `TaintContext`; sets compared by allocation ID), and
//! through `replay` over the whole matrix of node, client and desired states.

use std::sync::Arc;

use plan_inspect::model::*;
use plan_inspect::reconciler::{
    AllocSet, Bitmap, Bucket, DesiredChanges, Rules, TaintContext, TaintedNodes, TaintedSets, desc,
};
use plan_inspect::time::{Duration, SECOND, Time};
use plan_inspect::version::{Release, VersionRequest};
use serde_json::json;

use crate::common::*;

/// Sets the nodes of the first `n` allocations down.
fn down(c: &mut Cluster, ids: &[String], n: usize) {
    for id in &ids[..n] {
        c.set_node_status(id, node_status::DOWN);
    }
}

/// TestReconciler_LostNode (scheduler/reconcile_test.go:887).
#[test]
fn test_reconciler_lost_node() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    let ids = c.allocs(&job, 10);
    down(&mut c, &ids, 2);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            place: 2,
            stop: 2,
            ..Expect::default()
        },
        &web(DesiredChanges {
            place: 2,
            stop: 2,
            ignore: 8,
            ..dc()
        }),
    );
    assert_eq!(stop_indexes(&r), int_range(&[0, 1]));
    assert_eq!(place_indexes(&r), int_range(&[0, 1]));
    for s in &r.plan.stop {
        assert_eq!(
            s.client_status.as_ref().map(ClientStatus::as_str),
            Some(status::LOST)
        );
        assert_eq!(s.description, desc::LOST);
    }
}

/// TestReconciler_LostNode_ScaleUp (scheduler/reconcile_test.go:938).
#[test]
fn test_reconciler_lost_node_scale_up() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 15;
    let job = c.job(spec);
    let ids = c.allocs(&job, 10);
    down(&mut c, &ids, 2);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            place: 7,
            stop: 2,
            ..Expect::default()
        },
        &web(DesiredChanges {
            place: 7,
            stop: 2,
            ignore: 8,
            ..dc()
        }),
    );
    assert_eq!(stop_indexes(&r), int_range(&[0, 1]));
    assert_eq!(place_indexes(&r), int_range(&[0, 1, 10, 14]));
}

/// TestReconciler_LostNode_ScaleDown (scheduler/reconcile_test.go:991).
#[test]
fn test_reconciler_lost_node_scale_down() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 5;
    let job = c.job(spec);
    let ids = c.allocs(&job, 10);
    down(&mut c, &ids, 2);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            stop: 5,
            ..Expect::default()
        },
        &web(DesiredChanges {
            stop: 5,
            ignore: 5,
            ..dc()
        }),
    );
    assert_eq!(stop_indexes(&r), int_range(&[0, 1, 7, 9]));
}

/// TestReconciler_DrainNode (scheduler/reconcile_test.go:1041).
#[test]
fn test_reconciler_drain_node() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    let ids = c.allocs(&job, 10);
    drain(&mut c, &ids[..2]);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            place: 2,
            stop: 2,
            ..Expect::default()
        },
        &web(DesiredChanges {
            migrate: 2,
            ignore: 8,
            ..dc()
        }),
    );
    assert_eq!(stop_indexes(&r), int_range(&[0, 1]));
    assert_eq!(place_indexes(&r), int_range(&[0, 1]));
    assert_previous_allocs(&c, &r, 2);
    assert_rescheduled(&r, 0);
    assert!(r.plan.stop.iter().all(|s| s.description == desc::MIGRATING));
}

/// TestReconciler_DrainNode_ScaleUp (scheduler/reconcile_test.go:1094).
#[test]
fn test_reconciler_drain_node_scale_up() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 15;
    let job = c.job(spec);
    let ids = c.allocs(&job, 10);
    drain(&mut c, &ids[..2]);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            place: 7,
            stop: 2,
            ..Expect::default()
        },
        &web(DesiredChanges {
            place: 5,
            migrate: 2,
            ignore: 8,
            ..dc()
        }),
    );
    assert_eq!(stop_indexes(&r), int_range(&[0, 1]));
    assert_eq!(place_indexes(&r), int_range(&[0, 1, 10, 14]));
    assert_previous_allocs(&c, &r, 2);
    assert_rescheduled(&r, 0);
}

/// TestReconciler_DrainNode_ScaleDown (scheduler/reconcile_test.go:1150).
#[test]
fn test_reconciler_drain_node_scale_down() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 8;
    let job = c.job(spec);
    let ids = c.allocs(&job, 10);
    drain(&mut c, &ids[..3]);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            place: 1,
            stop: 3,
            ..Expect::default()
        },
        &web(DesiredChanges {
            migrate: 1,
            stop: 2,
            ignore: 7,
            ..dc()
        }),
    );
    assert_eq!(stop_indexes(&r), int_range(&[0, 2]));
    assert_eq!(place_indexes(&r), vec![0]);
    assert_previous_allocs(&c, &r, 1);
    assert_rescheduled(&r, 0);
}

/// TestBitmapFrom (scheduler/reconcile_util_test.go:18).
#[test]
fn test_bitmap_from() {
    let alloc = Allocation {
        id: "8".into(),
        job_id: "foo".into(),
        task_group: "bar".into(),
        name: "foo.bar[8]".into(),
        ..Allocation::default()
    };
    let input: AllocSet = [&alloc].into_iter().collect();
    for min in [1, 8] {
        assert_eq!(
            Bitmap::from_indexes(input.iter().map(Allocation::index), min).size(),
            16
        );
    }
}

/// The nodes of Nomad's table: `nil` is a garbage-collected node (absent).
pub(crate) fn nodes() -> Vec<Node> {
    let node = |id: &str, status: &str| Node {
        id: id.into(),
        status: status.into(),
        ..Node::default()
    };
    let mut draining = node("draining", "");
    // mock.DrainNode().DrainStrategy: a deadline-bound drain.
    draining.drain_strategy = GoValue::from(serde_json::json!({
        "DrainSpec": {"Deadline": 0, "IgnoreSystemJobs": false},
        "ForceDeadline": "0001-01-01T00:00:00Z",
        "StartedAt": "0001-01-01T00:00:00Z"
    }));
    vec![
        draining,
        node("lost", node_status::DOWN),
        node("normal", node_status::READY),
        node("disconnected", node_status::DISCONNECTED),
    ]
}

pub(crate) fn tainted_map(nodes: &[Node]) -> TaintedNodes<'_> {
    let mut m: TaintedNodes = nodes.iter().map(|n| (n.id.as_str(), Some(n))).collect();
    m.insert("nil", None);
    m
}

/// `mock.Job()` with `max_client_disconnect = 5s`.
pub(crate) fn test_job() -> Arc<Job> {
    let mut j = mock_job();
    j.task_groups[0].max_client_disconnect = Some(5 * SECOND);
    Arc::new(j)
}

/// An allocation of `test_job` with the given ID, node and client status;
/// name and task group unset, as in Nomad's table unless a case sets them.
pub(crate) fn alloc(job: &Arc<Job>, id: &str, node: &str, client_status: &str) -> Allocation {
    Allocation {
        id: id.into(),
        client_status: client_status.into(),
        job: Some(job.clone()),
        node_id: node.into(),
        ..Allocation::default()
    }
}

/// Sets name and task group "web", as the disconnected-client cases do.
pub(crate) fn named(mut a: Allocation, name: &str) -> Allocation {
    a.name = name.into();
    a.task_group = "web".into();
    a
}

/// `unknownAllocState` (at now) or `expiredAllocState` (60s before now).
pub(crate) fn unknown_since(mut a: Allocation, at: Time) -> Allocation {
    a.alloc_states = vec![AllocState {
        field: "ClientStatus".into(),
        value: status::UNKNOWN.into(),
        time: at,
    }]
    .into();
    a
}

/// `reconnectTaskState`: task "web" with a Reconnected event.
///
/// Nomad stamps the event with `time.Now()`, a moment after the test's `now`;
/// the snapshot pins both to `now()`, which keeps the event within the 5s.
pub(crate) fn reconnected(mut a: Allocation) -> Allocation {
    a.task_states.insert(
        "web".into(),
        TaskState {
            events: vec![TaskEvent {
                event_type: TASK_CLIENT_RECONNECTED.into(),
                time: now().unix_nanos_i64(),
            }]
            .into(),
            ..TaskState::default()
        },
    );
    a
}

pub(crate) fn previous(mut a: Allocation, prev: &str) -> Allocation {
    a.previous_allocation = prev.into();
    a
}

pub(crate) fn migrate(mut a: Allocation) -> Allocation {
    a.desired_transition.migrate = Some(true);
    a
}

/// The expected sets of one case, by ID.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Sets {
    pub(crate) untainted: Vec<String>,
    pub(crate) migrate: Vec<String>,
    pub(crate) lost: Vec<String>,
    pub(crate) disconnecting: Vec<String>,
    pub(crate) reconnecting: Vec<String>,
    pub(crate) ignore: Vec<String>,
}

pub(crate) fn ids(l: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = l.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

pub(crate) fn got(s: &TaintedSets) -> Sets {
    let f = |set: &AllocSet| set.ids().map(String::from).collect();
    Sets {
        untainted: f(&s[Bucket::Untainted]),
        migrate: f(&s[Bucket::Migrate]),
        lost: f(&s[Bucket::Lost]),
        disconnecting: f(&s[Bucket::Disconnecting]),
        reconnecting: f(&s[Bucket::Reconnecting]),
        ignore: f(&s[Bucket::Ignore]),
    }
}

/// Runs one case of the table: with Nomad's tainted-node map, and unless
/// `skip_nil_node_test` again with an empty map (Nomad's nil map).
fn run(all: &[Allocation], disco: bool, skip_nil_node_test: bool, want: Sets) {
    run_in(Release::Seed, all, disco, skip_nil_node_test, want);
}

/// [`run`] with the rules of `release`.
pub(crate) fn run_in(
    release: Release,
    all: &[Allocation],
    disco: bool,
    skip_nil_node_test: bool,
    want: Sets,
) {
    let nodes = nodes();
    let tainted = tainted_map(&nodes);
    let set: AllocSet = all.iter().collect();
    let rules = Rules::new(release, disco);
    let ctx = TaintContext {
        tainted: &tainted,
        rules: &rules,
        now: now(),
    };
    assert_eq!(got(&set.filter_by_tainted(ctx)), want, "with-nodes");
    if skip_nil_node_test {
        return;
    }
    let empty = TaintedNodes::default();
    let ctx = TaintContext {
        tainted: &empty,
        ..ctx
    };
    assert_eq!(got(&set.filter_by_tainted(ctx)), want, "nodes-nil");
}

/// TestAllocSet_filterByTainted, case "lost-client"
/// (scheduler/reconcile_util_test.go:106).
#[test]
fn test_alloc_set_filter_by_tainted_lost_client() {
    let j = test_job();
    let all = vec![
        alloc(&j, "untainted1", "normal", status::RUNNING),
        alloc(&j, "untainted2", "normal", status::COMPLETE),
        alloc(&j, "untainted3", "draining", status::COMPLETE),
        alloc(&j, "untainted4", "lost", status::COMPLETE),
        migrate(alloc(&j, "migrating1", "draining", status::RUNNING)),
        migrate(alloc(&j, "migrating2", "nil", status::RUNNING)),
    ];
    run(
        &all,
        false,
        false,
        Sets {
            untainted: ids(&["untainted1", "untainted2", "untainted3", "untainted4"]),
            migrate: ids(&["migrating1", "migrating2"]),
            ..Sets::default()
        },
    );
}

/// TestAllocSet_filterByTainted, case "lost-client-only-tainted-nodes"
/// (scheduler/reconcile_util_test.go:209).
#[test]
fn test_alloc_set_filter_by_tainted_lost_client_only_tainted_nodes() {
    let j = test_job();
    let all = vec![
        alloc(&j, "lost1", "lost", status::PENDING),
        alloc(&j, "lost2", "lost", status::RUNNING),
    ];
    run(
        &all,
        false,
        true,
        Sets {
            lost: ids(&["lost1", "lost2"]),
            ..Sets::default()
        },
    );
}

/// TestAllocSet_filterByTainted, case
/// "disco-client-untainted-reconnect-failed-and-replaced"
/// (scheduler/reconcile_util_test.go:258).
#[test]
fn test_alloc_set_filter_by_tainted_disco_client_untainted_reconnect_failed_and_replaced() {
    let j = test_job();
    let all = vec![
        previous(
            named(
                alloc(&j, "running-replacement", "normal", status::RUNNING),
                "web",
            ),
            "failed-original",
        ),
        reconnected(unknown_since(
            named(
                alloc(&j, "failed-original", "normal", status::FAILED),
                "web",
            ),
            now(),
        )),
    ];
    run(
        &all,
        true,
        false,
        Sets {
            untainted: ids(&["running-replacement", "failed-original"]),
            ..Sets::default()
        },
    );
}

/// TestAllocSet_filterByTainted, case
/// "disco-client-reconnecting-running-no-replacement"
/// (scheduler/reconcile_util_test.go:313).
#[test]
fn test_alloc_set_filter_by_tainted_disco_client_reconnecting_running_no_replacement() {
    let j = test_job();
    let all = vec![reconnected(unknown_since(
        named(
            alloc(
                &j,
                "reconnecting-running-no-replacement",
                "normal",
                status::RUNNING,
            ),
            "web",
        ),
        now(),
    ))];
    run(
        &all,
        true,
        false,
        Sets {
            reconnecting: ids(&["reconnecting-running-no-replacement"]),
            ..Sets::default()
        },
    );
}

/// TestAllocSet_filterByTainted, case "disco-client-terminal"
/// (scheduler/reconcile_util_test.go:352).
#[test]
fn test_alloc_set_filter_by_tainted_disco_client_terminal() {
    let j = test_job();
    let original = |id: &str, st: &str| {
        reconnected(unknown_since(named(alloc(&j, id, "normal", st), id), now()))
    };
    let replacement = |id: &str, prev: &str, st: &str| {
        previous(
            unknown_since(named(alloc(&j, id, "normal", st), prev), now()),
            prev,
        )
    };
    let all = vec![
        original("untainted-reconnect-complete", status::COMPLETE),
        original("untainted-reconnect-failed", status::FAILED),
        original("untainted-reconnect-lost", status::LOST),
        replacement(
            "untainted-reconnect-complete-replacement",
            "untainted-reconnect-complete",
            status::COMPLETE,
        ),
        replacement(
            "untainted-reconnect-failed-replacement",
            "untainted-reconnect-failed",
            status::FAILED,
        ),
        replacement(
            "untainted-reconnect-lost-replacement",
            "untainted-reconnect-lost",
            status::LOST,
        ),
    ];
    run(
        &all,
        true,
        false,
        Sets {
            untainted: ids(&[
                "untainted-reconnect-complete",
                "untainted-reconnect-failed",
                "untainted-reconnect-lost",
                "untainted-reconnect-complete-replacement",
                "untainted-reconnect-failed-replacement",
                "untainted-reconnect-lost-replacement",
            ]),
            ..Sets::default()
        },
    );
}

/// TestAllocSet_filterByTainted, case "disco-client-disconnect"
/// (scheduler/reconcile_util_test.go:494).
#[test]
fn test_alloc_set_filter_by_tainted_disco_client_disconnect() {
    let j = test_job();
    let all = vec![
        named(
            alloc(&j, "disconnect-running", "disconnected", status::RUNNING),
            "disconnect-running",
        ),
        // Unknown since `now`: Nomad's tc.now is a moment later, within the 5s.
        unknown_since(
            named(
                alloc(&j, "ignore-unknown", "disconnected", status::UNKNOWN),
                "ignore-unknown",
            ),
            now(),
        ),
        unknown_since(
            named(
                alloc(&j, "lost-unknown", "disconnected", status::UNKNOWN),
                "lost-unknown",
            ),
            now().add(-60 * SECOND),
        ),
    ];
    run(
        &all,
        true,
        true,
        Sets {
            disconnecting: ids(&["disconnect-running"]),
            ignore: ids(&["ignore-unknown"]),
            lost: ids(&["lost-unknown"]),
            ..Sets::default()
        },
    );
}

/// TestAllocSet_filterByTainted, case
/// "disco-client-running-reconnecting-and-replacement-untainted"
/// (scheduler/reconcile_util_test.go:568).
#[test]
fn test_alloc_set_filter_by_tainted_disco_client_running_reconnecting_and_replacement_untainted() {
    let j = test_job();
    let all = vec![
        previous(
            named(
                alloc(&j, "running-replacement", "normal", status::RUNNING),
                "web",
            ),
            "running-original",
        ),
        reconnected(unknown_since(
            named(
                alloc(&j, "running-original", "normal", status::RUNNING),
                "web",
            ),
            now(),
        )),
    ];
    run(
        &all,
        true,
        false,
        Sets {
            untainted: ids(&["running-replacement"]),
            reconnecting: ids(&["running-original"]),
            ..Sets::default()
        },
    );
}

/// A drain strategy as `mock.DrainNode` leaves it.
pub(crate) fn drain_strategy() -> GoValue {
    GoValue::from(json!({
        "DrainSpec": {"Deadline": 0, "IgnoreSystemJobs": false},
        "ForceDeadline": "0001-01-01T00:00:00Z",
        "StartedAt": "0001-01-01T00:00:00Z"
    }))
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum NodeKind {
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
    pub(crate) const ALL: [NodeKind; 9] = [
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

    pub(crate) fn status(self) -> &'static str {
        match self {
            NodeKind::Ready | NodeKind::ReadyDraining => node_status::READY,
            NodeKind::Initializing | NodeKind::InitializingDraining => node_status::INIT,
            NodeKind::Down | NodeKind::DownDraining => node_status::DOWN,
            NodeKind::Disconnected | NodeKind::DisconnectedDraining => node_status::DISCONNECTED,
            NodeKind::Missing => "",
        }
    }

    pub(crate) fn draining(self) -> bool {
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
pub(crate) struct TaintCase {
    pub(crate) node: NodeKind,
    pub(crate) client: &'static str,
    pub(crate) desired: &'static str,
    pub(crate) migrate: bool,
    /// When the client status last went to unknown, if ever.
    pub(crate) unknown_ago: Option<Duration>,
    /// When a task last recorded a `Reconnected` event, if ever.
    pub(crate) reconnect_ago: Option<Duration>,
}

/// Nomad's `filterByTainted` (scheduler/reconcile_util.go:227-307) for one
/// allocation, transcribed from the Go with its predicates inlined:
/// `TerminalStatus` (structs.go:9708), `Expired` (structs.go:10168-10195),
/// `Reconnected` (structs.go:10215-10235) and `taintedNodes`
/// (scheduler/util.go:356-388).
pub(crate) fn nomad_bucket(c: &TaintCase, mcd: Option<Duration>, supports: bool) -> &'static str {
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
    let tainted = tainted_entry(c.node);
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

pub(crate) fn taint_cases() -> Vec<TaintCase> {
    let mut out = Vec::new();
    for node in NodeKind::ALL {
        for client in [
            status::PENDING,
            status::RUNNING,
            status::COMPLETE,
            status::FAILED,
            status::LOST,
            status::UNKNOWN,
        ] {
            for desired in [status::RUN, status::STOP, status::EVICT] {
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
            let got = matrix_buckets(&cases, supports, mcd, None);
            if supports && mcd.is_some() {
                let mut seen = got.clone();
                seen.sort();
                seen.dedup();
                assert_eq!(seen.len(), 6, "every bucket is exercised: {seen:?}");
            }
            for (case, got) in cases.iter().zip(got) {
                let want = nomad_bucket(case, mcd, supports);
                assert_eq!(got, want, "{case:?} mcd={mcd:?} supports={supports}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 4 * 9 * 6 * 3 * 2 * 3 * 3);
}

/// Replays one allocation per case, in a group with `mcd` as its
/// `max_client_disconnect`, under `release` (the default profile if none);
/// returns each case's bucket in the report.
pub(crate) fn matrix_buckets(
    cases: &[TaintCase],
    supports: bool,
    mcd: Option<Duration>,
    release: Option<Release>,
) -> Vec<&'static str> {
    let mut spec = job_of(cases.len() as i64, None);
    spec.task_groups[0].max_client_disconnect = mcd;
    replay_matrix(cases, supports, release, spec)
}

/// The bucket of `taintedNodes` a case's node falls in: none for an
/// untainted node, `Some(None)` for a garbage-collected one.
pub(crate) fn tainted_entry(node: NodeKind) -> Option<Option<NodeKind>> {
    match node {
        NodeKind::Missing => Some(None),
        n if n.status() == node_status::DOWN
            || n.draining()
            || n.status() == node_status::DISCONNECTED =>
        {
            Some(Some(n))
        }
        _ => None,
    }
}

/// [`matrix_buckets`] for a job `spec` whose group "web" counts every case;
/// "set aside" for an allocation in no bucket.
pub(crate) fn replay_matrix(
    cases: &[TaintCase],
    supports: bool,
    release: Option<Release>,
    spec: Job,
) -> Vec<&'static str> {
    let mut c = Cluster::new();
    c.snapshot.supports_disconnected_clients = Some(supports);
    c.snapshot.nomad_version = release.map(VersionRequest::Release);
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
    // From 1.11.0 the server-terminal ones are set aside before the buckets.
    ids.iter()
        .map(|id| got.get(id).copied().unwrap_or("set aside"))
        .collect()
}

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
