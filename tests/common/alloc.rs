//! Allocation states the ports set up: statuses, task states, reschedule
//! history, node scores and drains.

use std::sync::Arc;

use plan_inspect::model::*;
use plan_inspect::time::{Duration, Time};
use serde_json::json;

use super::{Cluster, HOUR, now, resumable_job};

/// Nomad's `buildAllocations`: `count` allocations of `job` (indexes
/// `0..count`, each on its own ready node) with the given statuses and a
/// score metric of `node_score` for their node.
pub fn build_allocations(
    c: &mut Cluster,
    job: &Arc<Job>,
    count: u64,
    client_status: &str,
    desired_status: &str,
    node_score: f64,
) -> Vec<String> {
    let ids = c.allocs(job, count);
    for id in &ids {
        let a = c.alloc_mut(id);
        a.client_status = client_status.into();
        a.desired_status = desired_status.into();
        set_node_score(c, id, node_score);
    }
    ids
}

/// Nomad's `buildResumableAllocations`: registers `resumable_job(count)` and
/// builds its allocations; returns the job and the allocation IDs in order.
pub fn build_resumable_allocations(
    c: &mut Cluster,
    count: u64,
    client_status: &str,
    desired_status: &str,
    node_score: f64,
) -> (Arc<Job>, Vec<String>) {
    let job = c.job(resumable_job(count as i64));
    let ids = build_allocations(c, &job, count, client_status, desired_status, node_score);
    (job, ids)
}

/// Nomad's `buildDisconnectedNodes`: marks the nodes of the first `count`
/// allocations disconnected; returns those node IDs.
pub fn build_disconnected_nodes(c: &mut Cluster, allocs: &[String], count: usize) -> Vec<String> {
    let mut nodes = Vec::new();
    for id in &allocs[..count] {
        let node = c.alloc_mut(id).node_id.to_string();
        c.node_mut(&node).status = node_status::DISCONNECTED.into();
        nodes.push(node);
    }
    nodes
}

/// `mock.Alloc()`s `job.group[i]` for each `i` of `indexes`, placed by
/// deployment `dep` and healthy: the progress of a deployment as Nomad's
/// deployment tests build it.
pub fn healthy_deployment_allocs(
    c: &mut Cluster,
    job: &Arc<Job>,
    group: &str,
    dep: &str,
    indexes: impl IntoIterator<Item = u64>,
) -> Vec<String> {
    indexes
        .into_iter()
        .map(|i| {
            let id = c.mock_alloc(job, group, i);
            let a = c.alloc_mut(&id);
            a.deployment_id = dep.into();
            a.deployment_status = healthy(true);
            id
        })
        .collect()
}

/// Gives allocation `id` score metadata of one entry: `score` for its node.
pub fn set_node_score(c: &mut Cluster, id: &str, score: f64) {
    c.alloc_mut(id).norm_score = NormScore::new(score);
}

/// Records that allocation `id` went unknown `ago` before `now()`.
pub fn went_unknown(c: &mut Cluster, id: &str, ago: Duration) {
    c.alloc_mut(id).alloc_states.push(AllocState {
        field: "ClientStatus".into(),
        value: status::UNKNOWN.into(),
        time: now().add(-ago),
    });
}

/// Records a `Reconnected` task event `ago` before `now()` on allocation `id`.
pub fn reconnected(c: &mut Cluster, id: &str, ago: Duration) {
    c.alloc_mut(id).task_states.insert(
        "web".into(),
        TaskState {
            state: "running".into(),
            events: vec![TaskEvent {
                event_type: TASK_CLIENT_RECONNECTED.into(),
                time: now().add(-ago).unix_nanos_i64(),
            }]
            .into(),
            ..TaskState::default()
        },
    );
}

/// `Healthy` deployment status of a non-canary allocation.
pub fn healthy(healthy: bool) -> Option<AllocDeploymentStatus> {
    Some(AllocDeploymentStatus {
        healthy: Some(healthy),
        ..AllocDeploymentStatus::default()
    })
}

/// A task state "start" that finished at `finished`.
pub fn finished_state(finished: Time) -> TaskState {
    TaskState {
        state: "start".into(),
        finished_at: finished,
        ..TaskState::default()
    }
}

/// Allocation `a` failed: its client status is failed and its task "web"
/// finished at `at`, the time its reschedule delay counts from.
pub fn fail_at(a: &mut Allocation, at: Time) {
    a.client_status = status::FAILED.into();
    a.task_states.insert("web".into(), finished_state(at));
}

/// A task state "dead" that failed at `failed`.
pub fn failed_state(failed: Time) -> TaskState {
    TaskState {
        state: "dead".into(),
        failed: true,
        finished_at: failed,
        ..TaskState::default()
    }
}

/// A reschedule event `ago` before `now()` that replaced allocation `prev`.
pub fn reschedule_event(ago: Duration, prev: &str) -> RescheduleEvent {
    RescheduleEvent {
        reschedule_time: now().add(-ago).unix_nanos_i64(),
        prev_alloc_id: prev.into(),
        ..RescheduleEvent::default()
    }
}

/// A reschedule tracker holding `events`.
pub fn reschedule_tracker(events: Vec<RescheduleEvent>) -> Option<Box<RescheduleTracker>> {
    Some(Box::new(RescheduleTracker {
        events: Some(events.into()),
        ..RescheduleTracker::default()
    }))
}

/// Records one earlier reschedule of allocation `id`, an hour ago, from a
/// fresh `prev-alloc` ID.
pub fn rescheduled_once(c: &mut Cluster, id: &str) {
    let prev = c.id("prev-alloc");
    c.alloc_mut(id).reschedule_tracker = reschedule_tracker(vec![reschedule_event(HOUR, &prev)]);
}

/// The node of each allocation drains (`mock.DrainNode`: a zero drain spec,
/// made ineligible by Canonicalize) and the allocation is marked for
/// migration, as Nomad's drain tests do.
pub fn drain(c: &mut Cluster, ids: &[String]) {
    for id in ids {
        c.alloc_mut(id).desired_transition.migrate = Some(true);
        let node = c.alloc_mut(id).node_id.clone();
        let n = c.node_mut(&node);
        n.drain_strategy = GoValue::from(json!({
            "DrainSpec": {"Deadline": 0, "IgnoreSystemJobs": false},
            "ForceDeadline": "0001-01-01T00:00:00Z",
            "StartedAt": "0001-01-01T00:00:00Z"
        }));
        n.scheduling_eligibility = "ineligible".into();
    }
}

/// Allocations `0..count` of `job` embedding `embedded` instead.
pub fn allocs_of(c: &mut Cluster, embedded: &Job, count: u64) -> Vec<String> {
    let embedded = Arc::new(embedded.clone());
    c.allocs(&embedded, count)
}

/// A reschedule event `ago` before now with delay `delay`.
pub fn event(ago: Duration, delay: Duration) -> RescheduleEvent {
    RescheduleEvent {
        delay,
        ..reschedule_event(ago, "prev")
    }
}
