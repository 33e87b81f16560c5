//! Tainted nodes and `filterByTainted`: the buckets.

use std::collections::HashMap;

use foldhash::fast::FixedState;

use super::{AllocSet, Bucket, BucketReason, ByBucket, Rules};
use crate::model::{
    Allocation, ClientStatus, DesiredStatus, DisconnectFields, Id, Node, Reconnection, node_status,
};
use crate::time::Time;

/// Nodes whose allocations need attention, by ID; `None` is a node the
/// snapshot no longer has (garbage-collected). Every allocation looks its
/// node up, so the hash is a fast one; nothing iterates the map.
pub type TaintedNodes<'a> = HashMap<&'a str, Option<&'a Node>, FixedState>;

/// `taintedNodes`: the nodes of `allocs` that are missing, down, draining (or
/// carry a drain strategy) or disconnected.
pub fn tainted_nodes<'a>(
    allocs: impl IntoIterator<Item = &'a Allocation>,
    node: impl Fn(&str) -> Option<&'a Node>,
) -> TaintedNodes<'a> {
    // Each node is looked up once; `None` marks an untainted one.
    let mut seen: HashMap<&'a str, Option<Option<&'a Node>>, FixedState> = HashMap::default();
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
    pub fn bucket_of(&self, id: &Id) -> Option<Bucket> {
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

/// For each bucket of [`TaintedSets`], the rule that put each of its
/// allocations there, in the set's order: reports read them instead of
/// classifying every allocation again.
pub type TaintRules = ByBucket<Vec<TaintRule>>;

impl<'a> AllocSet<'a> {
    /// `filterByTainted`.
    pub fn filter_by_tainted(&self, ctx: TaintContext<'_, 'a>) -> TaintedSets<'a> {
        ByBucket::from(self.split(|a| Some(classify(a, ctx) as usize)))
    }

    /// `filterByTainted`, with the rule behind each allocation's bucket.
    pub fn classify_by_tainted(&self, ctx: TaintContext<'_, 'a>) -> (TaintedSets<'a>, TaintRules) {
        let mut rules = TaintRules::default();
        let sets = self.split(|a| {
            let rule = classify_rule(a, ctx);
            rules[rule.bucket()].push(rule);
            Some(rule.bucket() as usize)
        });
        (ByBucket::from(sets), rules)
    }
}

/// Which check of `filterByTainted` decided an allocation's bucket;
/// explanations name the rule, reports the bucket. The checks run in the
/// order [`TaintRule::order`] gives for the replayed release.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TaintRule {
    FailedReconnect,
    DrainedBatchKept,
    TerminalIgnored,
    ServerTerminalIgnored,
    TerminalCanaryMigrating,
    Terminal,
    MigrateTransition,
    DisconnectExpired,
    DisconnectExpiring,
    ClientUnknown,
    ClientUnknownCounted,
    FailedReconnectStopped,
    HealthyNodeReconnectedAfterExpiry,
    HealthyNodeReconnectedExpiring,
    HealthyNodeReconnected,
    HealthyNode,
    DisconnectedNodeRunning,
    DisconnectedNodePending,
    DisconnectedNodeRunningKept,
    DisconnectedNodeKept,
    DisconnectedNodeUnsupported,
    DisconnectedNodeUnknown,
    DisconnectedNodeWithoutLostAfter,
    DisconnectedNode,
    ReadyNodeReconnectedAfterExpiry,
    ReadyNodeReconnectedExpiring,
    ReadyNodeReconnected,
    NodeGarbageCollected,
    NodeDownUnknownKept,
    NodeDownRunningKept,
    NodeDown,
    TaintedNodeKept,
}

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
    /// Every rule any release has.
    pub const ALL: [TaintRule; 32] = [
        TaintRule::FailedReconnect,
        TaintRule::DrainedBatchKept,
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
        TaintRule::HealthyNodeReconnectedAfterExpiry,
        TaintRule::HealthyNodeReconnectedExpiring,
        TaintRule::HealthyNodeReconnected,
        TaintRule::HealthyNode,
        TaintRule::DisconnectedNodeRunning,
        TaintRule::DisconnectedNodePending,
        TaintRule::DisconnectedNodeRunningKept,
        TaintRule::DisconnectedNodeKept,
        TaintRule::DisconnectedNodeUnsupported,
        TaintRule::DisconnectedNodeUnknown,
        TaintRule::DisconnectedNodeWithoutLostAfter,
        TaintRule::DisconnectedNode,
        TaintRule::ReadyNodeReconnectedAfterExpiry,
        TaintRule::ReadyNodeReconnectedExpiring,
        TaintRule::ReadyNodeReconnected,
        TaintRule::NodeGarbageCollected,
        TaintRule::NodeDownUnknownKept,
        TaintRule::NodeDownRunningKept,
        TaintRule::NodeDown,
        TaintRule::TaintedNodeKept,
    ];

    /// The rules `rules`' release has, in the order it tries them: the
    /// seed checks tainted nodes after the allocation's own state; from A-3
    /// the disconnected and tainted ready nodes come first; from D-3 the
    /// ready-node reconnect checks join the untainted-node ones; from G-1
    /// the rewritten list replaces them all.
    pub fn order(rules: &Rules) -> Vec<TaintRule> {
        if rules.classifies_without_disconnect_support() {
            return REWRITTEN
                .iter()
                .copied()
                .filter(|r| r.exists(rules))
                .collect();
        }
        let groups = if !rules.checks_tainted_node_first() {
            [
                FAILED,
                ALLOC,
                HEALTHY_NODE,
                DISCONNECTED_NODE,
                READY_NODE,
                TAINTED_NODE,
            ]
        } else if rules.checks_ready_nodes_with_untainted() {
            [
                FAILED,
                DISCONNECTED_NODE,
                ALLOC,
                HEALTHY_NODE,
                READY_NODE,
                TAINTED_NODE,
            ]
        } else {
            [
                FAILED,
                DISCONNECTED_NODE,
                READY_NODE,
                ALLOC,
                HEALTHY_NODE,
                TAINTED_NODE,
            ]
        };
        groups
            .concat()
            .into_iter()
            .filter(|r| r.exists(rules))
            .collect()
    }

    /// Whether the release of `rules` has this check at all.
    fn exists(self, rules: &Rules) -> bool {
        let expiring = rules.has_expiring_bucket();
        match self {
            TaintRule::FailedReconnect | TaintRule::FailedReconnectStopped => {
                rules.replaces_failed_reconnects()
            }
            TaintRule::DisconnectedNodeUnsupported => rules.disconnect_support_per_group(),
            TaintRule::TerminalIgnored => {
                rules.counts_unknown_allocs() && !rules.ignores_only_server_terminal()
            }
            TaintRule::ServerTerminalIgnored => rules.ignores_only_server_terminal(),
            TaintRule::DrainedBatchKept => rules.counts_drained_batch_allocs(),
            TaintRule::TerminalCanaryMigrating => rules.migrates_terminal_canaries(),
            TaintRule::ClientUnknown => !rules.counts_unknown_allocs(),
            TaintRule::ClientUnknownCounted => rules.counts_unknown_allocs(),
            TaintRule::DisconnectExpired
            | TaintRule::HealthyNodeReconnectedAfterExpiry
            | TaintRule::ReadyNodeReconnectedAfterExpiry => !expiring,
            TaintRule::DisconnectExpiring
            | TaintRule::HealthyNodeReconnectedExpiring
            | TaintRule::ReadyNodeReconnectedExpiring
            | TaintRule::DisconnectedNodeRunningKept
            | TaintRule::DisconnectedNodeKept
            | TaintRule::NodeDownUnknownKept
            | TaintRule::NodeDownRunningKept => expiring,
            _ => true,
        }
    }

    pub fn bucket(self) -> Bucket {
        match self {
            TaintRule::Terminal
            | TaintRule::DrainedBatchKept
            | TaintRule::ClientUnknownCounted
            | TaintRule::HealthyNode
            | TaintRule::DisconnectedNodeUnknown
            | TaintRule::DisconnectedNodeKept
            | TaintRule::NodeDownUnknownKept
            | TaintRule::TaintedNodeKept => Bucket::Untainted,
            TaintRule::DisconnectExpiring
            | TaintRule::HealthyNodeReconnectedExpiring
            | TaintRule::ReadyNodeReconnectedExpiring => Bucket::Expiring,
            TaintRule::MigrateTransition | TaintRule::TerminalCanaryMigrating => Bucket::Migrate,
            TaintRule::DisconnectExpired
            | TaintRule::HealthyNodeReconnectedAfterExpiry
            | TaintRule::DisconnectedNodePending
            | TaintRule::DisconnectedNodeUnsupported
            | TaintRule::DisconnectedNodeWithoutLostAfter
            | TaintRule::ReadyNodeReconnectedAfterExpiry
            | TaintRule::NodeGarbageCollected
            | TaintRule::NodeDown => Bucket::Lost,
            TaintRule::TerminalIgnored
            | TaintRule::ServerTerminalIgnored
            | TaintRule::ClientUnknown
            | TaintRule::FailedReconnectStopped => Bucket::Ignore,
            TaintRule::FailedReconnect
            | TaintRule::HealthyNodeReconnected
            | TaintRule::ReadyNodeReconnected => Bucket::Reconnecting,
            TaintRule::DisconnectedNodeRunning
            | TaintRule::DisconnectedNode
            | TaintRule::DisconnectedNodeRunningKept
            | TaintRule::NodeDownRunningKept => Bucket::Disconnecting,
        }
    }

    /// Its position in [`TaintRule::order`], counted from 1.
    pub fn number(self, rules: &Rules) -> usize {
        rules
            .taint_order()
            .iter()
            .position(|r| *r == self)
            .unwrap_or(0)
            + 1
    }

    /// The rule as a sentence, as the release of `rules` states it: its
    /// lost timeout and the setting that keeps allocations unknown are
    /// named as the release reads them (D-4, F-1).
    pub fn describe(self, rules: &Rules) -> String {
        let (timeout, keep) = match rules.disconnect_fields() {
            DisconnectFields::Legacy => ("max_client_disconnect", "prevent_reschedule_on_lost"),
            DisconnectFields::LegacyFirst => (
                "lost timeout (max_client_disconnect, else disconnect.lost_after)",
                "disconnect.replace = false or prevent_reschedule_on_lost",
            ),
            DisconnectFields::BlockOnly | DisconnectFields::BlockStrict => {
                ("disconnect.lost_after", "disconnect.replace = false")
            }
        };
        let ga = rules.replaces_failed_reconnects();
        let rewritten = rules.classifies_without_disconnect_support();
        match self {
            TaintRule::DisconnectExpired => {
                format!("unknown past its {timeout} expiry means lost")
            }
            TaintRule::DisconnectExpiring if rewritten => {
                "unknown past its lost_after (at once without one) means expiring".into()
            }
            TaintRule::DisconnectExpiring => {
                format!("unknown past its {timeout} expiry means expiring")
            }
            TaintRule::DisconnectedNodeRunningKept => {
                format!(
                    "without disconnect support but with {keep}, running on a disconnected node \
                     means disconnecting"
                )
            }
            TaintRule::DisconnectedNodeKept => {
                format!(
                    "without disconnect support but with {keep}, not running on a disconnected \
                     node means untainted"
                )
            }
            TaintRule::DisconnectedNodeUnsupported => {
                format!("on a disconnected node, a group without {timeout} is lost")
            }
            TaintRule::NodeDownUnknownKept => {
                format!("with {keep}, unknown on a down node means untainted")
            }
            TaintRule::NodeDownRunningKept => {
                format!("with {keep}, running on a down node means disconnecting")
            }
            TaintRule::FailedReconnect => {
                "a failed allocation that reconnected, desired to run, is reconnecting (a failed \
                 reconnect)"
                    .into()
            }
            TaintRule::TerminalIgnored => {
                "a terminal allocation of a disconnect group is ignored (a stopped replacement)"
                    .into()
            }
            TaintRule::DrainedBatchKept => {
                "a server-stopped allocation with MigrateDisablePlacement (a drained batch \
                 allocation), not reconnecting, is untainted"
                    .into()
            }
            TaintRule::ServerTerminalIgnored if rewritten => {
                "a terminal allocation that the server stopped or evicted is ignored".into()
            }
            TaintRule::ServerTerminalIgnored => {
                "a terminal allocation of a disconnect group that the server stopped or evicted \
                 is ignored"
                    .into()
            }
            TaintRule::TerminalCanaryMigrating => {
                "a terminal canary with a desired migrate transition means migrate".into()
            }
            TaintRule::Terminal if ga => {
                "a terminal allocation that has not reconnected is untainted".into()
            }
            TaintRule::Terminal => "a terminal allocation is untainted".into(),
            TaintRule::MigrateTransition => "a desired migrate transition means migrate".into(),
            TaintRule::ClientUnknown if ga => {
                "an unknown allocation desired to run, not yet expired, is ignored".into()
            }
            TaintRule::ClientUnknown => "an unknown allocation not yet expired is ignored".into(),
            TaintRule::ClientUnknownCounted => {
                "an unknown allocation not yet expired, still desired to run, is untainted".into()
            }
            TaintRule::FailedReconnectStopped => {
                "a failed allocation that reconnected, desired to stop, is ignored".into()
            }
            TaintRule::HealthyNodeReconnectedAfterExpiry => {
                "on an untainted node, reconnected after its expiry means lost".into()
            }
            TaintRule::HealthyNodeReconnectedExpiring => {
                "on an untainted node, reconnected after its expiry means expiring".into()
            }
            TaintRule::HealthyNodeReconnected if rewritten => {
                "on an untainted node, an allocation whose client has not reported since it \
                 went unknown is reconnecting"
                    .into()
            }
            TaintRule::ReadyNodeReconnected if rewritten => {
                "on a tainted ready node, an allocation whose client has not reported since it \
                 went unknown is reconnecting"
                    .into()
            }
            TaintRule::HealthyNodeReconnected => {
                "on an untainted node, reconnected in time means reconnecting".into()
            }
            TaintRule::HealthyNode => "on an untainted node, untainted".into(),
            TaintRule::DisconnectedNodeRunning => {
                "running on a disconnected node means disconnecting".into()
            }
            TaintRule::DisconnectedNodePending => {
                "pending on a disconnected node means lost".into()
            }
            TaintRule::DisconnectedNodeUnknown => {
                "unknown on a disconnected node is untainted (its follow-up eval exists)".into()
            }
            TaintRule::DisconnectedNodeWithoutLostAfter => {
                "on a disconnected node, a group without lost_after is lost".into()
            }
            TaintRule::DisconnectedNode => "otherwise on a disconnected node, disconnecting".into(),
            TaintRule::ReadyNodeReconnectedAfterExpiry => {
                "on a tainted ready node, reconnected after its expiry means lost".into()
            }
            TaintRule::ReadyNodeReconnectedExpiring => {
                "on a tainted ready node, reconnected after its expiry means expiring".into()
            }
            TaintRule::ReadyNodeReconnected => {
                "on a tainted ready node, reconnected in time means reconnecting".into()
            }
            TaintRule::NodeGarbageCollected => "on a garbage-collected node, lost".into(),
            TaintRule::NodeDown => "on a down node, lost".into(),
            TaintRule::TaintedNodeKept => {
                "on a tainted node that is not down (draining, disconnected), untainted".into()
            }
        }
    }

    /// Whether this check decides `alloc`'s bucket, given that no check
    /// before it in [`TaintRule::order`] did; `node` gives the allocation's
    /// entry in the tainted map (`None`: not tainted).
    fn holds<'n>(self, f: &Facts<'_>, node: &mut impl FnMut() -> Option<Option<&'n Node>>) -> bool {
        let a = f.alloc;
        let rules = f.rules;
        let running = a.client_status == ClientStatus::Running;
        let failed = a.client_status == ClientStatus::Failed;
        let unknown = a.client_status == ClientStatus::Unknown;
        let desired_run = a.desired_status == DesiredStatus::Run;
        let reconnected = f.reconnect != Reconnection::None;
        let prevents = || rules.prevents_replacement(a.own_task_group());
        // From A-1 a terminal allocation that reconnects is not terminal here.
        let terminal = a.terminal_status() && !(rules.replaces_failed_reconnects() && reconnected);
        let on = |status: &str, node: Option<Option<&Node>>| {
            node.flatten().is_some_and(|n| n.status == status)
        };
        let late = f.reconnect == Reconnection::AfterExpiry;
        let in_time = f.reconnect == Reconnection::InTime;
        match self {
            TaintRule::FailedReconnect => f.disco && reconnected && desired_run && failed,
            TaintRule::TerminalIgnored | TaintRule::ServerTerminalIgnored => {
                terminal && f.disco && rules.ignores_terminal(a)
            }
            TaintRule::TerminalCanaryMigrating => {
                terminal && a.is_canary() && a.desired_transition.should_migrate()
            }
            TaintRule::Terminal => terminal,
            TaintRule::DrainedBatchKept => {
                terminal
                    && a.server_terminal_status()
                    && a.desired_transition.should_disable_migration_placement()
            }
            TaintRule::MigrateTransition => a.desired_transition.should_migrate(),
            TaintRule::DisconnectExpired | TaintRule::DisconnectExpiring => {
                f.disco && a.expired(f.now, f.fields)
            }
            TaintRule::ClientUnknown => {
                f.disco && unknown && (!rules.replaces_failed_reconnects() || desired_run)
            }
            TaintRule::ClientUnknownCounted => f.disco && unknown && desired_run,
            TaintRule::FailedReconnectStopped => {
                f.disco && reconnected && failed && a.desired_status == DesiredStatus::Stop
            }
            TaintRule::HealthyNodeReconnectedAfterExpiry
            | TaintRule::HealthyNodeReconnectedExpiring => node().is_none() && late,
            TaintRule::HealthyNodeReconnected => node().is_none() && in_time,
            TaintRule::HealthyNode => node().is_none(),
            TaintRule::DisconnectedNodeRunning => {
                on(node_status::DISCONNECTED, node()) && f.disco && running
            }
            TaintRule::DisconnectedNodePending => {
                on(node_status::DISCONNECTED, node())
                    && a.client_status == ClientStatus::Pending
                    && (f.disco || !rules.disconnect_support_per_group())
            }
            TaintRule::DisconnectedNodeRunningKept => {
                on(node_status::DISCONNECTED, node()) && !f.disco && running && prevents()
            }
            TaintRule::DisconnectedNodeKept => {
                on(node_status::DISCONNECTED, node()) && !f.disco && prevents()
            }
            TaintRule::DisconnectedNodeUnsupported => {
                on(node_status::DISCONNECTED, node()) && !f.disco
            }
            TaintRule::DisconnectedNodeUnknown => on(node_status::DISCONNECTED, node()) && unknown,
            TaintRule::DisconnectedNodeWithoutLostAfter => {
                on(node_status::DISCONNECTED, node())
                    && a.disconnect_timeout(f.now, f.fields) == f.now
            }
            TaintRule::DisconnectedNode => on(node_status::DISCONNECTED, node()),
            TaintRule::ReadyNodeReconnectedAfterExpiry
            | TaintRule::ReadyNodeReconnectedExpiring => on(node_status::READY, node()) && late,
            TaintRule::ReadyNodeReconnected => on(node_status::READY, node()) && in_time,
            TaintRule::NodeGarbageCollected => matches!(node(), Some(None)),
            TaintRule::NodeDownUnknownKept => {
                node().flatten().is_some_and(Node::terminal_status) && unknown && prevents()
            }
            TaintRule::NodeDownRunningKept => {
                node().flatten().is_some_and(Node::terminal_status) && running && prevents()
            }
            TaintRule::NodeDown => node().flatten().is_some_and(Node::terminal_status),
            TaintRule::TaintedNodeKept => true,
        }
    }
}

/// What the checks of `filterByTainted` read about one allocation.
struct Facts<'a> {
    alloc: &'a Allocation,
    rules: &'a Rules,
    now: Time,
    fields: DisconnectFields,
    disco: bool,
    reconnect: Reconnection,
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
/// group's disconnect settings, read as the release reads them; from 1.11.2
/// always.
pub fn supports_disconnect(alloc: &Allocation, rules: &Rules) -> bool {
    rules.classifies_without_disconnect_support()
        || (rules.supports_disconnected_clients()
            && (!rules.disconnect_support_per_group()
                || alloc.group_allows_disconnect(rules.disconnect_fields())))
}

/// Whether `alloc` reconnected, as the replayed release tells.
pub fn reconnection(alloc: &Allocation, ctx: TaintContext<'_, '_>) -> Reconnection {
    let fields = ctx.rules.disconnect_fields();
    if ctx.rules.replaces_failed_reconnects()
        && !(supports_disconnect(alloc, ctx.rules)
            && matches!(
                alloc.client_status,
                ClientStatus::Unknown | ClientStatus::Running | ClientStatus::Failed
            ))
    {
        return Reconnection::None;
    }
    if !ctx.rules.reconnect_from_alloc_states() {
        return alloc.reconnected(fields);
    }
    let needs = alloc.needs_to_reconnect_from(ctx.rules.skips_empty_alloc_states());
    match (needs, alloc.expired(ctx.now, fields)) {
        (false, _) => Reconnection::None,
        (true, true) => Reconnection::AfterExpiry,
        (true, false) => Reconnection::InTime,
    }
}

/// [`classify_rule`], with `tainted` giving the allocation's node's entry
/// in the tainted map, asked only if a check needs it.
fn classify_rule_with<'n>(
    alloc: &Allocation,
    ctx: TaintContext<'_, '_>,
    tainted: impl FnOnce() -> Option<Option<&'n Node>>,
) -> TaintRule {
    let rules = ctx.rules;
    let facts = Facts {
        alloc,
        rules,
        now: ctx.now,
        fields: rules.disconnect_fields(),
        disco: supports_disconnect(alloc, rules),
        reconnect: reconnection(alloc, ctx),
    };
    let mut tainted = Some(tainted);
    let mut entry = None;
    let mut node = || *entry.get_or_insert_with(|| tainted.take().and_then(|f| f()));
    rules
        .taint_order()
        .iter()
        .copied()
        .find(|r| r.holds(&facts, &mut node))
        .unwrap_or(TaintRule::TaintedNodeKept)
}

/// One line naming the facts that put `alloc` in its bucket, times exact.
pub fn reason(alloc: &Allocation, ctx: TaintContext<'_, '_>, node: Option<&Node>) -> String {
    let fields = ctx.rules.disconnect_fields();
    BucketReason::of(alloc, classify_rule(alloc, ctx), node, fields).exact()
}
