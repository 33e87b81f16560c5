//! Ports of scheduler/reconcile_test.go (Nomad 8ac3e642e6), part b2: TestReconciler_PausedOrFailedDeployment_NoMoreCanaries to
//! TestReconciler_FailedDeployment_TaintedNodes (paused and failed
//! deployments, canaries, promotion, health accounting, tainted nodes).
//!
//! Nomad's stub update functions become real job differences: an allocation
//! that must be ignored embeds the current job, one that needs a destructive
//! update embeds the job the current one is `destructive_update` of.
mod common;

use std::sync::Arc;

use common::*;
use plan_inspect::model::*;
use plan_inspect::reconciler::DesiredChanges;

/// The cases of TestReconciler_PausedOrFailedDeployment_NoMoreCanaries.
fn paused_or_failed_no_more_canaries(deployment_status: &str, stop: u64) {
    let mut c = Cluster::new();
    let (old, job) = destructive_pair(&mut c, 10, canary_update());
    let d = c.new_deployment(&job);
    c.deployment_mut(&d).status = deployment_status.into();
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            desired_canaries: 2,
            desired_total: 10,
            placed_allocs: 1,
            ..DeploymentState::default()
        },
    );
    c.allocs(&old, 10);
    let canary = c.alloc(&job, 0);
    c.alloc_mut(&canary).deployment_id = d.clone();
    c.add_placed_canary(&d, "web", &canary);

    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            stop: stop as usize,
            ..Expect::default()
        },
        &web(DesiredChanges {
            ignore: 11 - stop,
            stop,
            ..DesiredChanges::default()
        }),
    );
    if stop > 0 {
        assert_eq!(r.plan.stop[0].alloc_id, canary);
        assert_stop_descriptions(&r, "alloc not needed due to job update");
    }
}

/// TestReconciler_PausedOrFailedDeployment_NoMoreCanaries, case "paused
/// deployment" (scheduler/reconcile_test.go:2984).
#[test]
fn test_reconciler_paused_or_failed_deployment_no_more_canaries_paused_deployment() {
    paused_or_failed_no_more_canaries(deployment_status::PAUSED, 0);
}

/// TestReconciler_PausedOrFailedDeployment_NoMoreCanaries, case "failed
/// deployment" (scheduler/reconcile_test.go:2984).
#[test]
fn test_reconciler_paused_or_failed_deployment_no_more_canaries_failed_deployment() {
    paused_or_failed_no_more_canaries(deployment_status::FAILED, 1);
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
    c.alloc_mut(&new).deployment_id = d.clone();

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

/// A running deployment of `job` that has placed two canaries (ignored
/// updates) next to ten allocations of `old`; returns it and the canaries.
fn two_canaries(
    c: &mut Cluster,
    old: &Arc<Job>,
    job: &Arc<Job>,
    promoted: bool,
) -> (String, Vec<String>) {
    let count = job.task_groups[0].count;
    let d = c.new_deployment(job);
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            promoted,
            desired_total: count,
            desired_canaries: 2,
            placed_allocs: 2,
            ..DeploymentState::default()
        },
    );
    c.allocs(old, count as u64);
    let canaries = (0..2)
        .map(|i| {
            let id = c.alloc(job, i);
            c.alloc_mut(&id).deployment_id = d.clone();
            c.add_placed_canary(&d, "web", &id);
            id
        })
        .collect();
    (d, canaries)
}

/// TestReconciler_DrainNode_Canary (scheduler/reconcile_test.go:3210).
#[test]
fn test_reconciler_drain_node_canary() {
    let mut c = Cluster::new();
    let (old, job) = destructive_pair(&mut c, 10, canary_update());
    let (_, canaries) = two_canaries(&mut c, &old, &job, false);
    // The last canary's node drains (mock.DrainNode) and the alloc is marked
    // for migration.
    drain(&mut c, &canaries[1..2]);

    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            place: 1,
            stop: 1,
            ..Expect::default()
        },
        &web(DesiredChanges {
            canary: 1,
            ignore: 11,
            ..DesiredChanges::default()
        }),
    );
    assert_eq!(stop_indexes(&r), int_range(&[1, 1]));
    assert_eq!(place_indexes(&r), int_range(&[1, 1]));
    assert_eq!(r.plan.stop[0].alloc_id, canaries[1]);
    assert_stop_descriptions(&r, "alloc is being migrated");
    assert_eq!(r.plan.stop[0].client_status, None);
    assert!(r.plan.place[0].canary);
}

/// TestReconciler_LostNode_Canary (scheduler/reconcile_test.go:3285).
#[test]
fn test_reconciler_lost_node_canary() {
    let mut c = Cluster::new();
    let (old, job) = destructive_pair(&mut c, 10, canary_update());
    let (_, canaries) = two_canaries(&mut c, &old, &job, false);
    c.set_node_status(&canaries[1], node_status::DOWN);

    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            place: 1,
            stop: 1,
            ..Expect::default()
        },
        &web(DesiredChanges {
            canary: 1,
            ignore: 11,
            ..DesiredChanges::default()
        }),
    );
    assert_eq!(stop_indexes(&r), int_range(&[1, 1]));
    assert_eq!(place_indexes(&r), int_range(&[1, 1]));
    assert_eq!(r.plan.stop[0].alloc_id, canaries[1]);
    assert_stop_descriptions(&r, "alloc is lost since its node is down");
    assert_eq!(r.plan.stop[0].client_status.as_deref(), Some(status::LOST));
    assert!(r.plan.place[0].canary);
}

/// TestReconciler_StopOldCanaries (scheduler/reconcile_test.go:3361).
#[test]
fn test_reconciler_stop_old_canaries() {
    let mut c = Cluster::new();
    let old = Arc::new(job_with(10, Some(canary_update())));
    // An old deployment with two canaries; the job is then updated ten
    // versions on, and every allocation (all of the old job) needs a
    // destructive update.
    let d = c.new_deployment(&old);
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            desired_total: 10,
            desired_canaries: 2,
            placed_allocs: 2,
            ..DeploymentState::default()
        },
    );
    let mut spec = destructive_update(&old);
    spec.version += 10;
    let job = c.job(spec);
    c.allocs(&old, 10);
    for i in 0..2 {
        let id = c.alloc(&old, i);
        c.alloc_mut(&id).deployment_id = d.clone();
        c.add_placed_canary(&d, "web", &id);
    }

    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            create_deployment: true,
            deployment_updates: 1,
            place: 2,
            stop: 2,
            ..Expect::default()
        },
        &web(DesiredChanges {
            canary: 2,
            stop: 2,
            ignore: 10,
            ..DesiredChanges::default()
        }),
    );
    assert_deployment_update(
        &r,
        &d,
        deployment_status::CANCELLED,
        deployment_status::DESC_NEWER_JOB,
    );
    assert_created_deployment(
        &r,
        &job,
        deployment_status::DESC_NEEDS_PROMOTION,
        &[("web", 10, 2)],
    );
    assert_eq!(stop_indexes(&r), int_range(&[0, 1]));
    assert_eq!(place_indexes(&r), int_range(&[0, 1]));
    assert!(r.plan.place.iter().all(|p| p.canary));
    assert_stop_descriptions(&r, "alloc not needed due to job update");
}

/// The NewCanaries tests: `count` allocations of the old job, and the
/// current job a destructive update of it with canary update `update`.
fn new_canaries(count: i64, existing: u64, update: UpdateStrategy) -> (Cluster, Arc<Job>) {
    let mut c = Cluster::new();
    let (old, job) = destructive_pair(&mut c, count, update);
    c.allocs(&old, existing);
    (c, job)
}

/// TestReconciler_NewCanaries (scheduler/reconcile_test.go:3444).
#[test]
fn test_reconciler_new_canaries() {
    let (c, job) = new_canaries(10, 10, canary_update());
    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            create_deployment: true,
            place: 2,
            ..Expect::default()
        },
        &web(DesiredChanges {
            canary: 2,
            ignore: 10,
            ..DesiredChanges::default()
        }),
    );
    assert_created_deployment(
        &r,
        &job,
        deployment_status::DESC_NEEDS_PROMOTION,
        &[("web", 10, 2)],
    );
    assert_eq!(place_indexes(&r), int_range(&[0, 1]));
    assert!(r.plan.place.iter().all(|p| p.canary));
}

/// TestReconciler_NewCanaries_CountGreater (scheduler/reconcile_test.go:3493).
#[test]
fn test_reconciler_new_canaries_count_greater() {
    let update = UpdateStrategy {
        canary: 7,
        ..canary_update()
    };
    let (c, job) = new_canaries(3, 3, update);
    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            create_deployment: true,
            place: 7,
            ..Expect::default()
        },
        &web(DesiredChanges {
            canary: 7,
            ignore: 3,
            ..DesiredChanges::default()
        }),
    );
    assert_created_deployment(
        &r,
        &job,
        deployment_status::DESC_NEEDS_PROMOTION,
        &[("web", 3, 7)],
    );
    assert_eq!(place_indexes(&r), int_range(&[0, 2, 3, 6]));
}

/// TestReconciler_NewCanaries_MultiTG (scheduler/reconcile_test.go:3545).
#[test]
fn test_reconciler_new_canaries_multi_tg() {
    let mut c = Cluster::new();
    let mut spec = job_with(10, Some(canary_update()));
    let copy = spec.task_groups[0].clone();
    spec.task_groups.push(copy);
    spec.task_groups[0].name = "tg2".into();
    let old = Arc::new(spec);
    let job = c.job(destructive_update(&old));
    for tg in ["tg2", "web"] {
        for i in 0..10 {
            c.alloc_in(&old, tg, i);
        }
    }

    let r = c.replay_job(JOB);
    let changes = DesiredChanges {
        canary: 2,
        ignore: 10,
        ..DesiredChanges::default()
    };
    assert_results(
        &r,
        Expect {
            create_deployment: true,
            place: 4,
            ..Expect::default()
        },
        &[("tg2", changes.clone()), ("web", changes)],
    );
    assert_created_deployment(
        &r,
        &job,
        deployment_status::DESC_NEEDS_PROMOTION,
        &[("tg2", 10, 2), ("web", 10, 2)],
    );
    assert_eq!(place_indexes(&r), sorted(int_range(&[0, 1, 0, 1])));
}

/// TestReconciler_NewCanaries_ScaleUp (scheduler/reconcile_test.go:3603).
#[test]
fn test_reconciler_new_canaries_scale_up() {
    let (c, job) = new_canaries(15, 10, canary_update());
    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            create_deployment: true,
            place: 2,
            ..Expect::default()
        },
        &web(DesiredChanges {
            canary: 2,
            ignore: 10,
            ..DesiredChanges::default()
        }),
    );
    assert_created_deployment(
        &r,
        &job,
        deployment_status::DESC_NEEDS_PROMOTION,
        &[("web", 15, 2)],
    );
    assert_eq!(place_indexes(&r), int_range(&[0, 1]));
}

/// TestReconciler_NewCanaries_ScaleDown (scheduler/reconcile_test.go:3654).
#[test]
fn test_reconciler_new_canaries_scale_down() {
    let (c, job) = new_canaries(5, 10, canary_update());
    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            create_deployment: true,
            place: 2,
            stop: 5,
            ..Expect::default()
        },
        &web(DesiredChanges {
            canary: 2,
            stop: 5,
            ignore: 5,
            ..DesiredChanges::default()
        }),
    );
    assert_created_deployment(
        &r,
        &job,
        deployment_status::DESC_NEEDS_PROMOTION,
        &[("web", 5, 2)],
    );
    assert_eq!(place_indexes(&r), int_range(&[0, 1]));
    assert_eq!(stop_indexes(&r), int_range(&[5, 9]));
    assert_stop_descriptions(&r, "alloc not needed due to job update");
}

/// TestReconciler_NewCanaries_FillNames (scheduler/reconcile_test.go:3706).
#[test]
fn test_reconciler_new_canaries_fill_names() {
    let mut c = Cluster::new();
    let update = UpdateStrategy {
        canary: 4,
        max_parallel: 2,
        ..UpdateStrategy::default()
    };
    let (old, job) = destructive_pair(&mut c, 10, update);
    let d = c.new_deployment(&job);
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            desired_total: 10,
            desired_canaries: 4,
            placed_allocs: 2,
            ..DeploymentState::default()
        },
    );
    c.allocs(&old, 10);
    // Canaries at the ends of the canary names: 0 and 3.
    for i in [0, 3] {
        let id = c.alloc(&job, i);
        c.alloc_mut(&id).deployment_id = d.clone();
        c.add_placed_canary(&d, "web", &id);
    }

    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            place: 2,
            ..Expect::default()
        },
        &web(DesiredChanges {
            canary: 2,
            ignore: 12,
            ..DesiredChanges::default()
        }),
    );
    assert_eq!(place_indexes(&r), int_range(&[1, 2]));
    assert!(r.plan.place.iter().all(|p| p.canary));
}

/// TestReconciler_PromoteCanaries_Unblock (scheduler/reconcile_test.go:3777).
#[test]
fn test_reconciler_promote_canaries_unblock() {
    let mut c = Cluster::new();
    let (old, job) = destructive_pair(&mut c, 10, canary_update());
    let (d, canaries) = two_canaries(&mut c, &old, &job, true);
    for id in &canaries {
        c.alloc_mut(id).deployment_status = healthy(true);
    }

    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            destructive: 2,
            stop: 2,
            ..Expect::default()
        },
        &web(DesiredChanges {
            stop: 2,
            destructive_update: 2,
            ignore: 8,
            ..DesiredChanges::default()
        }),
    );
    assert_no_canaries_stopped(&c, &d, &r);
    assert_stop_descriptions(&r, "alloc not needed due to job update");
    assert_eq!(destructive_indexes(&r), int_range(&[2, 3]));
    assert_eq!(stop_indexes(&r), int_range(&[0, 1]));
}

/// TestReconciler_PromoteCanaries_CanariesEqualCount
/// (scheduler/reconcile_test.go:3852).
#[test]
fn test_reconciler_promote_canaries_canaries_equal_count() {
    let mut c = Cluster::new();
    let (old, job) = destructive_pair(&mut c, 2, canary_update());
    let (d, canaries) = two_canaries(&mut c, &old, &job, true);
    c.deployment_mut(&d)
        .task_groups
        .get_mut("web")
        .unwrap()
        .healthy_allocs = 2;
    for id in &canaries {
        c.alloc_mut(id).deployment_status = healthy(true);
    }

    let r = c.replay_job(JOB);
    assert_results(
        &r,
        Expect {
            deployment_updates: 1,
            stop: 2,
            ..Expect::default()
        },
        &web(DesiredChanges {
            stop: 2,
            ignore: 2,
            ..DesiredChanges::default()
        }),
    );
    assert_deployment_update(
        &r,
        &d,
        deployment_status::SUCCESSFUL,
        deployment_status::DESC_SUCCESSFUL,
    );
    assert_no_canaries_stopped(&c, &d, &r);
    assert_stop_descriptions(&r, "alloc not needed due to job update");
    assert_eq!(stop_indexes(&r), int_range(&[0, 1]));
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
        a.deployment_id = d.clone();
        if i < healthy {
            a.deployment_status = common::healthy(true);
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
            a.deployment_id = d.clone();
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
    assert_eq!(lost.client_status.as_deref(), Some(status::LOST));
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
    assert_eq!(lost.client_status.as_deref(), Some(status::LOST));
    assert_eq!(lost.description, "alloc is lost since its node is down");
    let migrated = r.plan.stop.iter().find(|s| s.alloc_id == new[1]).unwrap();
    assert_eq!(migrated.client_status, None);
    assert_eq!(migrated.description, "alloc is being migrated");
}
