//! Strings that many report entries repeat, made once per replay and shared:
//! a million allocations on a thousand nodes need a thousand copies of each
//! node's ID, not a million.

use std::collections::HashMap;
use std::sync::Arc;

use foldhash::fast::FixedState;

use crate::model::NodesById;
use crate::model::{Allocation, Name, Node};
use crate::reconciler::{ReasonNode, TaintRule};

/// Shared strings, by the snapshot string each one copies. Looked up once
/// or twice per allocation, so with a fast hash; none is iterated.
#[derive(Default)]
pub(super) struct Texts<'s> {
    words: HashMap<&'s str, Arc<str>, FixedState>,
    /// The last words given, looked at before hashing: statuses and task
    /// groups take few values, so they are nearly always here.
    recent: [Option<Arc<str>>; 4],
    nodes: HashMap<&'s str, NodeTexts<'s>, FixedState>,
    /// Bucket reasons without times, by rule, node, client and desired status.
    reasons: HashMap<(TaintRule, &'s str, &'s str, &'s str), Name, FixedState>,
}

/// A node as bucket entries show it.
pub(super) struct NodeTexts<'s> {
    /// `None`: garbage-collected.
    pub node: Option<&'s Node>,
    /// The allocations' own name of the node, shared.
    pub id: Name,
    pub status: Option<Name>,
    /// The node as bucket reasons describe it.
    pub desc: Name,
}

impl<'s> Texts<'s> {
    pub fn word(&mut self, s: &'s str) -> Arc<str> {
        if let Some(w) = self.recent.iter().flatten().find(|w| ***w == *s) {
            return Arc::clone(w);
        }
        let w = Arc::clone(self.words.entry(s).or_insert_with(|| Arc::from(s)));
        self.recent.rotate_right(1);
        self.recent[0] = Some(Arc::clone(&w));
        w
    }

    /// The reason of `rule` (one without times) for `alloc`, made by `make`
    /// for the first allocation of its node and statuses.
    pub fn reason(
        &mut self,
        rule: TaintRule,
        alloc: &'s Allocation,
        make: impl FnOnce() -> String,
    ) -> Name {
        let key = (
            rule,
            &*alloc.node_id,
            alloc.client_status.as_str(),
            alloc.desired_status.as_str(),
        );
        self.reasons
            .entry(key)
            .or_insert_with(|| Name::from(make()))
            .clone()
    }

    /// The node `id`, as `nodes` has it.
    pub fn node(&mut self, id: &'s Name, nodes: &NodesById<'s>) -> &NodeTexts<'s> {
        self.nodes.entry(id).or_insert_with(|| {
            let node = nodes.get(id.as_str()).copied();
            NodeTexts {
                node,
                id: id.clone(),
                status: node.map(|n| n.status.clone()),
                desc: Name::from(ReasonNode::of(node).describe()),
            }
        })
    }
}
