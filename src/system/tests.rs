//! Ports of Nomad's system scheduler tests at 8ac3e642e6:
//! scheduler/util_test.go `TestDiffSystemAllocs*`,
//! scheduler/scheduler_system_test.go and scheduler_sysbatch_test.go.
//! Each test is named after its source.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::diff::{DiffInput, Terminal};
use super::*;
use crate::model::NodesById;
use crate::model::*;
use crate::reconciler::{TaintedNodes, desc, tainted_nodes};

mod diff_system_allocs;
mod sysbatch_sched;
mod system_sched;
mod util;

/// `mock.Node`: ready, eligible, dc1, linux, the exec driver.
pub(super) fn node(id: &str) -> Node {
    let mut n = Node {
        id: id.into(),
        name: id.into(),
        datacenter: "dc1".into(),
        status: "ready".into(),
        scheduling_eligibility: "eligible".into(),
        computed_class: "v1:mock".into(),
        node_resources: Some(NodeResources {
            networks: vec![NetworkResource {
                mode: "host".into(),
                ..NetworkResource::default()
            }],
            ..NodeResources::default()
        }),
        ..Node::default()
    };
    n.attributes.insert("kernel.name".into(), "linux".into());
    n.attributes.insert("driver.exec".into(), "1".into());
    n.drivers.insert(
        "exec".into(),
        Some(DriverInfo {
            detected: true,
            healthy: true,
        }),
    );
    n
}

/// `mock.SystemJob` (or `mock.Job` with `count`, or `mock.SystemBatchJob`).
pub(super) fn job(job_type: &str, group: &str, count: i64) -> Job {
    let name = if job_type == "sysbatch" {
        "my-sysbatch"
    } else {
        "my-job"
    };
    Job {
        id: name.into(),
        name: name.into(),
        namespace: "default".into(),
        job_type: job_type.into(),
        priority: 50,
        job_modify_index: 99,
        datacenters: vec!["dc1".into()],
        constraints: vec![Constraint {
            l_target: "${attr.kernel.name}".into(),
            r_target: "linux".into(),
            operand: "=".into(),
        }],
        task_groups: vec![
            TaskGroup {
                name: group.into(),
                count,
                tasks: vec![
                    Task {
                        name: group.into(),
                        driver: "exec".into(),
                        config: GoValue::from(serde_json::json!({"command": "/bin/date"})),
                        ..Task::default()
                    }
                    .into(),
                ],
                ..TaskGroup::default()
            }
            .into(),
        ],
        ..Job::default()
    }
}

fn system_job() -> Job {
    job("system", "web", 1)
}

pub(super) fn older(job: &Job) -> Arc<Job> {
    let mut old = job.clone();
    old.job_modify_index -= 1;
    Arc::new(old)
}

pub(super) fn alloc(id: &str, node: &str, name: &str, job: Arc<Job>) -> Allocation {
    Allocation {
        id: id.into(),
        namespace: "default".into(),
        node_id: node.into(),
        name: name.into(),
        job_id: job.id.as_str().into(),
        task_group: job.task_groups[0].name.as_str().into(),
        job: Some(job),
        desired_status: "run".into(),
        client_status: "running".into(),
        ..Allocation::default()
    }
}

struct Cluster {
    nodes: Vec<Node>,
    allocs: Vec<Allocation>,
}

impl Cluster {
    fn new(nodes: Vec<Node>) -> Cluster {
        Cluster {
            nodes,
            allocs: Vec::new(),
        }
    }

    fn run<R>(&self, job: Option<&Job>, f: impl FnOnce(&SystemSchedule<'_>) -> R) -> R {
        let nodes: NodesById<'_> = self.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
        let allocs: Vec<&Allocation> = self.allocs.iter().collect();
        let tainted = tainted_nodes(allocs.iter().copied(), |id| nodes.get(id).copied());
        let sched = SystemSchedule::compute(&SystemInput {
            job,
            allocs: &allocs,
            nodes: &nodes,
            tainted: &tainted,
            rules: &crate::reconciler::Rules::default(),
            now: crate::time::Time::ZERO,
            record: false,
            fit: None,
            volumes: Default::default(),
            deployment: None,
            new_deployment_id: "",
        });
        f(&sched)
    }
}

fn nodes(n: usize) -> Vec<Node> {
    (0..n).map(|i| node(&format!("node-{i:02}"))).collect()
}

/// A cluster of `nodes`, each running an allocation of `system_job()`.
fn system_everywhere(nodes: Vec<Node>) -> Cluster {
    let mut c = Cluster::new(nodes);
    running_everywhere(&mut c, &Arc::new(system_job()));
    c
}

/// `job` registered again (`JobModifyIndex` 100): an in-place update of
/// its allocations unless something else changes too.
fn reregistered(mut job: Job) -> Job {
    job.job_modify_index = 100;
    job
}

/// `job` registered again with another command: a destructive update.
fn other_command(job: Job) -> Job {
    let mut job = reregistered(job);
    job.task_groups[0].tasks[0].config =
        GoValue::from(serde_json::json!({"command": "/bin/other"}));
    job
}

/// Runs `job`, a destructive update of allocations `{prefix}00` to
/// `{prefix}02` on three nodes, with a fourth node added: each replacement
/// names the allocation it replaces, the new node's placement none.
fn assert_chained(mut c: Cluster, job: &Job, prefix: &str) {
    c.nodes.push(node("node-new"));
    c.run(Some(job), |s| {
        let mut chained: Vec<Option<String>> = s
            .placements
            .iter()
            .map(|p| p.previous.map(|a| a.id.to_string()))
            .collect();
        chained.sort();
        let replaced = (0..3).map(|i| Some(format!("{prefix}{i:02}")));
        assert_eq!(
            chained,
            [None].into_iter().chain(replaced).collect::<Vec<_>>()
        );
    });
}

fn running_everywhere(c: &mut Cluster, job: &Arc<Job>) {
    for (i, n) in c.nodes.clone().iter().enumerate() {
        c.allocs.push(alloc(
            &format!("a{i:02}"),
            &n.id,
            "my-job.web[0]",
            Arc::clone(job),
        ));
    }
}

fn constraint_errors(mut job: Job) {
    // Three nodes tagged foo, one of them ineligible, and one tagged
    // otherwise: two placements.
    job.constraints.push(Constraint {
        l_target: "${meta.tag}".into(),
        r_target: "foo".into(),
        operand: "=".into(),
    });
    let mut ns = nodes(4);
    for (n, tag) in ns.iter_mut().zip(["aaaaaa", "foo", "foo", "foo"]) {
        n.meta.insert("tag".into(), tag.into());
        n.computed_class = format!("v1:{tag}").into();
    }
    ns[3].scheduling_eligibility = "ineligible".into();
    let c = Cluster::new(ns);
    c.run(Some(&job), |s| {
        let on: Vec<&str> = s.placements.iter().map(|p| p.node_id).collect();
        assert_eq!(on, ["node-01", "node-02"]);
        assert!(s.invalid_constraints.is_empty());
    });
}

/// Two groups pinned to two node classes, one node of each.
fn job_constraint_add_node(mut job: Job) {
    let mut b = job.task_groups[0].clone();
    job.task_groups[0].name = "groupA".into();
    job.task_groups[0].constraints = vec![Constraint {
        l_target: "${node.class}".into(),
        r_target: "Class-A".into(),
        operand: "=".into(),
    }];
    b.name = "groupB".into();
    b.constraints = vec![Constraint {
        l_target: "${node.class}".into(),
        r_target: "Class-B".into(),
        operand: "=".into(),
    }];
    job.task_groups.push(b);
    let class = |id: &str, c: &str| {
        let mut n = node(id);
        n.node_class = c.into();
        n.computed_class = format!("v1:{c}").into();
        n
    };
    let c = Cluster::new(vec![class("a", "Class-A"), class("b", "Class-B")]);
    c.run(Some(&job), |s| {
        let mut placed: Vec<(&str, &str)> = s
            .placements
            .iter()
            .map(|p| (p.task_group.name.as_str(), p.node_id))
            .collect();
        placed.sort();
        assert_eq!(placed, [("groupA", "a"), ("groupB", "b")]);
        assert_eq!(s.desired["groupA"].place, 1);
        assert_eq!(s.desired["groupB"].place, 1);
    });
}

fn sysbatch_job() -> Job {
    job("sysbatch", "pinger", 1)
}

fn sysbatch_everywhere(c: &mut Cluster, job: &Arc<Job>, client: &str) {
    for (i, n) in c.nodes.clone().iter().enumerate() {
        let mut a = alloc(
            &format!("s{i:02}"),
            &n.id,
            "my-sysbatch.pinger[0]",
            Arc::clone(job),
        );
        a.client_status = client.into();
        c.allocs.push(a);
    }
}
