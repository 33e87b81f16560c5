//! Deployments: which one is current, when one is created, cancelled, paused,
//! failed or marked complete, rolling upgrades under `max_parallel`, and
//! multiregion jobs.
//!
//! Nomad's tests from scheduler/reconcile_test.go at 8ac3e642e6 keep their names (snake case); the others cite the Go source (file:line at 8ac3e642e6) that
//! decides their expectation.
//!
//! Nomad's stub update functions are real job differences here: an allocation
//! to ignore embeds the current job, one needing a destructive update embeds
//! the job the current one is `destructive_update` of, and an in-place one the
//! job it is `inplace_update` of.

use std::sync::Arc;

use plan_inspect::model::*;
use plan_inspect::reconciler::{DesiredChanges, alloc_name, desc};
use serde_json::json;

use crate::common::*;

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

/// The cases of TestReconciler_PausedOrFailedDeployment_NoMorePlacements.
fn paused_or_failed_no_more_placements(deployment_status: &str) {
    let mut c = Cluster::new();
    let job = c.job(job_with(15, Some(no_canary_update())));
    let d = c.new_deployment(&job);
    c.deployment_mut(&d).status = deployment_status.into();
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            desired_total: 15,
            placed_allocs: 10,
            ..DeploymentState::default()
        },
    );
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

/// TestReconciler_PausedOrFailedDeployment_NoMorePlacements, case "paused
/// deployment" (scheduler/reconcile_test.go:3067).
#[test]
fn test_reconciler_paused_or_failed_deployment_no_more_placements_paused_deployment() {
    paused_or_failed_no_more_placements(deployment_status::PAUSED);
}

/// TestReconciler_PausedOrFailedDeployment_NoMorePlacements, case "failed
/// deployment" (scheduler/reconcile_test.go:3067).
#[test]
fn test_reconciler_paused_or_failed_deployment_no_more_placements_failed_deployment() {
    paused_or_failed_no_more_placements(deployment_status::FAILED);
}

/// The cases of TestReconciler_PausedOrFailedDeployment_NoMoreDestructiveUpdates.
fn paused_or_failed_no_more_destructive(deployment_status: &str) {
    let mut c = Cluster::new();
    let (old, job) = destructive_pair(&mut c, 10, no_canary_update());
    let d = c.new_deployment(&job);
    c.deployment_mut(&d).status = deployment_status.into();
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            desired_total: 10,
            placed_allocs: 1,
            ..DeploymentState::default()
        },
    );
    for i in 1..10 {
        c.alloc(&old, i);
    }
    let new = c.alloc(&job, 0);
    c.alloc_mut(&new).deployment_id = d.as_str().into();

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

/// TestReconciler_PausedOrFailedDeployment_NoMoreDestructiveUpdates, case
/// "paused deployment" (scheduler/reconcile_test.go:3134).
#[test]
fn test_reconciler_paused_or_failed_deployment_no_more_destructive_updates_paused_deployment() {
    paused_or_failed_no_more_destructive(deployment_status::PAUSED);
}

/// TestReconciler_PausedOrFailedDeployment_NoMoreDestructiveUpdates, case
/// "failed deployment" (scheduler/reconcile_test.go:3134).
#[test]
fn test_reconciler_paused_or_failed_deployment_no_more_destructive_updates_failed_deployment() {
    paused_or_failed_no_more_destructive(deployment_status::FAILED);
}

/// The cases of TestReconciler_DeploymentLimit_HealthAccounting.
fn deployment_limit_health_accounting(healthy: u64) {
    let mut c = Cluster::new();
    let (old, job) = destructive_pair(&mut c, 10, no_canary_update());
    let d = c.new_deployment(&job);
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
        c.alloc(&old, i);
    }
    for i in 0..4 {
        let id = c.alloc(&job, i);
        let a = c.alloc_mut(&id);
        a.deployment_id = d.as_str().into();
        if i < healthy {
            a.deployment_status = crate::common::healthy(true);
        }
    }

    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            destructive: healthy as usize,
            ..Expect::default()
        },
        &web(DesiredChanges {
            destructive_update: healthy,
            ignore: 10 - healthy,
            ..DesiredChanges::default()
        }),
    );
    if healthy != 0 {
        assert_eq!(destructive_indexes(&r), int_range(&[4, 3 + healthy]));
    }
}

/// TestReconciler_DeploymentLimit_HealthAccounting, case "0 healthy"
/// (scheduler/reconcile_test.go:3936).
#[test]
fn test_reconciler_deployment_limit_health_accounting_0_healthy() {
    deployment_limit_health_accounting(0);
}

/// TestReconciler_DeploymentLimit_HealthAccounting, case "1 healthy"
/// (scheduler/reconcile_test.go:3936).
#[test]
fn test_reconciler_deployment_limit_health_accounting_1_healthy() {
    deployment_limit_health_accounting(1);
}

/// TestReconciler_DeploymentLimit_HealthAccounting, case "2 healthy"
/// (scheduler/reconcile_test.go:3936).
#[test]
fn test_reconciler_deployment_limit_health_accounting_2_healthy() {
    deployment_limit_health_accounting(2);
}

/// TestReconciler_DeploymentLimit_HealthAccounting, case "3 healthy"
/// (scheduler/reconcile_test.go:3936).
#[test]
fn test_reconciler_deployment_limit_health_accounting_3_healthy() {
    deployment_limit_health_accounting(3);
}

/// TestReconciler_DeploymentLimit_HealthAccounting, case "4 healthy"
/// (scheduler/reconcile_test.go:3936).
#[test]
fn test_reconciler_deployment_limit_health_accounting_4_healthy() {
    deployment_limit_health_accounting(4);
}

/// A deployment of `job` with `placed` healthy new allocations (indexes
/// `0..placed`) next to allocations of `old` for the remaining indexes.
fn healthy_rollout(
    c: &mut Cluster,
    old: &Arc<Job>,
    job: &Arc<Job>,
    placed: u64,
    new: u64,
) -> (String, Vec<String>) {
    let d = c.new_deployment(job);
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            promoted: true,
            desired_total: 10,
            placed_allocs: placed as i64,
            ..DeploymentState::default()
        },
    );
    for i in new..10 {
        c.alloc(old, i);
    }
    let ids = (0..new)
        .map(|i| {
            let id = c.alloc(job, i);
            let a = c.alloc_mut(&id);
            a.deployment_id = d.as_str().into();
            a.deployment_status = healthy(true);
            id
        })
        .collect();
    (d, ids)
}

/// TestReconciler_TaintedNode_RollingUpgrade (scheduler/reconcile_test.go:4031).
#[test]
fn test_reconciler_tainted_node_rolling_upgrade() {
    let mut c = Cluster::new();
    let (old, job) = destructive_pair(&mut c, 10, no_canary_update());
    let (_, new) = healthy_rollout(&mut c, &old, &job, 7, 8);
    // New allocs 0 on a down node, 1 and 2 on draining nodes (and marked
    // for migration).
    c.set_node_status(&new[0], node_status::DOWN);
    drain(&mut c, &new[1..3]);

    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            place: 3,
            destructive: 2,
            stop: 3,
            ..Expect::default()
        },
        &web(DesiredChanges {
            place: 1,
            stop: 1,
            migrate: 2,
            destructive_update: 2,
            ignore: 5,
            ..DesiredChanges::default()
        }),
    );
    assert_eq!(destructive_indexes(&r), int_range(&[8, 9]));
    assert_eq!(place_indexes(&r), int_range(&[0, 2]));
    assert_eq!(stop_indexes(&r), int_range(&[0, 2]));
    let lost = r.plan.stop.iter().find(|s| s.alloc_id == new[0]).unwrap();
    assert_eq!(
        lost.client_status.as_ref().map(ClientStatus::as_str),
        Some(status::LOST)
    );
    assert_eq!(lost.description, "alloc is lost since its node is down");
    for id in &new[1..3] {
        let migrated = r.plan.stop.iter().find(|s| &s.alloc_id == id).unwrap();
        assert_eq!(migrated.client_status, None);
        assert_eq!(migrated.description, "alloc is being migrated");
    }
}

/// TestReconciler_FailedDeployment_TaintedNodes
/// (scheduler/reconcile_test.go:4118).
#[test]
fn test_reconciler_failed_deployment_tainted_nodes() {
    let mut c = Cluster::new();
    let (old, job) = destructive_pair(&mut c, 10, no_canary_update());
    let (d, new) = healthy_rollout(&mut c, &old, &job, 4, 4);
    c.deployment_mut(&d).status = deployment_status::FAILED.into();
    c.set_node_status(&new[0], node_status::DOWN);
    drain(&mut c, &new[1..2]);

    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            place: 2,
            stop: 2,
            ..Expect::default()
        },
        &web(DesiredChanges {
            place: 1,
            migrate: 1,
            stop: 1,
            ignore: 8,
            ..DesiredChanges::default()
        }),
    );
    assert_eq!(place_indexes(&r), int_range(&[0, 1]));
    assert_eq!(stop_indexes(&r), int_range(&[0, 1]));
    let lost = r.plan.stop.iter().find(|s| s.alloc_id == new[0]).unwrap();
    assert_eq!(
        lost.client_status.as_ref().map(ClientStatus::as_str),
        Some(status::LOST)
    );
    assert_eq!(lost.description, "alloc is lost since its node is down");
    let migrated = r.plan.stop.iter().find(|s| s.alloc_id == new[1]).unwrap();
    assert_eq!(migrated.client_status, None);
    assert_eq!(migrated.description, "alloc is being migrated");
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
        a.deployment_id = d.as_str().into();
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
        c.alloc_mut(&id).deployment_id = d.as_str().into();
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

/// `LatestDeploymentByJobID` (nomad/state/state_store.go:717-742) walks the
/// job's deployments in index order, by ID, and keeps a later one only if its
/// `CreateIndex` is strictly higher: on a tie, the lowest ID wins.
#[test]
fn latest_deployment_ties_go_to_the_lowest_id() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    c.allocs(&job, 10);
    let deployment = |id: &str, status: &str| Deployment {
        id: id.into(),
        namespace: job.namespace.clone(),
        job_id: job.id.clone(),
        job_create_index: job.create_index + 1,
        status: status.into(),
        create_index: 500,
        ..Deployment::default()
    };
    let low = "0b3c8e44-1a2f-4c1e-9d7a-000000000001";
    let high = "0b3c8e44-1a2f-4c1e-9d7a-000000000002";
    // Listed high first: the snapshot's order must not matter.
    c.deployment(deployment(high, deployment_status::CANCELLED));
    c.deployment(deployment(low, deployment_status::RUNNING));

    let plan = c.replay_job(&job.id).plan;
    let updates: Vec<_> = plan
        .deployment_updates
        .iter()
        .map(|u| (u.deployment_id.as_str(), u.status.as_str()))
        .collect();
    assert_eq!(updates, [(low, deployment_status::CANCELLED)]);
}

/// The scheduler moves in-place updates into the deployment it looked up
/// before reconciling, even one this evaluation cancels
/// (scheduler/generic_sched.go:264, 404-425).
#[test]
fn in_place_updates_join_the_latest_deployment_even_if_cancelled() {
    let mut c = Cluster::new();
    let old = c.job(mock_job());
    let ids = c.allocs(&old, 10);
    let d = c.new_deployment(&old);
    let mut new = inplace_update(&old);
    new.version += 1;
    c.job(new);

    let plan = c.replay_job(&old.id).plan;
    assert_eq!(plan.deployment_updates.len(), 1);
    assert_eq!(plan.deployment_updates[0].deployment_id, d);
    assert_eq!(
        plan.deployment_updates[0].status,
        deployment_status::CANCELLED
    );
    assert_eq!(plan.in_place_update.len(), ids.len());
    assert!(
        plan.in_place_update
            .iter()
            .all(|u| u.deployment_id.as_deref() == Some(d.as_str()))
    );
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
    c.alloc_mut(&id).deployment_id = d.as_str().into();
    c.set_node_status(&id, node_status::DISCONNECTED);

    let r = c.replay_job(JOB);
    assert_eq!(group(&r, "web").reschedule_now, std::slice::from_ref(&id));
    assert_eq!(places(&r), [(name(0), Some(id), true, false)]);
    assert!(r.plan.stop.is_empty());
    assert_eq!(r.plan.disconnect_updates.len(), 1);
    assert!(r.plan.deployment_updates.is_empty());
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

/// `mock.Job()` as a multiregion job of `count`, with a rolling update.
fn multiregion(count: i64) -> Job {
    let mut j = job_of(count, None);
    j.task_groups[0].update = Some(no_canary_update());
    j.multiregion = Some(Multiregion {
        regions: GoValue::from(json!([{"Name": "east"}, {"Name": "west"}])),
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
    spec.periodic = GoValue::from(json!({"Enabled": true, "Spec": "*/5 * * * *"}));
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

/// A group that already runs the job version and updates nothing joins the
/// deployment only if a group reconciled before it has in-place updates
/// (`updatingSpec` reads every in-place update so far,
/// scheduler/reconcile.go:859 at 8ac3e642e6). Groups go by name: "b" joins
/// after "a"'s in-place update, but not before "c"'s.
#[test]
fn an_unchanged_group_joins_the_deployment_after_an_earlier_in_place_update() {
    for (updated, joins) in [("a", true), ("c", false)] {
        let mut c = Cluster::new();
        let mut old = job_of(1, None);
        old.task_groups[0].name = updated.into();
        old.task_groups[0].update = Some(no_canary_update());
        let mut b = old.task_groups[0].clone();
        b.name = "b".into();
        b.count = 2;
        old.task_groups.push(b);
        let old = Arc::new(old);
        let mut current = inplace_update(&old);
        current.version = 1;
        let current = c.job(current);
        c.alloc_in(&old, updated, 0);
        c.alloc_in(&current, "b", 0);

        let r = c.replay_job(JOB);
        let d = r.plan.deployment.as_ref().expect("a created deployment");
        let groups: Vec<&str> = d.groups.keys().map(String::as_str).collect();
        let expected = if joins { vec!["a", "b"] } else { vec!["c"] };
        assert_eq!(groups, expected, "in-place update in {updated}");
        assert_eq!(r.plan.in_place_update.len(), 1);
        assert_eq!(places(&r), [(alloc_name(JOB, "b", 1), None, false, false)]);
    }
}
