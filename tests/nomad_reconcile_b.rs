//! Ports of scheduler/reconcile_test.go (Nomad 8ac3e642e6), from
//! TestReconciler_RescheduleNow_WithinAllowedTimeWindow to
//! TestReconciler_FailedDeployment_TaintedNodes: rescheduling with canaries,
//! deployment cancellation and creation, paused and failed deployments,
//! canaries, promotion and health accounting.
//!
//! Nomad's stub update functions become real job differences: an allocation
//! that must be ignored embeds the current job, one that needs a destructive
//! update embeds the job the current one is `destructive_update` of.
mod common;

use std::collections::HashMap;
use std::sync::Arc;

use common::*;
use plan_inspect::model::*;
use plan_inspect::reconciler::DesiredChanges;
use plan_inspect::report::JobReport;
use plan_inspect::time::{Duration, SECOND};

const HOUR: Duration = 60 * MINUTE;
use serde_json::json;

const JOB: &str = "mock-service";

/// `mock.Job()` with `count` and the update strategy `update` on its group.
fn job_with(count: i64, update: Option<UpdateStrategy>) -> Job {
    let mut j = mock_job();
    j.task_groups[0].count = count;
    j.task_groups[0].update = update;
    j
}

/// The reschedule policy the RescheduleNow tests use: one attempt in 24h,
/// 5s delay, default delay function, 1h max delay.
fn one_attempt_policy() -> ReschedulePolicy {
    ReschedulePolicy {
        attempts: 1,
        interval: 24 * HOUR,
        delay: 5 * SECOND,
        delay_function: String::new(),
        max_delay: HOUR,
        unlimited: false,
    }
}

/// Records one earlier reschedule, an hour ago.
fn rescheduled_once(c: &mut Cluster, id: &str) {
    let prev = c.id("prev-alloc");
    c.alloc_mut(id).reschedule_tracker = Some(RescheduleTracker {
        events: Some(vec![RescheduleEvent {
            reschedule_time: now().add(-HOUR).unix_nanos_i64(),
            prev_alloc_id: prev,
            ..RescheduleEvent::default()
        }]),
    });
}

/// A task state whose task finished at `finished`.
fn finished_at(c: &mut Cluster, id: &str, finished: plan_inspect::time::Time) {
    c.alloc_mut(id).task_states.insert(
        "web".into(),
        TaskState {
            state: "start".into(),
            finished_at: finished,
            ..TaskState::default()
        },
    );
}

/// `mock.DrainNode().DrainStrategy`: a drain strategy with a zero spec.
fn drain(c: &mut Cluster, alloc_id: &str) {
    let node = c.alloc_mut(alloc_id).node_id.clone();
    let n = c.node_mut(&node);
    n.drain_strategy = GoValue(json!({
        "DrainSpec": {"Deadline": 0, "IgnoreSystemJobs": false},
        "ForceDeadline": "0001-01-01T00:00:00Z",
        "StartedAt": "0001-01-01T00:00:00Z"
    }));
    n.scheduling_eligibility = "ineligible".into();
}

fn set_state(c: &mut Cluster, dep: &str, group: &str, state: DeploymentState) {
    c.deployment_mut(dep)
        .task_groups
        .insert(group.into(), state);
}

fn add_placed_canary(c: &mut Cluster, dep: &str, group: &str, alloc: &str) {
    c.deployment_mut(dep)
        .task_groups
        .get_mut(group)
        .expect("no such deployment group")
        .placed_canaries
        .push(alloc.to_string());
}

fn place_indexes(r: &JobReport) -> Vec<u64> {
    indexes(r.plan.place.iter().map(|p| p.name.as_str()))
}

fn stop_indexes(r: &JobReport) -> Vec<u64> {
    indexes(r.plan.stop.iter().map(|s| s.name.as_str()))
}

fn destructive_indexes(r: &JobReport) -> Vec<u64> {
    indexes(r.plan.destructive_update.iter().map(|d| d.name.as_str()))
}

fn sorted(mut v: Vec<u64>) -> Vec<u64> {
    v.sort();
    v
}

/// `assertPlaceResultsHavePreviousAllocs`: no name placed twice, and
/// exactly `n` placements replace an allocation of the same name.
fn assert_previous_allocs(c: &Cluster, r: &JobReport, n: usize) {
    let names: HashMap<&str, &str> = c
        .snapshot
        .allocs
        .iter()
        .map(|a| (a.id.as_str(), a.name.as_str()))
        .collect();
    let mut seen = std::collections::HashSet::new();
    let mut found = 0;
    for p in &r.plan.place {
        assert!(seen.insert(p.name.clone()), "name {} placed twice", p.name);
        if let Some(prev) = &p.previous_alloc_id {
            assert_eq!(names[prev.as_str()], p.name, "previous alloc name");
            found += 1;
        }
    }
    assert_eq!(found, n, "placements with previous allocs");
}

/// `assertPlacementsAreRescheduled`.
fn assert_rescheduled(r: &JobReport, n: usize) {
    let found = r
        .plan
        .place
        .iter()
        .filter(|p| p.previous_alloc_id.is_some() && p.reschedule)
        .count();
    assert_eq!(found, n, "rescheduled placements");
}

/// `assertNoCanariesStopped`.
fn assert_no_canaries_stopped(c: &Cluster, dep: &str, r: &JobReport) {
    let d = c.snapshot.deployments.iter().find(|d| d.id == dep).unwrap();
    for s in &r.plan.stop {
        for state in d.task_groups.values() {
            assert!(
                !state.placed_canaries.contains(&s.alloc_id),
                "canary {} ({}) stopped",
                s.alloc_id,
                s.name
            );
        }
    }
}

fn web(changes: DesiredChanges) -> [(&'static str, DesiredChanges); 1] {
    [("web", changes)]
}

/// The created deployment: `structs.NewDeployment(job)` with the given
/// description and per-group (desired total, desired canaries).
fn assert_created_deployment(
    r: &JobReport,
    job: &Job,
    description: &str,
    groups: &[(&str, i64, i64)],
) {
    let d = r.plan.deployment.as_ref().expect("a created deployment");
    assert_eq!(d.status, deployment_status::RUNNING);
    assert_eq!(d.status_description, description);
    assert_eq!(d.job_version, job.version);
    let got: Vec<(&str, i64, i64)> = d
        .groups
        .iter()
        .map(|(n, g)| (n.as_str(), g.desired_total, g.desired_canaries))
        .collect();
    let mut want = groups.to_vec();
    want.sort();
    assert_eq!(got, want, "created deployment groups");
    for g in d.groups.values() {
        assert!(!g.promoted && !g.auto_promote && !g.auto_revert);
    }
}

fn assert_deployment_update(r: &JobReport, dep: &str, status: &str, description: &str) {
    let got: Vec<(&str, &str, &str)> = r
        .plan
        .deployment_updates
        .iter()
        .map(|u| {
            (
                u.deployment_id.as_str(),
                u.status.as_str(),
                u.status_description.as_str(),
            )
        })
        .collect();
    assert_eq!(got, vec![(dep, status, description)]);
}

fn assert_stop_descriptions(r: &JobReport, description: &str) {
    for s in &r.plan.stop {
        assert_eq!(s.description, description, "stop of {}", s.name);
    }
}

// ---------------------------------------------------------------------------

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
    finished_at(&mut c, &ids[1], now().add(-4 * SECOND));
    c.alloc_mut(&ids[1]).client_status = status::FAILED.into();

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
    finished_at(&mut c, &ids[1], now().add(-5 * SECOND));
    c.alloc_mut(&ids[1]).client_status = status::FAILED.into();
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
    set_state(
        c,
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
    add_placed_canary(c, d, "web", &id);
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
    finished_at(&mut c, &ids[1], now().add(-10 * SECOND));
    c.alloc_mut(&ids[1]).client_status = status::FAILED.into();
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
    finished_at(c, &canaries[1], now().add(-10 * SECOND));
    {
        let a = c.alloc_mut(&canaries[1]);
        a.client_status = status::FAILED.into();
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
    dup.reschedule_tracker = Some(RescheduleTracker {
        events: Some(vec![RescheduleEvent {
            reschedule_time: now().add(-HOUR).unix_nanos_i64(),
            prev_alloc_id: "prev-alloc".into(),
            ..RescheduleEvent::default()
        }]),
    });
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

/// The current job `destructive_update(old)` of a job with `count` and
/// `update`: allocations embedding `old` need a destructive update
/// (allocUpdateFnDestructive), those embedding the current job are ignored
/// (allocUpdateFnIgnore in allocUpdateFnMock's handled map).
fn destructive_pair(c: &mut Cluster, count: i64, update: UpdateStrategy) -> (Arc<Job>, Arc<Job>) {
    let old = Arc::new(job_with(count, Some(update)));
    let job = c.job(destructive_update(&old));
    (old, job)
}

/// The cases of TestReconciler_PausedOrFailedDeployment_NoMoreCanaries.
fn paused_or_failed_no_more_canaries(deployment_status: &str, stop: u64) {
    let mut c = Cluster::new();
    let (old, job) = destructive_pair(&mut c, 10, canary_update());
    let d = c.new_deployment(&job);
    c.deployment_mut(&d).status = deployment_status.into();
    set_state(
        &mut c,
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
    add_placed_canary(&mut c, &d, "web", &canary);

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
    set_state(
        &mut c,
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
    set_state(
        &mut c,
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
    set_state(
        c,
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
            add_placed_canary(c, &d, "web", &id);
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
    drain(&mut c, &canaries[1]);
    c.alloc_mut(&canaries[1]).desired_transition.migrate = Some(true);

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
    set_state(
        &mut c,
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
        add_placed_canary(&mut c, &d, "web", &id);
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
    set_state(
        &mut c,
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
        add_placed_canary(&mut c, &d, "web", &id);
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
        c.alloc_mut(id).deployment_status = Some(AllocDeploymentStatus {
            healthy: Some(true),
            canary: false,
        });
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
        c.alloc_mut(id).deployment_status = Some(AllocDeploymentStatus {
            healthy: Some(true),
            canary: false,
        });
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
    assert_eq!(stop_indexes(&r), int_range(&[0, 1]));
}

/// The cases of TestReconciler_DeploymentLimit_HealthAccounting.
fn deployment_limit_health_accounting(healthy: u64) {
    let mut c = Cluster::new();
    let (old, job) = destructive_pair(&mut c, 10, no_canary_update());
    let d = c.new_deployment(&job);
    set_state(
        &mut c,
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
            a.deployment_status = Some(AllocDeploymentStatus {
                healthy: Some(true),
                canary: false,
            });
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
    set_state(
        c,
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
            a.deployment_status = Some(AllocDeploymentStatus {
                healthy: Some(true),
                canary: false,
            });
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
    for id in &new[1..3] {
        drain(&mut c, id);
        c.alloc_mut(id).desired_transition.migrate = Some(true);
    }

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
    drain(&mut c, &new[1]);
    c.alloc_mut(&new[1]).desired_transition.migrate = Some(true);

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
}
