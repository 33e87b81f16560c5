//! Tainted nodes and `filterByTainted`: the buckets.

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

/// Which check of `filterByTainted` decided an allocation's bucket, in the
/// order the checks run; explanations name the rule, reports the bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TaintRule {
    TerminalIgnored,
    ServerTerminalIgnored,
    TerminalCanaryMigrating,
    Terminal,
    MigrateTransition,
    DisconnectExpired,
    DisconnectExpiring,
    ClientUnknown,
    ClientUnknownCounted,
    HealthyNodeReconnectedAfterExpiry,
    HealthyNodeReconnectedExpiring,
    HealthyNodeReconnected,
    HealthyNode,
    DisconnectedNodeRunningKept,
    DisconnectedNodeKept,
    DisconnectedNodeRunning,
    DisconnectedNodePending,
    ReadyNodeReconnectedAfterExpiry,
    ReadyNodeReconnectedExpiring,
    ReadyNodeReconnected,
    NodeGarbageCollected,
    NodeDownUnknownKept,
    NodeDownRunningKept,
    NodeDown,
    TaintedNodeKept,
}

impl TaintRule {
    /// Every rule of any release, in the order `classify` tries them.
    pub const ALL: [TaintRule; 25] = [
        TaintRule::TerminalIgnored,
        TaintRule::ServerTerminalIgnored,
        TaintRule::TerminalCanaryMigrating,
        TaintRule::Terminal,
        TaintRule::MigrateTransition,
        TaintRule::DisconnectExpired,
        TaintRule::DisconnectExpiring,
        TaintRule::ClientUnknown,
        TaintRule::ClientUnknownCounted,
        TaintRule::HealthyNodeReconnectedAfterExpiry,
        TaintRule::HealthyNodeReconnectedExpiring,
        TaintRule::HealthyNodeReconnected,
        TaintRule::HealthyNode,
        TaintRule::DisconnectedNodeRunningKept,
        TaintRule::DisconnectedNodeKept,
        TaintRule::DisconnectedNodeRunning,
        TaintRule::DisconnectedNodePending,
        TaintRule::ReadyNodeReconnectedAfterExpiry,
        TaintRule::ReadyNodeReconnectedExpiring,
        TaintRule::ReadyNodeReconnected,
        TaintRule::NodeGarbageCollected,
        TaintRule::NodeDownUnknownKept,
        TaintRule::NodeDownRunningKept,
        TaintRule::NodeDown,
        TaintRule::TaintedNodeKept,
    ];

    /// The rules `rules`' release tries, in order.
    pub fn in_order(rules: &Rules) -> Vec<TaintRule> {
        TaintRule::ALL
            .into_iter()
            .filter(|r| r.applies(rules))
            .collect()
    }

    /// Whether the release of `rules` has this rule.
    fn applies(self, rules: &Rules) -> bool {
        match self {
            TaintRule::TerminalIgnored => {
                rules.counts_unknown_allocs() && !rules.ignores_only_server_terminal()
            }
            TaintRule::ServerTerminalIgnored => rules.ignores_only_server_terminal(),
            TaintRule::TerminalCanaryMigrating => rules.migrates_terminal_canaries(),
            TaintRule::ClientUnknownCounted => rules.counts_unknown_allocs(),
            TaintRule::DisconnectExpired
            | TaintRule::HealthyNodeReconnectedAfterExpiry
            | TaintRule::ReadyNodeReconnectedAfterExpiry => !rules.has_expiring_bucket(),
            TaintRule::DisconnectExpiring
            | TaintRule::HealthyNodeReconnectedExpiring
            | TaintRule::ReadyNodeReconnectedExpiring
            | TaintRule::DisconnectedNodeRunningKept
            | TaintRule::DisconnectedNodeKept
            | TaintRule::NodeDownUnknownKept
            | TaintRule::NodeDownRunningKept => rules.has_expiring_bucket(),
            _ => true,
        }
    }

    /// Its position among the rules of `rules`' release, counted from 1.
    pub fn number_in(self, rules: &Rules) -> usize {
        TaintRule::in_order(rules)
            .iter()
            .position(|r| *r == self)
            .unwrap_or(0)
            + 1
    }

    pub fn bucket(self) -> Bucket {
        match self {
            TaintRule::Terminal
            | TaintRule::ClientUnknownCounted
            | TaintRule::HealthyNode
            | TaintRule::DisconnectedNodeKept
            | TaintRule::NodeDownUnknownKept
            | TaintRule::TaintedNodeKept => Bucket::Untainted,
            TaintRule::DisconnectExpiring
            | TaintRule::HealthyNodeReconnectedExpiring
            | TaintRule::ReadyNodeReconnectedExpiring => Bucket::Expiring,
            TaintRule::TerminalIgnored | TaintRule::ServerTerminalIgnored => Bucket::Ignore,
            TaintRule::MigrateTransition | TaintRule::TerminalCanaryMigrating => Bucket::Migrate,
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
            TaintRule::DisconnectedNodeRunning
            | TaintRule::DisconnectedNodeRunningKept
            | TaintRule::NodeDownRunningKept => Bucket::Disconnecting,
        }
    }

    /// The rule as a sentence.
    pub fn describe(self) -> &'static str {
        match self {
            TaintRule::TerminalIgnored => {
                "a terminal allocation of a disconnect group is ignored (a stopped replacement)"
            }
            TaintRule::ServerTerminalIgnored => {
                "a terminal allocation of a disconnect group that the server stopped or evicted \
                 is ignored"
            }
            TaintRule::TerminalCanaryMigrating => {
                "a terminal canary with a desired migrate transition means migrate"
            }
            TaintRule::Terminal => "a terminal allocation is untainted",
            TaintRule::MigrateTransition => "a desired migrate transition means migrate",
            TaintRule::DisconnectExpired => {
                "unknown past its max_client_disconnect expiry means lost"
            }
            TaintRule::DisconnectExpiring => {
                "unknown past its max_client_disconnect expiry means expiring"
            }
            TaintRule::ClientUnknown => "an unknown allocation not yet expired is ignored",
            TaintRule::ClientUnknownCounted => {
                "an unknown allocation not yet expired, still desired to run, is untainted"
            }
            TaintRule::HealthyNodeReconnectedAfterExpiry => {
                "on an untainted node, reconnected after its expiry means lost"
            }
            TaintRule::HealthyNodeReconnectedExpiring => {
                "on an untainted node, reconnected after its expiry means expiring"
            }
            TaintRule::HealthyNodeReconnected => {
                "on an untainted node, reconnected in time means reconnecting"
            }
            TaintRule::HealthyNode => "on an untainted node, untainted",
            TaintRule::DisconnectedNodeRunning => {
                "running on a disconnected node means disconnecting"
            }
            TaintRule::DisconnectedNodePending => "pending on a disconnected node means lost",
            TaintRule::DisconnectedNodeRunningKept => {
                "without disconnect support but with prevent_reschedule_on_lost, running on a \
                 disconnected node means disconnecting"
            }
            TaintRule::DisconnectedNodeKept => {
                "without disconnect support but with prevent_reschedule_on_lost, not running on \
                 a disconnected node means untainted"
            }
            TaintRule::ReadyNodeReconnectedAfterExpiry => {
                "on a tainted ready node, reconnected after its expiry means lost"
            }
            TaintRule::ReadyNodeReconnectedExpiring => {
                "on a tainted ready node, reconnected after its expiry means expiring"
            }
            TaintRule::ReadyNodeReconnected => {
                "on a tainted ready node, reconnected in time means reconnecting"
            }
            TaintRule::NodeGarbageCollected => "on a garbage-collected node, lost",
            TaintRule::NodeDownUnknownKept => {
                "with prevent_reschedule_on_lost, unknown on a down node means untainted"
            }
            TaintRule::NodeDownRunningKept => {
                "with prevent_reschedule_on_lost, running on a down node means disconnecting"
            }
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
    let disco = ctx.rules.supports_disconnected_clients();
    if alloc.terminal_status() {
        if disco && ctx.rules.ignores_terminal(alloc) {
            return if ctx.rules.ignores_only_server_terminal() {
                TaintRule::ServerTerminalIgnored
            } else {
                TaintRule::TerminalIgnored
            };
        }
        if ctx.rules.migrates_terminal_canaries()
            && alloc.is_canary()
            && alloc.desired_transition.should_migrate()
        {
            return TaintRule::TerminalCanaryMigrating;
        }
        return TaintRule::Terminal;
    }
    if alloc.desired_transition.should_migrate() {
        return TaintRule::MigrateTransition;
    }
    let expiring = ctx.rules.has_expiring_bucket();
    let fields = ctx.rules.disconnect_fields();
    if disco && alloc.expired(ctx.now, fields) {
        return if expiring {
            TaintRule::DisconnectExpiring
        } else {
            TaintRule::DisconnectExpired
        };
    }
    if disco && alloc.client_status == status::UNKNOWN {
        if ctx.rules.counts_unknown_allocs() && alloc.desired_status == status::RUN {
            return TaintRule::ClientUnknownCounted;
        }
        return TaintRule::ClientUnknown;
    }
    let Some(tainted) = tainted() else {
        return match alloc.reconnected(fields) {
            Reconnection::AfterExpiry if expiring => TaintRule::HealthyNodeReconnectedExpiring,
            Reconnection::AfterExpiry => TaintRule::HealthyNodeReconnectedAfterExpiry,
            Reconnection::InTime => TaintRule::HealthyNodeReconnected,
            Reconnection::None => TaintRule::HealthyNode,
        };
    };
    if let Some(node) = tainted {
        match node.status.as_str() {
            node_status::DISCONNECTED => {
                if !disco && ctx.rules.prevents_replacement(alloc.own_task_group()) {
                    return if alloc.client_status == status::RUNNING {
                        TaintRule::DisconnectedNodeRunningKept
                    } else {
                        TaintRule::DisconnectedNodeKept
                    };
                }
                if disco && alloc.client_status == status::RUNNING {
                    return TaintRule::DisconnectedNodeRunning;
                }
                if alloc.client_status == status::PENDING {
                    return TaintRule::DisconnectedNodePending;
                }
            }
            node_status::READY => match alloc.reconnected(fields) {
                Reconnection::AfterExpiry if expiring => {
                    return TaintRule::ReadyNodeReconnectedExpiring;
                }
                Reconnection::AfterExpiry => return TaintRule::ReadyNodeReconnectedAfterExpiry,
                Reconnection::InTime => return TaintRule::ReadyNodeReconnected,
                Reconnection::None => {}
            },
            _ => {}
        }
    }
    match tainted {
        None => TaintRule::NodeGarbageCollected,
        Some(node) if node.terminal_status() => match alloc.client_status.as_str() {
            status::UNKNOWN if ctx.rules.prevents_replacement(alloc.own_task_group()) => {
                TaintRule::NodeDownUnknownKept
            }
            status::RUNNING if ctx.rules.prevents_replacement(alloc.own_task_group()) => {
                TaintRule::NodeDownRunningKept
            }
            _ => TaintRule::NodeDown,
        },
        Some(_) => TaintRule::TaintedNodeKept,
    }
}

/// One line naming the facts that put `alloc` in its bucket, times exact.
pub fn reason(alloc: &Allocation, ctx: TaintContext<'_, '_>, node: Option<&Node>) -> String {
    let fields = ctx.rules.disconnect_fields();
    BucketReason::of(alloc, classify_rule(alloc, ctx), node, fields).exact()
}
