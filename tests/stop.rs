//! Stops: scaling down, stopped and purged jobs, removed groups, and which
//! allocation `computeStop` picks.
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

use crate::common::*;

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
        &web(DesiredChanges {
            ignore: 10,
            stop: 10,
            ..dc()
        }),
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
        &web(DesiredChanges { stop: 20, ..dc() }),
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
        &web(DesiredChanges { stop: 20, ..dc() }),
    );
    assert_eq!(stop_indexes(&r), expected);
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

/// The "stopped job" case of TestReconciler_JobStopped and
/// TestReconciler_JobStopped_TerminalAllocs: ten allocations of a stopped
/// job. With `terminal`, even ones are desired-stop and odd ones failed.
fn stopped_job(c: &mut Cluster, terminal: bool) {
    let mut spec = mock_job();
    spec.stop = true;
    let job = c.job(spec);
    for i in 0..10 {
        let id = c.mock_alloc(&job, "web", i);
        make_terminal(c, &id, i, terminal);
    }
}

/// The "nil job" case: ten allocations of job "foo", group "bar", with no
/// job in the snapshot (purged) and none embedded.
fn nil_job(c: &mut Cluster, terminal: bool) {
    let job = Arc::new(mock_job());
    for i in 0..10 {
        let id = c.mock_alloc(&job, "web", i);
        let a = c.alloc_mut(&id);
        a.job = None;
        a.job_id = "foo".into();
        a.task_group = "bar".into();
        a.name = alloc_name("foo", "bar", i).into();
        make_terminal(c, &id, i, terminal);
    }
}

/// With `terminal`, makes allocation `i` desired-stop if even, else failed.
fn make_terminal(c: &mut Cluster, id: &str, i: u64, terminal: bool) {
    let a = c.alloc_mut(id);
    if terminal {
        if i.is_multiple_of(2) {
            a.desired_status = status::STOP.into();
        } else {
            a.client_status = status::FAILED.into();
        }
    }
}

fn assert_all_stopped(r: &plan_inspect::report::JobReport, group: &str) {
    assert_results(
        r,
        Expect {
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
    assert_eq!(stop_indexes(r), int_range(&[0, 9]));
    assert!(
        r.plan
            .stop
            .iter()
            .all(|s| s.description == desc::NOT_NEEDED)
    );
}

/// TestReconciler_JobStopped "stopped job" (scheduler/reconcile_test.go:1251).
#[test]
fn test_reconciler_job_stopped_stopped_job() {
    let mut c = Cluster::new();
    stopped_job(&mut c, false);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_all_stopped(&r, "web");
    assert!(r.stopped);
}

/// TestReconciler_JobStopped "nil job" (scheduler/reconcile_test.go:1251).
#[test]
fn test_reconciler_job_stopped_nil_job() {
    let mut c = Cluster::new();
    nil_job(&mut c, false);
    let r = c.replay_job("foo");
    assert_partition(&c, &r);
    assert_all_stopped(&r, "bar");
    assert!(r.purged);
}

fn assert_nothing_stopped(r: &plan_inspect::report::JobReport, group: &str) {
    assert!(r.plan.stop.is_empty());
    assert_results(r, Expect::default(), &[(group, DesiredChanges::default())]);
}

/// TestReconciler_JobStopped_TerminalAllocs "stopped job"
/// (scheduler/reconcile_test.go:1315).
#[test]
fn test_reconciler_job_stopped_terminal_allocs_stopped_job() {
    let mut c = Cluster::new();
    stopped_job(&mut c, true);
    let r = c.replay_job("mock-service");
    assert_partition(&c, &r);
    assert_nothing_stopped(&r, "web");
}

/// TestReconciler_JobStopped_TerminalAllocs "nil job"
/// (scheduler/reconcile_test.go:1315).
#[test]
fn test_reconciler_job_stopped_terminal_allocs_nil_job() {
    let mut c = Cluster::new();
    nil_job(&mut c, true);
    let r = c.replay_job("foo");
    assert_partition(&c, &r);
    assert_nothing_stopped(&r, "bar");
}

/// `computeStop` counts terminal allocations it keeps (a failed one that
/// will not be rescheduled) when working out how many to stop, then stops
/// only running ones: the group ends up below its count
/// (scheduler/reconcile.go:926-937, 1000-1012).
#[test]
fn a_kept_failed_alloc_makes_compute_stop_stop_a_running_one() {
    let mut c = Cluster::new();
    let mut job = mock_job();
    job.task_groups[0].count = 3;
    job.task_groups[0].reschedule_policy = None;
    let job = c.job(job);
    let running = c.allocs(&job, 3);
    let failed = c.alloc(&job, 3);
    c.alloc_mut(&failed).client_status = status::FAILED.into();

    let report = c.replay_job(&job.id);
    let changes = &group(&report, "web").desired_changes;
    assert_eq!((changes.stop, changes.place, changes.ignore), (1, 0, 3));
    let stopped: Vec<_> = report
        .plan
        .stop
        .iter()
        .map(|s| s.alloc_id.to_string())
        .collect();
    assert_eq!(stopped, [running[0].as_str()]);
}

/// A group over its count whose highest name belongs to a failed allocation
/// rescheduled now: `Highest` picks that name (the name index holds
/// `rescheduleNow`, scheduler/reconcile.go:438), no untainted allocation has
/// it, so the duplicate-names loop stops an arbitrary running one
/// (reconcile.go:989-1021), and the failed one is still replaced
/// (reconcile.go:685-697): three allocations for a count of two.
#[test]
fn stopping_below_a_rescheduled_name_stops_an_arbitrary_running_alloc() {
    let mut c = Cluster::new();
    let job = c.job(job_of(
        2,
        mock_job().task_groups[0].reschedule_policy.clone(),
    ));
    let running = c.allocs(&job, 3);
    let failed = c.alloc(&job, 3);
    failed_since(&mut c, &failed, HOUR);

    let r = c.replay_job(JOB);
    let s = stops(&r);
    assert_eq!(s.len(), 2);
    assert!(s.contains(&(failed.clone(), desc::RESCHEDULED.into(), None)));
    let not_needed: Vec<_> = s
        .iter()
        .filter(|(_, d, _)| d == desc::NOT_NEEDED)
        .map(|(id, _, _)| id.clone())
        .collect();
    assert_eq!(not_needed.len(), 1);
    assert!(running.contains(&not_needed[0]));
    assert_eq!(places(&r), [(name(3), Some(failed), true, false)]);
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            place: 1,
            stop: 2,
            ignore: 2,
            ..dc()
        }
    );
}

/// A stopped job cancels its active deployment (scheduler/reconcile.go:292-305)
/// and `handleStop` stops every non-terminal allocation, lost ones as lost,
/// counting the unknown one it leaves alone (reconcile.go:335-354); terminal
/// allocations are set aside (reconcile_util.go:439-447).
#[test]
fn a_stopped_job_stops_everything_but_unknown_allocs() {
    let mut c = Cluster::new();
    let mut spec = resumable(4, Some(5 * MINUTE));
    spec.task_groups[0].update = Some(no_canary_update());
    spec.stop = true;
    let job = c.job(spec);
    let d = c.new_deployment(&job);
    let running = c.alloc(&job, 0);
    let unknown = unknown_alloc(&mut c, &job, 1, MINUTE);
    let lost = c.alloc(&job, 2);
    c.set_node_status(&lost, node_status::DOWN);
    let complete = c.alloc(&job, 3);
    c.alloc_mut(&complete).client_status = status::COMPLETE.into();

    let r = c.replay_job(JOB);
    assert!(r.stopped);
    assert_deployment_update(
        &r,
        &d,
        deployment_status::CANCELLED,
        deployment_status::DESC_STOPPED_JOB,
    );
    assert_eq!(bucket_of(&r, &unknown), "ignore");
    assert_eq!(
        stops(&r),
        [
            (running, desc::NOT_NEEDED.into(), None),
            (lost, desc::LOST.into(), Some("lost".into()))
        ]
    );
    assert_eq!(web_changes(&r), DesiredChanges { stop: 3, ..dc() });
    let aside: Vec<_> = group(&r, "web")
        .set_aside
        .iter()
        .map(|e| e.id.to_string())
        .collect();
    assert_eq!(aside, [complete]);
    assert!(r.plan.place.is_empty());
}

/// A job absent from the state store is a nil job, which `Stopped()` calls
/// stopped (nomad/structs/structs.go:4513-4515): its deployment is cancelled
/// and its allocations stopped (scheduler/reconcile.go:212-215, 292-305).
#[test]
fn a_purged_job_is_stopped_and_its_deployment_cancelled() {
    let mut c = Cluster::new();
    let mut spec = job_of(2, None);
    spec.id = "gone".into();
    spec.task_groups[0].update = Some(no_canary_update());
    let job = Arc::new(spec);
    let d = c.new_deployment(&job);
    let a = c.alloc(&job, 0);
    let b = c.alloc(&job, 1);
    c.set_node_status(&b, node_status::DOWN);

    let r = c.replay_job("gone");
    assert!(r.purged && r.stopped);
    assert_deployment_update(
        &r,
        &d,
        deployment_status::CANCELLED,
        deployment_status::DESC_STOPPED_JOB,
    );
    assert_eq!(
        stops(&r),
        [
            (a, desc::NOT_NEEDED.into(), None),
            (b, desc::LOST.into(), Some("lost".into()))
        ]
    );
    assert_eq!(group(&r, "web").desired_changes.stop, 2);
}

/// A task group removed from the job stops all its allocations through
/// `filterAndStopAll`, terminal ones included (scheduler/reconcile.go:394-397,
/// 346-354), while the new group is placed.
#[test]
fn a_removed_group_stops_its_allocs_terminal_ones_included() {
    let mut c = Cluster::new();
    let old = Arc::new(job_of(2, None));
    let mut current = destructive_update(&old);
    current.version = 1;
    current.task_groups[0].name = "api".into();
    current.task_groups[0].count = 1;
    c.job(current);
    let running = c.alloc(&old, 0);
    let failed = c.alloc(&old, 1);
    failed_since(&mut c, &failed, HOUR);

    let r = c.replay_job(JOB);
    assert!(group(&r, "web").removed);
    assert_eq!(
        stops(&r),
        sorted([
            (running, desc::NOT_NEEDED.into(), None),
            (failed, desc::NOT_NEEDED.into(), None)
        ])
    );
    assert_eq!(group(&r, "web").desired_changes.stop, 2);
    assert_eq!(r.plan.place.len(), 1);
    assert_eq!(&*r.plan.place[0].task_group, "api");
}
