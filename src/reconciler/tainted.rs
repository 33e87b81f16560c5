//! Tainted nodes and `filterByTainted`: the buckets.

use std::cell::OnceCell;
use std::collections::HashMap;

use foldhash::fast::FixedState;

use super::{AllocSet, Bucket, BucketReason, ByBucket, ReasonShape, Rules};
use crate::model::{
    Allocation, ClientStatus, DesiredStatus, DisconnectFields, Id, Node, Reconnection, node_status,
};
use crate::time::Time;
use crate::version::{Setting, Switch};

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

/// Declares [`TaintRule`] and its rows from the same list, so that a rule's
/// variant and its row cannot disagree.
macro_rules! taint_rules {
    ($( $rule:ident {
        in_release: $exists:expr,
        holds: $holds:expr,
        bucket: $bucket:ident,
        reason: $reason:expr,
        wording: $wording:expr $(,)?
    } )*) => {
        /// Which check of `filterByTainted` decided an allocation's bucket;
        /// explanations name the rule, reports the bucket. The checks run in
        /// the order [`TaintRule::order`] gives for the replayed release;
        /// each is one row of `TAINT_RULES`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum TaintRule {
            $( $rule, )*
        }

        /// Every check any release has, one row each: row `i` is the rule
        /// whose discriminant is `i`.
        const TAINT_RULES: &[TaintRow] = &[
            $( TaintRow {
                in_release: $exists,
                holds: $holds,
                bucket: Bucket::$bucket,
                reason: $reason,
                wording: $wording,
            }, )*
        ];

        impl TaintRule {
            /// Every rule any release has.
            pub const ALL: &[TaintRule] = &[$(TaintRule::$rule),*];
        }
    };
}

/// One check of `filterByTainted`: which releases have it, when it holds,
/// the bucket it decides, what its reason names and how the release words it.
struct TaintRow {
    in_release: fn(&Rules) -> bool,
    /// Whether the check decides the allocation's bucket, given that no
    /// check before it in [`TaintRule::order`] did.
    holds: fn(&Facts<'_>) -> bool,
    bucket: Bucket,
    reason: ReasonShape,
    wording: fn(&Terms) -> String,
}

/// What the wording of a rule depends on in the replayed release.
struct Terms {
    /// The setting that times a disconnect out, as the release reads it.
    timeout: String,
    /// The settings that keep a lost client's allocations unknown.
    keep: String,
    /// The release has A-1 (the 1.3.0 general availability of disconnects).
    ga: bool,
    /// The release has G-1's rewritten classification.
    rewritten: bool,
}

taint_rules! {
    FailedReconnect {
        in_release: |r| r.has(Switch::A1),
        holds: |f| f.disco && f.reconnected() && f.desired_run && f.failed,
        bucket: Reconnecting,
        reason: ReasonShape::FailedReconnect,
        wording: |_| {
            "a failed allocation that reconnected, desired to run, is reconnecting (a failed \
             reconnect)"
                .into()
        },
    }
    DrainedBatchKept {
        in_release: |r| r.has(Switch::H3),
        holds: |f| {
            f.terminal
                && f.alloc.server_terminal_status()
                && f.alloc.desired_transition.should_disable_migration_placement()
        },
        bucket: Untainted,
        reason: ReasonShape::Terminal,
        wording: |_| {
            "a server-stopped allocation with MigrateDisablePlacement (a drained batch \
             allocation), not reconnecting, is untainted"
                .into()
        },
    }
    TerminalIgnored {
        in_release: |r| r.has(Switch::D1) && !r.has(Switch::D2),
        holds: |f| f.terminal && f.disco && f.rules.ignores_terminal(f.alloc),
        bucket: Ignore,
        reason: ReasonShape::Terminal,
        wording: |_| {
            "a terminal allocation of a disconnect group is ignored (a stopped replacement)".into()
        },
    }
    ServerTerminalIgnored {
        in_release: |r| r.has(Switch::D2),
        holds: |f| f.terminal && f.disco && f.rules.ignores_terminal(f.alloc),
        bucket: Ignore,
        reason: ReasonShape::Terminal,
        wording: |t| {
            if t.rewritten {
                "a terminal allocation that the server stopped or evicted is ignored".into()
            } else {
                "a terminal allocation of a disconnect group that the server stopped or evicted \
                 is ignored"
                    .into()
            }
        },
    }
    TerminalCanaryMigrating {
        in_release: |r| r.has(Switch::F2),
        holds: |f| f.terminal && f.alloc.is_canary() && f.alloc.desired_transition.should_migrate(),
        bucket: Migrate,
        reason: ReasonShape::TerminalCanary,
        wording: |_| "a terminal canary with a desired migrate transition means migrate".into(),
    }
    Terminal {
        in_release: |_| true,
        holds: |f| f.terminal,
        bucket: Untainted,
        reason: ReasonShape::Terminal,
        wording: |t| {
            if t.ga {
                "a terminal allocation that has not reconnected is untainted".into()
            } else {
                "a terminal allocation is untainted".into()
            }
        },
    }
    MigrateTransition {
        in_release: |_| true,
        holds: |f| f.alloc.desired_transition.should_migrate(),
        bucket: Migrate,
        reason: ReasonShape::Migrate,
        wording: |_| "a desired migrate transition means migrate".into(),
    }
    DisconnectExpired {
        in_release: |r| !r.has(Switch::D3),
        holds: |f| f.disco && f.expired(),
        bucket: Lost,
        reason: ReasonShape::Expired,
        wording: |t| format!("unknown past its {} expiry means lost", t.timeout),
    }
    DisconnectExpiring {
        in_release: |r| r.has(Switch::D3),
        holds: |f| f.disco && f.expired(),
        bucket: Expiring,
        reason: ReasonShape::Expired,
        wording: |t| {
            if t.rewritten {
                format!(
                    "unknown past its {} (at once without one) means expiring",
                    Setting::LostAfter.field()
                )
            } else {
                format!("unknown past its {} expiry means expiring", t.timeout)
            }
        },
    }
    ClientUnknown {
        in_release: |r| !r.has(Switch::D1),
        holds: |f| f.disco && f.unknown && (!f.rules.has(Switch::A1) || f.desired_run),
        bucket: Ignore,
        reason: ReasonShape::ClientUnknown,
        wording: |t| {
            if t.ga {
                "an unknown allocation desired to run, not yet expired, is ignored".into()
            } else {
                "an unknown allocation not yet expired is ignored".into()
            }
        },
    }
    ClientUnknownCounted {
        in_release: |r| r.has(Switch::D1),
        holds: |f| f.disco && f.unknown && f.desired_run,
        bucket: Untainted,
        reason: ReasonShape::ClientUnknown,
        wording: |_| {
            "an unknown allocation not yet expired, still desired to run, is untainted".into()
        },
    }
    FailedReconnectStopped {
        in_release: |r| r.has(Switch::A1),
        holds: |f| f.disco && f.reconnected() && f.failed && f.alloc.desired_status == DesiredStatus::Stop,
        bucket: Ignore,
        reason: ReasonShape::FailedReconnect,
        wording: |_| "a failed allocation that reconnected, desired to stop, is ignored".into(),
    }
    HealthyNodeReconnectedAfterExpiry {
        in_release: |r| !r.has(Switch::D3),
        holds: |f| f.node().is_none() && f.reconnect == Reconnection::AfterExpiry,
        bucket: Lost,
        reason: ReasonShape::ReconnectedLate,
        wording: |_| "on an untainted node, reconnected after its expiry means lost".into(),
    }
    HealthyNodeReconnectedExpiring {
        in_release: |r| r.has(Switch::D3),
        holds: |f| f.node().is_none() && f.reconnect == Reconnection::AfterExpiry,
        bucket: Expiring,
        reason: ReasonShape::ReconnectedLate,
        wording: |_| "on an untainted node, reconnected after its expiry means expiring".into(),
    }
    HealthyNodeReconnected {
        in_release: |_| true,
        holds: |f| f.node().is_none() && f.reconnect == Reconnection::InTime,
        bucket: Reconnecting,
        reason: ReasonShape::NodeReconnect,
        wording: |t| {
            if t.rewritten {
                "on an untainted node, an allocation whose client has not reported since it \
                 went unknown is reconnecting"
                    .into()
            } else {
                "on an untainted node, reconnected in time means reconnecting".into()
            }
        },
    }
    HealthyNode {
        in_release: |_| true,
        holds: |f| f.node().is_none(),
        bucket: Untainted,
        reason: ReasonShape::Node,
        wording: |_| "on an untainted node, untainted".into(),
    }
    DisconnectedNodeRunning {
        in_release: |_| true,
        holds: |f| f.on(node_status::DISCONNECTED) && f.disco && f.running,
        bucket: Disconnecting,
        reason: ReasonShape::NodeRunning,
        wording: |_| "running on a disconnected node means disconnecting".into(),
    }
    DisconnectedNodePending {
        in_release: |_| true,
        holds: |f| {
            f.on(node_status::DISCONNECTED)
                && f.alloc.client_status == ClientStatus::Pending
                && (f.disco || !f.rules.has(Switch::A2))
        },
        bucket: Lost,
        reason: ReasonShape::NodeClient,
        wording: |_| "pending on a disconnected node means lost".into(),
    }
    DisconnectedNodeRunningKept {
        in_release: |r| r.has(Switch::D3),
        holds: |f| f.on(node_status::DISCONNECTED) && !f.disco && f.running && f.prevents(),
        bucket: Disconnecting,
        reason: ReasonShape::NodeClientKept,
        wording: |t| {
            format!(
                "without disconnect support but with {}, running on a disconnected node means \
                 disconnecting",
                t.keep
            )
        },
    }
    DisconnectedNodeKept {
        in_release: |r| r.has(Switch::D3),
        holds: |f| f.on(node_status::DISCONNECTED) && !f.disco && f.prevents(),
        bucket: Untainted,
        reason: ReasonShape::NodeClientKept,
        wording: |t| {
            format!(
                "without disconnect support but with {}, not running on a disconnected node \
                 means untainted",
                t.keep
            )
        },
    }
    DisconnectedNodeUnsupported {
        in_release: |r| r.has(Switch::A2),
        holds: |f| f.on(node_status::DISCONNECTED) && !f.disco,
        bucket: Lost,
        reason: ReasonShape::NotWaited(Setting::MaxClientDisconnect),
        wording: |t| format!("on a disconnected node, a group without {} is lost", t.timeout),
    }
    DisconnectedNodeUnknown {
        in_release: |_| true,
        holds: |f| f.on(node_status::DISCONNECTED) && f.unknown,
        bucket: Untainted,
        reason: ReasonShape::NodeClient,
        wording: |_| {
            "unknown on a disconnected node is untainted (its follow-up eval exists)".into()
        },
    }
    DisconnectedNodeWithoutLostAfter {
        in_release: |_| true,
        holds: |f| {
            f.on(node_status::DISCONNECTED) && f.alloc.disconnect_timeout(f.now, f.fields) == f.now
        },
        bucket: Lost,
        reason: ReasonShape::NotWaited(Setting::LostAfter),
        wording: |_| {
            format!(
                "on a disconnected node, a group without {} is lost",
                Setting::LostAfter.field()
            )
        },
    }
    DisconnectedNode {
        in_release: |_| true,
        holds: |f| f.on(node_status::DISCONNECTED),
        bucket: Disconnecting,
        reason: ReasonShape::NodeClient,
        wording: |_| "otherwise on a disconnected node, disconnecting".into(),
    }
    ReadyNodeReconnectedAfterExpiry {
        in_release: |r| !r.has(Switch::D3),
        holds: |f| f.on(node_status::READY) && f.reconnect == Reconnection::AfterExpiry,
        bucket: Lost,
        reason: ReasonShape::ReconnectedLate,
        wording: |_| "on a tainted ready node, reconnected after its expiry means lost".into(),
    }
    ReadyNodeReconnectedExpiring {
        in_release: |r| r.has(Switch::D3),
        holds: |f| f.on(node_status::READY) && f.reconnect == Reconnection::AfterExpiry,
        bucket: Expiring,
        reason: ReasonShape::ReconnectedLate,
        wording: |_| "on a tainted ready node, reconnected after its expiry means expiring".into(),
    }
    ReadyNodeReconnected {
        in_release: |_| true,
        holds: |f| f.on(node_status::READY) && f.reconnect == Reconnection::InTime,
        bucket: Reconnecting,
        reason: ReasonShape::NodeReconnect,
        wording: |t| {
            if t.rewritten {
                "on a tainted ready node, an allocation whose client has not reported since it \
                 went unknown is reconnecting"
                    .into()
            } else {
                "on a tainted ready node, reconnected in time means reconnecting".into()
            }
        },
    }
    NodeGarbageCollected {
        in_release: |_| true,
        holds: |f| matches!(f.node(), Some(None)),
        bucket: Lost,
        reason: ReasonShape::NodeClient,
        wording: |_| "on a garbage-collected node, lost".into(),
    }
    NodeDownUnknownKept {
        in_release: |r| r.has(Switch::D3),
        holds: |f| f.on_down_node() && f.unknown && f.prevents(),
        bucket: Untainted,
        reason: ReasonShape::NodeClientKept,
        wording: |t| format!("with {}, unknown on a down node means untainted", t.keep),
    }
    NodeDownRunningKept {
        in_release: |r| r.has(Switch::D3),
        holds: |f| f.on_down_node() && f.running && f.prevents(),
        bucket: Disconnecting,
        reason: ReasonShape::NodeClientKept,
        wording: |t| format!("with {}, running on a down node means disconnecting", t.keep),
    }
    NodeDown {
        in_release: |_| true,
        holds: |f| f.on_down_node(),
        bucket: Lost,
        reason: ReasonShape::NodeClient,
        wording: |_| "on a down node, lost".into(),
    }
    TaintedNodeKept {
        in_release: |_| true,
        holds: |_| true,
        bucket: Untainted,
        reason: ReasonShape::Node,
        wording: |_| {
            "on a tainted node that is not down (draining, disconnected), untainted".into()
        },
    }
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
    fn row(self) -> &'static TaintRow {
        &TAINT_RULES[self as usize]
    }

    /// The rules `rules`' release has, in the order it tries them: the
    /// seed checks tainted nodes after the allocation's own state; from A-3
    /// the disconnected and tainted ready nodes come first; from D-3 the
    /// ready-node reconnect checks join the untainted-node ones; from G-1
    /// the rewritten list replaces them all.
    pub fn order(rules: &Rules) -> Vec<TaintRule> {
        let groups: &[&[TaintRule]] = if rules.has(Switch::G1) {
            &[REWRITTEN]
        } else if !rules.has(Switch::A3) {
            &[
                FAILED,
                ALLOC,
                HEALTHY_NODE,
                DISCONNECTED_NODE,
                READY_NODE,
                TAINTED_NODE,
            ]
        } else if rules.has(Switch::D3) {
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
            .filter(|r| (r.row().in_release)(rules))
            .collect()
    }

    /// The bucket the rule decides.
    pub fn bucket(self) -> Bucket {
        self.row().bucket
    }

    /// What the rule's bucket reason names.
    pub fn reason(self) -> ReasonShape {
        self.row().reason
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
    /// named as the release reads them (D-4a, F-1).
    pub fn describe(self, rules: &Rules) -> String {
        let fields = rules.disconnect_fields();
        let timeout = match Setting::lost_timeout(fields) {
            [one] => one.name().to_string(),
            settings => format!("lost timeout ({})", Setting::in_turn(settings)),
        };
        let keep = Setting::keeps_unknown(fields)
            .iter()
            .map(|s| match s {
                Setting::Replace => format!("{} = false", s.name()),
                _ => s.name().to_string(),
            })
            .collect::<Vec<_>>()
            .join(" or ");
        (self.row().wording)(&Terms {
            timeout,
            keep,
            ga: rules.has(Switch::A1),
            rewritten: rules.has(Switch::G1),
        })
    }
}

/// What the checks of `filterByTainted` read about one allocation; its
/// node's entry in the tainted map is looked up only if a check asks.
struct Facts<'a> {
    alloc: &'a Allocation,
    rules: &'a Rules,
    tainted: &'a TaintedNodes<'a>,
    node: OnceCell<Option<Option<&'a Node>>>,
    now: Time,
    fields: DisconnectFields,
    disco: bool,
    reconnect: Reconnection,
    /// Terminal, unless it reconnects (from A-1).
    terminal: bool,
    running: bool,
    failed: bool,
    unknown: bool,
    desired_run: bool,
}

impl<'a> Facts<'a> {
    fn of(alloc: &'a Allocation, ctx: TaintContext<'a, 'a>) -> Facts<'a> {
        let rules = ctx.rules;
        let reconnect = reconnection(alloc, ctx);
        let reconnected = reconnect != Reconnection::None;
        Facts {
            alloc,
            rules,
            tainted: ctx.tainted,
            node: OnceCell::new(),
            now: ctx.now,
            fields: rules.disconnect_fields(),
            disco: supports_disconnect(alloc, rules),
            reconnect,
            terminal: alloc.terminal_status() && !(rules.has(Switch::A1) && reconnected),
            running: alloc.client_status == ClientStatus::Running,
            failed: alloc.client_status == ClientStatus::Failed,
            unknown: alloc.client_status == ClientStatus::Unknown,
            desired_run: alloc.desired_status == DesiredStatus::Run,
        }
    }

    /// The node's entry in the tainted map: `None` when it is not tainted,
    /// `Some(None)` when it is garbage-collected.
    fn node(&self) -> Option<Option<&'a Node>> {
        *self
            .node
            .get_or_init(|| self.tainted.get(self.alloc.node_id.as_str()).copied())
    }

    /// On a tainted node of this status.
    fn on(&self, status: &str) -> bool {
        self.node().flatten().is_some_and(|n| n.status == status)
    }

    fn on_down_node(&self) -> bool {
        self.node().flatten().is_some_and(Node::terminal_status)
    }

    fn reconnected(&self) -> bool {
        self.reconnect != Reconnection::None
    }

    fn expired(&self) -> bool {
        self.alloc.expired(self.now, self.fields)
    }

    /// The allocation's own group keeps it unknown instead of replacing it.
    fn prevents(&self) -> bool {
        self.rules.prevents_replacement(self.alloc.own_task_group())
    }
}

/// The bucket `filterByTainted` puts one allocation in.
pub fn classify(alloc: &Allocation, ctx: TaintContext<'_, '_>) -> Bucket {
    classify_rule(alloc, ctx).bucket()
}

/// The rule of `filterByTainted` that decides one allocation's bucket.
pub fn classify_rule(alloc: &Allocation, ctx: TaintContext<'_, '_>) -> TaintRule {
    let facts = Facts::of(alloc, ctx);
    ctx.rules
        .taint_order()
        .iter()
        .copied()
        .find(|r| (r.row().holds)(&facts))
        .unwrap_or(TaintRule::TaintedNodeKept)
}

/// Whether disconnect handling applies to `alloc`
/// (`SupportsDisconnectedClients`): the servers' flag, and from 1.3.0 its
/// group's disconnect settings, read as the release reads them; from 1.11.2
/// always.
pub fn supports_disconnect(alloc: &Allocation, rules: &Rules) -> bool {
    rules.has(Switch::G1)
        || (rules.supports_disconnected_clients()
            && (!rules.has(Switch::A2) || alloc.group_allows_disconnect(rules.disconnect_fields())))
}

/// Whether `alloc` reconnected, as the replayed release tells.
pub fn reconnection(alloc: &Allocation, ctx: TaintContext<'_, '_>) -> Reconnection {
    let fields = ctx.rules.disconnect_fields();
    if ctx.rules.has(Switch::A1)
        && !(supports_disconnect(alloc, ctx.rules)
            && matches!(
                alloc.client_status,
                ClientStatus::Unknown | ClientStatus::Running | ClientStatus::Failed
            ))
    {
        return Reconnection::None;
    }
    if !ctx.rules.has(Switch::C1) {
        return alloc.reconnected(fields);
    }
    let needs = alloc.needs_to_reconnect_from(ctx.rules.has(Switch::H4));
    match (needs, alloc.expired(ctx.now, fields)) {
        (false, _) => Reconnection::None,
        (true, true) => Reconnection::AfterExpiry,
        (true, false) => Reconnection::InTime,
    }
}

/// One line naming the facts that put `alloc` in its bucket, times exact.
pub fn reason(alloc: &Allocation, ctx: TaintContext<'_, '_>, node: Option<&Node>) -> String {
    let fields = ctx.rules.disconnect_fields();
    BucketReason::of(alloc, classify_rule(alloc, ctx), node, fields).exact()
}
