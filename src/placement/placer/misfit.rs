//! Why an in-place update no longer fits its node.

use crate::fit::Shortfall;

/// Why an in-place update no longer fits its node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Misfit {
    /// The node is gone from the snapshot, or no longer ready.
    NodeGone,
    /// A feasibility check filters the node, in Nomad's words.
    Filtered(String),
    /// The node has no room.
    Exhausted(Shortfall),
}

impl Misfit {
    /// The destructive update's reason, naming the node.
    pub fn describe(&self, node_id: &str) -> String {
        match self {
            Misfit::NodeGone => format!("node {node_id} no longer exists"),
            Misfit::Filtered(why) => {
                format!("the updated group no longer passes node {node_id}'s checks: {why}")
            }
            Misfit::Exhausted(short) => {
                format!("the updated group no longer fits on node {node_id}: it {short}")
            }
        }
    }
}
