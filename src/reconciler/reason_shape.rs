//! The kinds of sentence a bucket reason makes: what each names besides
//! the node, shared by the rules that read the same facts.

use crate::version::Setting;

/// What a rule's reason depends on, so that callers describing many
/// allocations can share the reasons that repeat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReasonKind {
    /// The node alone: its description ([`ReasonNode::describe`](super::ReasonNode::describe)).
    Node,
    /// The node and the allocation's client and desired statuses.
    Statuses,
    /// The allocation's own times as well ([`ReasonTimes`](super::ReasonTimes)).
    Times,
}

/// What a bucket reason names besides the node: one shape per kind of
/// sentence, so that rules that read the same facts say them in the same
/// words. Each rule's row in `taint_rule.rs` names its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReasonShape {
    /// The node alone.
    Node,
    /// The desired and client statuses of a terminal allocation.
    Terminal,
    /// A migrate transition, and the node.
    Migrate,
    /// A terminal canary's statuses and its migrate transition.
    TerminalCanary,
    /// The disconnect expiry, passed.
    Expired,
    /// A reconnect after the expiry.
    ReconnectedLate,
    /// The node and the client status.
    NodeClient,
    /// The node, the client status and the setting that keeps it unknown.
    NodeClientKept,
    /// A running allocation's node.
    NodeRunning,
    /// The node, the client status, and the group setting it lacks.
    NotWaited(Setting),
    /// The node and the reconnect.
    NodeReconnect,
    /// An unknown client and its expiry.
    ClientUnknown,
    /// A failed client's desired status and its reconnect.
    FailedReconnect,
}

impl ReasonShape {
    /// What a reason of this shape depends on.
    pub fn kind(self) -> ReasonKind {
        match self {
            ReasonShape::Node => ReasonKind::Node,
            ReasonShape::Expired
            | ReasonShape::ReconnectedLate
            | ReasonShape::NodeReconnect
            | ReasonShape::ClientUnknown
            | ReasonShape::FailedReconnect => ReasonKind::Times,
            _ => ReasonKind::Statuses,
        }
    }
}
