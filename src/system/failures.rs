//! The failed placements of a system job as Nomad's `computePlacements`
//! reports them (`scheduler/scheduler_system.go:323-485` at 1.3.0): per
//! task group, the `AllocMetric` of its first failure with the later ones
//! coalesced, a group filtered out of every node it was to run on, and
//! the allocations left queued.

use std::collections::BTreeMap;

use crate::feasibility::Filter;
use crate::fit::Shortfall;
use crate::model::Node;
use crate::placement::AllocMetric;

/// One failed task group (`FailedTGAllocs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedGroup {
    pub task_group: String,
    pub metric: AllocMetric,
    /// `CoalescedFailures`: failures after the first.
    pub coalesced: u64,
    /// The exhausted node of the first failure and what it lacked; none
    /// for a group filtered out everywhere.
    pub exhausted: Option<(String, String, Shortfall)>,
}

/// What the metrics of an exhausted node carry beyond the node itself.
#[derive(Clone, Debug, Default)]
pub struct Targets {
    /// Ready nodes per datacenter (`nodesByDC`).
    pub nodes_available: BTreeMap<String, u64>,
    /// Ready nodes of the job's pool, from 1.6.0; else 0.
    pub nodes_in_pool: u64,
}

/// The failure bookkeeping of one evaluation.
#[derive(Clone, Debug, Default)]
pub struct Failures {
    /// Place tuples per group not yet accounted for (`queuedAllocs`).
    queued: BTreeMap<String, i64>,
    /// Filtered nodes per group, merged (`mergeNodeFiltered`).
    filtered: BTreeMap<String, AllocMetric>,
    pub failed: Vec<FailedGroup>,
}

impl Failures {
    /// Queues every place tuple of each group.
    pub fn new<'g>(groups: impl IntoIterator<Item = &'g str>) -> Failures {
        let mut queued = BTreeMap::new();
        for g in groups {
            *queued.entry(g.to_string()).or_default() += 1;
        }
        Failures {
            queued,
            ..Failures::default()
        }
    }

    /// A node the feasibility checks filtered: the group fails only once
    /// every tuple of it was filtered, and from the release that asks
    /// (`exists`, 1.10.2) only if it runs nowhere already.
    pub fn filtered(&mut self, group: &str, node: &Node, filter: &Filter, exists: bool) {
        let queued = self.queued.entry(group.to_string()).or_default();
        *queued -= 1;
        let all_filtered = *queued <= 0;
        let merged = self.filtered.entry(group.to_string()).or_default();
        merged.nodes_evaluated += 1;
        merged.filter_node(&node.node_class, &filter.metric());
        if all_filtered && !exists {
            let metric = merged.clone();
            match self.failed.iter_mut().find(|f| f.task_group == group) {
                Some(f) => f.metric = metric,
                None => self.failed.push(FailedGroup {
                    task_group: group.to_string(),
                    metric,
                    coalesced: 0,
                    exhausted: None,
                }),
            }
        }
    }

    /// A feasible node without room: the group's first such failure keeps
    /// its metrics, later ones are counted. Returns whether it is the
    /// first, when Nomad leaves a blocked evaluation.
    pub fn exhausted(
        &mut self,
        group: &str,
        node: &Node,
        short: &Shortfall,
        targets: &Targets,
    ) -> bool {
        if let Some(f) = self.failed.iter_mut().find(|f| f.task_group == group) {
            f.coalesced += 1;
            return false;
        }
        let mut metric = AllocMetric {
            nodes_evaluated: 1,
            nodes_available: targets.nodes_available.clone(),
            nodes_in_pool: targets.nodes_in_pool,
            ..AllocMetric::default()
        };
        if !short.unrecorded {
            metric.exhaust_node(&node.node_class, &short.dimension);
        }
        self.failed.push(FailedGroup {
            task_group: group.to_string(),
            metric,
            coalesced: 0,
            exhausted: Some((node.id.clone(), node.name.clone(), short.clone())),
        });
        true
    }

    /// A placement made.
    pub fn placed(&mut self, group: &str) {
        *self.queued.entry(group.to_string()).or_default() -= 1;
    }

    /// `QueuedAllocations` after the plan: per group with place tuples,
    /// those neither placed nor filtered.
    pub fn queued(&self) -> BTreeMap<String, u64> {
        self.queued
            .iter()
            .map(|(g, n)| (g.clone(), u64::try_from(*n).unwrap_or(0)))
            .collect()
    }
}
