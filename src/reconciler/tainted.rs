//! Tainted nodes and `filterByTainted`: the six buckets.

use std::collections::HashMap;

use super::{AllocSet, Bucket, BucketReason, ByBucket, Rules};
use crate::model::{Allocation, Node, Reconnection, node_status, status};
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

/// The result of `filterByTainted`, one set per bucket.
pub type TaintedSets<'a> = ByBucket<AllocSet<'a>>;

impl TaintedSets<'_> {
    /// The bucket holding the allocation `id`, if any.
    pub fn bucket_of(&self, id: &str) -> Option<Bucket> {
        self.iter()
            .find(|(_, set)| set.contains(id))
            .map(|(b, _)| b)
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
        ByBucket::from(self.split(|a| Some(classify(a, ctx) as usize)))
    }
}

/// Which check of `filterByTainted` decided an allocation's bucket;
/// explanations name the rule, reports the bucket. The checks run in the
/// order [`TaintRule::order`] gives for the replayed release.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TaintRule {
    FailedReconnect,
    Terminal,
    MigrateTransition,
    DisconnectExpired,
    ClientUnknown,
    FailedReconnectStopped,
    HealthyNodeReconnectedAfterExpiry,
    HealthyNodeReconnected,
    HealthyNode,
    DisconnectedNodeRunning,
    DisconnectedNodePending,
    DisconnectedNodeUnsupported,
    ReadyNodeReconnectedAfterExpiry,
    ReadyNodeReconnected,
    NodeGarbageCollected,
    NodeDown,
    TaintedNodeKept,
}

/// The seed's order: tainted-node checks after the healthy-node ones.
const SEED_ORDER: [TaintRule; 17] = [
    TaintRule::FailedReconnect,
    TaintRule::Terminal,
    TaintRule::MigrateTransition,
    TaintRule::DisconnectExpired,
    TaintRule::ClientUnknown,
    TaintRule::FailedReconnectStopped,
    TaintRule::HealthyNodeReconnectedAfterExpiry,
    TaintRule::HealthyNodeReconnected,
    TaintRule::HealthyNode,
    TaintRule::DisconnectedNodeRunning,
    TaintRule::DisconnectedNodePending,
    TaintRule::DisconnectedNodeUnsupported,
    TaintRule::ReadyNodeReconnectedAfterExpiry,
    TaintRule::ReadyNodeReconnected,
    TaintRule::NodeGarbageCollected,
    TaintRule::NodeDown,
    TaintRule::TaintedNodeKept,
];

/// From 1.3.0: disconnected and ready tainted nodes are checked first.
const NODE_FIRST_ORDER: [TaintRule; 17] = [
    TaintRule::FailedReconnect,
    TaintRule::DisconnectedNodeRunning,
    TaintRule::DisconnectedNodePending,
    TaintRule::DisconnectedNodeUnsupported,
    TaintRule::ReadyNodeReconnectedAfterExpiry,
    TaintRule::ReadyNodeReconnected,
    TaintRule::Terminal,
    TaintRule::MigrateTransition,
    TaintRule::DisconnectExpired,
    TaintRule::ClientUnknown,
    TaintRule::FailedReconnectStopped,
    TaintRule::HealthyNodeReconnectedAfterExpiry,
    TaintRule::HealthyNodeReconnected,
    TaintRule::HealthyNode,
    TaintRule::NodeGarbageCollected,
    TaintRule::NodeDown,
    TaintRule::TaintedNodeKept,
];

impl TaintRule {
    /// Every rule any release has.
    pub const ALL: [TaintRule; 17] = SEED_ORDER;

    /// The rules `rules`' release has, in the order it tries them.
    pub fn order(rules: &Rules) -> Vec<TaintRule> {
        let order = if rules.checks_tainted_node_first() {
            NODE_FIRST_ORDER
        } else {
            SEED_ORDER
        };
        order.into_iter().filter(|r| r.exists(rules)).collect()
    }

    /// Whether the release of `rules` has this check at all.
    fn exists(self, rules: &Rules) -> bool {
        match self {
            TaintRule::FailedReconnect | TaintRule::FailedReconnectStopped => {
                rules.replaces_failed_reconnects()
            }
            TaintRule::DisconnectedNodeUnsupported => rules.disconnect_support_per_group(),
            _ => true,
        }
    }

    pub fn bucket(self) -> Bucket {
        match self {
            TaintRule::Terminal | TaintRule::HealthyNode | TaintRule::TaintedNodeKept => {
                Bucket::Untainted
            }
            TaintRule::MigrateTransition => Bucket::Migrate,
            TaintRule::DisconnectExpired
            | TaintRule::HealthyNodeReconnectedAfterExpiry
            | TaintRule::DisconnectedNodePending
            | TaintRule::DisconnectedNodeUnsupported
            | TaintRule::ReadyNodeReconnectedAfterExpiry
            | TaintRule::NodeGarbageCollected
            | TaintRule::NodeDown => Bucket::Lost,
            TaintRule::ClientUnknown | TaintRule::FailedReconnectStopped => Bucket::Ignore,
            TaintRule::FailedReconnect
            | TaintRule::HealthyNodeReconnected
            | TaintRule::ReadyNodeReconnected => Bucket::Reconnecting,
            TaintRule::DisconnectedNodeRunning => Bucket::Disconnecting,
        }
    }

    /// Its position in [`TaintRule::order`], counted from 1.
    pub fn number(self, rules: &Rules) -> usize {
        TaintRule::order(rules)
            .iter()
            .position(|r| *r == self)
            .unwrap_or(0)
            + 1
    }

    /// The rule as a sentence, as the release of `rules` states it.
    pub fn describe(self, rules: &Rules) -> &'static str {
        let ga = rules.replaces_failed_reconnects();
        match self {
            TaintRule::FailedReconnect => {
                "a failed allocation that reconnected, desired to run, is reconnecting (a failed \
                 reconnect)"
            }
            TaintRule::Terminal if ga => {
                "a terminal allocation that has not reconnected is untainted"
            }
            TaintRule::Terminal => "a terminal allocation is untainted",
            TaintRule::MigrateTransition => "a desired migrate transition means migrate",
            TaintRule::DisconnectExpired => {
                "unknown past its max_client_disconnect expiry means lost"
            }
            TaintRule::ClientUnknown if ga => {
                "an unknown allocation desired to run, not yet expired, is ignored"
            }
            TaintRule::ClientUnknown => "an unknown allocation not yet expired is ignored",
            TaintRule::FailedReconnectStopped => {
                "a failed allocation that reconnected, desired to stop, is ignored"
            }
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
            TaintRule::DisconnectedNodeUnsupported => {
                "on a disconnected node, a group without max_client_disconnect is lost"
            }
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

/// Whether disconnect handling applies to `alloc`
/// (`SupportsDisconnectedClients`): the servers' flag, and from 1.3.0 its
/// group's `max_client_disconnect`.
pub fn supports_disconnect(alloc: &Allocation, rules: &Rules) -> bool {
    rules.supports_disconnected_clients()
        && (!rules.disconnect_support_per_group() || alloc.group_allows_disconnect())
}

/// Whether `alloc` reconnected, as the replayed release tells.
pub fn reconnection(alloc: &Allocation, ctx: TaintContext<'_, '_>) -> Reconnection {
    if ctx.rules.replaces_failed_reconnects()
        && !(supports_disconnect(alloc, ctx.rules)
            && matches!(
                alloc.client_status.as_str(),
                status::UNKNOWN | status::RUNNING | status::FAILED
            ))
    {
        return Reconnection::None;
    }
    if !ctx.rules.reconnect_from_alloc_states() {
        return alloc.reconnected();
    }
    match (alloc.needs_to_reconnect(), alloc.expired(ctx.now)) {
        (false, _) => Reconnection::None,
        (true, true) => Reconnection::AfterExpiry,
        (true, false) => Reconnection::InTime,
    }
}

/// [`classify_rule`], with `tainted` giving the allocation's node's entry
/// in the tainted map (asked only if needed), for callers that know it.
pub fn classify_rule_with<'n>(
    alloc: &Allocation,
    ctx: TaintContext<'_, '_>,
    tainted: impl FnOnce() -> Option<Option<&'n Node>>,
) -> TaintRule {
    let rules = ctx.rules;
    let ga = rules.replaces_failed_reconnects();
    let disco = supports_disconnect(alloc, rules);
    let reconnect = reconnection(alloc, ctx);
    let reconnected = reconnect != Reconnection::None;
    let desired_run = alloc.desired_status == status::RUN;
    let failed = alloc.client_status == status::FAILED;
    if ga && disco && reconnected && desired_run && failed {
        return TaintRule::FailedReconnect;
    }
    let node_first = rules.checks_tainted_node_first();
    let mut tainted = Some(tainted);
    let mut entry = None;
    let mut node_entry = || *entry.get_or_insert_with(|| tainted.take().and_then(|f| f()));
    if node_first
        && let Some(rule) = tainted_node_rule(alloc, node_entry(), disco, reconnect, rules)
    {
        return rule;
    }
    if alloc.terminal_status() && !(ga && reconnected) {
        return TaintRule::Terminal;
    }
    if alloc.desired_transition.should_migrate() {
        return TaintRule::MigrateTransition;
    }
    if disco && alloc.expired(ctx.now) {
        return TaintRule::DisconnectExpired;
    }
    if disco && alloc.client_status == status::UNKNOWN && (!ga || desired_run) {
        return TaintRule::ClientUnknown;
    }
    if ga && disco && reconnected && failed && alloc.desired_status == status::STOP {
        return TaintRule::FailedReconnectStopped;
    }
    let Some(tainted) = node_entry() else {
        return match reconnect {
            Reconnection::AfterExpiry => TaintRule::HealthyNodeReconnectedAfterExpiry,
            Reconnection::InTime => TaintRule::HealthyNodeReconnected,
            Reconnection::None => TaintRule::HealthyNode,
        };
    };
    if !node_first
        && let Some(rule) = tainted_node_rule(alloc, Some(tainted), disco, reconnect, rules)
    {
        return rule;
    }
    match tainted {
        None => TaintRule::NodeGarbageCollected,
        Some(node) if node.terminal_status() => TaintRule::NodeDown,
        Some(_) => TaintRule::TaintedNodeKept,
    }
}

/// The checks for an allocation on a disconnected node or on a ready node
/// that is tainted (draining); `None` when neither decides.
fn tainted_node_rule(
    alloc: &Allocation,
    entry: Option<Option<&Node>>,
    disco: bool,
    reconnect: Reconnection,
    rules: &Rules,
) -> Option<TaintRule> {
    let node = entry.flatten()?;
    match node.status.as_str() {
        node_status::DISCONNECTED => {
            if !disco && rules.disconnect_support_per_group() {
                return Some(TaintRule::DisconnectedNodeUnsupported);
            }
            if disco && alloc.client_status == status::RUNNING {
                return Some(TaintRule::DisconnectedNodeRunning);
            }
            (alloc.client_status == status::PENDING).then_some(TaintRule::DisconnectedNodePending)
        }
        node_status::READY => match reconnect {
            Reconnection::AfterExpiry => Some(TaintRule::ReadyNodeReconnectedAfterExpiry),
            Reconnection::InTime => Some(TaintRule::ReadyNodeReconnected),
            Reconnection::None => None,
        },
        _ => None,
    }
}

/// One line naming the facts that put `alloc` in its bucket, times exact.
pub fn reason(alloc: &Allocation, ctx: TaintContext<'_, '_>, node: Option<&Node>) -> String {
    BucketReason::of(alloc, classify_rule(alloc, ctx), node).exact()
}
