//! Ports of scheduler/reconcile_test.go at 8ac3e642e6, from
//! TestReconciler_JobStopped to TestReconciler_RescheduleNow_Service.
mod common;

use std::sync::Arc;

use common::*;
use plan_inspect::model::*;
use plan_inspect::reconciler::{DesiredChanges, alloc_name, desc};
use plan_inspect::time::{Duration, SECOND};

/// The "stopped job" case of TestReconciler_JobStopped and
/// TestReconciler_JobStopped_TerminalAllocs: ten allocations of a stopped
/// job. With `terminal`, even ones are desired-stop and odd ones failed.
fn stopped_job(c: &mut Cluster, terminal: bool) {
    let mut spec = mock_job();
    spec.stop = true;
    let job = c.job(spec);
    for i in 0..10 {
        let id = c.mock_alloc(&job, "web", i);
        make_terminal(c, &id, i, terminal);
    }
}

/// The "nil job" case: ten allocations of job "foo", group "bar", with no
/// job in the snapshot (purged) and none embedded.
fn nil_job(c: &mut Cluster, terminal: bool) {
    let job = Arc::new(mock_job());
    for i in 0..10 {
        let id = c.mock_alloc(&job, "web", i);
        let a = c.alloc_mut(&id);
        a.job = None;
        a.job_id = "foo".into();
        a.task_group = "bar".into();
        a.name = alloc_name("foo", "bar", i);
        make_terminal(c, &id, i, terminal);
    }
}

/// With `terminal`, makes allocation `i` desired-stop if even, else failed.
fn make_terminal(c: &mut Cluster, id: &str, i: u64, terminal: bool) {
    let a = c.alloc_mut(id);
    if terminal {
        if i.is_multiple_of(2) {
            a.desired_status = status::STOP.into();
        } else {
            a.client_status = status::FAILED.into();
        }
    }
}

fn assert_all_stopped(r: &plan_inspect::report::JobReport, group: &str) {
    assert_results(
        r,
        Expect {
            stop: 10,
            ..Expect::default()
        },
        &[(
            group,
            DesiredChanges {
                stop: 10,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(stop_indexes(r), int_range(&[0, 9]));
    assert!(
        r.plan
            .stop
            .iter()
            .all(|s| s.description == desc::NOT_NEEDED)
    );
}

/// TestReconciler_JobStopped "stopped job" (scheduler/reconcile_test.go:1251).
#[test]
fn test_reconciler_job_stopped_stopped_job() {
    let mut c = Cluster::new();
    stopped_job(&mut c, false);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_all_stopped(&r, "web");
    assert!(r.stopped);
}

/// TestReconciler_JobStopped "nil job" (scheduler/reconcile_test.go:1251).
#[test]
fn test_reconciler_job_stopped_nil_job() {
    let mut c = Cluster::new();
    nil_job(&mut c, false);
    let r = c.replay_job("foo");
    assert_partition(&c, &r);
    assert_all_stopped(&r, "bar");
    assert!(r.purged);
}

fn assert_nothing_stopped(r: &plan_inspect::report::JobReport, group: &str) {
    assert!(r.plan.stop.is_empty());
    assert_results(r, Expect::default(), &[(group, DesiredChanges::default())]);
}

/// TestReconciler_JobStopped_TerminalAllocs "stopped job"
/// (scheduler/reconcile_test.go:1315).
#[test]
fn test_reconciler_job_stopped_terminal_allocs_stopped_job() {
    let mut c = Cluster::new();
    stopped_job(&mut c, true);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_nothing_stopped(&r, "web");
}

/// TestReconciler_JobStopped_TerminalAllocs "nil job"
/// (scheduler/reconcile_test.go:1315).
#[test]
fn test_reconciler_job_stopped_terminal_allocs_nil_job() {
    let mut c = Cluster::new();
    nil_job(&mut c, true);
    let r = c.replay_job("foo");
    assert_partition(&c, &r);
    assert_nothing_stopped(&r, "bar");
}

/// mock.Job() with a copy of its group named "foo".
fn multi_tg_job() -> Job {
    let mut spec = mock_job();
    let mut tg2 = spec.task_groups[0].clone();
    tg2.name = "foo".into();
    spec.task_groups.push(tg2);
    spec
}

/// TestReconciler_MultiTG (scheduler/reconcile_test.go:1379).
#[test]
fn test_reconciler_multi_tg() {
    let mut c = Cluster::new();
    let job = c.job(multi_tg_job());
    c.allocs(&job, 2);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            place: 18,
            ..Expect::default()
        },
        &[
            (
                "web",
                DesiredChanges {
                    place: 8,
                    ignore: 2,
                    ..DesiredChanges::default()
                },
            ),
            (
                "foo",
                DesiredChanges {
                    place: 10,
                    ..DesiredChanges::default()
                },
            ),
        ],
    );
    let mut want = int_range(&[2, 9, 0, 9]);
    want.sort();
    assert_eq!(place_indexes(&r), want);
}

/// TestReconciler_MultiTG_SingleUpdateStanza (scheduler/reconcile_test.go:1425).
#[test]
fn test_reconciler_multi_tg_single_update_stanza() {
    let mut c = Cluster::new();
    let mut spec = multi_tg_job();
    spec.task_groups[0].update = Some(no_canary_update());
    let job = c.job(spec);
    for g in ["web", "foo"] {
        for i in 0..10 {
            c.alloc_in(&job, g, i);
        }
    }
    let d = c.new_deployment(&job);
    c.deployment_mut(&d).task_groups.insert(
        "web".into(),
        DeploymentState {
            desired_total: 10,
            ..DeploymentState::default()
        },
    );
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect::default(),
        &[
            (
                "web",
                DesiredChanges {
                    ignore: 10,
                    ..DesiredChanges::default()
                },
            ),
            (
                "foo",
                DesiredChanges {
                    ignore: 10,
                    ..DesiredChanges::default()
                },
            ),
        ],
    );
}

/// The six allocations of the RescheduleLater_Batch and RescheduleNow_Batch
/// tests: 0-2 a chain of failures (2 already rescheduled twice, failed at
/// `failed_at`), 3-4 running, 5 complete.
fn batch_chain(
    c: &mut Cluster,
    job: &Arc<Job>,
    failed_at: plan_inspect::time::Time,
) -> Vec<String> {
    let ids: Vec<String> = (0..6).map(|i| c.alloc(job, i)).collect();
    let (a0, a1, a2) = (ids[0].clone(), ids[1].clone(), ids[2].clone());
    {
        let a = c.alloc_mut(&a0);
        a.client_status = status::FAILED.into();
        a.next_allocation = a1.clone();
    }
    {
        let a = c.alloc_mut(&a1);
        a.client_status = status::FAILED.into();
        a.reschedule_tracker = reschedule_tracker(vec![reschedule_event(HOUR, &a0)]);
        a.next_allocation = a2.clone();
    }
    {
        let a = c.alloc_mut(&a2);
        fail_at(a, failed_at);
        a.reschedule_tracker = reschedule_tracker(vec![
            reschedule_event(2 * HOUR, &a0),
            reschedule_event(HOUR, &a1),
        ]);
    }
    c.alloc_mut(&ids[5]).client_status = status::COMPLETE.into();
    ids
}

/// mock.Job() run as a batch job (Nomad passes batch=true to the reconciler).
fn batch_job(count: i64, delay: Duration) -> Job {
    let mut spec = mock_job();
    spec.job_type = "batch".into();
    spec.task_groups[0].count = count;
    spec.task_groups[0].reschedule_policy = Some(ReschedulePolicy {
        attempts: 3,
        interval: 24 * HOUR,
        delay,
        delay_function: "constant".into(),
        ..ReschedulePolicy::default()
    });
    spec
}

/// TestReconciler_RescheduleLater_Batch (scheduler/reconcile_test.go:1476).
#[test]
fn test_reconciler_reschedule_later_batch() {
    let mut c = Cluster::new();
    // Nomad passes uuid.Generate() as the eval ID.
    c.snapshot.eval_id = Some("eval-batch".into());
    let job = c.job(batch_job(4, 15 * SECOND));
    let ids = batch_chain(&mut c, &job, now());
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);

    assert_eq!(r.plan.followup_evals.len(), 1);
    let eval = &r.plan.followup_evals[0];
    assert_eq!(eval.wait_until, now().add(15 * SECOND));
    assert_eq!(eval.task_group, "web");
    assert_eq!(eval.triggered_by, "alloc-failure");

    assert_results(
        &r,
        Expect {
            attribute_updates: 1,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                ignore: 4,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(attribute_update_indexes(&c, &r), vec![2]);
    assert_eq!(r.plan.attribute_updates[0].alloc_id, ids[2]);
    assert_eq!(r.plan.attribute_updates[0].followup_eval_id, eval.id);
    let later = &group(&r, "web").reschedule_later;
    assert_eq!(later.len(), 1);
    assert_eq!(
        (later[0].id.as_str(), later[0].at),
        (ids[2].as_str(), now().add(15 * SECOND))
    );
}

/// TestReconciler_RescheduleLaterWithBatchedEvals_Batch
/// (scheduler/reconcile_test.go:1572).
#[test]
fn test_reconciler_reschedule_later_with_batched_evals_batch() {
    let mut c = Cluster::new();
    // Nomad passes uuid.Generate() as the eval ID.
    c.snapshot.eval_id = Some("eval-batch".into());
    let job = c.job(batch_job(10, 15 * SECOND));
    let ids = c.allocs(&job, 10);
    // Five fail 50ms apart, two more 10s later.
    for (i, id) in ids.iter().enumerate().take(7) {
        let at = if i < 5 {
            now().add(50 * i as i64 * 1_000_000)
        } else {
            now().add(10 * SECOND)
        };
        let a = c.alloc_mut(id);
        fail_at(a, at);
    }
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);

    let evals = &r.plan.followup_evals;
    assert_eq!(evals.len(), 2);
    assert_eq!(evals[0].wait_until, now().add(15 * SECOND));
    assert_eq!(evals[1].wait_until, now().add(25 * SECOND));

    assert_results(
        &r,
        Expect {
            attribute_updates: 7,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                ignore: 10,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(attribute_update_indexes(&c, &r), int_range(&[0, 6]));
    for u in &r.plan.attribute_updates {
        let index = indexes([c.alloc_ref(&u.alloc_id).name.as_str()])[0];
        let want = if index < 5 {
            &evals[0].id
        } else {
            &evals[1].id
        };
        assert_eq!(&u.followup_eval_id, want, "follow-up eval of index {index}");
    }
}

/// TestReconciler_RescheduleNow_Batch (scheduler/reconcile_test.go:1661).
#[test]
fn test_reconciler_reschedule_now_batch() {
    let mut c = Cluster::new();
    let job = c.job(batch_job(4, 5 * SECOND));
    let ids = batch_chain(&mut c, &job, now().add(-5 * SECOND));
    c.alloc_mut(&ids[2]).followup_eval_id = "eval-elsewhere".into();
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);

    assert!(r.plan.followup_evals.is_empty());
    assert_results(
        &r,
        Expect {
            place: 1,
            stop: 1,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                place: 1,
                stop: 1,
                ignore: 3,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(place_indexes(&r), vec![2]);
    assert_previous_allocs(&c, &r, 1);
    assert_rescheduled(&r, 1);
    assert_eq!(r.plan.stop[0].alloc_id, ids[2]);
    assert_eq!(r.plan.stop[0].description, desc::RESCHEDULED);
    assert_eq!(group(&r, "web").reschedule_now, vec![ids[2].clone()]);
}

/// The five allocations of the RescheduleLater_Service and
/// RescheduleNow_Service tests: 0 failed and already rescheduled once,
/// 1 failed at `failed_at`, 4 desired-stop.
fn service_failures(
    c: &mut Cluster,
    job: &Arc<Job>,
    failed_at: plan_inspect::time::Time,
) -> Vec<String> {
    let ids = c.allocs(job, 5);
    {
        let a = c.alloc_mut(&ids[0]);
        a.client_status = status::FAILED.into();
        a.reschedule_tracker = reschedule_tracker(vec![reschedule_event(HOUR, "alloc-elsewhere")]);
    }
    {
        let a = c.alloc_mut(&ids[1]);
        fail_at(a, failed_at);
    }
    c.alloc_mut(&ids[4]).desired_status = status::STOP.into();
    ids
}

/// TestReconciler_RescheduleLater_Service (scheduler/reconcile_test.go:1745).
#[test]
fn test_reconciler_reschedule_later_service() {
    let mut c = Cluster::new();
    // Nomad passes uuid.Generate() as the eval ID.
    c.snapshot.eval_id = Some("eval-service".into());
    let mut spec = mock_job();
    spec.task_groups[0].count = 5;
    spec.task_groups[0].reschedule_policy = Some(ReschedulePolicy {
        attempts: 1,
        interval: 24 * HOUR,
        delay: 15 * SECOND,
        max_delay: HOUR,
        ..ReschedulePolicy::default()
    });
    let job = c.job(spec);
    let ids = service_failures(&mut c, &job, now());
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);

    assert_eq!(r.plan.followup_evals.len(), 1);
    let eval = &r.plan.followup_evals[0];
    assert_eq!(eval.wait_until, now().add(15 * SECOND));

    assert_results(
        &r,
        Expect {
            place: 1,
            attribute_updates: 1,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                place: 1,
                ignore: 4,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(place_indexes(&r), vec![4]);
    assert_eq!(attribute_update_indexes(&c, &r), vec![1]);
    assert_eq!(r.plan.attribute_updates[0].alloc_id, ids[1]);
    assert_eq!(r.plan.attribute_updates[0].followup_eval_id, eval.id);
}

/// mock.Job() of 5 with the reschedule policy of the ClientStatusComplete tests.
fn complete_job() -> Job {
    let mut spec = mock_job();
    spec.task_groups[0].count = 5;
    spec.task_groups[0].reschedule_policy = Some(ReschedulePolicy {
        attempts: 1,
        interval: 24 * HOUR,
        delay: 15 * SECOND,
        max_delay: HOUR,
        ..ReschedulePolicy::default()
    });
    spec
}

/// TestReconciler_Service_ClientStatusComplete (scheduler/reconcile_test.go:1830).
#[test]
fn test_reconciler_service_client_status_complete() {
    let mut c = Cluster::new();
    let job = c.job(complete_job());
    let ids = c.allocs(&job, 5);
    c.alloc_mut(&ids[4]).client_status = status::COMPLETE.into();
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            place: 1,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                place: 1,
                ignore: 4,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(place_indexes(&r), vec![4]);
}

/// TestReconciler_Service_DesiredStop_ClientStatusComplete
/// (scheduler/reconcile_test.go:1887).
#[test]
fn test_reconciler_service_desired_stop_client_status_complete() {
    let mut c = Cluster::new();
    let job = c.job(complete_job());
    let ids = c.allocs(&job, 5);
    {
        let a = c.alloc_mut(&ids[4]);
        a.client_status = status::FAILED.into();
        a.desired_status = status::STOP.into();
    }
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            place: 1,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                place: 1,
                ignore: 4,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(place_indexes(&r), vec![4]);
    assert!(r.plan.followup_evals.is_empty());
}

/// TestReconciler_RescheduleNow_Service (scheduler/reconcile_test.go:1949).
#[test]
fn test_reconciler_reschedule_now_service() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 5;
    spec.task_groups[0].reschedule_policy = Some(ReschedulePolicy {
        attempts: 1,
        interval: 24 * HOUR,
        delay: 5 * SECOND,
        max_delay: HOUR,
        ..ReschedulePolicy::default()
    });
    spec.task_groups[0].update = Some(no_canary_update());
    let job = c.job(spec);
    // Nomad passes eval ID ""; allocs[1]'s reschedule time is past, so the
    // placeholder eval ID gives the same result.
    let ids = service_failures(&mut c, &job, now().add(-10 * SECOND));
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);

    assert!(r.plan.followup_evals.is_empty());
    assert_results(
        &r,
        Expect {
            place: 2,
            stop: 1,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                place: 2,
                ignore: 3,
                stop: 1,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(place_indexes(&r), vec![1, 4]);
    assert_previous_allocs(&c, &r, 1);
    assert_rescheduled(&r, 1);
    assert_eq!(r.plan.stop[0].alloc_id, ids[1]);
}
