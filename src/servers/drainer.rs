//! `nomad/drainer/`: the node drainer. `Node.UpdateDrain` gives the node a
//! drain strategy whose force deadline is the drain's start plus its
//! deadline and makes it ineligible (v1.3.0 node_endpoint.go:800,
//! state_store.go `updateNodeDrainImpl`), creating no evaluation. The
//! drainer then marks allocations for migration (`DesiredTransition.Migrate`)
//! with one `node-drain` evaluation per job (`batchDrainAllocs`):
//! service groups as their `migrate` block's `max_parallel` allows
//! (`handleTaskGroup`, drain_jobs.rs), batch allocations only at the
//! deadline, system allocations last, once everything else on the node is
//! terminal (`handleMigratedAllocs`, `IsDone`); at the deadline every
//! remaining allocation (`handleDeadlinedNodes`). A node done draining
//! loses its drain strategy and stays ineligible (`NodesDrainComplete`).

use std::collections::BTreeMap;

use serde_json::json;

use crate::model::{GoValue, JobType, eligibility};
use crate::time::{Duration, Time};

use super::drain_jobs;
use super::eval::{NewEval, trigger};
use super::world::World;

/// A node being drained.
#[derive(Clone, Debug)]
struct Draining {
    node_id: String,
    force_deadline: Time,
}

/// The drainer's state over the story.
#[derive(Default)]
pub struct Drainer {
    nodes: Vec<Draining>,
    /// The cluster changed at this time since the drainer last looked.
    dirty: Option<Time>,
}

impl Drainer {
    /// `Node.UpdateDrain` with a deadline of `deadline` at `now`.
    pub fn start(
        &mut self,
        world: &mut World,
        node_id: &str,
        now: Time,
        deadline: Duration,
    ) -> Time {
        let force_deadline = now.add(deadline);
        let node = world.node_mut(node_id).expect("resolved node");
        node.drain_strategy = GoValue::from(json!({
            "Deadline": deadline,
            "ForceDeadline": force_deadline.to_rfc3339(),
            "IgnoreSystemJobs": false,
            "StartedAt": now.to_rfc3339(),
        }));
        node.drain = true;
        node.scheduling_eligibility = eligibility::INELIGIBLE.into();
        self.nodes.retain(|d| d.node_id != node_id);
        self.nodes.push(Draining {
            node_id: node_id.to_string(),
            force_deadline,
        });
        self.touch(now);
        force_deadline
    }

    /// The cluster changed at `now`: the drainer looks again.
    pub fn touch(&mut self, now: Time) {
        if !self.nodes.is_empty() {
            self.dirty = Some(self.dirty.map_or(now, |d| d.min(now)));
        }
    }

    /// When the drainer next acts: after a change, or at a force deadline.
    pub fn next_due(&self) -> Option<Time> {
        let deadline = self.nodes.iter().map(|d| d.force_deadline).min();
        [self.dirty, deadline].into_iter().flatten().min()
    }

    /// One pass of the drainer at `now`: the allocations it marks for
    /// migration, as `node-drain` evaluations per job.
    pub fn step(&mut self, world: &mut World, now: Time) -> Vec<NewEval> {
        self.dirty = None;
        let mut marked: Vec<usize> = Vec::new();
        let mut complete: Vec<String> = Vec::new();
        for d in &self.nodes {
            if now >= d.force_deadline {
                marked.extend(remaining(world, &d.node_id));
                complete.push(d.node_id.clone());
            }
        }
        let draining: Vec<String> = self
            .nodes
            .iter()
            .filter(|d| !complete.contains(&d.node_id))
            .map(|d| d.node_id.clone())
            .collect();
        marked.extend(drain_jobs::drainable(world, &draining));
        for node_id in &draining {
            if is_done(world, node_id) {
                marked.extend(remaining(world, node_id));
                complete.push(node_id.clone());
            }
        }
        marked.sort_unstable();
        marked.dedup();
        for node_id in &complete {
            if let Some(node) = world.node_mut(node_id) {
                node.drain_strategy = GoValue::default();
                node.drain = false;
            }
        }
        self.nodes.retain(|d| !complete.contains(&d.node_id));
        batch_drain(world, &marked)
    }
}

/// `RemainingAllocs`: every allocation on the node not yet terminal nor
/// already marked.
fn remaining(world: &World, node_id: &str) -> Vec<usize> {
    world
        .allocs_on(node_id)
        .into_iter()
        .filter(|&i| {
            let a = world.alloc(i);
            !a.terminal_status() && !a.desired_transition.should_migrate()
        })
        .collect()
}

/// `IsDone`: every allocation on the node but system ones is terminal.
fn is_done(world: &World, node_id: &str) -> bool {
    world.allocs_on(node_id).into_iter().all(|i| {
        let a = world.alloc(i);
        a.terminal_status()
            || a.job
                .as_deref()
                .is_some_and(|j| j.job_type == JobType::System)
    })
}

/// `batchDrainAllocs`: the migrate transitions, and one evaluation per job
/// with the priority and type of the job the allocation embeds.
fn batch_drain(world: &mut World, marked: &[usize]) -> Vec<NewEval> {
    let mut jobs: BTreeMap<(String, String), NewEval> = BTreeMap::new();
    for &i in marked {
        let alloc = &mut world.snapshot.allocs[i];
        alloc.desired_transition.migrate = Some(true);
        let alloc = world.alloc(i);
        let job = alloc.job.as_deref();
        jobs.entry((alloc.namespace.to_string(), alloc.job_id.to_string()))
            .or_insert_with(|| NewEval {
                id: String::new(),
                namespace: alloc.namespace.to_string(),
                job_id: alloc.job_id.to_string(),
                job_type: job.map(|j| j.job_type.clone()).unwrap_or_default(),
                priority: job.map_or(0, |j| j.priority),
                triggered_by: trigger::NODE_DRAIN.to_string(),
                node_id: None,
                wait_until: None,
                raft_index: None,
            });
    }
    jobs.into_values().collect()
}
