//! Ports of scheduler/reconcile_test.go (Nomad 8ac3e642e6), part b1: TestReconciler_RescheduleNow_WithinAllowedTimeWindow to
//! TestReconciler_DontCreateDeployment_NoChanges (rescheduling with
//! canaries, deployment cancellation and creation).
//!
//! Nomad's stub update functions become real job differences: an allocation
//! that must be ignored embeds the current job, one that needs a destructive
//! update embeds the job the current one is `destructive_update` of.
mod common;

use std::sync::Arc;

use common::*;
use plan_inspect::model::*;
use plan_inspect::reconciler::DesiredChanges;
use plan_inspect::time::SECOND;

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
        r.plan.place[0].previous_alloc_id.as_deref(),
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
    c.alloc_mut(&ids[1]).followup_eval_id = eval.clone();
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

/// The setup shared by the RescheduleNow canary tests: job `job` (embedded
/// in the allocations) and its copy with a bumped version as the current
/// job, plus a deployment for the current job that needs promotion.
fn canary_reschedule_setup(c: &mut Cluster, policy: ReschedulePolicy) -> (Arc<Job>, String) {
    let mut spec = job_with(5, Some(canary_update()));
    spec.task_groups[0].reschedule_policy = Some(policy);
    let old = Arc::new(spec.clone());
    // Same JobModifyIndex: allocUpdateFnIgnore.
    let mut job2 = spec;
    job2.version += 1;
    let job2 = c.job(job2);
    let d = c.new_deployment(&job2);
    c.deployment_mut(&d).status_description = deployment_status::DESC_NEEDS_PROMOTION.into();
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            desired_canaries: 2,
            desired_total: 5,
            ..DeploymentState::default()
        },
    );
    (old, d)
}

/// A running canary of `old` in deployment `d`, unhealthy.
fn unhealthy_canary(c: &mut Cluster, old: &Arc<Job>, d: &str, index: u64) -> String {
    let id = c.alloc(old, index);
    let a = c.alloc_mut(&id);
    a.deployment_id = d.to_string();
    a.deployment_status = Some(AllocDeploymentStatus {
        canary: true,
        healthy: Some(false),
    });
    c.add_placed_canary(d, "web", &id);
    id
}

/// TestReconciler_RescheduleNow_Service_WithCanaries
/// (scheduler/reconcile_test.go:2198).
#[test]
fn test_reconciler_reschedule_now_service_with_canaries() {
    let mut c = Cluster::new();
    let (old, d) = canary_reschedule_setup(&mut c, one_attempt_policy());
    let ids = c.allocs(&old, 5);
    c.alloc_mut(&ids[0]).client_status = status::FAILED.into();
    rescheduled_once(&mut c, &ids[0]);
    fail_at(c.alloc_mut(&ids[1]), now().add(-10 * SECOND));
    // No task states: the failure time is ModifyTime 0, long past.
    c.alloc_mut(&ids[4]).client_status = status::FAILED.into();
    for i in 0..2 {
        unhealthy_canary(&mut c, &old, &d, i);
    }

    let r = c.replay_job(JOB);
    assert!(r.plan.followup_evals.is_empty());
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
            ignore: 5,
            ..DesiredChanges::default()
        }),
    );
    assert_eq!(place_indexes(&r), int_range(&[1, 1, 4, 4]));
    assert_previous_allocs(&c, &r, 2);
    assert_rescheduled(&r, 2);
    assert_stop_descriptions(&r, "alloc was rescheduled because it failed");
}

/// The shared body of the Service_Canaries tests: two failed canaries
/// marked for rescheduling (one already rescheduled once) and four failed
/// canaries already replaced.
fn failed_canaries(c: &mut Cluster, old: &Arc<Job>, d: &str) {
    c.allocs(old, 5);
    let canaries: Vec<String> = (0..2).map(|i| unhealthy_canary(c, old, d, i)).collect();
    {
        let a = c.alloc_mut(&canaries[0]);
        a.client_status = status::FAILED.into();
        a.desired_transition.reschedule = Some(true);
    }
    rescheduled_once(c, &canaries[0]);
    {
        let a = c.alloc_mut(&canaries[1]);
        fail_at(a, now().add(-10 * SECOND));
        a.desired_transition.reschedule = Some(true);
    }
    for i in 0..4 {
        let id = unhealthy_canary(c, old, d, i % 2);
        c.alloc_mut(&id).client_status = status::FAILED.into();
    }
}

/// TestReconciler_RescheduleNow_Service_Canaries
/// (scheduler/reconcile_test.go:2309).
#[test]
fn test_reconciler_reschedule_now_service_canaries() {
    let mut c = Cluster::new();
    let policy = ReschedulePolicy {
        delay: 5 * SECOND,
        delay_function: "constant".into(),
        max_delay: HOUR,
        unlimited: true,
        ..ReschedulePolicy::default()
    };
    let (old, d) = canary_reschedule_setup(&mut c, policy);
    failed_canaries(&mut c, &old, &d);

    let r = c.replay_job(JOB);
    assert!(r.plan.followup_evals.is_empty());
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
            ignore: 9,
            ..DesiredChanges::default()
        }),
    );
    assert_eq!(place_indexes(&r), int_range(&[0, 1]));
    assert_previous_allocs(&c, &r, 2);
    assert_rescheduled(&r, 2);
    assert_stop_descriptions(&r, "alloc was rescheduled because it failed");
}

/// TestReconciler_RescheduleNow_Service_Canaries_Limit
/// (scheduler/reconcile_test.go:2437).
#[test]
fn test_reconciler_reschedule_now_service_canaries_limit() {
    let mut c = Cluster::new();
    let (old, d) = canary_reschedule_setup(&mut c, one_attempt_policy());
    failed_canaries(&mut c, &old, &d);

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
            ignore: 10,
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
        a.id = ids[1].clone();
    }
    let dup = c
        .snapshot
        .allocs
        .iter_mut()
        .filter(|a| a.id == ids[1])
        .nth(1)
        .unwrap();
    dup.client_status = status::FAILED.into();
    dup.next_allocation = ids[2].clone();
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

/// The four cases of TestReconciler_CancelDeployment_JobStop.
fn cancel_deployment_job_stop(nil_job: bool, failed: bool) {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.stop = true;
    let (job_id, group) = if nil_job {
        ("foo", "bar")
    } else {
        (JOB, "web")
    };
    spec.id = job_id.into();
    spec.task_groups[0].name = group.into();
    let job = if nil_job {
        // A nil job: the job is absent from the snapshot and its allocations
        // embed none.
        Arc::new(spec.clone())
    } else {
        c.job(spec.clone())
    };
    // The deployment must name the job to be found in a snapshot; Nomad's
    // test hands it to the reconciler whatever its JobID.
    let d = c.new_deployment(&spec);
    if failed {
        c.deployment_mut(&d).status = deployment_status::FAILED.into();
    }
    let ids = c.allocs(&job, 10);
    if nil_job {
        for id in &ids {
            c.alloc_mut(id).job = None;
        }
    }

    let r = c.replay_job(job_id);
    let cancel = !failed;
    assert_results(
        &r,
        Expect {
            deployment_updates: usize::from(cancel),
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
    if cancel {
        assert_deployment_update(
            &r,
            &d,
            deployment_status::CANCELLED,
            deployment_status::DESC_STOPPED_JOB,
        );
    }
    assert_eq!(stop_indexes(&r), int_range(&[0, 9]));
    assert_stop_descriptions(&r, "alloc not needed due to job update");
}

/// TestReconciler_CancelDeployment_JobStop, case "stopped job, running
/// deployment" (scheduler/reconcile_test.go:2627).
#[test]
fn test_reconciler_cancel_deployment_job_stop_stopped_job_running_deployment() {
    cancel_deployment_job_stop(false, false);
}

/// TestReconciler_CancelDeployment_JobStop, case "nil job, running
/// deployment" (scheduler/reconcile_test.go:2627).
#[test]
fn test_reconciler_cancel_deployment_job_stop_nil_job_running_deployment() {
    cancel_deployment_job_stop(true, false);
}

/// TestReconciler_CancelDeployment_JobStop, case "stopped job, failed
/// deployment" (scheduler/reconcile_test.go:2627).
#[test]
fn test_reconciler_cancel_deployment_job_stop_stopped_job_failed_deployment() {
    cancel_deployment_job_stop(false, true);
}

/// TestReconciler_CancelDeployment_JobStop, case "nil job, failed
/// deployment" (scheduler/reconcile_test.go:2627).
#[test]
fn test_reconciler_cancel_deployment_job_stop_nil_job_failed_deployment() {
    cancel_deployment_job_stop(true, true);
}

/// The cases of TestReconciler_CancelDeployment_JobUpdate.
fn cancel_deployment_job_update(failed: bool) {
    let mut c = Cluster::new();
    let spec = mock_job();
    let d = c.new_deployment(&spec);
    if failed {
        c.deployment_mut(&d).status = deployment_status::FAILED.into();
    }
    // The job is newer than the deployment; its allocations embed it.
    let mut newer = spec;
    newer.version += 10;
    let job = c.job(newer);
    c.allocs(&job, 10);

    let r = c.replay_job(JOB);
    let cancel = !failed;
    assert_results(
        &r,
        Expect {
            deployment_updates: usize::from(cancel),
            ..Expect::default()
        },
        &web(DesiredChanges {
            ignore: 10,
            ..DesiredChanges::default()
        }),
    );
    if cancel {
        assert_deployment_update(
            &r,
            &d,
            deployment_status::CANCELLED,
            deployment_status::DESC_NEWER_JOB,
        );
    }
}

/// TestReconciler_CancelDeployment_JobUpdate, case "running deployment"
/// (scheduler/reconcile_test.go:2727).
#[test]
fn test_reconciler_cancel_deployment_job_update_running_deployment() {
    cancel_deployment_job_update(false);
}

/// TestReconciler_CancelDeployment_JobUpdate, case "failed deployment"
/// (scheduler/reconcile_test.go:2727).
#[test]
fn test_reconciler_cancel_deployment_job_update_failed_deployment() {
    cancel_deployment_job_update(true);
}

/// TestReconciler_CreateDeployment_RollingUpgrade_Destructive
/// (scheduler/reconcile_test.go:2806).
#[test]
fn test_reconciler_create_deployment_rolling_upgrade_destructive() {
    let mut c = Cluster::new();
    // allocUpdateFnDestructive: the allocations embed the previous job.
    let old = Arc::new(job_with(10, Some(no_canary_update())));
    let job = c.job(destructive_update(&old));
    c.allocs(&old, 10);

    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            create_deployment: true,
            destructive: 4,
            ..Expect::default()
        },
        &web(DesiredChanges {
            destructive_update: 4,
            ignore: 6,
            ..DesiredChanges::default()
        }),
    );
    assert_created_deployment(&r, &job, deployment_status::DESC_RUNNING, &[("web", 10, 0)]);
    assert_eq!(destructive_indexes(&r), int_range(&[0, 3]));
}

/// TestReconciler_CreateDeployment_RollingUpgrade_Inplace
/// (scheduler/reconcile_test.go:2850).
#[test]
fn test_reconciler_create_deployment_rolling_upgrade_inplace() {
    let mut c = Cluster::new();
    let old = Arc::new(mock_job());
    // allocUpdateFnInplace: the new job differs in place only (plus the
    // update strategy, which tasksUpdated does not look at).
    let mut spec = inplace_update(&old);
    spec.version += 1;
    spec.task_groups[0].update = Some(no_canary_update());
    let job = c.job(spec);
    c.allocs(&old, 10);

    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            create_deployment: true,
            inplace: 10,
            ..Expect::default()
        },
        &web(DesiredChanges {
            in_place_update: 10,
            ..DesiredChanges::default()
        }),
    );
    assert_created_deployment(&r, &job, deployment_status::DESC_RUNNING, &[("web", 10, 0)]);
}

/// TestReconciler_CreateDeployment_NewerCreateIndex
/// (scheduler/reconcile_test.go:2895).
#[test]
fn test_reconciler_create_deployment_newer_create_index() {
    let mut c = Cluster::new();
    let old = Arc::new(mock_job());
    let mut spec = (*old).clone();
    spec.task_groups[0].update = Some(no_canary_update());
    spec.create_index += 100;
    // Same JobModifyIndex: allocUpdateFnIgnore.
    let job = c.job(spec);
    c.allocs(&old, 5);

    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            create_deployment: true,
            place: 5,
            ..Expect::default()
        },
        &web(DesiredChanges {
            ignore: 5,
            place: 5,
            ..DesiredChanges::default()
        }),
    );
    assert_created_deployment(&r, &job, deployment_status::DESC_RUNNING, &[("web", 5, 0)]);
}

/// TestReconciler_DontCreateDeployment_NoChanges
/// (scheduler/reconcile_test.go:2944).
#[test]
fn test_reconciler_dont_create_deployment_no_changes() {
    let mut c = Cluster::new();
    let job = c.job(job_with(10, Some(no_canary_update())));
    c.allocs(&job, 10);

    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect::default(),
        &web(DesiredChanges {
            ignore: 10,
            ..DesiredChanges::default()
        }),
    );
}
