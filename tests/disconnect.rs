//! Disconnected clients (`max_client_disconnect`): unknown allocations, their
//! expiry, the disconnect updates and the follow-up evaluations at their
//! timeouts.
//!
//! Nomad's tests from scheduler/reconcile_test.go at 8ac3e642e6 keep their names (snake case), each case of TestReconciler_Disconnected_Client its own test;
//! the others cite the Go source (file:line at 8ac3e642e6) that decides their
//! expectation.

use std::collections::HashMap;
use std::sync::Arc;

use plan_inspect::model::*;
use plan_inspect::reconciler::{Bucket, DesiredChanges, desc, trigger};
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::JobReport;
use plan_inspect::time::{Duration, SECOND};
use plan_inspect::version::{Release, Switch, VersionRequest, v};

use crate::common::*;

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
    let mut ids: Vec<String> = eval.alloc_ids.iter().map(Id::to_string).collect();
    ids.sort();
    let mut want: Vec<String> = disconnected.to_vec();
    want.sort();
    assert_eq!(ids, want);
    // The report carries no client status for a disconnect update: it is
    // always "unknown" (Nomad's allocUnknown update).
    let mut updated: Vec<String> = r
        .plan
        .disconnect_updates
        .iter()
        .map(|u| {
            assert_eq!(u.followup_eval_id, eval.id);
            u.alloc_id.to_string()
        })
        .collect();
    updated.sort();
    assert_eq!(updated, want);
}

/// The placements replace exactly `prev` (one each), keep their names
/// (indexes `0..prev.len()`) and carry the given reschedule/lost flags.
pub(crate) fn assert_replacements(r: &JobReport, prev: &[String], reschedule: bool, lost: bool) {
    assert_eq!(
        sorted(
            r.plan
                .place
                .iter()
                .map(|p| p.previous_alloc_id.as_ref().unwrap().to_string())
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
#[derive(Clone, Default)]
pub(crate) struct Case {
    pub(crate) alloc_count: u64,
    pub(crate) disconnected_alloc_count: usize,
    pub(crate) job_version_increment: u64,
    pub(crate) node_score_increment: f64,
    pub(crate) disconnected_alloc_status: &'static str,
    pub(crate) is_batch: bool,
    pub(crate) node_status_disconnected: bool,
    pub(crate) replace: bool,
    pub(crate) fail_replacement: bool,
    pub(crate) should_stop_on_disconnected_node: bool,
    pub(crate) max_disconnect: Option<Duration>,
    pub(crate) expected: Expect,
    pub(crate) desired: DesiredChanges,
    /// Not asserted by Nomad's test: the description and client status of
    /// every stop, as Nomad's reconciler sets them.
    pub(crate) stop_desc: Option<(&'static str, Option<&'static str>)>,
    /// The profile replayed; the default one (the seed) if none.
    pub(crate) release: Option<Release>,
    /// From 1.3.8 Nomad's test marks a reconnect by a later running state
    /// instead of a `Reconnected` event; the unknown state stays last here
    /// (the reconciler then sees the reconnect pending), with no event.
    pub(crate) reconnect_by_state: bool,
    /// From 1.3.14's test: the replacement has a migrate transition.
    pub(crate) taint_replacement: bool,
    /// From 1.3.14's test: the replacement went unknown too.
    pub(crate) disconnect_replacement: bool,
    /// From 1.3.14's test: a failed replacement is stopped and replaced
    /// again (only that second replacement otherwise).
    pub(crate) replace_failed_replacement: bool,
    /// From 1.8.0's test: with `max_disconnect`, the group also has a
    /// `disconnect` block of that `lost_after` and this `reconcile`.
    pub(crate) reconcile_strategy: Option<&'static str>,
    /// From 1.9.1's test: every allocation built is desired to stop.
    pub(crate) should_stop_on_reconnect: bool,
    /// From 1.8.0's test: the group has `disconnect { lost_after = "5m" }`
    /// instead of `max_client_disconnect`.
    pub(crate) disconnect_block: bool,
}

/// The body of TestReconciler_Disconnected_Client for one case; returns the
/// report, the disconnected (original) allocations and the replacements.
pub(crate) fn run_disconnected_client(tc: Case) -> (JobReport, Vec<String>, Vec<String>) {
    assert_ne!(
        tc.alloc_count, 0,
        "invalid test case: alloc count must be > 0"
    );
    let mut c = Cluster::new();
    c.snapshot.nomad_version = tc.release.map(VersionRequest::Release);
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
    if tc.disconnect_block {
        spec.task_groups[0].max_client_disconnect = None;
        spec.task_groups[0].disconnect = Some(DisconnectStrategy {
            lost_after: 5 * MINUTE,
            ..DisconnectStrategy::default()
        });
    }
    if let Some(max) = tc.max_disconnect {
        spec.task_groups[0].max_client_disconnect = Some(max);
        if let Some(reconcile) = tc.reconcile_strategy {
            spec.task_groups[0].disconnect = Some(DisconnectStrategy {
                lost_after: max,
                reconcile: reconcile.into(),
                ..DisconnectStrategy::default()
            });
        }
    }
    let job = c.job(spec);
    let desired = if tc.should_stop_on_reconnect {
        status::STOP
    } else {
        status::RUN
    };
    let allocs = build_allocations(&mut c, &job, tc.alloc_count, status::RUNNING, desired, 2.0);

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
        a.node_id = test_node.as_str().into();
        a.alloc_states = vec![AllocState {
            field: "ClientStatus".into(),
            value: status::UNKNOWN.into(),
            time: unknown_at,
        }]
        .into();
        if tc.reconnect_by_state {
            continue;
        }
        a.task_states.insert(
            "web".into(),
            TaskState {
                events: vec![TaskEvent {
                    event_type: TASK_CLIENT_RECONNECTED.into(),
                    time: unknown_at.add(1_000_000).unix_nanos_i64(),
                }]
                .into(),
                ..TaskState::default()
            },
        );
    }

    let mut replacements = Vec::new();
    if tc.replace {
        for orig_id in &disconnected {
            let orig = c.alloc_mut(orig_id).clone();
            let mut replacement = orig.clone();
            replacement.id = c.id("alloc").into();
            replacement.node_id = c.node(node_status::READY).into();
            replacement.client_status = status::RUNNING.into();
            replacement.previous_allocation = orig.id.clone().into();
            replacement.alloc_states = Default::default();
            replacement.task_states = Default::default();
            // Placed after the original (1.3.14's test; older ones copy the index).
            replacement.create_index += 1;
            if tc.taint_replacement {
                replacement.desired_transition.migrate = Some(true);
            }
            if tc.disconnect_replacement {
                replacement.alloc_states = orig.alloc_states.clone();
            }
            c.alloc_mut(orig_id).next_allocation = replacement.id.clone().into();
            if tc.job_version_increment != 0 {
                let mut j = (**replacement.job.as_ref().unwrap()).clone();
                j.version += tc.job_version_increment;
                replacement.job = Some(Arc::new(j));
            }
            if tc.node_score_increment != 0.0 {
                let score = replacement.norm_score.get().unwrap() + tc.node_score_increment;
                replacement.norm_score = NormScore::new(score);
            }
            if tc.fail_replacement && tc.release.is_some_and(|r| r >= v(1, 3, 14)) {
                // 1.3.14's test: the failed replacement is replaced only if asked.
                replacement.client_status = status::FAILED.into();
                if tc.replace_failed_replacement {
                    let mut next = replacement.clone();
                    next.id = c.id("alloc").into();
                    next.client_status = status::RUNNING.into();
                    next.desired_status = status::RUN.into();
                    next.previous_allocation = replacement.id.clone().into();
                    next.create_index += 1;
                    replacement.next_allocation = next.id.clone().into();
                    replacement.desired_status = status::STOP.into();
                    replacements.push(next);
                }
                replacements.push(replacement);
            } else if tc.fail_replacement {
                replacement.client_status = status::FAILED.into();
                let mut next = replacement.clone();
                next.id = c.id("alloc").into();
                next.client_status = status::RUNNING.into();
                next.previous_allocation = replacement.id.clone().into();
                replacement.next_allocation = next.id.clone().into();
                replacements.push(replacement);
                replacements.push(next);
            } else {
                replacements.push(replacement);
            }
        }
    }
    let replacement_ids: Vec<String> = replacements.iter().map(|a| a.id.to_string()).collect();
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
        // 1.3.14's test checks the originals' stops only.
        if tc.release.is_some_and(|r| r >= v(1, 3, 14))
            && replacement_ids.contains(&a.id.to_string())
        {
            continue;
        }
        // 1.9.1's test (E-2) checks the stops on the test node only.
        let e2 = tc.release.is_some_and(|r| Switch::E2.in_release(r));
        if tc.should_stop_on_disconnected_node {
            assert_eq!(a.node_id, test_node, "stop {} on the test node", a.id);
        } else if !e2 {
            assert_ne!(a.node_id, test_node, "stop {} off the test node", a.id);
        }
        assert_eq!(a.job.as_ref().unwrap().version, job.version);
        if let Some((description, client_status)) = tc.stop_desc {
            assert_eq!(stop.description, description);
            assert_eq!(
                stop.client_status.as_ref().map(ClientStatus::as_str),
                client_status
            );
        }
    }
    assert_results(&r, tc.expected, &[("web", tc.desired)]);
    (r, disconnected, replacement_ids)
}

pub(crate) fn reconnected(r: &JobReport) -> Vec<String> {
    sorted(
        r.plan
            .reconnect_updates
            .iter()
            .map(|u| u.alloc_id.to_string()),
    )
}

/// The IDs in one bucket of group "web".
pub(crate) fn bucket(r: &JobReport, b: Bucket) -> Vec<String> {
    sorted(group(r, "web").buckets[b].iter().map(|e| e.id.to_string()))
}

pub(crate) fn stopped(r: &JobReport) -> Vec<String> {
    sorted(r.plan.stop.iter().map(|s| s.alloc_id.to_string()))
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
        a.followup_eval_id = Id::from(&update.followup_eval_id).into();
    }
    // Second pass: the follow-up eval (Nomad passes its ID and priority),
    // six minutes later.
    c.snapshot.eval_id = Some(eval.id.clone());
    c.snapshot.now = Some(now().add(6 * MINUTE));
    let r = c.replay_job("mock-service");
    for stop in &r.plan.stop {
        assert_eq!(
            stop.client_status.as_ref().map(ClientStatus::as_str),
            Some(status::LOST)
        );
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

/// `filterByRescheduleable` puts every disconnecting allocation it does not
/// filter in `rescheduleNow`, eligible or not: one without a reschedule
/// policy is still replaced (scheduler/reconcile_util.go:346-353).
#[test]
fn disconnecting_allocs_are_replaced_without_a_reschedule_policy() {
    let mut c = Cluster::new();
    let mut job = mock_job();
    job.task_groups[0].count = 1;
    job.task_groups[0].reschedule_policy = None;
    job.task_groups[0].max_client_disconnect = Some(10 * MINUTE);
    let job = c.job(job);
    let alloc = c.alloc(&job, 0);
    c.set_node_status(&alloc, node_status::DISCONNECTED);

    let plan = c.replay_job(&job.id).plan;
    assert!(plan.stop.is_empty());
    assert_eq!(plan.disconnect_updates.len(), 1);
    assert_eq!(plan.place.len(), 1);
    assert!(plan.place[0].reschedule);
    assert_eq!(previous_id(&plan.place[0]).as_deref(), Some(alloc.as_str()));
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
        .map(|u| (u.alloc_id.to_string(), u.followup_eval_id.clone()))
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
    let r = Replay::new(&zero, &Options::default())
        .unwrap()
        .report()
        .jobs
        .remove(0);
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
    let r = Replay::new(&null, &Options::default())
        .unwrap()
        .report()
        .jobs
        .remove(0);
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
