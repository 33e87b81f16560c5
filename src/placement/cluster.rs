//! The nodes of a snapshot and what runs on each, indexed once per replay
//! and shared by every job's placement stage, so that no job walks the
//! allocations, and none walks the nodes but the ones it ranks.

use std::collections::HashMap;
use std::sync::OnceLock;

use foldhash::fast::FixedState;

use super::board::Boards;
use super::class_rows::ClassRows;
use crate::feasibility::{ClassMemo, CsiState, VolumeRules, Volumes};
use crate::fit::{Capacity, Comparable, FitRules, NodeFreeAsk, NodeUse, Shortfall};
use crate::model::resources::NodeSupply;
use crate::model::{Allocation, Node, Snapshot, UsageView};

/// Ready nodes of one datacenter and node pool: whether a job targets
/// them is decided once, on the first of them.
#[derive(Clone, Copy, Debug)]
pub struct ReadyGroup<'a> {
    pub first: &'a Node,
    pub count: u64,
}

/// The ready nodes of one datacenter and node pool that share a computed
/// class, in ID order, and how many of them carry each node class: what a
/// failed scan counts at once for a class its cache rules out.
#[derive(Clone, Debug)]
pub struct ClassNodes<'a> {
    pub class: u32,
    pub nodes: Vec<usize>,
    pub node_classes: Vec<(&'a str, u64)>,
}

/// The snapshot's nodes, sorted by ID, with their supply, capacity and
/// running allocations (those that count under the release's fit rules:
/// `ProposedAllocs` reads non-terminal allocations before 1.4.0 and those
/// the client has not finished from 1.4.0, `scheduler/context.go:176` at
/// 1.3.0 and 1.4.0).
#[derive(Debug)]
pub struct Cluster<'a> {
    pub nodes: Vec<&'a Node>,
    pub supplies: Vec<NodeSupply>,
    pub capacities: Vec<Capacity>,
    /// What each node offers to allocations (capacity less reservation).
    pub available: Vec<Comparable>,
    /// What holds resources on each node, in ID order; the fit reads each
    /// one in place ([`Allocation::usage_view`]).
    pub running: Vec<Vec<&'a Allocation>>,
    /// Whether the node has a resources block, so that fit is checked
    /// there (at zero CPU or memory too, as Nomad does). Every Nomad client
    /// writes one; a snapshot cut down by hand may not, and Nomad would
    /// crash on such a node.
    pub known: Vec<bool>,
    /// Each node's computed class as a number (a node without one is a
    /// class of its own), and how many there are.
    pub class: Vec<u32>,
    pub classes: usize,
    /// The ready nodes in ID order, each with its group in `groups`.
    pub ready: Vec<(usize, u32)>,
    /// Each node's group in `groups`, [`NOT_READY`] for a node not ready.
    pub ready_group: Vec<u32>,
    pub groups: Vec<ReadyGroup<'a>>,
    /// Each group's nodes by computed class, classes in order of their
    /// first node.
    pub group_classes: Vec<Vec<ClassNodes<'a>>>,
    /// The running allocations of each job ID, each with its node.
    pub by_job: HashMap<&'a str, Vec<(u32, &'a Allocation)>, FixedState>,
    rules: FitRules,
    uses: Vec<OnceLock<NodeUse>>,
    index: HashMap<&'a str, usize, FixedState>,
    /// The CSI volumes and their claims, when the dump has them.
    csi: Option<CsiState<'a>>,
    /// Each job shape's standing on the untouched nodes, shared by jobs.
    pub boards: Boards,
    /// The class checks' outcomes, shared by jobs whose checks read the
    /// same inputs.
    pub memo: ClassMemo,
    /// Groups' whole class checks, shared by jobs with the same inputs.
    pub rows: ClassRows,
}

impl<'a> Cluster<'a> {
    pub fn new(snapshot: &'a Snapshot, rules: &FitRules) -> Cluster<'a> {
        let mut nodes: Vec<&Node> = snapshot.nodes.iter().collect();
        nodes.sort_by(|a, b| a.id.cmp(&b.id));
        nodes.dedup_by(|a, b| a.id == b.id);
        let index: HashMap<&str, usize, FixedState> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.id.as_str(), i))
            .collect();
        let supplies: Vec<NodeSupply> = nodes.iter().map(|n| n.supply()).collect();
        let capacities: Vec<Capacity> = supplies.iter().map(|s| Capacity::of(s, rules)).collect();
        let available = capacities.iter().map(Capacity::available).collect();
        let known = supplies
            .iter()
            .map(|s| Capacity::described(s, rules))
            .collect();
        let mut running: Vec<Vec<&'a Allocation>> = vec![Vec::new(); nodes.len()];
        let mut by_job: HashMap<&str, Vec<(u32, &Allocation)>, FixedState> = HashMap::default();
        for alloc in &snapshot.allocs {
            let Some(&i) = index.get(alloc.node_id.as_str()) else {
                continue;
            };
            if rules.counts(alloc.client_status.as_str(), alloc.desired_status.as_str()) {
                running[i].push(alloc);
                by_job
                    .entry(alloc.job_id.as_str())
                    .or_default()
                    .push((i as u32, alloc));
            }
        }
        // Kept for the whole replay: no spare room from the doubling.
        for list in by_job.values_mut() {
            list.shrink_to_fit();
        }
        for list in &mut running {
            list.sort_by(|a, b| a.id.cmp(&b.id));
            list.shrink_to_fit();
        }
        let (class, classes) = classes_of(&nodes);
        let (ready, groups) = ready_groups(&nodes);
        let group_classes = classes_by_group(&nodes, &class, &ready, groups.len());
        let mut ready_group = vec![NOT_READY; nodes.len()];
        for &(i, g) in &ready {
            ready_group[i] = g;
        }
        Cluster {
            uses: nodes.iter().map(|_| OnceLock::new()).collect(),
            nodes,
            supplies,
            capacities,
            available,
            running,
            known,
            class,
            classes,
            ready,
            ready_group,
            groups,
            group_classes,
            by_job,
            rules: *rules,
            index,
            csi: CsiState::new(snapshot),
            boards: Boards::default(),
            memo: ClassMemo::default(),
            rows: ClassRows::default(),
        }
    }

    /// Whether the dump has a `CSIVolumes` table, so that CSI volume
    /// requests are checked.
    pub fn has_csi_volumes(&self) -> bool {
        self.csi.is_some()
    }

    /// What the volume checks read under `rules`.
    pub fn volumes(&self, rules: VolumeRules) -> Volumes<'_> {
        Volumes {
            rules,
            csi: self.csi.as_ref(),
        }
    }

    /// The rules the running allocations were counted under.
    pub fn rules(&self) -> FitRules {
        self.rules
    }

    /// The index of the node with this ID.
    pub fn position(&self, node_id: &str) -> Option<usize> {
        self.index.get(node_id).copied()
    }

    /// What node `i` would use in all with one more allocation of `ask`,
    /// as the snapshot leaves it, or why the ask does not fit. A node
    /// without a resources block takes anything, unchecked.
    pub fn fit_untouched(
        &self,
        i: usize,
        ask: &NodeFreeAsk<'_>,
        rules: &FitRules,
    ) -> Result<Comparable, Shortfall> {
        match self.known[i] {
            true => self
                .node_use(i)
                .fits(&self.supplies[i], &self.available[i], ask, rules),
            false => Ok(Comparable::default()),
        }
    }

    /// What node `i`'s running allocations use, summed on first need and
    /// then shared by every job.
    pub fn node_use(&self, i: usize) -> &NodeUse {
        self.uses[i].get_or_init(|| {
            let usages: Vec<UsageView<'_>> =
                self.running[i].iter().map(|a| a.usage_view()).collect();
            NodeUse::of(&self.supplies[i], &usages, self.rules)
        })
    }
}

/// The ready group of a node that is not ready.
pub const NOT_READY: u32 = u32::MAX;

/// Numbers for the nodes' computed classes, in order of first sight.
fn classes_of(nodes: &[&Node]) -> (Vec<u32>, usize) {
    let mut seen: HashMap<&str, u32, FixedState> = HashMap::default();
    let mut next = 0u32;
    let class = nodes
        .iter()
        .map(|n| {
            let mut fresh = || {
                next += 1;
                next - 1
            };
            match n.computed_class.as_str() {
                "" => fresh(),
                c => *seen.entry(c).or_insert_with(fresh),
            }
        })
        .collect();
    (class, next as usize)
}

/// The ready nodes grouped by datacenter and node pool.
fn ready_groups<'a>(nodes: &[&'a Node]) -> (Vec<(usize, u32)>, Vec<ReadyGroup<'a>>) {
    let mut seen: HashMap<(&str, &str), u32, FixedState> = HashMap::default();
    let mut groups: Vec<ReadyGroup<'a>> = Vec::new();
    let mut ready = Vec::new();
    for (i, node) in nodes.iter().enumerate().filter(|(_, n)| n.ready()) {
        let key = (node.datacenter.as_str(), node.node_pool.as_str());
        let g = *seen.entry(key).or_insert_with(|| {
            groups.push(ReadyGroup {
                first: node,
                count: 0,
            });
            (groups.len() - 1) as u32
        });
        groups[g as usize].count += 1;
        ready.push((i, g));
    }
    (ready, groups)
}

/// The ready nodes of each group split by computed class.
fn classes_by_group<'a>(
    nodes: &[&'a Node],
    class: &[u32],
    ready: &[(usize, u32)],
    groups: usize,
) -> Vec<Vec<ClassNodes<'a>>> {
    let mut out: Vec<Vec<ClassNodes<'a>>> = vec![Vec::new(); groups];
    let mut seen: HashMap<(u32, u32), usize, FixedState> = HashMap::default();
    for &(i, g) in ready {
        let list = &mut out[g as usize];
        let at = *seen.entry((g, class[i])).or_insert_with(|| {
            list.push(ClassNodes {
                class: class[i],
                nodes: Vec::new(),
                node_classes: Vec::new(),
            });
            list.len() - 1
        });
        let entry = &mut list[at];
        entry.nodes.push(i);
        let node_class = nodes[i].node_class.as_str();
        match entry
            .node_classes
            .iter_mut()
            .find(|(c, _)| *c == node_class)
        {
            Some((_, n)) => *n += 1,
            None => entry.node_classes.push((node_class, 1)),
        }
    }
    out
}
