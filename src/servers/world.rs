//! The cluster as the servers change it over the story: the snapshot, its
//! next raft index, and the evaluations created so far.

use std::collections::{BTreeSet, HashMap};

use crate::model::{Allocation, Deployment, Id, Node, Snapshot};
use crate::time::Time;

use super::eval::{NewEval, Origin, PendingEval, eval_id};

/// The state the servers act on.
pub struct World {
    pub snapshot: Snapshot,
    /// The raft index the next write gets: after every index the snapshot holds.
    next_index: u64,
    /// How many evaluation batches were created, for the broker's order.
    batches: u64,
    /// Allocations by ID; allocations are only ever added, so positions hold.
    by_id: HashMap<String, usize>,
    /// Each node's allocations, terminal ones included, in snapshot order:
    /// an allocation never moves, so a placement only appends, and what a
    /// node holds costs its own allocations to read, not the cluster's.
    by_node: HashMap<String, Vec<usize>>,
    /// Each deployment's allocations (`AllocsByDeployment`), in snapshot
    /// order.
    by_deployment: HashMap<Id, Vec<usize>>,
    /// The deployments written since the deployment watcher last looked.
    touched: BTreeSet<Id>,
    /// Every deployment written over the story.
    written: BTreeSet<Id>,
}

impl World {
    pub fn new(snapshot: Snapshot) -> World {
        let next_index = snapshot
            .allocs
            .iter()
            .map(|a| a.create_index)
            .chain(
                snapshot
                    .deployments
                    .iter()
                    .map(|d| d.create_index.max(d.modify_index)),
            )
            .max()
            .unwrap_or(0)
            + 1;
        // The first of duplicate IDs, as a search in order finds it.
        let mut by_id = HashMap::new();
        let mut by_node: HashMap<String, Vec<usize>> = HashMap::new();
        let mut by_deployment: HashMap<Id, Vec<usize>> = HashMap::new();
        for (i, a) in snapshot.allocs.iter().enumerate() {
            by_id.entry(a.id.to_string()).or_insert(i);
            by_node.entry(a.node_id.to_string()).or_default().push(i);
            if !a.deployment_id.is_empty() {
                by_deployment
                    .entry(Id::from(a.deployment_id.as_str()))
                    .or_default()
                    .push(i);
            }
        }
        World {
            snapshot,
            next_index,
            batches: 0,
            by_id,
            by_node,
            by_deployment,
            touched: BTreeSet::new(),
            written: BTreeSet::new(),
        }
    }

    /// A new raft index.
    pub fn index(&mut self) -> u64 {
        self.next_index += 1;
        self.next_index
    }

    pub fn node(&self, id: &str) -> Option<&Node> {
        self.snapshot.nodes.iter().find(|n| n.id == id)
    }

    pub fn node_mut(&mut self, id: &str) -> Option<&mut Node> {
        self.snapshot.nodes.iter_mut().find(|n| n.id == id)
    }

    /// `AllocsByNode`: every allocation on the node, terminal ones included,
    /// in the state store's order (by allocation ID).
    pub fn allocs_on(&self, node_id: &str) -> Vec<usize> {
        let mut on = self.on_node(node_id).to_vec();
        on.sort_by(|&a, &b| self.snapshot.allocs[a].id.cmp(&self.snapshot.allocs[b].id));
        on
    }

    /// Every allocation on the node, terminal ones included, in snapshot
    /// order.
    pub fn on_node(&self, node_id: &str) -> &[usize] {
        self.by_node.get(node_id).map_or(&[], Vec::as_slice)
    }

    pub fn alloc_index(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    /// Adds a placed allocation.
    pub fn push_alloc(&mut self, alloc: Allocation) {
        let i = self.snapshot.allocs.len();
        self.by_id.insert(alloc.id.to_string(), i);
        self.by_node
            .entry(alloc.node_id.to_string())
            .or_default()
            .push(i);
        if !alloc.deployment_id.is_empty() {
            self.by_deployment
                .entry(Id::from(alloc.deployment_id.as_str()))
                .or_default()
                .push(i);
        }
        self.snapshot.allocs.push(alloc);
    }

    /// Moves allocation `i` into deployment `id` (none when empty).
    pub fn set_deployment(&mut self, i: usize, id: &str) {
        let old = Id::from(self.snapshot.allocs[i].deployment_id.as_str());
        if old == id {
            return;
        }
        if let Some(list) = self.by_deployment.get_mut(&old) {
            list.retain(|&j| j != i);
        }
        if !id.is_empty() {
            let list = self.by_deployment.entry(Id::from(id)).or_default();
            let at = list.partition_point(|&j| j < i);
            list.insert(at, i);
        }
        self.snapshot.allocs[i].deployment_id = id.into();
    }

    /// `AllocsByDeployment`: the deployment's allocations, terminal ones
    /// included.
    pub fn in_deployment(&self, id: &Id) -> &[usize] {
        self.by_deployment.get(id).map_or(&[], Vec::as_slice)
    }

    pub fn deployment(&self, id: &Id) -> Option<&Deployment> {
        self.snapshot.deployments.iter().find(|d| d.id == *id)
    }

    /// The deployment `id`, to write: the watcher looks at it again.
    pub fn deployment_mut(&mut self, id: &Id) -> Option<&mut Deployment> {
        let d = self.snapshot.deployments.iter_mut().find(|d| d.id == *id)?;
        self.touched.insert(id.clone());
        self.written.insert(id.clone());
        Some(d)
    }

    /// Every deployment written over the story, in ID order.
    pub fn written_deployments(&self) -> impl Iterator<Item = &Deployment> {
        self.written.iter().filter_map(|id| self.deployment(id))
    }

    /// The deployments written since the last call.
    pub fn take_touched(&mut self) -> BTreeSet<Id> {
        std::mem::take(&mut self.touched)
    }

    pub fn alloc(&self, i: usize) -> &Allocation {
        &self.snapshot.allocs[i]
    }

    /// The evaluations of one server write, numbered in the order they were
    /// made, due at `at` (or their `WaitUntil`); those without an ID get one.
    pub fn enqueue(&mut self, made: Vec<NewEval>, at: Time, origin: Origin) -> Vec<PendingEval> {
        if made.is_empty() {
            return Vec::new();
        }
        self.batches += 1;
        let batch = self.batches;
        made.into_iter()
            .enumerate()
            .map(|(i, mut e)| {
                if e.id.is_empty() {
                    let salt = format!("{batch}/{i}");
                    e.id = eval_id(at, &e.triggered_by, &e.namespace, &e.job_id, &salt);
                }
                e.pending(at, batch, i, origin)
            })
            .collect()
    }
}
