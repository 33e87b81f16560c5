//! The order in which each release tries the checks of `filterByTainted`:
//! the lists of checks by what they look at, and which lists come first.

use super::taint_rule::TaintRule;
use crate::version::{Switch, Switches};

/// Every check of 1.11.2 on, in its order: no check asks whether disconnects
/// are supported, a disconnected node is checked after the allocation's own
/// state and before a migrate transition, and the reconnect checks hold on
/// untainted and ready nodes alike (v1.11.2 scheduler/reconciler/filters.go:111).
const REWRITTEN: &[TaintRule] = &[
    TaintRule::FailedReconnect,
    TaintRule::DrainedBatchKept,
    TaintRule::ServerTerminalIgnored,
    TaintRule::TerminalCanaryMigrating,
    TaintRule::Terminal,
    TaintRule::DisconnectExpiring,
    TaintRule::FailedReconnectStopped,
    TaintRule::DisconnectedNodeUnknown,
    TaintRule::DisconnectedNodePending,
    TaintRule::DisconnectedNodeWithoutLostAfter,
    TaintRule::DisconnectedNode,
    TaintRule::MigrateTransition,
    TaintRule::HealthyNodeReconnected,
    TaintRule::ReadyNodeReconnected,
    TaintRule::HealthyNode,
    TaintRule::NodeGarbageCollected,
    TaintRule::NodeDownUnknownKept,
    TaintRule::NodeDownRunningKept,
    TaintRule::NodeDown,
    TaintRule::TaintedNodeKept,
];

/// The checks of a reconnecting failed allocation.
const FAILED: &[TaintRule] = &[TaintRule::FailedReconnect];

/// The checks of the allocation alone.
const ALLOC: &[TaintRule] = &[
    TaintRule::TerminalIgnored,
    TaintRule::ServerTerminalIgnored,
    TaintRule::TerminalCanaryMigrating,
    TaintRule::Terminal,
    TaintRule::MigrateTransition,
    TaintRule::DisconnectExpired,
    TaintRule::DisconnectExpiring,
    TaintRule::ClientUnknown,
    TaintRule::ClientUnknownCounted,
    TaintRule::FailedReconnectStopped,
];

/// The checks on an untainted node.
const HEALTHY_NODE: &[TaintRule] = &[
    TaintRule::HealthyNodeReconnectedAfterExpiry,
    TaintRule::HealthyNodeReconnectedExpiring,
    TaintRule::HealthyNodeReconnected,
    TaintRule::HealthyNode,
];

/// The checks on a disconnected node.
const DISCONNECTED_NODE: &[TaintRule] = &[
    TaintRule::DisconnectedNodeRunning,
    TaintRule::DisconnectedNodePending,
    TaintRule::DisconnectedNodeRunningKept,
    TaintRule::DisconnectedNodeKept,
    TaintRule::DisconnectedNodeUnsupported,
];

/// The reconnect checks on a ready node that is tainted (draining).
const READY_NODE: &[TaintRule] = &[
    TaintRule::ReadyNodeReconnectedAfterExpiry,
    TaintRule::ReadyNodeReconnectedExpiring,
    TaintRule::ReadyNodeReconnected,
];

/// The checks on any other tainted node.
const TAINTED_NODE: &[TaintRule] = &[
    TaintRule::NodeGarbageCollected,
    TaintRule::NodeDownUnknownKept,
    TaintRule::NodeDownRunningKept,
    TaintRule::NodeDown,
    TaintRule::TaintedNodeKept,
];

impl TaintRule {
    /// The rules of the release with `switches`, in the order it tries them:
    /// the seed checks tainted nodes after the allocation's own state; from A-3
    /// the disconnected and tainted ready nodes come first; from D-3 the
    /// ready-node reconnect checks join the untainted-node ones; from G-1
    /// the rewritten list replaces them all.
    pub fn order(switches: Switches) -> Vec<TaintRule> {
        let groups: &[&[TaintRule]] = if switches.has(Switch::G1) {
            &[REWRITTEN]
        } else if !switches.has(Switch::A3) {
            &[
                FAILED,
                ALLOC,
                HEALTHY_NODE,
                DISCONNECTED_NODE,
                READY_NODE,
                TAINTED_NODE,
            ]
        } else if switches.has(Switch::D3) {
            &[
                FAILED,
                DISCONNECTED_NODE,
                ALLOC,
                HEALTHY_NODE,
                READY_NODE,
                TAINTED_NODE,
            ]
        } else {
            &[
                FAILED,
                DISCONNECTED_NODE,
                READY_NODE,
                ALLOC,
                HEALTHY_NODE,
                TAINTED_NODE,
            ]
        };
        groups
            .iter()
            .flat_map(|g| g.iter().copied())
            .filter(|r| r.in_release(&switches))
            .collect()
    }
}
