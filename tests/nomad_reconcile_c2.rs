//! Nomad's disconnected-client reconciler tests (PR #12333),
//! scheduler/reconcile_test.go at 8ac3e642e6, from
//! TestReconciler_Node_Disconnect_Updates_Alloc_To_Unknown to the end.
mod common;
use common::*;
use plan_inspect::model::*;
use plan_inspect::reconciler::{Bucket, DesiredChanges, desc, trigger};
use plan_inspect::report::JobReport;
use plan_inspect::time::{Duration, SECOND};

/// The follow-up eval and disconnect updates of a first pass over three
/// resumable allocations, two of them on disconnected nodes.
fn assert_disconnect_updates(
    r: &JobReport,
    disconnected: &[String],
    wait_until_from: plan_inspect::time::Time,
) {
    assert_eq!(r.plan.followup_evals.len(), 1, "one follow-up eval");
    let eval = &r.plan.followup_evals[0];
    assert_eq!(eval.task_group, "web");
    assert_eq!(eval.triggered_by, trigger::MAX_DISCONNECT_TIMEOUT);
    assert_eq!(eval.status_description, desc::DISCONNECT_TIMEOUT_FOLLOWUP);
    assert_eq!(eval.wait_until, wait_until_from.add(5 * MINUTE));
    let mut ids: Vec<&str> = eval.alloc_ids.iter().map(String::as_str).collect();
    ids.sort();
    let mut want: Vec<&str> = disconnected.iter().map(String::as_str).collect();
    want.sort();
    assert_eq!(ids, want);
    // The report carries no client status for a disconnect update: it is
    // always "unknown" (Nomad's allocUnknown update).
    let mut updated: Vec<&str> = r
        .plan
        .disconnect_updates
        .iter()
        .map(|u| {
            assert_eq!(u.followup_eval_id, eval.id);
            u.alloc_id.as_str()
        })
        .collect();
    updated.sort();
    assert_eq!(updated, want);
}

/// The placements replace exactly `prev` (one each), keep their names
/// (indexes `0..prev.len()`) and carry the given reschedule/lost flags.
fn assert_replacements(r: &JobReport, prev: &[String], reschedule: bool, lost: bool) {
    assert_eq!(
        sorted(
            r.plan
                .place
                .iter()
                .map(|p| p.previous_alloc_id.clone().unwrap())
        ),
        sorted(prev.to_vec())
    );
    assert_eq!(place_indexes(r), (0..prev.len() as u64).collect::<Vec<_>>());
    for p in &r.plan.place {
        assert_eq!((p.reschedule, p.lost), (reschedule, lost), "{}", p.name);
    }
}

/// TestReconciler_Node_Disconnect_Updates_Alloc_To_Unknown
/// (scheduler/reconcile_test.go:5227).
#[test]
fn test_reconciler_node_disconnect_updates_alloc_to_unknown() {
    let mut c = Cluster::new();
    let (_job, allocs) = build_resumable_allocations(&mut c, 3, status::RUNNING, status::RUN, 2.0);
    build_disconnected_nodes(&mut c, &allocs, 2);
    // allocUpdateFnIgnore: the allocations embed the current job.
    let r = c.replay_job("mock-service");
    assert_disconnect_updates(&r, &allocs[..2], now());
    assert_results(
        &r,
        Expect {
            place: 2,
            disconnect_updates: 2,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                place: 2,
                ignore: 1,
                ..dc()
            },
        )],
    );
    // Not asserted by Nomad: the disconnecting allocations are replaced
    // by rescheduling placements and are not stopped.
    assert_replacements(&r, &allocs[..2], true, false);
}

/// One case of TestReconciler_Disconnected_Client.
#[derive(Default)]
struct Case {
    alloc_count: u64,
    disconnected_alloc_count: usize,
    job_version_increment: u64,
    node_score_increment: f64,
    disconnected_alloc_status: &'static str,
    is_batch: bool,
    node_status_disconnected: bool,
    replace: bool,
    fail_replacement: bool,
    should_stop_on_disconnected_node: bool,
    max_disconnect: Option<Duration>,
    expected: Expect,
    desired: DesiredChanges,
    /// Not asserted by Nomad's test: the description and client status of
    /// every stop, as Nomad's reconciler sets them.
    stop_desc: Option<(&'static str, Option<&'static str>)>,
}

/// The body of TestReconciler_Disconnected_Client for one case; returns the
/// report, the disconnected (original) allocations and the replacements.
fn run_disconnected_client(tc: Case) -> (JobReport, Vec<String>, Vec<String>) {
    assert_ne!(
        tc.alloc_count, 0,
        "invalid test case: alloc count must be > 0"
    );
    let mut c = Cluster::new();
    // The node under test (Nomad's mock.Node()), ready or disconnected.
    let test_node = c.node(if tc.node_status_disconnected {
        node_status::DISCONNECTED
    } else {
        node_status::READY
    });

    let mut spec = resumable_job(tc.alloc_count as i64);
    if tc.is_batch {
        spec.job_type = "batch".into();
    }
    // Nomad sets max_client_disconnect through the job the allocations
    // share with the reconciler, so the current job has it too.
    if let Some(max) = tc.max_disconnect {
        spec.task_groups[0].max_client_disconnect = Some(max);
    }
    let job = c.job(spec);
    let allocs = build_allocations(
        &mut c,
        &job,
        tc.alloc_count,
        status::RUNNING,
        status::RUN,
        2.0,
    );

    // Nomad evaluates at time.Now(), or 20 max_disconnect later; the
    // snapshot pins the evaluation time, so the events go before it.
    let unknown_at = match tc.max_disconnect {
        Some(max) => now().add(-20 * max),
        None => now().add(-SECOND),
    };
    let disconnected: Vec<String> = allocs[..tc.disconnected_alloc_count].to_vec();
    for id in &disconnected {
        let a = c.alloc_mut(id);
        a.client_status = tc.disconnected_alloc_status.into();
        a.node_id = test_node.clone();
        a.alloc_states = vec![AllocState {
            field: "ClientStatus".into(),
            value: status::UNKNOWN.into(),
            time: unknown_at,
        }];
        a.task_states.insert(
            "web".into(),
            TaskState {
                events: vec![TaskEvent {
                    event_type: TASK_CLIENT_RECONNECTED.into(),
                    time: unknown_at.add(1_000_000).unix_nanos_i64(),
                }],
                ..TaskState::default()
            },
        );
    }

    let mut replacements = Vec::new();
    if tc.replace {
        for orig_id in &disconnected {
            let orig = c.alloc_mut(orig_id).clone();
            let mut replacement = orig.clone();
            replacement.id = c.id("alloc");
            replacement.node_id = c.node(node_status::READY);
            replacement.client_status = status::RUNNING.into();
            replacement.previous_allocation = orig.id.clone();
            replacement.alloc_states = Vec::new();
            replacement.task_states = Default::default();
            c.alloc_mut(orig_id).next_allocation = replacement.id.clone();
            if tc.job_version_increment != 0 {
                let mut j = (**replacement.job.as_ref().unwrap()).clone();
                j.version += tc.job_version_increment;
                replacement.job = Some(std::sync::Arc::new(j));
            }
            if tc.node_score_increment != 0.0 {
                replacement.metrics.as_mut().unwrap().score_meta_data[0].norm_score +=
                    tc.node_score_increment;
            }
            if tc.fail_replacement {
                replacement.client_status = status::FAILED.into();
                let mut next = replacement.clone();
                next.id = c.id("alloc");
                next.client_status = status::RUNNING.into();
                next.previous_allocation = replacement.id.clone();
                replacement.next_allocation = next.id.clone();
                replacements.push(replacement);
                replacements.push(next);
            } else {
                replacements.push(replacement);
            }
        }
    }
    let replacement_ids = replacements.iter().map(|a| a.id.clone()).collect();
    c.snapshot.allocs.extend(replacements);

    // allocUpdateFnIgnore: every allocation embeds the current job's spec.
    let r = c.replay_job("mock-service");

    for stop in &r.plan.stop {
        let a = c
            .snapshot
            .allocs
            .iter()
            .find(|a| a.id == stop.alloc_id)
            .unwrap();
        if tc.should_stop_on_disconnected_node {
            assert_eq!(a.node_id, test_node, "stop {} on the test node", a.id);
        } else {
            assert_ne!(a.node_id, test_node, "stop {} off the test node", a.id);
        }
        assert_eq!(a.job.as_ref().unwrap().version, job.version);
        if let Some((description, client_status)) = tc.stop_desc {
            assert_eq!(stop.description, description);
            assert_eq!(stop.client_status.as_deref(), client_status);
        }
    }
    assert_results(&r, tc.expected, &[("web", tc.desired)]);
    (r, disconnected, replacement_ids)
}

fn reconnected(r: &JobReport) -> Vec<String> {
    sorted(r.plan.reconnect_updates.iter().map(|u| u.alloc_id.clone()))
}

/// The IDs in one bucket of group "web".
fn bucket(r: &JobReport, b: Bucket) -> Vec<String> {
    sorted(group(r, "web").buckets[b].iter().map(|e| e.id.clone()))
}

fn stopped(r: &JobReport) -> Vec<String> {
    sorted(r.plan.stop.iter().map(|s| s.alloc_id.clone()))
}

/// TestReconciler_Disconnected_Client, case "reconnect-original-no-replacement"
/// (scheduler/reconcile_test.go:5277).
#[test]
fn test_reconciler_disconnected_client_reconnect_original_no_replacement() {
    let (r, disconnected, _) = run_disconnected_client(Case {
        alloc_count: 2,
        replace: false,
        disconnected_alloc_count: 2,
        disconnected_alloc_status: status::RUNNING,
        should_stop_on_disconnected_node: false,
        expected: Expect {
            reconnect_updates: 2,
            ..Expect::default()
        },
        desired: DesiredChanges { ignore: 2, ..dc() },
        ..Case::default()
    });
    assert_eq!(reconnected(&r), sorted(disconnected));
}

/// TestReconciler_Disconnected_Client, case "resume-original-and-stop-replacement"
/// (scheduler/reconcile_test.go:5277).
#[test]
fn test_reconciler_disconnected_client_resume_original_and_stop_replacement() {
    let (r, disconnected, replacements) = run_disconnected_client(Case {
        alloc_count: 3,
        replace: true,
        disconnected_alloc_count: 1,
        disconnected_alloc_status: status::RUNNING,
        should_stop_on_disconnected_node: false,
        expected: Expect {
            stop: 1,
            reconnect_updates: 1,
            ..Expect::default()
        },
        desired: DesiredChanges {
            stop: 1,
            ignore: 3,
            ..dc()
        },
        stop_desc: Some((desc::RECONNECTED, None)),
        ..Case::default()
    });
    assert_eq!(reconnected(&r), sorted(disconnected.clone()));
    assert_eq!(stopped(&r), sorted(replacements));
    assert_eq!(bucket(&r, Bucket::Reconnecting), sorted(disconnected));
}

/// TestReconciler_Disconnected_Client, case "stop-original-with-lower-node-score"
/// (scheduler/reconcile_test.go:5277).
#[test]
fn test_reconciler_disconnected_client_stop_original_with_lower_node_score() {
    let (r, disconnected, _) = run_disconnected_client(Case {
        alloc_count: 4,
        replace: true,
        disconnected_alloc_count: 1,
        disconnected_alloc_status: status::RUNNING,
        should_stop_on_disconnected_node: true,
        node_score_increment: 1.0,
        expected: Expect {
            stop: 1,
            ..Expect::default()
        },
        desired: DesiredChanges {
            stop: 1,
            ignore: 4,
            ..dc()
        },
        stop_desc: Some((desc::NOT_NEEDED, None)),
        ..Case::default()
    });
    assert_eq!(
        bucket(&r, Bucket::Reconnecting),
        sorted(disconnected.clone())
    );
    assert_eq!(stopped(&r), sorted(disconnected));
}

/// TestReconciler_Disconnected_Client, case "ignore-original-failed-if-replaced"
/// (scheduler/reconcile_test.go:5277).
#[test]
fn test_reconciler_disconnected_client_ignore_original_failed_if_replaced() {
    run_disconnected_client(Case {
        alloc_count: 4,
        replace: true,
        disconnected_alloc_count: 2,
        disconnected_alloc_status: status::FAILED,
        should_stop_on_disconnected_node: true,
        expected: Expect::default(),
        desired: DesiredChanges { ignore: 4, ..dc() },
        ..Case::default()
    });
}

/// TestReconciler_Disconnected_Client, case "reschedule-original-failed-if-not-replaced"
/// (scheduler/reconcile_test.go:5277).
#[test]
fn test_reconciler_disconnected_client_reschedule_original_failed_if_not_replaced() {
    let (r, disconnected, _) = run_disconnected_client(Case {
        alloc_count: 4,
        replace: false,
        disconnected_alloc_count: 2,
        disconnected_alloc_status: status::FAILED,
        should_stop_on_disconnected_node: true,
        expected: Expect {
            stop: 2,
            place: 2,
            ..Expect::default()
        },
        desired: DesiredChanges {
            ignore: 2,
            place: 2,
            stop: 2,
            ..dc()
        },
        stop_desc: Some((desc::RESCHEDULED, None)),
        ..Case::default()
    });
    assert_eq!(stopped(&r), sorted(disconnected.clone()));
    assert_replacements(&r, &disconnected, true, false);
}

/// TestReconciler_Disconnected_Client, case "ignore-reconnect-completed"
/// (scheduler/reconcile_test.go:5277).
#[test]
fn test_reconciler_disconnected_client_ignore_reconnect_completed() {
    run_disconnected_client(Case {
        alloc_count: 2,
        replace: false,
        disconnected_alloc_count: 2,
        disconnected_alloc_status: status::COMPLETE,
        is_batch: true,
        expected: Expect::default(),
        desired: DesiredChanges { ignore: 2, ..dc() },
        ..Case::default()
    });
}

/// TestReconciler_Disconnected_Client, case "stop-original-alloc-with-old-job-version"
/// (scheduler/reconcile_test.go:5277).
#[test]
fn test_reconciler_disconnected_client_stop_original_alloc_with_old_job_version() {
    let (r, disconnected, _) = run_disconnected_client(Case {
        alloc_count: 5,
        replace: true,
        disconnected_alloc_count: 2,
        disconnected_alloc_status: status::RUNNING,
        should_stop_on_disconnected_node: true,
        job_version_increment: 1,
        expected: Expect {
            stop: 2,
            ..Expect::default()
        },
        desired: DesiredChanges {
            ignore: 5,
            stop: 2,
            ..dc()
        },
        stop_desc: Some((desc::NOT_NEEDED, None)),
        ..Case::default()
    });
    assert_eq!(stopped(&r), sorted(disconnected));
}

/// TestReconciler_Disconnected_Client, case
/// "stop-original-alloc-with-old-job-version-reconnect-eval"
/// (scheduler/reconcile_test.go:5277); the same inputs as the case above.
#[test]
fn test_reconciler_disconnected_client_stop_original_alloc_with_old_job_version_reconnect_eval() {
    let (r, disconnected, _) = run_disconnected_client(Case {
        alloc_count: 5,
        replace: true,
        disconnected_alloc_count: 2,
        disconnected_alloc_status: status::RUNNING,
        should_stop_on_disconnected_node: true,
        job_version_increment: 1,
        expected: Expect {
            stop: 2,
            ..Expect::default()
        },
        desired: DesiredChanges {
            stop: 2,
            ignore: 5,
            ..dc()
        },
        stop_desc: Some((desc::NOT_NEEDED, None)),
        ..Case::default()
    });
    assert_eq!(stopped(&r), sorted(disconnected));
}

/// TestReconciler_Disconnected_Client, case
/// "stop-original-alloc-with-old-job-version-and-failed-replacements"
/// (scheduler/reconcile_test.go:5277).
#[test]
fn test_reconciler_disconnected_client_stop_original_alloc_with_old_job_version_and_failed_replacements()
 {
    let (r, disconnected, _) = run_disconnected_client(Case {
        alloc_count: 5,
        replace: true,
        disconnected_alloc_count: 2,
        disconnected_alloc_status: status::RUNNING,
        fail_replacement: true,
        should_stop_on_disconnected_node: true,
        job_version_increment: 1,
        expected: Expect {
            stop: 2,
            ..Expect::default()
        },
        desired: DesiredChanges {
            stop: 2,
            ignore: 5,
            ..dc()
        },
        stop_desc: Some((desc::NOT_NEEDED, None)),
        ..Case::default()
    });
    assert_eq!(stopped(&r), sorted(disconnected));
}

/// TestReconciler_Disconnected_Client, case
/// "stop-original-pending-alloc-for-disconnected-node"
/// (scheduler/reconcile_test.go:5277).
#[test]
fn test_reconciler_disconnected_client_stop_original_pending_alloc_for_disconnected_node() {
    let (r, disconnected, _) = run_disconnected_client(Case {
        alloc_count: 2,
        replace: true,
        disconnected_alloc_count: 1,
        disconnected_alloc_status: status::PENDING,
        should_stop_on_disconnected_node: true,
        node_status_disconnected: true,
        expected: Expect {
            stop: 1,
            ..Expect::default()
        },
        desired: DesiredChanges {
            stop: 1,
            ignore: 2,
            ..dc()
        },
        stop_desc: Some((desc::LOST, Some(status::LOST))),
        ..Case::default()
    });
    assert_eq!(stopped(&r), sorted(disconnected));
}

/// TestReconciler_Disconnected_Client, case "stop-expired-allocs"
/// (scheduler/reconcile_test.go:5277).
#[test]
fn test_reconciler_disconnected_client_stop_expired_allocs() {
    let (r, disconnected, _) = run_disconnected_client(Case {
        alloc_count: 5,
        replace: true,
        disconnected_alloc_count: 2,
        disconnected_alloc_status: status::UNKNOWN,
        should_stop_on_disconnected_node: true,
        node_status_disconnected: true,
        max_disconnect: Some(2 * SECOND),
        expected: Expect {
            stop: 2,
            ..Expect::default()
        },
        desired: DesiredChanges {
            stop: 2,
            ignore: 5,
            ..dc()
        },
        stop_desc: Some((desc::LOST, Some(status::LOST))),
        ..Case::default()
    });
    assert_eq!(bucket(&r, Bucket::Lost), sorted(disconnected.clone()));
    assert_eq!(stopped(&r), sorted(disconnected));
}

/// TestReconciler_Disconnected_Client, case "replace-allocs-on-disconnected-node"
/// (scheduler/reconcile_test.go:5277).
#[test]
fn test_reconciler_disconnected_client_replace_allocs_on_disconnected_node() {
    let (r, disconnected, _) = run_disconnected_client(Case {
        alloc_count: 5,
        replace: false,
        disconnected_alloc_count: 2,
        disconnected_alloc_status: status::RUNNING,
        node_status_disconnected: true,
        expected: Expect {
            place: 2,
            disconnect_updates: 2,
            ..Expect::default()
        },
        desired: DesiredChanges {
            place: 2,
            ignore: 3,
            ..dc()
        },
        ..Case::default()
    });
    assert_eq!(
        bucket(&r, Bucket::Disconnecting),
        sorted(disconnected.clone())
    );
    assert_disconnect_updates(&r, &disconnected, now());
    assert_replacements(&r, &disconnected, true, false);
}

/// TestReconciler_Disconnected_Node_FollowUpEvals_Stop_After_Timeout
/// (scheduler/reconcile_test.go:5621).
#[test]
fn test_reconciler_disconnected_node_follow_up_evals_stop_after_timeout() {
    let mut c = Cluster::new();
    let (_job, allocs) = build_resumable_allocations(&mut c, 3, status::RUNNING, status::RUN, 2.0);
    let nodes = build_disconnected_nodes(&mut c, &allocs, 2);
    // First pass: the allocations on the disconnected nodes become unknown
    // and one follow-up eval is due when max_client_disconnect (5m) expires.
    let r = c.replay_job("mock-service");
    assert_disconnect_updates(&r, &allocs[..2], now());
    let eval = r.plan.followup_evals[0].clone();

    // The nodes go down; the allocations carry the first pass's updates.
    for node in &nodes {
        c.node_mut(node).status = node_status::DOWN.into();
    }
    for update in &r.plan.disconnect_updates {
        let a = c.alloc_mut(&update.alloc_id);
        a.client_status = status::UNKNOWN.into();
        a.alloc_states.push(AllocState {
            field: "ClientStatus".into(),
            value: status::UNKNOWN.into(),
            time: now(),
        });
        a.client_description = desc::UNKNOWN.into();
        a.followup_eval_id = update.followup_eval_id.clone();
    }
    // Second pass: the follow-up eval (Nomad passes its ID and priority),
    // six minutes later.
    c.snapshot.eval_id = Some(eval.id.clone());
    c.snapshot.now = Some(now().add(6 * MINUTE));
    let r = c.replay_job("mock-service");
    for stop in &r.plan.stop {
        assert_eq!(stop.client_status.as_deref(), Some(status::LOST));
        // Not asserted by Nomad: the lost description, and no follow-up.
        assert_eq!(stop.description, desc::LOST);
    }
    assert_results(
        &r,
        Expect {
            place: 2,
            stop: 2,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                place: 2,
                stop: 2,
                ignore: 1,
                ..dc()
            },
        )],
    );
    assert_eq!(stopped(&r), sorted(allocs[..2].to_vec()));
    assert!(r.plan.followup_evals.is_empty(), "no new follow-up eval");
    assert_replacements(&r, &allocs[..2], false, true);
}
