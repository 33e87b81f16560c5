//! The nodes of a snapshot and what runs on each, indexed once per replay
//! so that no placement scans the allocations.

use std::collections::HashMap;

use crate::feasibility::{CsiState, VolumeRules, Volumes};
use crate::fit::{Capacity, FitRules};
use crate::model::resources::{AllocUsage, NodeSupply};
use crate::model::{Allocation, Node, Snapshot};

/// An allocation that holds resources on its node.
#[derive(Clone, Debug)]
pub struct Running<'a> {
    pub alloc: &'a Allocation,
    pub usage: AllocUsage,
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
    pub running: Vec<Vec<Running<'a>>>,
    /// Whether the node reports any CPU or memory. Every Nomad client
    /// does; a snapshot written by hand may not, and fit is then not
    /// checked on the node.
    pub known: Vec<bool>,
    index: HashMap<&'a str, usize>,
    /// The CSI volumes and their claims, when the dump has them.
    csi: Option<CsiState<'a>>,
}

impl<'a> Cluster<'a> {
    pub fn new(snapshot: &'a Snapshot, rules: &FitRules) -> Cluster<'a> {
        let mut nodes: Vec<&Node> = snapshot.nodes.iter().collect();
        nodes.sort_by(|a, b| a.id.cmp(&b.id));
        nodes.dedup_by(|a, b| a.id == b.id);
        let index: HashMap<&str, usize> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.id.as_str(), i))
            .collect();
        let supplies: Vec<NodeSupply> = nodes.iter().map(|n| n.supply()).collect();
        let capacities: Vec<Capacity> = supplies.iter().map(|s| Capacity::of(s, rules)).collect();
        let known = capacities
            .iter()
            .map(|c| c.total.cpu_shares > 0 || c.total.memory_mb > 0)
            .collect();
        let mut running: Vec<Vec<Running<'a>>> = vec![Vec::new(); nodes.len()];
        for alloc in &snapshot.allocs {
            let Some(&i) = index.get(alloc.node_id.as_str()) else {
                continue;
            };
            let usage = alloc.usage();
            if rules.counts(&usage.client_status, &usage.desired_status) {
                running[i].push(Running { alloc, usage });
            }
        }
        for list in &mut running {
            list.sort_by(|a, b| a.alloc.id.cmp(&b.alloc.id));
        }
        Cluster {
            nodes,
            supplies,
            capacities,
            running,
            known,
            index,
            csi: CsiState::new(snapshot),
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

    /// The index of the node with this ID.
    pub fn position(&self, node_id: &str) -> Option<usize> {
        self.index.get(node_id).copied()
    }
}
