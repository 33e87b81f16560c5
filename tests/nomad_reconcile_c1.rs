//! Nomad's reconciler tests, scheduler/reconcile_test.go at 8ac3e642e6,
//! from TestReconciler_CompleteDeployment to TestReconciler_RescheduleNot_Batch.
mod common;
use std::sync::Arc;

use common::*;
use plan_inspect::model::*;
use plan_inspect::reconciler::DesiredChanges;
use plan_inspect::report::JobReport;
use plan_inspect::time::SECOND;

fn assert_successful_update(r: &JobReport, deployment: &str) {
    assert_eq!(r.plan.deployment_updates.len(), 1);
    let u = &r.plan.deployment_updates[0];
    assert_eq!(u.deployment_id, deployment);
    assert_eq!(u.status, deployment_status::SUCCESSFUL);
    assert_eq!(u.status_description, deployment_status::DESC_SUCCESSFUL);
}

/// TestReconciler_CompleteDeployment (scheduler/reconcile_test.go:4204).
#[test]
fn test_reconciler_complete_deployment() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].update = Some(canary_update());
    let job = c.job(spec);
    let d = c.new_deployment(&job);
    c.deployment_mut(&d).status = deployment_status::SUCCESSFUL.into();
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            promoted: true,
            desired_total: 10,
            desired_canaries: 2,
            placed_allocs: 10,
            healthy_allocs: 10,
            ..DeploymentState::default()
        },
    );
    healthy_deployment_allocs(&mut c, &job, "web", &d, 0..10);
    // allocUpdateFnIgnore: the allocations embed the current job.
    let r = c.replay_job("mock-service");
    assert_results(
        &r,
        Expect::default(),
        &[("web", DesiredChanges { ignore: 10, ..dc() })],
    );
}

/// TestReconciler_MarkDeploymentComplete_FailedAllocations
/// (scheduler/reconcile_test.go:4258).
#[test]
fn test_reconciler_mark_deployment_complete_failed_allocations() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].update = Some(no_canary_update());
    let job = c.job(spec);
    let d = c.new_deployment(&job);
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            desired_total: 10,
            placed_allocs: 20,
            healthy_allocs: 10,
            ..DeploymentState::default()
        },
    );
    for i in 0..20 {
        let id = c.mock_alloc(&job, "web", i % 10);
        let a = c.alloc_mut(&id);
        a.deployment_id = d.clone();
        if i < 10 {
            a.client_status = status::RUNNING.into();
            a.deployment_status = healthy(true);
        } else {
            a.desired_status = status::STOP.into();
            a.client_status = status::FAILED.into();
            a.deployment_status = healthy(false);
        }
    }
    let r = c.replay_job("mock-service");
    assert_results(
        &r,
        Expect {
            deployment_updates: 1,
            ..Expect::default()
        },
        &[("web", DesiredChanges { ignore: 10, ..dc() })],
    );
    assert_successful_update(&r, &d);
}

/// TestReconciler_FailedDeployment_CancelCanaries
/// (scheduler/reconcile_test.go:4322).
#[test]
fn test_reconciler_failed_deployment_cancel_canaries() {
    let mut c = Cluster::new();
    let mut old = mock_job();
    old.task_groups[0].update = Some(canary_update());
    let mut two = old.task_groups[0].clone();
    two.name = "two".into();
    old.task_groups.push(two);
    // allocUpdateFnMock: the replacements embed the current job (ignore),
    // the other allocations an older one that needs a destructive update.
    let old = Arc::new(old);
    let job = c.job(destructive_update(&old));
    let d = c.new_deployment(&job);
    let mut states = Vec::new();
    for (group, replacements, promoted, placed) in [("web", 4, true, 4), ("two", 2, false, 2)] {
        let mut state = DeploymentState {
            promoted,
            desired_total: 10,
            desired_canaries: 2,
            placed_allocs: placed,
            ..DeploymentState::default()
        };
        let replaced = healthy_deployment_allocs(&mut c, &job, group, &d, 0..replacements);
        state.placed_canaries.extend(replaced.into_iter().take(2));
        for i in replacements..10 {
            c.mock_alloc(&old, group, i);
        }
        states.push((group, state));
    }
    {
        let dep = c.deployment_mut(&d);
        dep.status = deployment_status::FAILED.into();
        for (group, state) in states {
            dep.task_groups.insert(group.into(), state);
        }
    }
    let r = c.replay_job("mock-service");
    assert_results(
        &r,
        Expect {
            stop: 2,
            ..Expect::default()
        },
        &[
            ("web", DesiredChanges { ignore: 10, ..dc() }),
            (
                "two",
                DesiredChanges {
                    stop: 2,
                    ignore: 8,
                    ..dc()
                },
            ),
        ],
    );
    assert_eq!(stop_indexes(&r), int_range(&[0, 1]));
}

/// TestReconciler_FailedDeployment_NewJob (scheduler/reconcile_test.go:4418).
#[test]
fn test_reconciler_failed_deployment_new_job() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].update = Some(no_canary_update());
    let old = c.job(spec);
    let d = c.new_deployment(&old);
    c.deployment_mut(&d).status = deployment_status::FAILED.into();
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            promoted: true,
            desired_total: 10,
            placed_allocs: 4,
            ..DeploymentState::default()
        },
    );
    for i in 4..10 {
        c.mock_alloc(&old, "web", i);
    }
    healthy_deployment_allocs(&mut c, &old, "web", &d, 0..4);
    // The job version goes up by 100; allocUpdateFnDestructive: the change
    // is destructive for every allocation.
    let mut new = destructive_update(&old);
    new.version += 100;
    let new = c.job(new);
    let r = c.replay_job("mock-service");
    assert_results(
        &r,
        Expect {
            create_deployment: true,
            destructive: 4,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                destructive_update: 4,
                ignore: 6,
                ..dc()
            },
        )],
    );
    let created = r.plan.deployment.as_ref().unwrap();
    assert_eq!(created.status, deployment_status::RUNNING);
    assert_eq!(created.status_description, deployment_status::DESC_RUNNING);
    assert_eq!(created.job_version, new.version);
    assert_eq!(created.groups.len(), 1);
    assert_eq!(created.groups["web"].desired_total, 10);
    assert_eq!(created.groups["web"].desired_canaries, 0);
    assert_eq!(destructive_indexes(&r), int_range(&[0, 3]));
}

/// TestReconciler_MarkDeploymentComplete (scheduler/reconcile_test.go:4490).
#[test]
fn test_reconciler_mark_deployment_complete() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].update = Some(no_canary_update());
    let job = c.job(spec);
    let d = c.new_deployment(&job);
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            promoted: true,
            desired_total: 10,
            placed_allocs: 10,
            healthy_allocs: 10,
            ..DeploymentState::default()
        },
    );
    healthy_deployment_allocs(&mut c, &job, "web", &d, 0..10);
    let r = c.replay_job("mock-service");
    assert_results(
        &r,
        Expect {
            deployment_updates: 1,
            ..Expect::default()
        },
        &[("web", DesiredChanges { ignore: 10, ..dc() })],
    );
    assert_successful_update(&r, &d);
}

/// TestReconciler_JobChange_ScaleUp_SecondEval (scheduler/reconcile_test.go:4549).
#[test]
fn test_reconciler_job_change_scale_up_second_eval() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].update = Some(no_canary_update());
    spec.task_groups[0].count = 30;
    // allocUpdateFnMock: allocations 10..29 embed the current job (ignore),
    // 0..9 an older one that needs a destructive update.
    let old = Arc::new(spec);
    let job = c.job(destructive_update(&old));
    let d = c.new_deployment(&job);
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            promoted: false,
            desired_total: 30,
            placed_allocs: 20,
            ..DeploymentState::default()
        },
    );
    for i in 0..10 {
        c.mock_alloc(&old, "web", i);
    }
    for i in 10..30 {
        let id = c.mock_alloc(&job, "web", i);
        c.alloc_mut(&id).deployment_id = d.clone();
    }
    let r = c.replay_job("mock-service");
    // Nothing is healthy yet, so everything is ignored.
    assert_results(
        &r,
        Expect::default(),
        &[("web", DesiredChanges { ignore: 30, ..dc() })],
    );
}

/// TestReconciler_RollingUpgrade_MissingAllocs (scheduler/reconcile_test.go:4612).
#[test]
fn test_reconciler_rolling_upgrade_missing_allocs() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].update = Some(no_canary_update());
    let old = c.job(spec);
    for i in 0..7 {
        c.mock_alloc(&old, "web", i);
    }
    // allocUpdateFnDestructive.
    let job = c.job(destructive_update(&old));
    let r = c.replay_job("mock-service");
    assert_results(
        &r,
        Expect {
            create_deployment: true,
            place: 3,
            destructive: 1,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                place: 3,
                destructive_update: 1,
                ignore: 6,
                ..dc()
            },
        )],
    );
    let created = r.plan.deployment.as_ref().unwrap();
    assert_eq!(created.status, deployment_status::RUNNING);
    assert_eq!(created.job_version, job.version);
    assert_eq!(created.groups.len(), 1);
    assert_eq!(created.groups["web"].desired_total, 10);
    assert_eq!(created.groups["web"].desired_canaries, 0);
    assert_eq!(place_indexes(&r), int_range(&[7, 9]));
    assert_eq!(destructive_indexes(&r), int_range(&[0, 0]));
}

/// TestReconciler_Batch_Rerun (scheduler/reconcile_test.go:4660).
#[test]
fn test_reconciler_batch_rerun() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.job_type = "batch".into();
    spec.task_groups[0].update = None;
    let old = c.job(spec);
    for i in 0..10 {
        let id = c.mock_alloc(&old, "web", i);
        let a = c.alloc_mut(&id);
        a.client_status = status::COMPLETE.into();
        a.desired_status = status::STOP.into();
    }
    // The job is registered again: same spec (allocUpdateFnIgnore), newer
    // CreateIndex.
    let mut job2 = (*old).clone();
    job2.create_index += 1;
    c.job(job2);
    let r = c.replay_job("mock-service");
    assert_results(
        &r,
        Expect {
            place: 10,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                place: 10,
                ignore: 10,
                ..dc()
            },
        )],
    );
    assert_eq!(place_indexes(&r), int_range(&[0, 9]));
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
            c.alloc_mut(&id).deployment_id = d.clone();
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
            a.deployment_id = d.clone();
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

/// TestReconciler_FailedDeployment_AutoRevert_CancelCanaries
/// (scheduler/reconcile_test.go:4828).
#[test]
fn test_reconciler_failed_deployment_auto_revert_cancel_canaries() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 3;
    spec.task_groups[0].update = Some(UpdateStrategy {
        canary: 3,
        max_parallel: 2,
        // health check, min healthy time, healthy deadline and stagger do
        // not matter to the reconciler.
        ..UpdateStrategy::default()
    });
    let mut v1 = spec.clone();
    v1.version = 1;
    v1.task_groups[0].meta = [("version".to_string(), "1".to_string())].into();
    let mut v2 = spec;
    v2.version = 2;
    v2.task_groups[0].meta = [("version".to_string(), "2".to_string())].into();
    let v1 = Arc::new(v1);
    let v2 = c.job(v2);
    let d = c.new_deployment(&v2);
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            promoted: true,
            desired_total: 3,
            placed_allocs: 3,
            healthy_allocs: 3,
            ..DeploymentState::default()
        },
    );
    for id in healthy_deployment_allocs(&mut c, &v2, "web", &d, 0..3) {
        c.alloc_mut(&id).client_status = status::RUNNING.into();
    }
    for i in 0..3 {
        let id = c.mock_alloc(&v1, "web", i);
        let a = c.alloc_mut(&id);
        a.deployment_id = format!("deployment-older-{i}");
        a.deployment_status = healthy(false);
        a.desired_status = status::STOP.into();
        a.client_status = status::FAILED.into();
    }
    // allocUpdateFnIgnore: the v1 allocations are terminal, which the real
    // update function ignores.
    let r = c.replay_job("mock-service");
    assert_results(
        &r,
        Expect {
            deployment_updates: 1,
            ..Expect::default()
        },
        &[("web", DesiredChanges { ignore: 3, ..dc() })],
    );
    assert_successful_update(&r, &d);
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
        a.deployment_id = d.clone();
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
        delay_function: String::new(),
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
    assert_eq!(r.plan.place[0].previous_alloc_id.as_deref(), Some(&*ids[0]));
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
        delay_function: String::new(),
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
        a.next_allocation = ids[1].clone();
    }
    {
        let prev = ids[0].clone();
        let a = c.alloc_mut(&ids[1]);
        a.client_status = status::FAILED.into();
        a.reschedule_tracker = reschedule_tracker(vec![reschedule_event(60 * MINUTE, &prev)]);
        a.next_allocation = ids[2].clone();
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
