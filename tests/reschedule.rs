//! Rescheduling: now, later or not (`filterByRescheduleable`,
//! `NextRescheduleTime`, `NextDelay`), the follow-up evaluations of delayed
//! reschedules and how they are batched.
//!
//! Nomad's tests from scheduler/reconcile_test.go at 8ac3e642e6 keep their names (snake case); the others cite the Go source (file:line at 8ac3e642e6) that
//! decides their expectation.
//!
//! Nomad's stub update functions are real job differences here: an allocation
//! to ignore embeds the current job, one needing a destructive update embeds
//! the job the current one is `destructive_update` of, and an in-place one the
//! job it is `inplace_update` of.

use std::collections::HashMap;
use std::sync::Arc;

use plan_inspect::model::*;
use plan_inspect::reconciler::{DesiredChanges, desc, trigger};
use plan_inspect::report::JobReport;
use plan_inspect::time::{Duration, SECOND, Time};

use crate::common::*;

/// The six allocations of the RescheduleLater_Batch and RescheduleNow_Batch
/// tests: 0-2 a chain of failures (2 already rescheduled twice, failed at
/// `failed_at`), 3-4 running, 5 complete.
fn batch_chain(c: &mut Cluster, job: &Arc<Job>, failed_at: Time) -> Vec<String> {
    let ids: Vec<String> = (0..6).map(|i| c.alloc(job, i)).collect();
    let (a0, a1, a2) = (ids[0].clone(), ids[1].clone(), ids[2].clone());
    {
        let a = c.alloc_mut(&a0);
        a.client_status = status::FAILED.into();
        a.next_allocation = (&a1).into();
    }
    {
        let a = c.alloc_mut(&a1);
        a.client_status = status::FAILED.into();
        a.reschedule_tracker = reschedule_tracker(vec![reschedule_event(HOUR, &a0)]);
        a.next_allocation = (&a2).into();
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
        &web(DesiredChanges { ignore: 4, ..dc() }),
    );
    assert_eq!(attribute_update_indexes(&c, &r), vec![2]);
    assert_eq!(r.plan.attribute_updates[0].alloc_id, ids[2]);
    assert_eq!(r.plan.attribute_updates[0].followup_eval_id, eval.id);
    let later = &group(&r, "web").reschedule_later;
    assert_eq!(later.len(), 1);
    assert_eq!(
        (later[0].id.to_string(), later[0].at),
        (ids[2].clone(), now().add(15 * SECOND))
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
        &web(DesiredChanges { ignore: 10, ..dc() }),
    );
    assert_eq!(attribute_update_indexes(&c, &r), int_range(&[0, 6]));
    for u in &r.plan.attribute_updates {
        let index = indexes([c.alloc_ref(&u.alloc_id).name().as_str()])[0];
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
        &web(DesiredChanges {
            place: 1,
            stop: 1,
            ignore: 3,
            ..dc()
        }),
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
fn service_failures(c: &mut Cluster, job: &Arc<Job>, failed_at: Time) -> Vec<String> {
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
        &web(DesiredChanges {
            place: 1,
            ignore: 4,
            ..dc()
        }),
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
        &web(DesiredChanges {
            place: 1,
            ignore: 4,
            ..dc()
        }),
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
        &web(DesiredChanges {
            place: 1,
            ignore: 4,
            ..dc()
        }),
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
        &web(DesiredChanges {
            place: 2,
            ignore: 3,
            stop: 1,
            ..dc()
        }),
    );
    assert_eq!(place_indexes(&r), vec![1, 4]);
    assert_previous_allocs(&c, &r, 1);
    assert_rescheduled(&r, 1);
    assert_eq!(r.plan.stop[0].alloc_id, ids[1]);
}

/// TestReconciler_RescheduleNow_WithinAllowedTimeWindow
/// (scheduler/reconcile_test.go:2032).
#[test]
fn test_reconciler_reschedule_now_within_allowed_time_window() {
    let mut c = Cluster::new();
    let mut spec = job_with(5, Some(no_canary_update()));
    spec.task_groups[0].reschedule_policy = Some(one_attempt_policy());
    let job = c.job(spec);
    let ids = c.allocs(&job, 5);
    // Nomad passes eval ID "", which any alloc without a FollowupEvalID
    // matches; our non-empty placeholder makes the test rely on the 1s
    // reschedule window alone, which is what it is about.
    c.alloc_mut(&ids[0]).client_status = status::FAILED.into();
    rescheduled_once(&mut c, &ids[0]);
    // Failed 4s ago with a 5s delay: due in 1s, inside the window.
    fail_at(c.alloc_mut(&ids[1]), now().add(-4 * SECOND));

    let r = c.replay_job(JOB);
    assert!(r.plan.followup_evals.is_empty());
    assert_results(
        &r,
        Expect {
            place: 1,
            stop: 1,
            ..Expect::default()
        },
        &web(DesiredChanges {
            place: 1,
            stop: 1,
            ignore: 4,
            ..DesiredChanges::default()
        }),
    );
    assert_eq!(place_indexes(&r), int_range(&[1, 1]));
    assert_previous_allocs(&c, &r, 1);
    assert_rescheduled(&r, 1);
    assert_stop_descriptions(&r, "alloc was rescheduled because it failed");
    assert_eq!(
        previous_id(&r.plan.place[0]).as_deref(),
        Some(ids[1].as_str())
    );
    assert_eq!(r.plan.stop[0].alloc_id, ids[1]);
}

/// TestReconciler_RescheduleNow_EvalIDMatch (scheduler/reconcile_test.go:2114).
#[test]
fn test_reconciler_reschedule_now_eval_id_match() {
    let mut c = Cluster::new();
    let mut spec = job_with(5, Some(no_canary_update()));
    spec.task_groups[0].reschedule_policy = Some(one_attempt_policy());
    let job = c.job(spec);
    let ids = c.allocs(&job, 5);
    c.alloc_mut(&ids[0]).client_status = status::FAILED.into();
    rescheduled_once(&mut c, &ids[0]);
    fail_at(c.alloc_mut(&ids[1]), now().add(-5 * SECOND));
    // The Nomad test passes a generated eval ID that alloc 1's FollowupEvalID
    // names, and evaluates 30s before the failure's reschedule time.
    let eval = "eval-followup-0001".to_string();
    c.alloc_mut(&ids[1]).followup_eval_id = (&eval).into();
    c.snapshot.eval_id = Some(eval);
    c.snapshot.now = Some(now().add(-30 * SECOND));

    let r = c.replay_job(JOB);
    assert!(r.plan.followup_evals.is_empty());
    assert_results(
        &r,
        Expect {
            place: 1,
            stop: 1,
            ..Expect::default()
        },
        &web(DesiredChanges {
            place: 1,
            stop: 1,
            ignore: 4,
            ..DesiredChanges::default()
        }),
    );
    assert_eq!(place_indexes(&r), int_range(&[1, 1]));
    assert_previous_allocs(&c, &r, 1);
    assert_rescheduled(&r, 1);
    assert_stop_descriptions(&r, "alloc was rescheduled because it failed");
}

/// TestReconciler_DontReschedule_PreviouslyRescheduled
/// (scheduler/reconcile_test.go:2566).
#[test]
fn test_reconciler_dont_reschedule_previously_rescheduled() {
    let mut c = Cluster::new();
    let mut spec = job_with(5, None);
    spec.task_groups[0].reschedule_policy = Some(ReschedulePolicy {
        attempts: 5,
        interval: 24 * HOUR,
        ..ReschedulePolicy::default()
    });
    let job = c.job(spec);
    let ids = c.allocs(&job, 7);
    // Nomad gives alloc 0 the ID of alloc 1; building its alloc set by ID,
    // the later one (alloc 1) wins and alloc 0 is gone.
    {
        let a = c.alloc_mut(&ids[0]);
        a.client_status = status::FAILED.into();
        a.id = (&ids[1]).into();
    }
    let dup = c
        .snapshot
        .allocs
        .iter_mut()
        .filter(|a| a.id == ids[1])
        .nth(1)
        .unwrap();
    dup.client_status = status::FAILED.into();
    dup.next_allocation = (&ids[2]).into();
    dup.reschedule_tracker = reschedule_tracker(vec![reschedule_event(HOUR, "prev-alloc")]);
    c.alloc_mut(&ids[4]).desired_status = status::STOP.into();

    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            place: 1,
            ..Expect::default()
        },
        &web(DesiredChanges {
            place: 1,
            ignore: 4,
            ..DesiredChanges::default()
        }),
    );
    assert_eq!(place_indexes(&r), int_range(&[0, 0]));
}

/// TestReconciler_FailedDeployment_DontReschedule (scheduler/reconcile_test.go:4708).
#[test]
fn test_reconciler_failed_deployment_dont_reschedule() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].update = Some(no_canary_update());
    // allocUpdateFnDestructive: the allocations embed an older job.
    let old = Arc::new(spec);
    let job = c.job(destructive_update(&old));
    let d = c.new_deployment(&job);
    c.deployment_mut(&d).status = deployment_status::FAILED.into();
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            promoted: true,
            desired_total: 5,
            placed_allocs: 4,
            ..DeploymentState::default()
        },
    );
    let ids: Vec<String> = (0..4)
        .map(|i| {
            let id = c.mock_alloc(&old, "web", i);
            c.alloc_mut(&id).deployment_id = d.as_str().into();
            id
        })
        .collect();
    for id in &ids[2..4] {
        let a = c.alloc_mut(id);
        fail_at(a, now().add(-10 * SECOND));
    }
    let r = c.replay_job("mock-service");
    assert_results(
        &r,
        Expect::default(),
        &[("web", DesiredChanges { ignore: 2, ..dc() })],
    );
}

/// TestReconciler_DeploymentWithFailedAllocs_DontReschedule
/// (scheduler/reconcile_test.go:4768).
#[test]
fn test_reconciler_deployment_with_failed_allocs_dont_reschedule() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].update = Some(no_canary_update());
    // allocUpdateFnDestructive: the allocations embed an older job.
    let old = Arc::new(spec);
    let job = c.job(destructive_update(&old));
    let d = c.new_deployment(&job);
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            promoted: false,
            desired_total: 10,
            placed_allocs: 10,
            ..DeploymentState::default()
        },
    );
    let ids: Vec<String> = (0..10)
        .map(|i| {
            let id = c.mock_alloc(&old, "web", i);
            let a = c.alloc_mut(&id);
            a.deployment_id = d.as_str().into();
            fail_at(a, now().add(-10 * SECOND));
            id
        })
        .collect();
    for id in &ids[..5] {
        c.alloc_mut(id).desired_transition.reschedule = Some(true);
    }
    let r = c.replay_job("mock-service");
    assert_results(
        &r,
        Expect {
            place: 5,
            stop: 5,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                place: 5,
                stop: 5,
                ignore: 5,
                ..dc()
            },
        )],
    );
}

/// TestReconciler_SuccessfulDeploymentWithFailedAllocs_Reschedule
/// (scheduler/reconcile_test.go:4926).
#[test]
fn test_reconciler_successful_deployment_with_failed_allocs_reschedule() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].update = Some(no_canary_update());
    // allocUpdateFnDestructive: the allocations embed an older job.
    let old = Arc::new(spec);
    let job = c.job(destructive_update(&old));
    let d = c.new_deployment(&job);
    c.deployment_mut(&d).status = deployment_status::SUCCESSFUL.into();
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            promoted: false,
            desired_total: 10,
            placed_allocs: 10,
            ..DeploymentState::default()
        },
    );
    for i in 0..10 {
        let id = c.mock_alloc(&old, "web", i);
        let a = c.alloc_mut(&id);
        a.deployment_id = d.as_str().into();
        fail_at(a, now().add(-10 * SECOND));
    }
    let r = c.replay_job("mock-service");
    assert_results(
        &r,
        Expect {
            place: 10,
            stop: 10,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                place: 10,
                stop: 10,
                ..dc()
            },
        )],
    );
    assert_eq!(
        r.plan
            .place
            .iter()
            .filter(|p| p.previous_alloc_id.is_some())
            .count(),
        10
    );
}

/// TestReconciler_ForceReschedule_Service (scheduler/reconcile_test.go:4982).
#[test]
fn test_reconciler_force_reschedule_service() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 5;
    spec.task_groups[0].reschedule_policy = Some(ReschedulePolicy {
        attempts: 1,
        interval: 24 * 60 * MINUTE,
        delay: 5 * SECOND,
        delay_function: Default::default(),
        max_delay: 60 * MINUTE,
        unlimited: false,
    });
    spec.task_groups[0].update = Some(no_canary_update());
    let job = c.job(spec);
    let ids = c.allocs(&job, 5);
    {
        let a = c.alloc_mut(&ids[0]);
        a.client_status = status::FAILED.into();
        a.reschedule_tracker =
            reschedule_tracker(vec![reschedule_event(60 * MINUTE, "alloc-gone")]);
        a.desired_transition.force_reschedule = Some(true);
    }
    let r = c.replay_job("mock-service");
    assert!(r.plan.followup_evals.is_empty(), "no follow-up evals");
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
                ignore: 4,
                ..dc()
            },
        )],
    );
    assert_eq!(place_indexes(&r), int_range(&[0, 0]));
    assert_eq!(previous_id(&r.plan.place[0]).as_deref(), Some(&*ids[0]));
    assert!(r.plan.place[0].reschedule);
}

/// TestReconciler_RescheduleNot_Service (scheduler/reconcile_test.go:5060).
#[test]
fn test_reconciler_reschedule_not_service() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 5;
    spec.task_groups[0].reschedule_policy = Some(ReschedulePolicy {
        attempts: 0,
        interval: 24 * 60 * MINUTE,
        delay: 5 * SECOND,
        delay_function: Default::default(),
        max_delay: 60 * MINUTE,
        unlimited: false,
    });
    spec.task_groups[0].update = Some(no_canary_update());
    let job = c.job(spec);
    let ids = c.allocs(&job, 5);
    {
        let a = c.alloc_mut(&ids[0]);
        a.client_status = status::FAILED.into();
        a.reschedule_tracker =
            reschedule_tracker(vec![reschedule_event(60 * MINUTE, "alloc-gone")]);
    }
    {
        let a = c.alloc_mut(&ids[1]);
        fail_at(a, now().add(-10 * SECOND));
    }
    c.alloc_mut(&ids[4]).desired_status = status::STOP.into();
    let r = c.replay_job("mock-service");
    assert!(r.plan.followup_evals.is_empty(), "no follow-up evals");
    // No rescheduling; one placement replaces the stopped allocation.
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
                ..dc()
            },
        )],
    );
    assert!(r.plan.place.iter().all(|p| p.previous_alloc_id.is_none()));
    assert!(r.plan.place.iter().all(|p| !p.reschedule));
}

/// TestReconciler_RescheduleNot_Batch (scheduler/reconcile_test.go:5144).
#[test]
fn test_reconciler_reschedule_not_batch() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    // Nomad passes isBatch=true with mock.Job(); a snapshot says so by the type.
    spec.job_type = "batch".into();
    spec.task_groups[0].count = 4;
    spec.task_groups[0].reschedule_policy = Some(ReschedulePolicy {
        attempts: 0,
        interval: 24 * 60 * MINUTE,
        delay: 5 * SECOND,
        delay_function: "constant".into(),
        ..ReschedulePolicy::default()
    });
    let job = c.job(spec);
    let ids = c.allocs(&job, 6);
    {
        let a = c.alloc_mut(&ids[0]);
        a.client_status = status::FAILED.into();
        a.next_allocation = (&ids[1]).into();
    }
    {
        let prev = ids[0].clone();
        let a = c.alloc_mut(&ids[1]);
        a.client_status = status::FAILED.into();
        a.reschedule_tracker = reschedule_tracker(vec![reschedule_event(60 * MINUTE, &prev)]);
        a.next_allocation = (&ids[2]).into();
    }
    {
        let (p0, p1) = (ids[0].clone(), ids[1].clone());
        let a = c.alloc_mut(&ids[2]);
        fail_at(a, now().add(-5 * SECOND));
        a.followup_eval_id = "eval-other".into();
        a.reschedule_tracker = reschedule_tracker(vec![
            reschedule_event(120 * MINUTE, &p0),
            reschedule_event(60 * MINUTE, &p1),
        ]);
    }
    c.alloc_mut(&ids[5]).client_status = status::COMPLETE.into();
    let r = c.replay_job("mock-service");
    assert!(r.plan.followup_evals.is_empty(), "no follow-up evals");
    assert_results(
        &r,
        Expect::default(),
        &[("web", DesiredChanges { ignore: 4, ..dc() })],
    );
}

/// A failed allocation of `job` due for rescheduling in 30 s, and an eval
/// `eval-1` of the job delayed until `wait_until`.
fn reschedule_later_with_eval(wait_until: Time) -> (Cluster, String) {
    let mut c = Cluster::new();
    let mut job = mock_job();
    job.task_groups[0].count = 1;
    if let Some(p) = job.task_groups[0].reschedule_policy.as_mut() {
        p.delay = 30 * SECOND;
    }
    let job = c.job(job);
    let failed = c.alloc(&job, 0);
    let a = c.alloc_mut(&failed);
    a.client_status = status::FAILED.into();
    a.task_states.insert("web".into(), failed_state(now()));
    c.snapshot.evals.push(Evaluation {
        id: "eval-1".into(),
        namespace: job.namespace.clone(),
        job_id: job.id.clone(),
        priority: 50,
        eval_type: "service".into(),
        triggered_by: "alloc-failure".into(),
        status: "pending".into(),
        wait_until,
        ..Evaluation::default()
    });
    (c, failed)
}

/// The scheduler creates follow-up evals only if the evaluation it runs was
/// not itself delayed (`delayInstead`, scheduler/generic_sched.go:293, 312-321);
/// the allocations still get the follow-up eval IDs.
#[test]
fn a_delayed_evaluation_creates_no_followup_evals() {
    let replay_eval = |c: &Cluster| {
        let options = plan_inspect::replay::Options {
            eval: Some("eval-1".into()),
            ..Default::default()
        };
        plan_inspect::replay::Replay::new(&c.snapshot, &options)
            .map(plan_inspect::replay::Replay::report)
            .unwrap()
            .jobs[0]
            .plan
            .clone()
    };

    let (c, failed) = reschedule_later_with_eval(Time::ZERO);
    let plan = replay_eval(&c);
    assert_eq!(plan.followup_evals.len(), 1);
    assert_eq!(plan.attribute_updates.len(), 1);

    let (c, _) = reschedule_later_with_eval(now().add(-MINUTE));
    let plan = replay_eval(&c);
    assert!(plan.followup_evals.is_empty());
    assert_eq!(plan.attribute_updates.len(), 1);
    assert_eq!(plan.attribute_updates[0].alloc_id, failed);
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
        c.alloc_mut(&id).reschedule_tracker = Some(Box::new(RescheduleTracker {
            events: Some(events.into()),
            ..RescheduleTracker::default()
        }));
    }
    (c, id)
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
    c.alloc_mut(&id).reschedule_tracker = Some(Box::new(RescheduleTracker {
        events: None,
        ..RescheduleTracker::default()
    }));
    assert_eq!(resched_of(&c.replay_job(JOB), &id), Resched::Not);

    c.alloc_mut(&id).reschedule_tracker = Some(Box::new(RescheduleTracker {
        events: Some(Box::default()),
        ..RescheduleTracker::default()
    }));
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
        .map(|u| (u.alloc_id.to_string(), u.followup_eval_id.clone()))
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
    assert_eq!(
        r.plan.stop[0]
            .client_status
            .as_ref()
            .map(ClientStatus::as_str),
        Some("lost")
    );
    assert_eq!(
        r.plan.stop[0].followup_eval_id.as_deref(),
        Some(evals[1].id.as_str())
    );
    assert!(r.plan.place.is_empty());
    assert_eq!(r.plan.attribute_updates[0].followup_eval_id, evals[0].id);
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
