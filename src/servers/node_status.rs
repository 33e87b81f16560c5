//! `Node.UpdateStatus` (nomad/node_endpoint.go): a node's new status, and
//! whether the change creates node-update evaluations
//! (`nodeStatusTransitionRequiresEval`, v1.3.0 node_endpoint.go:574-580,
//! the same at every tag; `ShouldDrainNode` for `down`).

use serde::Serialize;

use crate::model::node_status::{DISCONNECTED, DOWN, INIT, READY};
use crate::version::Switch;

use super::eval::NewEval;
use super::node_evals;
use super::rules::ServerRules;
use super::world::World;

/// What one status update did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatusChange {
    pub from: String,
    pub to: String,
    #[serde(skip)]
    pub evals: Vec<NewEval>,
}

/// The node `node_id` reports (or a server sets) `requested`.
/// `allocs_updated`: its client has updated its allocations since it last
/// missed a heartbeat (`LastAllocUpdateIndex > LastMissedHeartbeatIndex`).
pub fn update(
    world: &mut World,
    node_id: &str,
    requested: &str,
    allocs_updated: bool,
    rules: &ServerRules,
) -> StatusChange {
    let node = world.node(node_id).expect("resolved node").clone();
    let from = node.status.to_string();
    let mut to = requested.to_string();
    if rules.has(Switch::ReconnectThroughInit) && requested == READY {
        // #15808 (v1.3.10 node_endpoint.go:500-519).
        if from == INIT && !allocs_updated && has_live_allocs(world, node_id) {
            to = INIT.to_string();
        }
        if from == DISCONNECTED {
            to = INIT.to_string();
        }
    }
    if from != to {
        world.node_mut(node_id).expect("resolved node").status = to.as_str().into();
    }
    let evals = if to == DOWN || requires_eval(&to, &from) {
        node_evals::create(world, &node, rules)
    } else {
        Vec::new()
    };
    StatusChange { from, to, evals }
}

/// `nodeStatusTransitionRequiresEval`.
pub fn requires_eval(new: &str, old: &str) -> bool {
    let init_to_ready = old == INIT && new == READY;
    let terminal_to_ready = old == DOWN && new == READY;
    let disconnected_to_other = old == DISCONNECTED && new != DISCONNECTED;
    let other_to_disconnected = old != DISCONNECTED && new == DISCONNECTED;
    init_to_ready || terminal_to_ready || disconnected_to_other || other_to_disconnected
}

/// `AllocsByNodeTerminal(node, false)` is not empty.
fn has_live_allocs(world: &World, node_id: &str) -> bool {
    world
        .allocs_on(node_id)
        .into_iter()
        .any(|i| !world.alloc(i).terminal_status())
}
