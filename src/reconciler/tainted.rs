//! Tainted nodes and `filterByTainted`: the six buckets.

use std::collections::HashMap;

use serde::Serialize;

use super::{AllocSet, Rules};
use crate::model::{Allocation, Node, node_status, status};
use crate::time::Time;

/// Nodes whose allocations need attention, by ID; `None` is a node the
/// snapshot no longer has (garbage-collected).
pub type TaintedNodes<'a> = HashMap<&'a str, Option<&'a Node>>;

/// `taintedNodes`: the nodes of `allocs` that are missing, down, draining (or
/// carry a drain strategy) or disconnected.
pub fn tainted_nodes<'a>(
    allocs: impl IntoIterator<Item = &'a Allocation>,
    node: impl Fn(&str) -> Option<&'a Node>,
) -> TaintedNodes<'a> {
    // Each node is looked up once; `None` marks an untainted one.
    let mut seen: HashMap<&'a str, Option<Option<&'a Node>>> = HashMap::new();
    for alloc in allocs {
        seen.entry(&alloc.node_id)
            .or_insert_with(|| match node(&alloc.node_id) {
                None => Some(None),
                Some(n)
                    if n.should_drain()
                        || n.has_drain_strategy()
                        || n.status == node_status::DISCONNECTED =>
                {
                    Some(Some(n))
                }
                Some(_) => None,
            });
    }
    seen.into_iter()
        .filter_map(|(id, tainted)| Some((id, tainted?)))
        .collect()
}

/// The six sets of `filterByTainted`, in the order of [`TaintedSets`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Bucket {
    Untainted,
    Migrate,
    Lost,
    Disconnecting,
    Reconnecting,
    Ignore,
}

impl Bucket {
    pub const ALL: [Bucket; 6] = [
        Bucket::Untainted,
        Bucket::Migrate,
        Bucket::Lost,
        Bucket::Disconnecting,
        Bucket::Reconnecting,
        Bucket::Ignore,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Bucket::Untainted => "untainted",
            Bucket::Migrate => "migrate",
            Bucket::Lost => "lost",
            Bucket::Disconnecting => "disconnecting",
            Bucket::Reconnecting => "reconnecting",
            Bucket::Ignore => "ignore",
        }
    }
}

/// The result of `filterByTainted`, one set per bucket.
#[derive(Clone, Debug, Default)]
pub struct TaintedSets<'a> {
    pub untainted: AllocSet<'a>,
    pub migrate: AllocSet<'a>,
    pub lost: AllocSet<'a>,
    pub disconnecting: AllocSet<'a>,
    pub reconnecting: AllocSet<'a>,
    pub ignore: AllocSet<'a>,
}

impl<'a> TaintedSets<'a> {
    /// The set of bucket `b`.
    pub fn get(&self, b: Bucket) -> &AllocSet<'a> {
        match b {
            Bucket::Untainted => &self.untainted,
            Bucket::Migrate => &self.migrate,
            Bucket::Lost => &self.lost,
            Bucket::Disconnecting => &self.disconnecting,
            Bucket::Reconnecting => &self.reconnecting,
            Bucket::Ignore => &self.ignore,
        }
    }

    /// The bucket holding the allocation `id`, if any.
    pub fn bucket_of(&self, id: &str) -> Option<Bucket> {
        Bucket::ALL.into_iter().find(|&b| self.get(b).contains(id))
    }
}

/// What `filterByTainted` needs besides the allocations.
#[derive(Clone, Copy)]
pub struct TaintContext<'t, 'a> {
    pub tainted: &'t TaintedNodes<'a>,
    pub rules: &'t Rules,
    pub now: Time,
}

impl<'a> AllocSet<'a> {
    /// `filterByTainted`.
    pub fn filter_by_tainted(&self, ctx: TaintContext<'_, 'a>) -> TaintedSets<'a> {
        let [
            untainted,
            migrate,
            lost,
            disconnecting,
            reconnecting,
            ignore,
        ] = self.split(|a| Some(classify(a, ctx) as usize));
        TaintedSets {
            untainted,
            migrate,
            lost,
            disconnecting,
            reconnecting,
            ignore,
        }
    }
}

/// What an allocation's bucket reason depends on, so that callers describing
/// many allocations can share the reasons that repeat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReasonKind {
    /// The node alone: its description ([`node_desc`]).
    Node,
    /// The node and the allocation's client and desired statuses.
    Statuses,
    /// The allocation's own times as well (unknown since, reconnected at).
    Times,
}

/// Which check of `filterByTainted` decided an allocation's bucket, in the
/// order the checks run; explanations name the rule, reports the bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TaintRule {
    Terminal,
    MigrateTransition,
    DisconnectExpired,
    ClientUnknown,
    HealthyNodeReconnectedAfterExpiry,
    HealthyNodeReconnected,
    HealthyNode,
    DisconnectedNodeRunning,
    DisconnectedNodePending,
    ReadyNodeReconnectedAfterExpiry,
    ReadyNodeReconnected,
    NodeGarbageCollected,
    NodeDown,
    TaintedNodeKept,
}

impl TaintRule {
    /// Every rule, in the order `classify` tries them.
    pub const ALL: [TaintRule; 14] = [
        TaintRule::Terminal,
        TaintRule::MigrateTransition,
        TaintRule::DisconnectExpired,
        TaintRule::ClientUnknown,
        TaintRule::HealthyNodeReconnectedAfterExpiry,
        TaintRule::HealthyNodeReconnected,
        TaintRule::HealthyNode,
        TaintRule::DisconnectedNodeRunning,
        TaintRule::DisconnectedNodePending,
        TaintRule::ReadyNodeReconnectedAfterExpiry,
        TaintRule::ReadyNodeReconnected,
        TaintRule::NodeGarbageCollected,
        TaintRule::NodeDown,
        TaintRule::TaintedNodeKept,
    ];

    pub fn bucket(self) -> Bucket {
        match self {
            TaintRule::Terminal | TaintRule::HealthyNode | TaintRule::TaintedNodeKept => {
                Bucket::Untainted
            }
            TaintRule::MigrateTransition => Bucket::Migrate,
            TaintRule::DisconnectExpired
            | TaintRule::HealthyNodeReconnectedAfterExpiry
            | TaintRule::DisconnectedNodePending
            | TaintRule::ReadyNodeReconnectedAfterExpiry
            | TaintRule::NodeGarbageCollected
            | TaintRule::NodeDown => Bucket::Lost,
            TaintRule::ClientUnknown => Bucket::Ignore,
            TaintRule::HealthyNodeReconnected | TaintRule::ReadyNodeReconnected => {
                Bucket::Reconnecting
            }
            TaintRule::DisconnectedNodeRunning => Bucket::Disconnecting,
        }
    }

    /// What [`reason`] says for this rule depends on.
    pub fn reason_kind(self) -> ReasonKind {
        match self {
            TaintRule::HealthyNode | TaintRule::TaintedNodeKept => ReasonKind::Node,
            TaintRule::DisconnectExpired
            | TaintRule::ClientUnknown
            | TaintRule::HealthyNodeReconnectedAfterExpiry
            | TaintRule::HealthyNodeReconnected
            | TaintRule::ReadyNodeReconnectedAfterExpiry
            | TaintRule::ReadyNodeReconnected => ReasonKind::Times,
            _ => ReasonKind::Statuses,
        }
    }

    /// Its position in `ALL`, counted from 1.
    pub fn number(self) -> usize {
        TaintRule::ALL.iter().position(|r| *r == self).unwrap_or(0) + 1
    }

    /// The rule as a sentence.
    pub fn describe(self) -> &'static str {
        match self {
            TaintRule::Terminal => "a terminal allocation is untainted",
            TaintRule::MigrateTransition => "a desired migrate transition means migrate",
            TaintRule::DisconnectExpired => {
                "unknown past its max_client_disconnect expiry means lost"
            }
            TaintRule::ClientUnknown => "an unknown allocation not yet expired is ignored",
            TaintRule::HealthyNodeReconnectedAfterExpiry => {
                "on an untainted node, reconnected after its expiry means lost"
            }
            TaintRule::HealthyNodeReconnected => {
                "on an untainted node, reconnected in time means reconnecting"
            }
            TaintRule::HealthyNode => "on an untainted node, untainted",
            TaintRule::DisconnectedNodeRunning => {
                "running on a disconnected node means disconnecting"
            }
            TaintRule::DisconnectedNodePending => "pending on a disconnected node means lost",
            TaintRule::ReadyNodeReconnectedAfterExpiry => {
                "on a tainted ready node, reconnected after its expiry means lost"
            }
            TaintRule::ReadyNodeReconnected => {
                "on a tainted ready node, reconnected in time means reconnecting"
            }
            TaintRule::NodeGarbageCollected => "on a garbage-collected node, lost",
            TaintRule::NodeDown => "on a down node, lost",
            TaintRule::TaintedNodeKept => {
                "on a tainted node that is not down (draining, disconnected), untainted"
            }
        }
    }
}

/// The bucket `filterByTainted` puts one allocation in.
pub fn classify(alloc: &Allocation, ctx: TaintContext<'_, '_>) -> Bucket {
    classify_rule(alloc, ctx).bucket()
}

/// The rule of `filterByTainted` that decides one allocation's bucket.
pub fn classify_rule(alloc: &Allocation, ctx: TaintContext<'_, '_>) -> TaintRule {
    classify_rule_with(alloc, ctx, || {
        ctx.tainted.get(alloc.node_id.as_str()).copied()
    })
}

/// [`classify_rule`], with `tainted` giving the allocation's node's entry
/// in the tainted map (asked only if needed), for callers that know it.
pub fn classify_rule_with<'n>(
    alloc: &Allocation,
    ctx: TaintContext<'_, '_>,
    tainted: impl FnOnce() -> Option<Option<&'n Node>>,
) -> TaintRule {
    if alloc.terminal_status() {
        return TaintRule::Terminal;
    }
    if alloc.desired_transition.should_migrate() {
        return TaintRule::MigrateTransition;
    }
    let disco = ctx.rules.supports_disconnected_clients();
    if disco && alloc.expired(ctx.now) {
        return TaintRule::DisconnectExpired;
    }
    if disco && alloc.client_status == status::UNKNOWN {
        return TaintRule::ClientUnknown;
    }
    let Some(tainted) = tainted() else {
        return match alloc.reconnected() {
            (true, true) => TaintRule::HealthyNodeReconnectedAfterExpiry,
            (true, false) => TaintRule::HealthyNodeReconnected,
            _ => TaintRule::HealthyNode,
        };
    };
    if let Some(node) = tainted {
        match node.status.as_str() {
            node_status::DISCONNECTED => {
                if disco && alloc.client_status == status::RUNNING {
                    return TaintRule::DisconnectedNodeRunning;
                }
                if alloc.client_status == status::PENDING {
                    return TaintRule::DisconnectedNodePending;
                }
            }
            node_status::READY => match alloc.reconnected() {
                (true, true) => return TaintRule::ReadyNodeReconnectedAfterExpiry,
                (true, false) => return TaintRule::ReadyNodeReconnected,
                _ => {}
            },
            _ => {}
        }
    }
    match tainted {
        None => TaintRule::NodeGarbageCollected,
        Some(node) if node.terminal_status() => TaintRule::NodeDown,
        Some(_) => TaintRule::TaintedNodeKept,
    }
}

/// How bucket reasons describe a node (`None`: garbage-collected).
pub fn node_desc(node: Option<&Node>) -> String {
    match node {
        None => "node garbage-collected".to_string(),
        Some(n) if n.has_drain_strategy() => format!("node {} and draining", n.status),
        Some(n) => format!("node {}", n.status),
    }
}

/// One line naming the facts that put `alloc` in its bucket.
pub fn reason(alloc: &Allocation, ctx: TaintContext<'_, '_>, node: Option<&Node>) -> String {
    let rule = classify_rule(alloc, ctx);
    reason_beyond_node(alloc, rule, node).unwrap_or_else(|| node_desc(node))
}

/// [`reason`] for the allocation's `rule`, or `None` where it is the node's
/// description alone ([`ReasonKind::Node`]).
pub fn reason_beyond_node(
    alloc: &Allocation,
    rule: TaintRule,
    node: Option<&Node>,
) -> Option<String> {
    let node_desc = || node_desc(node);
    let unknown = || match alloc.disconnect_expiry() {
        Some(expiry) => format!(
            "unknown since {}, max_client_disconnect expires {expiry}",
            alloc.last_unknown()
        ),
        None if alloc.last_unknown().is_zero() => "no unknown transition recorded".to_string(),
        None => format!(
            "unknown since {}, no max_client_disconnect",
            alloc.last_unknown()
        ),
    };
    let reconnect = || {
        alloc
            .last_reconnect()
            .map_or(String::new(), |t| format!("client reconnected {t}"))
    };
    Some(match rule {
        TaintRule::HealthyNode | TaintRule::TaintedNodeKept => return None,
        TaintRule::Terminal => format!(
            "terminal (desired {}, client {})",
            alloc.desired_status, alloc.client_status
        ),
        TaintRule::MigrateTransition => format!("migrate transition set; {}", node_desc()),
        TaintRule::DisconnectExpired => format!("{}: expired", unknown()),
        TaintRule::HealthyNodeReconnectedAfterExpiry
        | TaintRule::ReadyNodeReconnectedAfterExpiry => {
            format!("{}, after {}", reconnect(), unknown())
        }
        TaintRule::DisconnectedNodePending
        | TaintRule::NodeGarbageCollected
        | TaintRule::NodeDown => format!("{}; client {}", node_desc(), alloc.client_status),
        TaintRule::DisconnectedNodeRunning => format!("{}; client running", node_desc()),
        TaintRule::HealthyNodeReconnected | TaintRule::ReadyNodeReconnected => {
            format!("{}; {}", node_desc(), reconnect())
        }
        TaintRule::ClientUnknown => format!("client unknown; {}", unknown()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `reason_beyond_node` leaves the reason to the node exactly for the
    /// rules whose reason is the node's.
    #[test]
    fn node_reasons_are_the_node_kind() {
        let alloc = Allocation::default();
        for rule in TaintRule::ALL {
            let is_node = reason_beyond_node(&alloc, rule, None).is_none();
            assert_eq!(is_node, rule.reason_kind() == ReasonKind::Node, "{rule:?}");
        }
    }
}
