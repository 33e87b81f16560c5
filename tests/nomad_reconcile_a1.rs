//! Ports of scheduler/reconcile_test.go at 8ac3e642e6, from
//! TestReconciler_Place_NoExisting to TestReconciler_RemovedTG.
//!
//! Nomad's stub update functions become real job differences: allocations
//! embed the job they were placed with and the snapshot's job is
//! `destructive_update` / `inplace_update` of it, or the same job to ignore.
mod common;

use common::*;
use plan_inspect::model::*;
use plan_inspect::reconciler::{DesiredChanges, desc};
use plan_inspect::time::SECOND;

/// Allocations `0..count` of `job` embedding `embedded` instead.
fn allocs_of(c: &mut Cluster, embedded: &Job, count: u64) -> Vec<String> {
    let embedded = std::sync::Arc::new(embedded.clone());
    c.allocs(&embedded, count)
}

/// TestReconciler_Place_NoExisting (scheduler/reconcile_test.go:345).
#[test]
fn test_reconciler_place_no_existing() {
    let mut c = Cluster::new();
    c.job(mock_job());
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
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
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(place_indexes(&r), int_range(&[0, 9]));
}

/// TestReconciler_Place_Existing (scheduler/reconcile_test.go:373).
#[test]
fn test_reconciler_place_existing() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    c.allocs(&job, 5);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            place: 5,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                place: 5,
                ignore: 5,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(place_indexes(&r), int_range(&[5, 9]));
}

/// TestReconciler_ScaleDown_Partial (scheduler/reconcile_test.go:413).
#[test]
fn test_reconciler_scale_down_partial() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    c.allocs(&job, 20);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            stop: 10,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                ignore: 10,
                stop: 10,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(stop_indexes(&r), int_range(&[10, 19]));
    assert!(
        r.plan
            .stop
            .iter()
            .all(|s| s.description == desc::NOT_NEEDED)
    );
}

/// TestReconciler_ScaleDown_Zero (scheduler/reconcile_test.go:454).
#[test]
fn test_reconciler_scale_down_zero() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 0;
    let job = c.job(spec);
    c.allocs(&job, 20);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            stop: 20,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                stop: 20,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(stop_indexes(&r), int_range(&[0, 19]));
}

/// TestReconciler_ScaleDown_Zero_DuplicateNames (scheduler/reconcile_test.go:495).
#[test]
fn test_reconciler_scale_down_zero_duplicate_names() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 0;
    let job = c.job(spec);
    let mut expected = Vec::new();
    for i in 0..20 {
        c.alloc(&job, i % 2);
        expected.push(i % 2);
    }
    expected.sort();
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            stop: 20,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                stop: 20,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(stop_indexes(&r), expected);
}

/// TestReconciler_Inplace (scheduler/reconcile_test.go:537).
#[test]
fn test_reconciler_inplace() {
    let mut c = Cluster::new();
    let old = mock_job();
    c.job(inplace_update(&old)); // allocUpdateFnInplace
    allocs_of(&mut c, &old, 10);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            inplace: 10,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                in_place_update: 10,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(inplace_indexes(&r), int_range(&[0, 9]));
}

/// TestReconciler_Inplace_ScaleUp (scheduler/reconcile_test.go:576).
#[test]
fn test_reconciler_inplace_scale_up() {
    let mut c = Cluster::new();
    let mut old = mock_job();
    old.task_groups[0].count = 15;
    c.job(inplace_update(&old)); // allocUpdateFnInplace
    allocs_of(&mut c, &old, 10);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            place: 5,
            inplace: 10,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                place: 5,
                in_place_update: 10,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(inplace_indexes(&r), int_range(&[0, 9]));
    assert_eq!(place_indexes(&r), int_range(&[10, 14]));
}

/// TestReconciler_Inplace_ScaleDown (scheduler/reconcile_test.go:619).
#[test]
fn test_reconciler_inplace_scale_down() {
    let mut c = Cluster::new();
    let mut old = mock_job();
    old.task_groups[0].count = 5;
    c.job(inplace_update(&old)); // allocUpdateFnInplace
    allocs_of(&mut c, &old, 10);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            inplace: 5,
            stop: 5,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                stop: 5,
                in_place_update: 5,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(inplace_indexes(&r), int_range(&[0, 4]));
    assert_eq!(stop_indexes(&r), int_range(&[5, 9]));
}

/// TestReconciler_Inplace_Rollback (scheduler/reconcile_test.go:663).
#[test]
fn test_reconciler_inplace_rollback() {
    let mut c = Cluster::new();
    // Nomad passes uuid.Generate() as the eval ID.
    c.snapshot.eval_id = Some("eval-rollback".into());
    let mut spec = mock_job();
    spec.task_groups[0].count = 4;
    spec.task_groups[0].reschedule_policy = Some(ReschedulePolicy {
        delay_function: "exponential".into(),
        interval: 30 * SECOND,
        delay: 60 * MINUTE,
        attempts: 3,
        unlimited: true,
        ..ReschedulePolicy::default()
    });
    let job = c.job(spec);
    // allocUpdateFnMock: allocs[0] in place, the others destructive.
    let inplace_old = std::sync::Arc::new(inplace_update(&job));
    let destructive_old = std::sync::Arc::new(destructive_update(&job));
    let a0 = c.alloc(&inplace_old, 0);
    let a1 = c.alloc(&destructive_old, 1);
    let a2 = c.alloc(&destructive_old, 2);
    c.alloc_mut(&a0).client_status = status::RUNNING.into();
    fail_at(c.alloc_mut(&a1), now().add(-10 * MINUTE));
    // allocs[2] has no task states and ModifyTime 0: its reschedule time is long past.
    c.alloc_mut(&a2).client_status = status::FAILED.into();
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            place: 2,
            inplace: 1,
            stop: 1,
            destructive: 1,
            attribute_updates: 1,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                place: 2,
                stop: 1,
                in_place_update: 1,
                destructive_update: 1,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(r.plan.followup_evals.len(), 1, "follow-up evals");
    assert_eq!(inplace_indexes(&r), vec![0]);
    assert_eq!(stop_indexes(&r), vec![2]);
    assert_eq!(place_indexes(&r), int_range(&[2, 3]));
    // Beyond Nomad's assertions: allocs[1] waits for its reschedule and is
    // replaced destructively; allocs[2] is rescheduled now.
    assert_eq!(destructive_indexes(&r), vec![1]);
    assert_eq!(r.plan.attribute_updates[0].alloc_id, a1);
    assert_eq!(
        r.plan.attribute_updates[0].followup_eval_id,
        r.plan.followup_evals[0].id
    );
    assert_eq!(r.plan.stop[0].alloc_id, a2);
    assert_previous_allocs(&c, &r, 1);
    assert_rescheduled(&r, 1);
}

/// TestReconciler_Destructive (scheduler/reconcile_test.go:731).
#[test]
fn test_reconciler_destructive() {
    let mut c = Cluster::new();
    let old = mock_job();
    c.job(destructive_update(&old)); // allocUpdateFnDestructive
    allocs_of(&mut c, &old, 10);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            destructive: 10,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                destructive_update: 10,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(destructive_indexes(&r), int_range(&[0, 9]));
}

/// TestReconciler_DestructiveMaxParallel (scheduler/reconcile_test.go:767).
#[test]
fn test_reconciler_destructive_max_parallel() {
    let mut c = Cluster::new();
    // mock.MaxParallelJob: the default update strategy with max_parallel 0.
    let mut old = mock_job();
    old.id = "mock-service-max-parallel".into();
    old.task_groups[0].update = Some(UpdateStrategy {
        max_parallel: 0,
        progress_deadline: 10 * MINUTE,
        ..UpdateStrategy::default()
    });
    c.job(destructive_update(&old)); // allocUpdateFnDestructive
    allocs_of(&mut c, &old, 10);
    let r = c.replay_job("mock-service-max-parallel");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            destructive: 10,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                destructive_update: 10,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(destructive_indexes(&r), int_range(&[0, 9]));
}

/// TestReconciler_Destructive_ScaleUp (scheduler/reconcile_test.go:804).
#[test]
fn test_reconciler_destructive_scale_up() {
    let mut c = Cluster::new();
    let mut old = mock_job();
    old.task_groups[0].count = 15;
    c.job(destructive_update(&old)); // allocUpdateFnDestructive
    allocs_of(&mut c, &old, 10);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            place: 5,
            destructive: 10,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                place: 5,
                destructive_update: 10,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(destructive_indexes(&r), int_range(&[0, 9]));
    assert_eq!(place_indexes(&r), int_range(&[10, 14]));
}

/// TestReconciler_Destructive_ScaleDown (scheduler/reconcile_test.go:846).
#[test]
fn test_reconciler_destructive_scale_down() {
    let mut c = Cluster::new();
    let mut old = mock_job();
    old.task_groups[0].count = 5;
    c.job(destructive_update(&old)); // allocUpdateFnDestructive
    allocs_of(&mut c, &old, 10);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            destructive: 5,
            stop: 5,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                stop: 5,
                destructive_update: 5,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(stop_indexes(&r), int_range(&[5, 9]));
    assert_eq!(destructive_indexes(&r), int_range(&[0, 4]));
}

/// Sets the nodes of the first `n` allocations down.
fn down(c: &mut Cluster, ids: &[String], n: usize) {
    for id in &ids[..n] {
        c.set_node_status(id, node_status::DOWN);
    }
}

/// TestReconciler_LostNode (scheduler/reconcile_test.go:887).
#[test]
fn test_reconciler_lost_node() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    let ids = c.allocs(&job, 10);
    down(&mut c, &ids, 2);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
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
                ignore: 8,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(stop_indexes(&r), int_range(&[0, 1]));
    assert_eq!(place_indexes(&r), int_range(&[0, 1]));
    for s in &r.plan.stop {
        assert_eq!(s.client_status.as_deref(), Some(status::LOST));
        assert_eq!(s.description, desc::LOST);
    }
}

/// TestReconciler_LostNode_ScaleUp (scheduler/reconcile_test.go:938).
#[test]
fn test_reconciler_lost_node_scale_up() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 15;
    let job = c.job(spec);
    let ids = c.allocs(&job, 10);
    down(&mut c, &ids, 2);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            place: 7,
            stop: 2,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                place: 7,
                stop: 2,
                ignore: 8,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(stop_indexes(&r), int_range(&[0, 1]));
    assert_eq!(place_indexes(&r), int_range(&[0, 1, 10, 14]));
}

/// TestReconciler_LostNode_ScaleDown (scheduler/reconcile_test.go:991).
#[test]
fn test_reconciler_lost_node_scale_down() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 5;
    let job = c.job(spec);
    let ids = c.allocs(&job, 10);
    down(&mut c, &ids, 2);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            stop: 5,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                stop: 5,
                ignore: 5,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(stop_indexes(&r), int_range(&[0, 1, 7, 9]));
}

/// TestReconciler_DrainNode (scheduler/reconcile_test.go:1041).
#[test]
fn test_reconciler_drain_node() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    let ids = c.allocs(&job, 10);
    drain(&mut c, &ids[..2]);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
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
                migrate: 2,
                ignore: 8,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(stop_indexes(&r), int_range(&[0, 1]));
    assert_eq!(place_indexes(&r), int_range(&[0, 1]));
    assert_previous_allocs(&c, &r, 2);
    assert_rescheduled(&r, 0);
    assert!(r.plan.stop.iter().all(|s| s.description == desc::MIGRATING));
}

/// TestReconciler_DrainNode_ScaleUp (scheduler/reconcile_test.go:1094).
#[test]
fn test_reconciler_drain_node_scale_up() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 15;
    let job = c.job(spec);
    let ids = c.allocs(&job, 10);
    drain(&mut c, &ids[..2]);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            place: 7,
            stop: 2,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                place: 5,
                migrate: 2,
                ignore: 8,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(stop_indexes(&r), int_range(&[0, 1]));
    assert_eq!(place_indexes(&r), int_range(&[0, 1, 10, 14]));
    assert_previous_allocs(&c, &r, 2);
    assert_rescheduled(&r, 0);
}

/// TestReconciler_DrainNode_ScaleDown (scheduler/reconcile_test.go:1150).
#[test]
fn test_reconciler_drain_node_scale_down() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 8;
    let job = c.job(spec);
    let ids = c.allocs(&job, 10);
    drain(&mut c, &ids[..3]);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            place: 1,
            stop: 3,
            ..Expect::default()
        },
        &[(
            "web",
            DesiredChanges {
                migrate: 1,
                stop: 2,
                ignore: 7,
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(stop_indexes(&r), int_range(&[0, 2]));
    assert_eq!(place_indexes(&r), vec![0]);
    assert_previous_allocs(&c, &r, 1);
    assert_rescheduled(&r, 0);
}

/// TestReconciler_RemovedTG (scheduler/reconcile_test.go:1205).
#[test]
fn test_reconciler_removed_tg() {
    let mut c = Cluster::new();
    let old = mock_job();
    // The allocations belong to group "web"; the job now has "different".
    // Nomad mutates the job the allocations share; it uses allocUpdateFnIgnore,
    // so the allocations here keep the old spec.
    allocs_of(&mut c, &old, 10);
    let mut spec = old.clone();
    spec.task_groups[0].name = "different".into();
    c.job(spec);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_results(
        &r,
        Expect {
            place: 10,
            stop: 10,
            ..Expect::default()
        },
        &[
            (
                "web",
                DesiredChanges {
                    stop: 10,
                    ..DesiredChanges::default()
                },
            ),
            (
                "different",
                DesiredChanges {
                    place: 10,
                    ..DesiredChanges::default()
                },
            ),
        ],
    );
    assert_eq!(stop_indexes(&r), int_range(&[0, 9]));
    assert_eq!(place_indexes(&r), int_range(&[0, 9]));
    assert!(group(&r, "web").removed);
}
