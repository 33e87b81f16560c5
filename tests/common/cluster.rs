//! The snapshot builder.

use std::fmt;
use std::sync::Arc;

use plan_inspect::model::resources::NodeReservedResources;
use plan_inspect::model::*;
use plan_inspect::reconciler::alloc_name;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::{JobReport, Report};
use plan_inspect::time::Duration;

use super::{fail_at, now};

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
        let mut node = Node {
            id: id.clone(),
            name: id.clone(),
            datacenter: "dc1".into(),
            status: status.into(),
            // Nomad's mock.Node(): its resources, reservation and the
            // `default` host network mock.Job's ports ask for.
            node_resources: Some(mock_node_resources()),
            reserved_resources: Some(mock_node_reserved()),
            ..Node::default()
        };
        node.drivers.insert(
            "exec".into(),
            Some(DriverInfo {
                detected: true,
                healthy: true,
            }),
        );
        self.snapshot.nodes.push(node);
        id
    }

    pub fn node_mut(&mut self, id: &str) -> &mut Node {
        self.snapshot
            .nodes
            .iter_mut()
            .find(|n| n.id == id)
            .expect("no such node")
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
            id: (&id).into(),
            namespace: job.namespace.as_str().into(),
            name: alloc_name(&job.id, group, index).into(),
            node_id: node.into(),
            job_id: job.id.as_str().into(),
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
    pub fn alloc_ref<I: fmt::Display + ?Sized>(&self, id: &I) -> &Allocation
    where
        Id: PartialEq<I>,
    {
        self.snapshot
            .allocs
            .iter()
            .find(|a| a.id == *id)
            .unwrap_or_else(|| panic!("no alloc {id}"))
    }

    pub fn alloc_mut<I: ?Sized>(&mut self, id: &I) -> &mut Allocation
    where
        Id: PartialEq<I>,
    {
        self.snapshot
            .allocs
            .iter_mut()
            .find(|a| a.id == *id)
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
            id: id.as_str().into(),
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
            .push(alloc.into());
    }

    /// Replays with the default options; panics on error.
    pub fn replay(&self) -> Report {
        Replay::new(&self.snapshot, &Options::default())
            .expect("replay failed")
            .report()
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

/// Adds a `Reconnected` event `ago` before now on task `task` of `id`,
/// keeping other task states.
pub fn reconnect_event(c: &mut Cluster, id: &str, task: &str, ago: Duration) {
    let a = c.alloc_mut(id);
    let mut state = a
        .task_states
        .get(task)
        .cloned()
        .unwrap_or_else(|| TaskState {
            state: "running".into(),
            ..TaskState::default()
        });
    state.events.push(TaskEvent {
        event_type: TASK_CLIENT_RECONNECTED.into(),
        time: now().add(-ago).unix_nanos_i64(),
    });
    a.task_states.insert(task.into(), state);
}

/// Records a client-status transition to `value` `ago` before now.
pub fn client_state(c: &mut Cluster, id: &str, value: &str, ago: Duration) {
    c.alloc_mut(id).alloc_states.push(AllocState {
        field: AllocStateField::ClientStatus,
        value: value.into(),
        time: now().add(-ago),
    });
}

/// A failed allocation whose only task finished `ago` before now.
pub fn failed_since(c: &mut Cluster, id: &str, ago: Duration) {
    fail_at(c.alloc_mut(id), now().add(-ago));
}

/// An unknown allocation `job.web[index]` on a disconnected node that went
/// unknown `ago` before now.
pub fn unknown_alloc(c: &mut Cluster, job: &Arc<Job>, index: u64, ago: Duration) -> String {
    let id = c.alloc(job, index);
    c.set_node_status(&id, node_status::DISCONNECTED);
    c.alloc_mut(&id).client_status = status::UNKNOWN.into();
    client_state(c, &id, status::UNKNOWN, ago);
    id
}

/// `mock.Node()`'s `NodeResources`: 4000 MHz, 8192 MB, 100 GB of disk, one
/// host interface and the host network `default` on its address.
pub fn mock_node_resources() -> NodeResources {
    serde_json::from_value(serde_json::json!({
        "Cpu": {"CpuShares": 4000},
        "Memory": {"MemoryMB": 8192},
        "Disk": {"DiskMB": 100 * 1024},
        "Networks": [{"Mode": "host", "Device": "eth0", "CIDR": "192.168.0.100/32", "MBits": 1000}],
        "NodeNetworks": [{
            "Mode": "host",
            "Device": "eth0",
            "Speed": 1000,
            "Addresses": [{"Alias": "default", "Address": "192.168.0.100", "Family": "ipv4"}]
        }]
    }))
    .unwrap()
}

/// `mock.Node()`'s `ReservedResources`: 100 MHz, 256 MB, 4 GB and port 22.
pub fn mock_node_reserved() -> NodeReservedResources {
    serde_json::from_value(serde_json::json!({
        "Cpu": {"CpuShares": 100},
        "Memory": {"MemoryMB": 256},
        "Disk": {"DiskMB": 4 * 1024},
        "Networks": {"ReservedHostPorts": "22"}
    }))
    .unwrap()
}
