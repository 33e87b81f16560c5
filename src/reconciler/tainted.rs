//! Tainted nodes and `filterByTainted`: the buckets.

use std::cell::OnceCell;
use std::collections::HashMap;

use foldhash::fast::FixedState;

use super::alloc_set::AllocSet;
use super::bucket::{Bucket, ByBucket};
use super::bucket_reason::BucketReason;
use super::rules::Rules;
use super::taint_rule::{TaintRule, Terms};
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

impl TaintRule {
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

    /// Whether the check decides the allocation's bucket, given that no
    /// check before it in [`TaintRule::order`] did.
    fn holds(self) -> fn(&Facts<'_>) -> bool {
        match self {
            TaintRule::FailedReconnect => {
                |f| f.disco && f.reconnected() && f.desired_run && f.failed
            }
            TaintRule::DrainedBatchKept => |f| {
                f.terminal
                    && f.alloc.server_terminal_status()
                    && f.alloc
                        .desired_transition
                        .should_disable_migration_placement()
            },
            TaintRule::TerminalIgnored => {
                |f| f.terminal && f.disco && f.rules.ignores_terminal(f.alloc)
            }
            TaintRule::ServerTerminalIgnored => {
                |f| f.terminal && f.disco && f.rules.ignores_terminal(f.alloc)
            }
            TaintRule::TerminalCanaryMigrating => {
                |f| f.terminal && f.alloc.is_canary() && f.alloc.desired_transition.should_migrate()
            }
            TaintRule::Terminal => |f| f.terminal,
            TaintRule::MigrateTransition => |f| f.alloc.desired_transition.should_migrate(),
            TaintRule::DisconnectExpired => |f| f.disco && f.expired(),
            TaintRule::DisconnectExpiring => |f| f.disco && f.expired(),
            TaintRule::ClientUnknown => {
                |f| f.disco && f.unknown && (!f.rules.has(Switch::A1) || f.desired_run)
            }
            TaintRule::ClientUnknownCounted => |f| f.disco && f.unknown && f.desired_run,
            TaintRule::FailedReconnectStopped => |f| {
                f.disco
                    && f.reconnected()
                    && f.failed
                    && f.alloc.desired_status == DesiredStatus::Stop
            },
            TaintRule::HealthyNodeReconnectedAfterExpiry => {
                |f| f.node().is_none() && f.reconnect == Reconnection::AfterExpiry
            }
            TaintRule::HealthyNodeReconnectedExpiring => {
                |f| f.node().is_none() && f.reconnect == Reconnection::AfterExpiry
            }
            TaintRule::HealthyNodeReconnected => {
                |f| f.node().is_none() && f.reconnect == Reconnection::InTime
            }
            TaintRule::HealthyNode => |f| f.node().is_none(),
            TaintRule::DisconnectedNodeRunning => {
                |f| f.on(node_status::DISCONNECTED) && f.disco && f.running
            }
            TaintRule::DisconnectedNodePending => |f| {
                f.on(node_status::DISCONNECTED)
                    && f.alloc.client_status == ClientStatus::Pending
                    && (f.disco || !f.rules.has(Switch::A2))
            },
            TaintRule::DisconnectedNodeRunningKept => {
                |f| f.on(node_status::DISCONNECTED) && !f.disco && f.running && f.prevents()
            }
            TaintRule::DisconnectedNodeKept => {
                |f| f.on(node_status::DISCONNECTED) && !f.disco && f.prevents()
            }
            TaintRule::DisconnectedNodeUnsupported => {
                |f| f.on(node_status::DISCONNECTED) && !f.disco
            }
            TaintRule::DisconnectedNodeUnknown => |f| f.on(node_status::DISCONNECTED) && f.unknown,
            TaintRule::DisconnectedNodeWithoutLostAfter => |f| {
                f.on(node_status::DISCONNECTED)
                    && f.alloc.disconnect_timeout(f.now, f.fields) == f.now
            },
            TaintRule::DisconnectedNode => |f| f.on(node_status::DISCONNECTED),
            TaintRule::ReadyNodeReconnectedAfterExpiry => {
                |f| f.on(node_status::READY) && f.reconnect == Reconnection::AfterExpiry
            }
            TaintRule::ReadyNodeReconnectedExpiring => {
                |f| f.on(node_status::READY) && f.reconnect == Reconnection::AfterExpiry
            }
            TaintRule::ReadyNodeReconnected => {
                |f| f.on(node_status::READY) && f.reconnect == Reconnection::InTime
            }
            TaintRule::NodeGarbageCollected => |f| matches!(f.node(), Some(None)),
            TaintRule::NodeDownUnknownKept => |f| f.on_down_node() && f.unknown && f.prevents(),
            TaintRule::NodeDownRunningKept => |f| f.on_down_node() && f.running && f.prevents(),
            TaintRule::NodeDown => |f| f.on_down_node(),
            TaintRule::TaintedNodeKept => |_| true,
        }
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
        .find(|r| (r.holds())(&facts))
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
