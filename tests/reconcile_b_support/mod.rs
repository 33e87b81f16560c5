//! Helpers shared by the ports of reconcile_test.go in
//! nomad_reconcile_b1.rs and nomad_reconcile_b2.rs: fixtures standing in for
//! Nomad's stub update functions, reschedule and drain fixtures, and the
//! assertion helpers of reconcile_test.go (`assertPlaceResultsHavePreviousAllocs`, ...).
#![allow(dead_code)]

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::common::*;
use plan_inspect::model::*;
use plan_inspect::reconciler::DesiredChanges;
use plan_inspect::report::JobReport;
use plan_inspect::time::{Duration, SECOND, Time};

pub const HOUR: Duration = 60 * MINUTE;

pub const JOB: &str = "mock-service";

/// `mock.Job()` with `count` and the update strategy `update` on its group.
pub fn job_with(count: i64, update: Option<UpdateStrategy>) -> Job {
    let mut j = mock_job();
    j.task_groups[0].count = count;
    j.task_groups[0].update = update;
    j
}

/// The reschedule policy the RescheduleNow tests use: one attempt in 24h,
/// 5s delay, default delay function, 1h max delay.
pub fn one_attempt_policy() -> ReschedulePolicy {
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
pub fn rescheduled_once(c: &mut Cluster, id: &str) {
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
pub fn finished_at(c: &mut Cluster, id: &str, finished: Time) {
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
pub fn drain(c: &mut Cluster, alloc_id: &str) {
    let node = c.alloc_mut(alloc_id).node_id.clone();
    let n = c.node_mut(&node);
    n.drain_strategy = GoValue(serde_json::json!({
        "DrainSpec": {"Deadline": 0, "IgnoreSystemJobs": false},
        "ForceDeadline": "0001-01-01T00:00:00Z",
        "StartedAt": "0001-01-01T00:00:00Z"
    }));
    n.scheduling_eligibility = "ineligible".into();
}

pub fn set_state(c: &mut Cluster, dep: &str, group: &str, state: DeploymentState) {
    c.deployment_mut(dep)
        .task_groups
        .insert(group.into(), state);
}

pub fn add_placed_canary(c: &mut Cluster, dep: &str, group: &str, alloc: &str) {
    c.deployment_mut(dep)
        .task_groups
        .get_mut(group)
        .expect("no such deployment group")
        .placed_canaries
        .push(alloc.to_string());
}

pub fn place_indexes(r: &JobReport) -> Vec<u64> {
    indexes(r.plan.place.iter().map(|p| p.name.as_str()))
}

pub fn stop_indexes(r: &JobReport) -> Vec<u64> {
    indexes(r.plan.stop.iter().map(|s| s.name.as_str()))
}

pub fn destructive_indexes(r: &JobReport) -> Vec<u64> {
    indexes(r.plan.destructive_update.iter().map(|d| d.name.as_str()))
}

pub fn sorted(mut v: Vec<u64>) -> Vec<u64> {
    v.sort();
    v
}

/// `assertPlaceResultsHavePreviousAllocs`: no name placed twice, and
/// exactly `n` placements replace an allocation of the same name.
pub fn assert_previous_allocs(c: &Cluster, r: &JobReport, n: usize) {
    let names: HashMap<&str, &str> = c
        .snapshot
        .allocs
        .iter()
        .map(|a| (a.id.as_str(), a.name.as_str()))
        .collect();
    let mut seen = HashSet::new();
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
pub fn assert_rescheduled(r: &JobReport, n: usize) {
    let found = r
        .plan
        .place
        .iter()
        .filter(|p| p.previous_alloc_id.is_some() && p.reschedule)
        .count();
    assert_eq!(found, n, "rescheduled placements");
}

/// `assertNoCanariesStopped`.
pub fn assert_no_canaries_stopped(c: &Cluster, dep: &str, r: &JobReport) {
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

pub fn web(changes: DesiredChanges) -> [(&'static str, DesiredChanges); 1] {
    [("web", changes)]
}

/// The created deployment: `structs.NewDeployment(job)` with the given
/// description and per-group (desired total, desired canaries).
pub fn assert_created_deployment(
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

pub fn assert_deployment_update(r: &JobReport, dep: &str, status: &str, description: &str) {
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

pub fn assert_stop_descriptions(r: &JobReport, description: &str) {
    for s in &r.plan.stop {
        assert_eq!(s.description, description, "stop of {}", s.name);
    }
}

/// The current job `destructive_update(old)` of a job with `count` and
/// `update`: allocations embedding `old` need a destructive update
/// (allocUpdateFnDestructive), those embedding the current job are ignored
/// (allocUpdateFnIgnore in allocUpdateFnMock's handled map).
pub fn destructive_pair(
    c: &mut Cluster,
    count: i64,
    update: UpdateStrategy,
) -> (Arc<Job>, Arc<Job>) {
    let old = Arc::new(job_with(count, Some(update)));
    let job = c.job(destructive_update(&old));
    (old, job)
}
