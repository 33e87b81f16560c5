//! Preemption: which allocations of other jobs a node evicts so that a
//! placement of a higher-priority job fits (Nomad's `Preemptor`,
//! `scheduler/preemption.go` at 1.3.0, `scheduler/feasible/preemption.go`
//! from 1.11.0).
//!
//! The algorithm is the same at every release from 1.3.0 to 2.0.5 (the
//! file changed in 1.7.0 only in how a node and an allocation count their
//! resources, which [`FitRules`] already carries, and in 1.9.0 only by a
//! copy for NUMA retries). In Nomad's order:
//!
//! - an allocation is a candidate unless it belongs to the placing job or
//!   embeds no job; it may be evicted only when the placing job's priority
//!   is at least [`PRIORITY_DELTA`] above its own;
//! - candidates are taken by priority, lowest first;
//! - CPU, memory and disk ([`Preemptor::for_task_group`]): within a
//!   priority, the candidate nearest the remaining need (a distance over
//!   the three dimensions, [`distance`]) plus a penalty per preemption
//!   beyond its group's `migrate.max_parallel` already in the plan;
//! - bandwidth and reserved ports ([`Preemptor::for_network`]): one device
//!   at a time, first the holders of the ports asked for (a port held by
//!   an allocation that may not be evicted rules the device out), then by
//!   bandwidth distance;
//! - devices ([`Preemptor::for_device`]): per matching device, candidates
//!   by priority until enough instances are free, then the option whose
//!   distinct priorities sum lowest;
//! - a final pass drops candidates the others already cover, largest
//!   distance first.
//!
//! Where Nomad iterates a Go map (devices, task resources, the plan's
//! placements) or sorts unstably, plan-inspect takes the candidates in the
//! caller's order (allocation ID), devices by name, and sorts stably.

mod devices;
pub mod distance;
mod flat;
mod network;
pub mod score;

use std::collections::{BTreeMap, HashMap};

use super::capacity::Capacity;
use super::comparable::Comparable;
use super::rules::FitRules;
use super::usage;
use crate::model::UsageView;
use crate::model::resources::NodeSupply;
pub use flat::FlatNetwork;

/// An allocation is preemptible only by a job at least this many priority
/// points above its own (`filterAndGroupPreemptibleAllocs`).
pub const PRIORITY_DELTA: i64 = 10;

/// One allocation on the node, as the preemptor reads it.
#[derive(Clone, Copy, Debug)]
pub struct Candidate<'a> {
    pub usage: UsageView<'a>,
    pub namespace: &'a str,
    pub job_id: &'a str,
    pub task_group: &'a str,
    /// The priority of the job version it runs; `None` when it embeds no
    /// job, which Nomad never preempts.
    pub priority: Option<i64>,
    /// Its group's `migrate.max_parallel`, 0 without a migrate block.
    pub max_parallel: i64,
}

/// The job and group a preemption counts against.
pub type VictimGroup<'a> = (&'a str, &'a str, &'a str);

/// A candidate with what it holds.
#[derive(Clone, Debug)]
struct Detail<'a> {
    c: &'a Candidate<'a>,
    resources: Comparable,
    networks: Vec<FlatNetwork>,
}

/// The preemptor of one node for one placement.
#[derive(Clone, Debug)]
pub struct Preemptor<'a> {
    priority: i64,
    namespace: &'a str,
    job_id: &'a str,
    rules: FitRules,
    /// The plan's preemptions so far, by job and group.
    preempted: HashMap<(String, String, String), usize>,
    /// The node's capacity less its reservation (`SetNode`).
    remaining: Comparable,
    current: Vec<Detail<'a>>,
}

impl<'a> Preemptor<'a> {
    /// `NewPreemptor` and `SetNode`, for a placement of the job
    /// `namespace/job_id` at `priority`.
    pub fn new(
        priority: i64,
        namespace: &'a str,
        job_id: &'a str,
        node: &NodeSupply,
        rules: &FitRules,
    ) -> Preemptor<'a> {
        Preemptor {
            priority,
            namespace,
            job_id,
            rules: *rules,
            preempted: HashMap::new(),
            remaining: Capacity::of(node, rules).available(),
            current: Vec::new(),
        }
    }

    /// `SetPreemptions`: the groups of every allocation the plan already
    /// preempts, on any node.
    pub fn set_preemptions<'g>(&mut self, plan: impl IntoIterator<Item = VictimGroup<'g>>) {
        self.preempted.clear();
        for (ns, job, tg) in plan {
            let key = (ns.to_string(), job.to_string(), tg.to_string());
            *self.preempted.entry(key).or_default() += 1;
        }
    }

    /// `SetCandidates`: the allocations that may be chosen, less the
    /// placing job's own.
    pub fn set_candidates(&mut self, candidates: &[&'a Candidate<'a>]) {
        self.current = candidates
            .iter()
            .filter(|c| !(c.job_id == self.job_id && c.namespace == self.namespace))
            .map(|c| Detail {
                c,
                resources: usage::comparable(c.usage, &self.rules),
                networks: flat::networks(c.usage, &self.rules),
            })
            .collect();
    }

    /// Preemptions of the plan so far against the candidate's group.
    fn preemptions_of(&self, c: &Candidate<'_>) -> usize {
        let key = (
            c.namespace.to_string(),
            c.job_id.to_string(),
            c.task_group.to_string(),
        );
        self.preempted.get(&key).copied().unwrap_or(0)
    }

    /// Whether the placing job may evict an allocation of `priority`.
    fn may_evict(&self, priority: Option<i64>) -> bool {
        priority.is_some_and(|p| self.priority.saturating_sub(p) >= PRIORITY_DELTA)
    }

    /// The preemptible candidates among `details`, grouped by priority,
    /// lowest first, each group in the given order.
    fn by_priority<'d>(&self, details: Vec<&'d Detail<'a>>) -> Vec<Vec<&'d Detail<'a>>> {
        let mut groups: BTreeMap<i64, Vec<&'d Detail<'a>>> = BTreeMap::new();
        for d in details {
            if let Some(p) = d.c.priority.filter(|_| self.may_evict(d.c.priority)) {
                groups.entry(p).or_default().push(d);
            }
        }
        groups.into_values().collect()
    }

    /// `PreemptForTaskGroup`: the candidates to evict so that `ask` (the
    /// new allocation's CPU, memory and disk) fits beside the rest, or
    /// `None`. Nomad leaves the candidates' resources subtracted from the
    /// node's remainder after the call; so does this.
    pub fn for_task_group(&mut self, ask: &Comparable) -> Option<Vec<&'a Candidate<'a>>> {
        for d in &self.current {
            self.remaining.subtract(&d.resources);
        }
        let mut needed = ask.clone();
        let mut available = self.remaining.clone();
        let mut chosen: Vec<&Detail<'a>> = Vec::new();
        let mut met = false;
        for mut group in self.by_priority(self.current.iter().collect()) {
            while !group.is_empty() && !met {
                let mut best = 0;
                let mut best_distance = f64::MAX;
                for (i, d) in group.iter().enumerate() {
                    let score = distance::task_group_score(
                        &needed,
                        &d.resources,
                        d.c.max_parallel,
                        self.preemptions_of(d.c),
                    );
                    if score < best_distance {
                        best_distance = score;
                        best = i;
                    }
                }
                let closest = group.swap_remove(best);
                available.add(&closest.resources);
                met = available.superset(ask).is_ok();
                needed.subtract(&closest.resources);
                chosen.push(closest);
            }
            if met {
                break;
            }
        }
        if !met {
            return None;
        }
        chosen.sort_by(|a, b| {
            let da = distance::resources(ask, &a.resources);
            let db = distance::resources(ask, &b.resources);
            db.total_cmp(&da)
        });
        let mut available = self.remaining.clone();
        let mut kept = Vec::new();
        for d in chosen {
            kept.push(d.c);
            available.add(&d.resources);
            if available.superset(ask).is_ok() {
                break;
            }
        }
        Some(kept)
    }
}

#[cfg(test)]
mod tests;
