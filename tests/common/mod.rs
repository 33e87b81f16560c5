//! A small builder for snapshots in tests, modelled on Nomad's `mock`
//! package, and assertions modelled on `reconcile_test.go`'s helpers.
//!
//! Nomad's reconciler tests pass a tainted-node map directly, so a node that
//! is absent from it is healthy. A snapshot has no such map: a node missing
//! from `Nodes` is garbage-collected and tainted. The builder therefore
//! registers a ready node for every allocation it creates; tests that need a
//! tainted node change that node's status.
#![allow(dead_code)]

use std::collections::HashSet;
use std::sync::Arc;

use plan_inspect::model::*;
use plan_inspect::reconciler::{DesiredChanges, alloc_name};
use plan_inspect::replay::{Options, replay};
use plan_inspect::report::{GroupReport, JobReport, Report};
use plan_inspect::time::{Duration, SECOND, Time};
use serde_json::{Value, json};

pub const MINUTE: Duration = 60 * SECOND;
pub const HOUR: Duration = 60 * MINUTE;

/// The ID of `mock_job()`.
pub const JOB: &str = "mock-service";

/// The evaluation time of every test snapshot; other times are relative to it.
pub fn now() -> Time {
    Time::parse_rfc3339("2022-04-01T12:00:00Z").unwrap()
}

/// Nomad's `mock.Job()`: service job, group "web" of 10, reschedule policy
/// 2 attempts in 10m with a constant 5s delay, no update strategy.
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
            "Networks": [{"Mode": "host", "DynamicPorts": [{"Label": "http"}, {"Label": "admin"}]}],
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

/// Nomad's `mock.BatchJob()` as far as the reconciler cares: a batch job.
pub fn mock_batch_job() -> Job {
    let mut j = mock_job();
    j.id = "mock-batch".into();
    j.job_type = "batch".into();
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
            t.config = GoValue(json!({"command": "/bin/other"}));
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
        delay_function: String::new(),
        max_delay: HOUR,
        unlimited: false,
    }
}

/// A snapshot under construction.
#[derive(Default)]
pub struct Cluster {
    pub snapshot: Snapshot,
    next_id: u64,
}

impl Cluster {
    pub fn new() -> Cluster {
        let mut c = Cluster::default();
        c.snapshot.now = Some(now());
        c
    }

    /// A fresh, readable, sortable ID: `<prefix>-0001`.
    pub fn id(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}-{:04}", self.next_id)
    }

    /// Adds `job` as the current version of its job.
    pub fn job(&mut self, job: Job) -> Arc<Job> {
        let job = Arc::new(job);
        self.snapshot
            .jobs
            .retain(|j| !(j.id == job.id && j.namespace == job.namespace));
        self.snapshot.jobs.push(job.clone());
        job
    }

    /// Adds a node with `status`; returns its ID.
    pub fn node(&mut self, status: &str) -> String {
        let id = self.id("node");
        self.snapshot.nodes.push(Node {
            id: id.clone(),
            name: id.clone(),
            datacenter: "dc1".into(),
            status: status.into(),
            ..Node::default()
        });
        id
    }

    pub fn node_mut(&mut self, id: &str) -> &mut Node {
        self.snapshot
            .nodes
            .iter_mut()
            .find(|n| n.id == id)
            .expect("no such node")
    }

    /// Removes a node from the snapshot: it was garbage-collected.
    pub fn remove_node(&mut self, id: &str) {
        self.snapshot.nodes.retain(|n| n.id != id);
    }

    /// Adds a running allocation `job.group[index]` of the first task group,
    /// on its own new ready node; returns its ID.
    pub fn alloc(&mut self, job: &Arc<Job>, index: u64) -> String {
        let group = job.task_groups[0].name.clone();
        self.alloc_in(job, &group, index)
    }

    /// Like `alloc`, in task group `group`.
    pub fn alloc_in(&mut self, job: &Arc<Job>, group: &str, index: u64) -> String {
        let node = self.node(node_status::READY);
        let id = self.id("alloc");
        self.snapshot.allocs.push(Allocation {
            id: id.clone(),
            namespace: job.namespace.clone(),
            name: alloc_name(&job.id, group, index),
            node_id: node,
            job_id: job.id.clone(),
            job: Some(job.clone()),
            task_group: group.into(),
            desired_status: status::RUN.into(),
            client_status: status::RUNNING.into(),
            ..Allocation::default()
        });
        id
    }

    /// Nomad's `mock.Alloc()` as `job.group[index]`: like `alloc_in`, but its
    /// client status is pending.
    pub fn mock_alloc(&mut self, job: &Arc<Job>, group: &str, index: u64) -> String {
        let id = self.alloc_in(job, group, index);
        self.alloc_mut(&id).client_status = status::PENDING.into();
        id
    }

    /// `count` allocations with indexes `0..count`.
    pub fn allocs(&mut self, job: &Arc<Job>, count: u64) -> Vec<String> {
        (0..count).map(|i| self.alloc(job, i)).collect()
    }

    /// The snapshot allocation `id`.
    pub fn alloc_ref(&self, id: &str) -> &Allocation {
        self.snapshot
            .allocs
            .iter()
            .find(|a| a.id == id)
            .unwrap_or_else(|| panic!("no alloc {id}"))
    }

    pub fn alloc_mut(&mut self, id: &str) -> &mut Allocation {
        self.snapshot
            .allocs
            .iter_mut()
            .find(|a| a.id == id)
            .expect("no such alloc")
    }

    /// Sets the status of the node an allocation runs on.
    pub fn set_node_status(&mut self, alloc_id: &str, status: &str) {
        let node = self.alloc_mut(alloc_id).node_id.clone();
        self.node_mut(&node).status = status.into();
    }

    pub fn deployment(&mut self, d: Deployment) {
        self.snapshot.deployments.push(d);
    }

    /// `structs.NewDeployment(job)`, registered in the snapshot.
    pub fn new_deployment(&mut self, job: &Job) -> String {
        let id = self.id("deployment");
        self.deployment(Deployment {
            id: id.clone(),
            namespace: job.namespace.clone(),
            job_id: job.id.clone(),
            job_version: job.version,
            job_modify_index: job.modify_index,
            job_spec_modify_index: job.job_modify_index,
            job_create_index: job.create_index,
            status: deployment_status::RUNNING.into(),
            status_description: deployment_status::DESC_RUNNING.into(),
            create_index: self.next_id,
            ..Deployment::default()
        });
        id
    }

    pub fn deployment_mut(&mut self, id: &str) -> &mut Deployment {
        self.snapshot
            .deployments
            .iter_mut()
            .find(|d| d.id == id)
            .expect("no such deployment")
    }

    /// Sets the state of `group` in deployment `dep`.
    pub fn set_deployment_state(&mut self, dep: &str, group: &str, state: DeploymentState) {
        self.deployment_mut(dep)
            .task_groups
            .insert(group.into(), state);
    }

    /// Records `alloc` as a placed canary of `group` in deployment `dep`.
    pub fn add_placed_canary(&mut self, dep: &str, group: &str, alloc: &str) {
        self.deployment_mut(dep)
            .task_groups
            .get_mut(group)
            .expect("no such deployment group")
            .placed_canaries
            .push(alloc.to_string());
    }

    /// Replays with the default options; panics on error.
    pub fn replay(&self) -> Report {
        replay(&self.snapshot, &Options::default()).expect("replay failed")
    }

    /// Replays and returns the report of job `id`.
    pub fn replay_job(&self, id: &str) -> JobReport {
        self.replay()
            .jobs
            .into_iter()
            .find(|j| j.id == id)
            .unwrap_or_else(|| panic!("job {id} not in the report"))
    }
}

/// The group `name` of a job report.
pub fn group<'r>(job: &'r JobReport, name: &str) -> &'r GroupReport {
    job.groups
        .iter()
        .find(|g| g.name == name)
        .unwrap_or_else(|| panic!("group {name} not in the report"))
}

/// `nameToIndex` over a list of names, sorted: `web[3]` gives 3.
pub fn indexes<'n>(names: impl IntoIterator<Item = &'n str>) -> Vec<u64> {
    let mut v: Vec<u64> = names
        .into_iter()
        .map(|n| {
            let open = n.rfind('[').expect("name without index");
            n[open + 1..n.len() - 1].parse().expect("index")
        })
        .collect();
    v.sort();
    v
}

/// `intRange(a, b, c, d)`: the inclusive ranges a..=b, c..=d.
pub fn int_range(pairs: &[u64]) -> Vec<u64> {
    pairs.chunks(2).flat_map(|p| p[0]..=p[1]).collect()
}

/// The items, sorted: expected and actual lists compared without order.
pub fn sorted<T: Ord>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut v: Vec<T> = items.into_iter().collect();
    v.sort();
    v
}

/// Indexes of the placement names, sorted.
pub fn place_indexes(r: &JobReport) -> Vec<u64> {
    indexes(r.plan.place.iter().map(|p| p.name.as_str()))
}

/// Indexes of the stopped allocations' names, sorted.
pub fn stop_indexes(r: &JobReport) -> Vec<u64> {
    indexes(r.plan.stop.iter().map(|s| s.name.as_str()))
}

/// Indexes of the destructive updates' names, sorted.
pub fn destructive_indexes(r: &JobReport) -> Vec<u64> {
    indexes(r.plan.destructive_update.iter().map(|d| d.name.as_str()))
}

/// Indexes of the in-place updates' names, sorted.
pub fn inplace_indexes(r: &JobReport) -> Vec<u64> {
    indexes(r.plan.in_place_update.iter().map(|u| u.name.as_str()))
}

/// Indexes of the attribute updates' allocation names, sorted: the report
/// names an attribute update by allocation ID only.
pub fn attribute_update_indexes(c: &Cluster, r: &JobReport) -> Vec<u64> {
    indexes(
        r.plan
            .attribute_updates
            .iter()
            .map(|u| c.alloc_ref(&u.alloc_id).name.as_str()),
    )
}

/// The counts `assertResults` checks.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Expect {
    pub create_deployment: bool,
    pub deployment_updates: usize,
    pub place: usize,
    pub destructive: usize,
    pub inplace: usize,
    pub attribute_updates: usize,
    pub disconnect_updates: usize,
    pub reconnect_updates: usize,
    pub stop: usize,
}

/// No desired changes, the base of a struct update: `{ignore: 3, ..dc()}`.
pub fn dc() -> DesiredChanges {
    DesiredChanges::default()
}

/// The desired changes of the single group "web", for `assert_results`.
pub fn web(changes: DesiredChanges) -> [(&'static str, DesiredChanges); 1] {
    [("web", changes)]
}

/// `assertResults`: the plan's sizes, plus the desired changes per group.
pub fn assert_results(job: &JobReport, expect: Expect, desired: &[(&str, DesiredChanges)]) {
    let p = &job.plan;
    let got = Expect {
        create_deployment: p.deployment.is_some(),
        deployment_updates: p.deployment_updates.len(),
        place: p.place.len(),
        destructive: p.destructive_update.len(),
        inplace: p.in_place_update.len(),
        attribute_updates: p.attribute_updates.len(),
        disconnect_updates: p.disconnect_updates.len(),
        reconnect_updates: p.reconnect_updates.len(),
        stop: p.stop.len(),
    };
    assert_eq!(got, expect, "plan sizes");
    for (name, changes) in desired {
        assert_eq!(
            &group(job, name).desired_changes,
            changes,
            "desired changes of {name}"
        );
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
    let a = c.alloc_mut(id);
    a.metrics = Some(AllocMetric {
        score_meta_data: vec![NodeScoreMeta {
            node_id: a.node_id.clone(),
            norm_score: score,
        }],
    });
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
        let node = c.alloc_mut(id).node_id.clone();
        c.node_mut(&node).status = node_status::DISCONNECTED.into();
        nodes.push(node);
    }
    nodes
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
            }],
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
pub fn reschedule_tracker(events: Vec<RescheduleEvent>) -> Option<RescheduleTracker> {
    Some(RescheduleTracker {
        events: Some(events),
    })
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
        n.drain_strategy = GoValue(json!({
            "DrainSpec": {"Deadline": 0, "IgnoreSystemJobs": false},
            "ForceDeadline": "0001-01-01T00:00:00Z",
            "StartedAt": "0001-01-01T00:00:00Z"
        }));
        n.scheduling_eligibility = "ineligible".into();
    }
}

/// `assertPlaceResultsHavePreviousAllocs`: names are unique and exactly `n`
/// placements replace an allocation of the same name.
pub fn assert_previous_allocs(c: &Cluster, r: &JobReport, n: usize) {
    let mut names = HashSet::new();
    let mut found = 0;
    for p in &r.plan.place {
        assert!(
            names.insert(p.name.as_str()),
            "name {} placed twice",
            p.name
        );
        if let Some(prev) = &p.previous_alloc_id {
            assert_eq!(c.alloc_ref(prev).name, p.name, "previous alloc name");
            found += 1;
        }
    }
    assert_eq!(found, n, "placements with previous allocs");
}

/// `assertPlacementsAreRescheduled`: names are unique and exactly `n`
/// placements with a previous allocation are reschedules.
pub fn assert_rescheduled(r: &JobReport, n: usize) {
    let mut names = HashSet::new();
    let found = r
        .plan
        .place
        .iter()
        .inspect(|p| {
            assert!(
                names.insert(p.name.as_str()),
                "name {} placed twice",
                p.name
            )
        })
        .filter(|p| p.previous_alloc_id.is_some() && p.reschedule)
        .count();
    assert_eq!(found, n, "rescheduled placements");
}

/// `assertNoCanariesStopped`: no stop names a placed canary of deployment `dep`.
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

/// The plan's only deployment update sets `dep` to `status` and `description`.
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

/// Every stop of the plan carries `description`.
pub fn assert_stop_descriptions(r: &JobReport, description: &str) {
    for s in &r.plan.stop {
        assert_eq!(s.description, description, "stop of {}", s.name);
    }
}

/// The contract's invariant (spec section 6): every allocation of the job
/// appears exactly once in its group, in one bucket or in `set_aside`.
pub fn assert_partition(c: &Cluster, r: &JobReport) {
    let mut seen: Vec<(String, String)> = Vec::new();
    for g in &r.groups {
        let b = &g.buckets;
        for set in [
            &b.untainted,
            &b.migrate,
            &b.lost,
            &b.disconnecting,
            &b.reconnecting,
            &b.ignore,
        ] {
            seen.extend(set.iter().map(|e| (g.name.clone(), e.id.clone())));
        }
        seen.extend(g.set_aside.iter().map(|e| (g.name.clone(), e.id.clone())));
    }
    seen.sort();
    let mut want: Vec<(String, String)> = c
        .snapshot
        .allocs
        .iter()
        .filter(|a| a.job_id == r.id && a.namespace == r.namespace)
        .map(|a| (a.task_group.clone(), a.id.clone()))
        .collect();
    want.sort();
    assert_eq!(seen, want, "allocations by group, in buckets or set aside");
}
