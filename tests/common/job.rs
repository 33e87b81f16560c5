//! Jobs and job changes of reconcile_test.go, built on `mock.Job()`.

use std::sync::Arc;

use plan_inspect::model::*;
use plan_inspect::time::{Duration, SECOND};
use serde_json::{Value, json};

use super::{Cluster, HOUR, MINUTE};

/// Nomad's `mock.Job()`: service job, group "web" of 10, reschedule policy
/// 2 attempts in 10m with a constant 5s delay, no update strategy; its
/// ports on the host network `default`, as the job's canonicalization sets.
pub fn mock_job_json() -> Value {
    json!({
        "ID": "mock-service",
        "Name": "my-job",
        "Namespace": "default",
        "Type": "service",
        "Priority": 50,
        "Datacenters": ["dc1"],
        "TaskGroups": [{
            "Name": "web",
            "Count": 10,
            "EphemeralDisk": {"SizeMB": 150, "Sticky": false, "Migrate": false},
            "ReschedulePolicy": {
                "Attempts": 2, "Interval": 600_000_000_000i64, "Delay": 5_000_000_000i64,
                "DelayFunction": "constant", "MaxDelay": 0, "Unlimited": false
            },
            "Networks": [{"Mode": "host", "DynamicPorts": [
                {"Label": "http", "HostNetwork": "default"},
                {"Label": "admin", "HostNetwork": "default"}
            ]}],
            "Tasks": [{
                "Name": "web",
                "Driver": "exec",
                "Config": {"command": "/bin/date"},
                "Env": {"FOO": "bar"},
                "Resources": {"CPU": 500, "MemoryMB": 256},
                "Meta": {"foo": "bar"}
            }],
            "Meta": {"elb_check_type": "http"}
        }],
        "Meta": {"owner": "armon"},
        "Status": "pending",
        "Version": 0,
        "CreateIndex": 42,
        "ModifyIndex": 99,
        "JobModifyIndex": 99
    })
}

pub fn mock_job() -> Job {
    serde_json::from_value(mock_job_json()).unwrap()
}

/// `mock.Job()` with `count` and the update strategy `update` on its group.
pub fn job_with(count: i64, update: Option<UpdateStrategy>) -> Job {
    let mut j = mock_job();
    j.task_groups[0].count = count;
    j.task_groups[0].update = update;
    j
}

/// `canaryUpdate` of reconcile_test.go: 2 canaries, max_parallel 2.
pub fn canary_update() -> UpdateStrategy {
    UpdateStrategy {
        canary: 2,
        max_parallel: 2,
        ..UpdateStrategy::default()
    }
}

/// `noCanaryUpdate` of reconcile_test.go: max_parallel 4.
pub fn no_canary_update() -> UpdateStrategy {
    UpdateStrategy {
        max_parallel: 4,
        ..UpdateStrategy::default()
    }
}

/// The job after a change `tasksUpdated` sees (a task config change):
/// existing allocations need a destructive update.
pub fn destructive_update(job: &Job) -> Job {
    let mut j = job.clone();
    for tg in &mut j.task_groups {
        for t in &mut tg.tasks {
            t.config = GoValue::from(json!({"command": "/bin/other"}));
        }
    }
    j.job_modify_index += 1;
    j.modify_index += 1;
    j
}

/// The job after a change `tasksUpdated` ignores (the priority): existing
/// allocations are updated in place.
pub fn inplace_update(job: &Job) -> Job {
    let mut j = job.clone();
    j.priority += 1;
    j.job_modify_index += 1;
    j.modify_index += 1;
    j
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

/// The reschedule policy the RescheduleNow tests use: one attempt in 24h,
/// 5s delay, default delay function, 1h max delay.
pub fn one_attempt_policy() -> ReschedulePolicy {
    ReschedulePolicy {
        attempts: 1,
        interval: 24 * HOUR,
        delay: 5 * SECOND,
        delay_function: Default::default(),
        max_delay: HOUR,
        unlimited: false,
    }
}

/// The job of Nomad's `buildResumableAllocations`: `mock.Job()` with
/// `max_client_disconnect = 5m` and `count` instances of group "web".
pub fn resumable_job(count: i64) -> Job {
    let mut j = mock_job();
    j.task_groups[0].max_client_disconnect = Some(5 * MINUTE);
    j.task_groups[0].count = count;
    j
}

/// `mock.Job()` with one group of `count` and the given reschedule policy.
pub fn job_of(count: i64, policy: Option<ReschedulePolicy>) -> Job {
    let mut j = mock_job();
    j.task_groups[0].count = count;
    j.task_groups[0].reschedule_policy = policy;
    j
}

/// A job of `count` with `max_client_disconnect` set to `mcd`.
pub fn resumable(count: i64, mcd: Option<Duration>) -> Job {
    let mut j = job_of(count, mock_job().task_groups[0].reschedule_policy.clone());
    j.task_groups[0].max_client_disconnect = mcd;
    j
}
