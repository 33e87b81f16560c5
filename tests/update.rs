//! Updates of existing allocations: ignore, in-place and destructive, with
//! `max_parallel` and scaling.
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
        &web(DesiredChanges {
            in_place_update: 10,
            ..dc()
        }),
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
        &web(DesiredChanges {
            place: 5,
            in_place_update: 10,
            ..dc()
        }),
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
        &web(DesiredChanges {
            stop: 5,
            in_place_update: 5,
            ..dc()
        }),
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
    let inplace_old = Arc::new(inplace_update(&job));
    let destructive_old = Arc::new(destructive_update(&job));
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
        &web(DesiredChanges {
            place: 2,
            stop: 1,
            in_place_update: 1,
            destructive_update: 1,
            ..dc()
        }),
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
        &web(DesiredChanges {
            destructive_update: 10,
            ..dc()
        }),
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
        &web(DesiredChanges {
            destructive_update: 10,
            ..dc()
        }),
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
        &web(DesiredChanges {
            place: 5,
            destructive_update: 10,
            ..dc()
        }),
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
        &web(DesiredChanges {
            stop: 5,
            destructive_update: 5,
            ..dc()
        }),
    );
    assert_eq!(stop_indexes(&r), int_range(&[5, 9]));
    assert_eq!(destructive_indexes(&r), int_range(&[0, 4]));
}

/// The current job (version 1) is `change(old)`; `web[0]` embeds `old` and
/// has failed, with no reschedule policy to replace it.
fn failed_of_older_version(change: fn(&Job) -> Job) -> (Cluster, String) {
    let mut c = Cluster::new();
    let old = Arc::new(job_of(1, None));
    let mut current = change(&old);
    current.version = 1;
    c.job(current);
    let id = c.alloc(&old, 0);
    failed_since(&mut c, &id, HOUR);
    (c, id)
}

/// `genericAllocUpdateFn` checks the task changes before the terminal status
/// (scheduler/util.go:1041-1061): a failed, unreschedulable allocation of an
/// older version with changed tasks is a destructive update, which replaces
/// it (scheduler/reconcile.go:814-828); with only in-place changes it is
/// ignored.
#[test]
fn a_terminal_alloc_with_changed_tasks_is_destructively_updated() {
    let (c, id) = failed_of_older_version(destructive_update);
    let r = c.replay_job(JOB);
    assert_eq!(r.plan.destructive_update.len(), 1);
    assert_eq!(r.plan.destructive_update[0].alloc_id, id);
    assert!(r.plan.stop.is_empty() && r.plan.place.is_empty());
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            destructive_update: 1,
            ..dc()
        }
    );

    let (c, _) = failed_of_older_version(inplace_update);
    let r = c.replay_job(JOB);
    assert!(r.plan.in_place_update.is_empty() && r.plan.destructive_update.is_empty());
    assert_eq!(web_changes(&r), DesiredChanges { ignore: 1, ..dc() });
}

/// A running allocation whose node is no longer in the job's datacenters
/// needs a destructive update even when the tasks did not change
/// (scheduler/util.go:1075-1078).
#[test]
fn a_node_outside_the_new_datacenters_forces_a_destructive_update() {
    let mut c = Cluster::new();
    let old = Arc::new(job_of(1, None));
    let mut current = inplace_update(&old);
    current.datacenters = vec!["dc2".into()];
    let current = c.job(current);
    let id = c.alloc(&old, 0);
    let r = c.replay_job(JOB);
    assert_eq!(r.plan.destructive_update.len(), 1);
    assert_eq!(r.plan.destructive_update[0].alloc_id, id);
    assert!(r.plan.destructive_update[0].reason.contains("datacenters"));

    // The same job in dc1 again is an in-place update.
    let mut back = (*current).clone();
    back.datacenters = vec!["dc1".into()];
    c.job(back);
    let r = c.replay_job(JOB);
    assert_eq!(r.plan.in_place_update.len(), 1);
}

/// Task meta is compared combined with group and job meta
/// (`CombinedTaskMeta`, scheduler/util.go:483-487): changing job meta is
/// destructive, moving a job meta key to the group is not.
#[test]
fn task_meta_is_compared_combined_with_group_and_job_meta() {
    let changed = |edit: fn(&mut Job)| {
        let mut c = Cluster::new();
        let old = Arc::new(job_of(1, None));
        let mut current = inplace_update(&old);
        edit(&mut current);
        c.job(current);
        c.alloc(&old, 0);
        c.replay_job(JOB)
    };
    let r = changed(|j| {
        j.meta.insert("owner".into(), "bob".into());
    });
    assert_eq!(r.plan.destructive_update.len(), 1);
    assert!(r.plan.destructive_update[0].reason.contains("meta"));

    let r = changed(|j| {
        let owner = j.meta.remove("owner").unwrap();
        j.task_groups[0].meta.insert("owner".into(), owner);
    });
    assert!(r.plan.destructive_update.is_empty());
    assert_eq!(r.plan.in_place_update.len(), 1);
}

/// `computeUpdates` sorts untainted allocations by the update they need
/// (scheduler/reconcile.go:1116-1135, util.go:1035-1061): the current version
/// is ignored, a version differing only outside the tasks is updated in
/// place, older task definitions are destructive; without a deployment,
/// `max_parallel` bounds the destructive updates and the rest count as
/// ignored (reconcile.go:641-644, 814-821). The deployment created counts all
/// of them (reconcile.go:455-457).
#[test]
fn ignore_in_place_and_destructive_are_counted_apart() {
    let mut c = Cluster::new();
    let mut v0 = job_of(4, None);
    v0.task_groups[0].update = Some(UpdateStrategy {
        max_parallel: 1,
        ..UpdateStrategy::default()
    });
    let v0 = Arc::new(v0);
    let mut v1 = destructive_update(&v0);
    v1.version = 1;
    let v1 = Arc::new(v1);
    let mut v2 = inplace_update(&v1);
    v2.version = 2;
    let v2 = c.job(v2);
    c.alloc(&v2, 0);
    let inplace = c.alloc(&v1, 1);
    let first = c.alloc(&v0, 2);
    c.alloc(&v0, 3);

    let r = c.replay_job(JOB);
    assert_eq!(r.plan.in_place_update.len(), 1);
    assert_eq!(r.plan.in_place_update[0].alloc_id, inplace);
    assert_eq!(r.plan.destructive_update.len(), 1);
    assert_eq!(r.plan.destructive_update[0].alloc_id, first);
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            ignore: 2,
            in_place_update: 1,
            destructive_update: 1,
            ..dc()
        }
    );
    let d = r.plan.deployment.as_ref().expect("a created deployment");
    assert_eq!(d.groups["web"].desired_total, 3);
    assert_eq!(
        r.plan.in_place_update[0].deployment_id.as_deref(),
        Some(d.id.as_str())
    );
}
