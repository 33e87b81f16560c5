//! `--explain-node`: one node's capacity, what runs there, what the plan
//! puts there and takes away, and what is left.
//!
//! Read from the replay's report and the placement stage's view of the
//! cluster (what each allocation holds, what the node offers). A
//! placement's resources are what its group asks of this node
//! ([`crate::fit::place()`] on the node alone: the same amounts the stack
//! allocated, the cores counted rather than named).

use std::collections::HashMap;

use serde::Serialize;

use super::error::ExplainError;
use super::subject::find_node;
use crate::feasibility::{HostNetworks, TargetRules, host_networks};
use crate::fit::usage::{comparable, flatten};
use crate::fit::{Comparable, FitRules, GroupAsk, Settings, place};
use crate::model::{Allocation, Id, Job, JobType, Snapshot};
use crate::placement::Cluster;
use crate::placement::ask::ask_of;
use crate::replay::{Options, Replay};
use crate::report::{NowSource, Report};
use crate::time::Time;
use crate::version::Switch;
use crate::warning::Warning;

/// One node as the plan leaves it.
#[derive(Clone, Debug, Serialize)]
pub struct NodeExplanation {
    pub node: NodeFacts,
    pub now: Time,
    pub now_source: NowSource,
    /// The node has a resources block; without one, fit is not checked there.
    pub fit_checked: bool,
    /// What the node offers in all, and what it keeps for itself.
    pub capacity: Amounts,
    pub reserved: Amounts,
    /// The allocations that hold resources on the node, by job and group.
    pub running: Vec<NodeAlloc>,
    /// Placements the plan puts on the node.
    pub adds: Vec<NodeAdd>,
    /// Allocations on the node the plan stops, replaces or preempts.
    pub frees: Vec<NodeFree>,
    /// What the running allocations hold, and after the plan.
    pub used: Amounts,
    pub used_after: Amounts,
    /// Capacity less reserved less `used_after`; negative where the plans
    /// of several jobs, each evaluated on the snapshot alone, together ask
    /// for more than the node has.
    pub left: Amounts,
    pub warnings: Vec<Warning>,
}

/// Who the node is and whether it takes placements.
#[derive(Clone, Debug, Serialize)]
pub struct NodeFacts {
    pub id: String,
    pub name: String,
    pub datacenter: String,
    pub node_pool: String,
    pub node_class: String,
    pub status: String,
    pub eligibility: String,
    pub draining: bool,
}

/// Resources as the scheduler compares them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Amounts {
    pub cpu_mhz: i64,
    pub cores: i64,
    pub memory_mb: i64,
    /// Memory ceilings (`memory_max`, else `memory`); for `left`, the
    /// memory that remains above them.
    pub memory_max_mb: i64,
    pub disk_mb: i64,
}

/// An allocation that holds resources on the node.
#[derive(Clone, Debug, Serialize)]
pub struct NodeAlloc {
    pub alloc_id: String,
    pub name: String,
    pub namespace: String,
    pub job_id: String,
    pub task_group: String,
    pub client_status: String,
    pub desired_status: String,
    pub resources: Amounts,
}

/// A placement the plan puts on the node.
#[derive(Clone, Debug, Serialize)]
pub struct NodeAdd {
    pub name: String,
    pub namespace: String,
    pub job_id: String,
    pub task_group: String,
    /// `place`, or `destructive_update` for a replacement.
    pub kind: &'static str,
    pub previous_alloc_id: Option<String>,
    pub score: Option<f64>,
    pub resources: Amounts,
}

/// An allocation on the node the plan takes away.
#[derive(Clone, Debug, Serialize)]
pub struct NodeFree {
    pub alloc_id: String,
    pub name: String,
    pub namespace: String,
    pub job_id: String,
    /// `stop`, `destructive_update` or `preemption`.
    pub kind: &'static str,
    /// The stop's description, the update's reason, or the placement a
    /// preemption makes room for.
    pub why: String,
    pub resources: Amounts,
}

impl Amounts {
    fn of(c: &Comparable) -> Amounts {
        Amounts {
            cpu_mhz: c.cpu_shares,
            cores: c.cores.len() as i64,
            memory_mb: c.memory_mb,
            memory_max_mb: c.memory_max_mb,
            disk_mb: c.disk_mb,
        }
    }

    fn add(&mut self, o: &Amounts) {
        self.cpu_mhz += o.cpu_mhz;
        self.cores += o.cores;
        self.memory_mb += o.memory_mb;
        self.memory_max_mb += o.memory_max_mb;
        self.disk_mb += o.disk_mb;
    }

    fn sub(&mut self, o: &Amounts) {
        self.cpu_mhz -= o.cpu_mhz;
        self.cores -= o.cores;
        self.memory_mb -= o.memory_mb;
        self.memory_max_mb -= o.memory_max_mb;
        self.disk_mb -= o.disk_mb;
    }
}

/// The node `node` (an ID, name or unique ID prefix) under the plan of the
/// jobs `options` selects.
pub fn explain_node(
    snapshot: &Snapshot,
    options: &Options,
    node: &str,
) -> Result<NodeExplanation, ExplainError> {
    let node = find_node(snapshot, node)?;
    let report = Replay::new(snapshot, options)?.report();
    let rules = FitRules::of(report.nomad_version.release);
    let cluster = Cluster::new(snapshot, &rules);
    let i = cluster
        .position(&node.id)
        .expect("find_node returns a node of the snapshot");
    let capacity = &cluster.capacities[i];
    let holds: HashMap<&Id, Amounts> = cluster.running[i]
        .iter()
        .map(|a| (&a.id, Amounts::of(&comparable(a.usage_view(), &rules))))
        .collect();
    let mut running: Vec<NodeAlloc> = cluster.running[i]
        .iter()
        .map(|a| NodeAlloc {
            alloc_id: a.id.to_string(),
            name: a.name().to_string(),
            namespace: a.namespace.to_string(),
            job_id: a.job_id.to_string(),
            task_group: a.task_group.to_string(),
            client_status: a.client_status.as_str().to_string(),
            desired_status: a.desired_status.as_str().to_string(),
            resources: holds[&a.id],
        })
        .collect();
    running.sort_by(|a, b| {
        (&a.namespace, &a.job_id, &a.task_group, &a.name, &a.alloc_id).cmp(&(
            &b.namespace,
            &b.job_id,
            &b.task_group,
            &b.name,
            &b.alloc_id,
        ))
    });
    let release = report.nomad_version.release;
    let pools = Switch::NodePoolSchedulerConfig.in_release(release);
    let asks = |job: &Job, group: &str| -> Amounts {
        let Some(tg) = job.task_groups.iter().find(|tg| tg.name == group) else {
            return Amounts::default();
        };
        // The stack's configuration for the job: its pool's own from 1.6.0.
        let config = snapshot.scheduler_config_for(pools.then_some(job.node_pool.as_str()));
        let settings = Settings {
            rules,
            memory_oversubscription: config.config.memory_oversubscription_enabled,
        };
        let supply = &cluster.supplies[i];
        let ask = ask_of(tg);
        let resolved = ask.network.map_or(HostNetworks::Plain, |n| {
            host_networks(n, node, TargetRules::of(release))
        });
        let ask = match &resolved {
            HostNetworks::Resolved(n) => GroupAsk {
                network: Some(n),
                ..ask
            },
            _ => ask,
        };
        place(supply, &[], &ask, &settings)
            .map(|p| Amounts::of(&flatten(&p.allocated, &rules)))
            .unwrap_or_default()
    };
    let (adds, frees) = plan_on_node(snapshot, &report, &node.id, &holds, asks);
    let mut used = Amounts::default();
    for a in &running {
        used.add(&a.resources);
    }
    let mut used_after = used;
    for a in &adds {
        used_after.add(&a.resources);
    }
    for f in &frees {
        used_after.sub(&f.resources);
    }
    let mut left = Amounts::of(&capacity.available());
    let available_memory = left.memory_mb;
    left.sub(&used_after);
    left.memory_max_mb = available_memory - used_after.memory_max_mb;
    Ok(NodeExplanation {
        node: NodeFacts {
            id: node.id.clone(),
            name: node.name.clone(),
            datacenter: node.datacenter.to_string(),
            node_pool: node.node_pool.to_string(),
            node_class: node.node_class.to_string(),
            status: node.status.to_string(),
            eligibility: node.scheduling_eligibility.to_string(),
            draining: node.has_drain_strategy(),
        },
        now: report.now,
        now_source: report.now_source,
        fit_checked: cluster.known[i],
        capacity: Amounts::of(&capacity.total),
        reserved: Amounts::of(&capacity.reserved),
        running,
        adds,
        frees,
        used,
        used_after,
        left,
        warnings: report.warnings.clone(),
    })
}

/// The plan's placements on node `node_id` and its removals there, each
/// with its resources: a stop or preemption frees what the allocation
/// holds; a service or batch job's destructive update frees the old
/// allocation when its replacement was placed (a system job's is a stop
/// and a placement already).
fn plan_on_node(
    snapshot: &Snapshot,
    report: &Report,
    node_id: &str,
    holds: &HashMap<&Id, Amounts>,
    asks: impl Fn(&Job, &str) -> Amounts,
) -> (Vec<NodeAdd>, Vec<NodeFree>) {
    let allocs: HashMap<&Id, &Allocation> = snapshot
        .allocs
        .iter()
        .filter(|a| a.node_id.as_str() == node_id)
        .map(|a| (&a.id, a))
        .collect();
    let jobs: HashMap<(&str, &str), &Job> = snapshot
        .jobs
        .iter()
        .map(|j| ((j.namespace.as_str(), j.id.as_str()), j.as_ref()))
        .collect();
    let held = |id: &Id| holds.get(id).copied().unwrap_or_default();
    let (mut adds, mut frees) = (Vec::new(), Vec::new());
    for job in &report.jobs {
        let spec = jobs
            .get(&(job.namespace.as_str(), job.id.as_str()))
            .copied();
        let add = |name: &str, group: &str, kind, previous: Option<String>, score| NodeAdd {
            name: name.to_string(),
            namespace: job.namespace.clone(),
            job_id: job.id.clone(),
            task_group: group.to_string(),
            kind,
            previous_alloc_id: previous,
            score,
            resources: spec.map(|j| asks(j, group)).unwrap_or_default(),
        };
        let free = |a: &Allocation, kind, why: &str| NodeFree {
            alloc_id: a.id.to_string(),
            name: a.name().to_string(),
            namespace: a.namespace.to_string(),
            job_id: a.job_id.to_string(),
            kind,
            why: why.to_string(),
            resources: held(&a.id),
        };
        let plan = &job.plan;
        for p in plan
            .place
            .iter()
            .filter(|p| p.node_id.as_deref() == Some(node_id))
        {
            let previous = p.previous_alloc_id.as_ref().map(|id| id.to_string());
            adds.push(add(
                &p.name,
                &p.task_group,
                "place",
                previous,
                p.score.map(|s| s.0),
            ));
        }
        for s in &plan.stop {
            if let Some(a) = allocs.get(&s.alloc_id) {
                frees.push(free(a, "stop", s.description));
            }
        }
        for p in &plan.preemptions {
            if let Some(a) = allocs.get(&p.alloc_id) {
                frees.push(free(
                    a,
                    "preemption",
                    &format!("preempted for {}", p.preempted_by),
                ));
            }
        }
        if matches!(job.job_type, JobType::System | JobType::Sysbatch) {
            continue;
        }
        for d in &plan.destructive_update {
            let Some(placed_on) = d.node_id.as_deref() else {
                continue;
            };
            if placed_on == node_id {
                let previous = Some(d.alloc_id.to_string());
                let score = d.score.map(|s| s.0);
                adds.push(add(
                    &d.name,
                    &d.task_group,
                    "destructive_update",
                    previous,
                    score,
                ));
            }
            if let Some(a) = allocs.get(&d.alloc_id) {
                frees.push(free(a, "destructive_update", &d.reason));
            }
        }
    }
    adds.sort_by(|a, b| {
        (&a.namespace, &a.job_id, &a.name).cmp(&(&b.namespace, &b.job_id, &b.name))
    });
    frees.sort_by(|a, b| a.alloc_id.cmp(&b.alloc_id).then(a.kind.cmp(b.kind)));
    frees.dedup_by(|a, b| a.alloc_id == b.alloc_id);
    (adds, frees)
}
