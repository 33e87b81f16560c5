//! Canaries: creating, promoting, stopping and replacing them, in running,
//! paused and failed deployments.
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
use plan_inspect::reconciler::DesiredChanges;
use plan_inspect::time::SECOND;

use crate::common::*;

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
    a.deployment_id = d.into();
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
    c.alloc_mut(&canary).deployment_id = d.as_str().into();
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
            c.alloc_mut(&id).deployment_id = d.as_str().into();
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
    assert_eq!(
        r.plan.stop[0]
            .client_status
            .as_ref()
            .map(ClientStatus::as_str),
        Some(status::LOST)
    );
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
        c.alloc_mut(&id).deployment_id = d.as_str().into();
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
pub(crate) fn new_canaries(
    count: i64,
    existing: u64,
    update: UpdateStrategy,
) -> (Cluster, Arc<Job>) {
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
        c.alloc_mut(&id).deployment_id = d.as_str().into();
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
        state
            .placed_canaries
            .extend(replaced.into_iter().take(2).map(Id::from));
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
    v1.task_groups[0].meta = [("version".into(), "1".into())].into();
    let mut v2 = spec;
    v2.version = 2;
    v2.task_groups[0].meta = [("version".into(), "2".into())].into();
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
        a.deployment_id = format!("deployment-older-{i}").as_str().into();
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

/// A job with one group per `(name, auto_promote)`, each of count 2 with one
/// canary, whose allocations embed the version before a destructive change.
fn canary_rollout(groups: &[(&str, bool)]) -> Cluster {
    let mut c = Cluster::new();
    let mut old = mock_job();
    let template = old.task_groups[0].clone();
    old.task_groups = groups
        .iter()
        .map(|(name, auto)| {
            let mut tg = template.clone();
            tg.name = (*name).into();
            tg.count = 2;
            tg.update = Some(UpdateStrategy {
                canary: 1,
                max_parallel: 1,
                auto_promote: *auto,
                ..UpdateStrategy::default()
            });
            tg
        })
        .collect();
    let old = Arc::new(old);
    let mut current = destructive_update(&old);
    current.version = 1;
    c.job(current);
    for (name, _) in groups {
        for i in 0..2 {
            c.alloc_in(&old, name, i);
        }
    }
    c
}

/// A deployment created with unpromoted canaries is described as needing
/// promotion, automatic only if every canarying group auto-promotes
/// (scheduler/reconcile.go:256-265, nomad/structs/structs.go:9201-9224).
#[test]
fn a_created_canary_deployment_says_how_it_will_be_promoted() {
    for (groups, description) in [
        (&[("web", true)][..], deployment_status::DESC_AUTO_PROMOTION),
        (
            &[("web", false)][..],
            deployment_status::DESC_NEEDS_PROMOTION,
        ),
        (
            &[("a", true), ("b", false)][..],
            deployment_status::DESC_NEEDS_PROMOTION,
        ),
    ] {
        let r = canary_rollout(groups).replay_job(JOB);
        let d = r.plan.deployment.as_ref().expect("a created deployment");
        assert_eq!(d.status, deployment_status::RUNNING);
        assert_eq!(d.status_description, description, "{groups:?}");
        assert_eq!(d.groups.len(), groups.len());
        for (name, auto) in groups {
            let g = &d.groups[*name];
            assert_eq!((g.desired_total, g.desired_canaries), (2, 1));
            assert_eq!(g.auto_promote, *auto);
        }
        assert_eq!(r.plan.place.len(), groups.len());
        assert!(r.plan.place.iter().all(|p| p.canary));
        assert!(r.plan.destructive_update.is_empty());
    }
}

/// A canary on a disconnected node is disconnecting, so
/// `cancelUnneededCanaries` no longer counts it as a canary
/// (scheduler/reconcile.go:619-624): the group places a new canary
/// (reconcile.go:465-468, 539-553) and also reschedules the disconnected one,
/// as a canary, through `computeReplacements` even though the deployment is
/// canarying (reconcile.go:787-808).
#[test]
fn a_disconnected_canary_is_rescheduled_and_replaced_by_a_new_canary() {
    let mut c = Cluster::new();
    let mut old = resumable(2, Some(5 * MINUTE));
    old.task_groups[0].update = Some(UpdateStrategy {
        canary: 1,
        max_parallel: 1,
        ..UpdateStrategy::default()
    });
    let old = Arc::new(old);
    let mut current = destructive_update(&old);
    current.version = 1;
    let job = c.job(current);
    let d = c.new_deployment(&job);
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            desired_canaries: 1,
            desired_total: 2,
            ..DeploymentState::default()
        },
    );
    c.allocs(&old, 2);
    let canary = c.alloc(&job, 0);
    {
        let a = c.alloc_mut(&canary);
        a.deployment_id = d.as_str().into();
        a.deployment_status = Some(AllocDeploymentStatus {
            canary: true,
            healthy: None,
        });
    }
    c.add_placed_canary(&d, "web", &canary);
    c.set_node_status(&canary, node_status::DISCONNECTED);

    let r = c.replay_job(JOB);
    assert_eq!(bucket_of(&r, &canary), "disconnecting");
    let mut got: Vec<_> = r
        .plan
        .place
        .iter()
        .map(|p| {
            (
                p.name.clone(),
                p.canary,
                p.previous_alloc_id.as_ref().map(Id::to_string),
                p.reschedule,
            )
        })
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            (name(0), true, None, false),
            (name(0), true, Some(canary.clone()), true)
        ]
    );
    assert!(r.plan.stop.is_empty());
    assert_eq!(r.plan.disconnect_updates.len(), 1);
    assert!(r.plan.destructive_update.is_empty());
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            place: 1,
            canary: 1,
            ignore: 2,
            ..dc()
        }
    );
}
