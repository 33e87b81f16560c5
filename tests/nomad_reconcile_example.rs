//! Example port; the full suite lives in tests/nomad_reconcile_*.rs.
mod common;
use common::*;
use plan_inspect::reconciler::DesiredChanges;

/// TestReconciler_Place_NoExisting (scheduler/reconcile_test.go:345).
#[test]
fn test_reconciler_place_no_existing() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    let _ = job;
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
                ..DesiredChanges::default()
            },
        )],
    );
    assert_eq!(
        indexes(r.plan.place.iter().map(|p| p.name.as_str())),
        int_range(&[0, 9])
    );
}

/// TestReconciler_ScaleDown_Partial (scheduler/reconcile_test.go:413).
#[test]
fn test_reconciler_scale_down_partial() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 10;
    let job = c.job(spec);
    c.allocs(&job, 20);
    let r = c.replay_job("mock-service");
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
    assert_eq!(
        indexes(r.plan.stop.iter().map(|s| s.name.as_str())),
        int_range(&[10, 19])
    );
}
