//! Tainted nodes and `filterByTainted`: the six buckets.

use std::collections::HashMap;

use serde::Serialize;

use super::AllocSet;
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
    let mut out = TaintedNodes::new();
    for alloc in allocs {
        if out.contains_key(alloc.node_id.as_str()) {
            continue;
        }
        match node(&alloc.node_id) {
            None => {
                out.insert(&alloc.node_id, None);
            }
            Some(n)
                if n.should_drain()
                    || n.has_drain_strategy()
                    || n.status == node_status::DISCONNECTED =>
            {
                out.insert(&alloc.node_id, Some(n));
            }
            Some(_) => {}
        }
    }
    out
}

/// The six sets of `filterByTainted`.
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
    fn set_mut(&mut self, b: Bucket) -> &mut AllocSet<'a> {
        match b {
            Bucket::Untainted => &mut self.untainted,
            Bucket::Migrate => &mut self.migrate,
            Bucket::Lost => &mut self.lost,
            Bucket::Disconnecting => &mut self.disconnecting,
            Bucket::Reconnecting => &mut self.reconnecting,
            Bucket::Ignore => &mut self.ignore,
        }
    }
}

/// What `filterByTainted` needs besides the allocations.
#[derive(Clone, Copy)]
pub struct TaintContext<'t, 'a> {
    pub tainted: &'t TaintedNodes<'a>,
    pub supports_disconnected_clients: bool,
    pub now: Time,
}

impl<'a> AllocSet<'a> {
    /// `filterByTainted`.
    pub fn filter_by_tainted(&self, ctx: TaintContext<'_, 'a>) -> TaintedSets<'a> {
        let mut sets = TaintedSets::default();
        for alloc in self.iter() {
            sets.set_mut(classify(alloc, ctx)).insert(alloc);
        }
        sets
    }
}

/// The bucket `filterByTainted` puts one allocation in, rule by rule.
pub fn classify(alloc: &Allocation, ctx: TaintContext<'_, '_>) -> Bucket {
    if alloc.terminal_status() {
        return Bucket::Untainted;
    }
    if alloc.desired_transition.should_migrate() {
        return Bucket::Migrate;
    }
    let disco = ctx.supports_disconnected_clients;
    if disco && alloc.expired(ctx.now) {
        return Bucket::Lost;
    }
    if disco && alloc.client_status == status::UNKNOWN {
        return Bucket::Ignore;
    }
    let reconnect_bucket = || match alloc.reconnected() {
        (true, true) => Some(Bucket::Lost),
        (true, false) => Some(Bucket::Reconnecting),
        _ => None,
    };
    let Some(tainted) = ctx.tainted.get(alloc.node_id.as_str()) else {
        return reconnect_bucket().unwrap_or(Bucket::Untainted);
    };
    if let Some(node) = tainted {
        match node.status.as_str() {
            node_status::DISCONNECTED => {
                if disco && alloc.client_status == status::RUNNING {
                    return Bucket::Disconnecting;
                }
                if alloc.client_status == status::PENDING {
                    return Bucket::Lost;
                }
            }
            node_status::READY => {
                if let Some(b) = reconnect_bucket() {
                    return b;
                }
            }
            _ => {}
        }
    }
    match tainted {
        None => Bucket::Lost,
        Some(node) if node.terminal_status() => Bucket::Lost,
        Some(_) => Bucket::Untainted,
    }
}

/// One line naming the facts that put `alloc` in `bucket`.
pub fn reason(
    alloc: &Allocation,
    bucket: Bucket,
    ctx: TaintContext<'_, '_>,
    node: Option<&Node>,
) -> String {
    let node_desc = match node {
        None => "node garbage-collected".to_string(),
        Some(n) if n.has_drain_strategy() => format!("node {} and draining", n.status),
        Some(n) => format!("node {}", n.status),
    };
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
    match bucket {
        Bucket::Untainted if alloc.terminal_status() => format!(
            "terminal (desired {}, client {})",
            alloc.desired_status, alloc.client_status
        ),
        Bucket::Untainted => node_desc,
        Bucket::Migrate => format!("migrate transition set; {node_desc}"),
        Bucket::Lost if ctx.supports_disconnected_clients && alloc.expired(ctx.now) => {
            format!("{}: expired", unknown())
        }
        Bucket::Lost if alloc.reconnected().1 => format!("{}, after {}", reconnect(), unknown()),
        Bucket::Lost => format!("{node_desc}; client {}", alloc.client_status),
        Bucket::Disconnecting => format!("{node_desc}; client running"),
        Bucket::Reconnecting => format!("{node_desc}; {}", reconnect()),
        Bucket::Ignore => format!("client unknown; {}", unknown()),
    }
}
