//! Placements: new and missing allocations, multiple groups, batch reruns,
//! and which jobs are replayed.
//!
//! Nomad's tests from scheduler/reconcile_test.go at 8ac3e642e6 keep their names (snake case); the others pin behaviour those do not reach, citing the Go
//! source (file:line at 8ac3e642e6) that decides it.

use plan_inspect::model::*;
use plan_inspect::reconciler::DesiredChanges;

use crate::common::*;

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
        &web(DesiredChanges { place: 10, ..dc() }),
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
        &web(DesiredChanges {
            place: 5,
            ignore: 5,
            ..dc()
        }),
    );
    assert_eq!(place_indexes(&r), int_range(&[5, 9]));
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

/// Nomad runs system jobs through its system scheduler: no generic
/// reconcile, no deployment, and no warning that it was replayed anyway.
#[test]
fn system_jobs_are_scheduled_by_the_system_scheduler() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.job_type = "system".into();
    c.job(spec);
    let report = c.replay();
    assert_eq!(report.jobs.len(), 1);
    assert!(
        report.warnings.iter().all(|w| w.code != "system_job"),
        "{:?}",
        report.warnings
    );
    let job = &report.jobs[0];
    assert!(job.plan.deployment.is_none());
    // No nodes: nothing to place on.
    assert!(job.plan.place.is_empty());
    assert!(job.groups[0].system_diff.is_some());
}
