//! Ports of Nomad's scheduler/reconcile_util_test.go at 8ac3e642e6.
//!
//! `filterByTainted` is tested on the core directly, as Nomad does: an
//! explicit tainted-node map, an `AllocSet` and a `TaintContext`; the six
//! sets are compared by allocation ID.
mod common;
use common::*;

use std::sync::Arc;

use plan_inspect::model::*;
use plan_inspect::reconciler::{
    AllocSet, Bitmap, Bucket, Release, Rules, TaintContext, TaintedNodes, TaintedSets,
};
use plan_inspect::time::{SECOND, Time};

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
    assert_eq!(Bitmap::from_set(&input, 1).size(), 16);
    assert_eq!(Bitmap::from_set(&input, 8).size(), 16);
}

/// The nodes of Nomad's table: `nil` is a garbage-collected node (absent).
fn nodes() -> Vec<Node> {
    let node = |id: &str, status: &str| Node {
        id: id.into(),
        status: status.into(),
        ..Node::default()
    };
    let mut draining = node("draining", "");
    // mock.DrainNode().DrainStrategy: a deadline-bound drain.
    draining.drain_strategy = GoValue(serde_json::json!({
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

fn tainted_map(nodes: &[Node]) -> TaintedNodes<'_> {
    let mut m: TaintedNodes = nodes.iter().map(|n| (n.id.as_str(), Some(n))).collect();
    m.insert("nil", None);
    m
}

/// `mock.Job()` with `max_client_disconnect = 5s`.
fn test_job() -> Arc<Job> {
    let mut j = mock_job();
    j.task_groups[0].max_client_disconnect = Some(5 * SECOND);
    Arc::new(j)
}

/// An allocation of `test_job` with the given ID, node and client status;
/// name and task group unset, as in Nomad's table unless a case sets them.
fn alloc(job: &Arc<Job>, id: &str, node: &str, client_status: &str) -> Allocation {
    Allocation {
        id: id.into(),
        client_status: client_status.into(),
        job: Some(job.clone()),
        node_id: node.into(),
        ..Allocation::default()
    }
}

/// Sets name and task group "web", as the disconnected-client cases do.
fn named(mut a: Allocation, name: &str) -> Allocation {
    a.name = name.into();
    a.task_group = "web".into();
    a
}

/// `unknownAllocState` (at now) or `expiredAllocState` (60s before now).
fn unknown_since(mut a: Allocation, at: Time) -> Allocation {
    a.alloc_states = vec![AllocState {
        field: "ClientStatus".into(),
        value: status::UNKNOWN.into(),
        time: at,
    }];
    a
}

/// `reconnectTaskState`: task "web" with a Reconnected event.
///
/// Nomad stamps the event with `time.Now()`, a moment after the test's `now`;
/// the snapshot pins both to `now()`, which keeps the event within the 5s.
fn reconnected(mut a: Allocation) -> Allocation {
    a.task_states.insert(
        "web".into(),
        TaskState {
            events: vec![TaskEvent {
                event_type: TASK_CLIENT_RECONNECTED.into(),
                time: now().unix_nanos_i64(),
            }],
            ..TaskState::default()
        },
    );
    a
}

fn previous(mut a: Allocation, prev: &str) -> Allocation {
    a.previous_allocation = prev.into();
    a
}

fn migrate(mut a: Allocation) -> Allocation {
    a.desired_transition.migrate = Some(true);
    a
}

/// The expected sets of one case, by ID.
#[derive(Debug, Default, PartialEq, Eq)]
struct Sets {
    untainted: Vec<String>,
    migrate: Vec<String>,
    lost: Vec<String>,
    disconnecting: Vec<String>,
    reconnecting: Vec<String>,
    ignore: Vec<String>,
}

fn ids(l: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = l.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn got(s: &TaintedSets) -> Sets {
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
    let nodes = nodes();
    let tainted = tainted_map(&nodes);
    let set: AllocSet = all.iter().collect();
    let rules = Rules::new(Release::Seed, disco);
    let ctx = TaintContext {
        tainted: &tainted,
        rules: &rules,
        now: now(),
    };
    assert_eq!(got(&set.filter_by_tainted(ctx)), want, "with-nodes");
    if skip_nil_node_test {
        return;
    }
    let empty = TaintedNodes::new();
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
