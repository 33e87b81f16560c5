//! The checks of `filterByTainted` as each release states them: one row per
//! rule (which releases have it, its bucket, its reason and its wording).
//! The order a release tries them in is `taint_order.rs`; when a rule holds
//! is in `tainted.rs`.

use super::bucket::Bucket;
use super::reason_shape::ReasonShape;
use crate::version::{Setting, Switch, Switches};

/// Declares [`TaintRule`] and its rows from the same list, so that a rule's
/// variant and its row cannot disagree.
macro_rules! taint_rules {
    ($( $rule:ident {
        in_release: $exists:expr,
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

/// One check of `filterByTainted` as a release states it: which releases
/// have it, the bucket it decides, what its reason names and how the
/// release words it. When it holds is [`TaintRule::holds`].
pub(super) struct TaintRow {
    in_release: fn(&Switches) -> bool,
    bucket: Bucket,
    reason: ReasonShape,
    pub(super) wording: fn(&Terms) -> String,
}

/// What the wording of a rule depends on in the replayed release.
pub(super) struct Terms {
    /// The setting that times a disconnect out, as the release reads it.
    pub(super) timeout: String,
    /// The settings that keep a lost client's allocations unknown.
    pub(super) keep: String,
    /// The release has A-1 (the 1.3.0 general availability of disconnects).
    pub(super) ga: bool,
    /// The release has G-1's rewritten classification.
    pub(super) rewritten: bool,
}

taint_rules! {
    FailedReconnect {
        in_release: |r| r.has(Switch::A1),
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
        bucket: Ignore,
        reason: ReasonShape::Terminal,
        wording: |_| {
            "a terminal allocation of a disconnect group is ignored (a stopped replacement)".into()
        },
    }
    ServerTerminalIgnored {
        in_release: |r| r.has(Switch::D2),
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
        bucket: Migrate,
        reason: ReasonShape::TerminalCanary,
        wording: |_| "a terminal canary with a desired migrate transition means migrate".into(),
    }
    Terminal {
        in_release: |_| true,
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
        bucket: Migrate,
        reason: ReasonShape::Migrate,
        wording: |_| "a desired migrate transition means migrate".into(),
    }
    DisconnectExpired {
        in_release: |r| !r.has(Switch::D3),
        bucket: Lost,
        reason: ReasonShape::Expired,
        wording: |t| format!("unknown past its {} expiry means lost", t.timeout),
    }
    DisconnectExpiring {
        in_release: |r| r.has(Switch::D3),
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
        bucket: Untainted,
        reason: ReasonShape::ClientUnknown,
        wording: |_| {
            "an unknown allocation not yet expired, still desired to run, is untainted".into()
        },
    }
    FailedReconnectStopped {
        in_release: |r| r.has(Switch::A1),
        bucket: Ignore,
        reason: ReasonShape::FailedReconnect,
        wording: |_| "a failed allocation that reconnected, desired to stop, is ignored".into(),
    }
    HealthyNodeReconnectedAfterExpiry {
        in_release: |r| !r.has(Switch::D3),
        bucket: Lost,
        reason: ReasonShape::ReconnectedLate,
        wording: |_| reconnected_late(ON_UNTAINTED, "lost"),
    }
    HealthyNodeReconnectedExpiring {
        in_release: |r| r.has(Switch::D3),
        bucket: Expiring,
        reason: ReasonShape::ReconnectedLate,
        wording: |_| reconnected_late(ON_UNTAINTED, "expiring"),
    }
    HealthyNodeReconnected {
        in_release: |_| true,
        bucket: Reconnecting,
        reason: ReasonShape::NodeReconnect,
        wording: |t| reconnected(t, ON_UNTAINTED),
    }
    HealthyNode {
        in_release: |_| true,
        bucket: Untainted,
        reason: ReasonShape::Node,
        wording: |_| "on an untainted node, untainted".into(),
    }
    DisconnectedNodeRunning {
        in_release: |_| true,
        bucket: Disconnecting,
        reason: ReasonShape::NodeRunning,
        wording: |_| "running on a disconnected node means disconnecting".into(),
    }
    DisconnectedNodePending {
        in_release: |_| true,
        bucket: Lost,
        reason: ReasonShape::NodeClient,
        wording: |_| "pending on a disconnected node means lost".into(),
    }
    DisconnectedNodeRunningKept {
        in_release: |r| r.has(Switch::D3),
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
        bucket: Lost,
        reason: ReasonShape::NotWaited(Setting::MaxClientDisconnect),
        wording: |t| lost_without(&t.timeout),
    }
    DisconnectedNodeUnknown {
        in_release: |_| true,
        bucket: Untainted,
        reason: ReasonShape::NodeClient,
        wording: |_| {
            "unknown on a disconnected node is untainted (its follow-up eval exists)".into()
        },
    }
    DisconnectedNodeWithoutLostAfter {
        in_release: |_| true,
        bucket: Lost,
        reason: ReasonShape::NotWaited(Setting::LostAfter),
        wording: |_| lost_without(Setting::LostAfter.field()),
    }
    DisconnectedNode {
        in_release: |_| true,
        bucket: Disconnecting,
        reason: ReasonShape::NodeClient,
        wording: |_| "otherwise on a disconnected node, disconnecting".into(),
    }
    ReadyNodeReconnectedAfterExpiry {
        in_release: |r| !r.has(Switch::D3),
        bucket: Lost,
        reason: ReasonShape::ReconnectedLate,
        wording: |_| reconnected_late(ON_READY, "lost"),
    }
    ReadyNodeReconnectedExpiring {
        in_release: |r| r.has(Switch::D3),
        bucket: Expiring,
        reason: ReasonShape::ReconnectedLate,
        wording: |_| reconnected_late(ON_READY, "expiring"),
    }
    ReadyNodeReconnected {
        in_release: |_| true,
        bucket: Reconnecting,
        reason: ReasonShape::NodeReconnect,
        wording: |t| reconnected(t, ON_READY),
    }
    NodeGarbageCollected {
        in_release: |_| true,
        bucket: Lost,
        reason: ReasonShape::NodeClient,
        wording: |_| "on a garbage-collected node, lost".into(),
    }
    NodeDownUnknownKept {
        in_release: |r| r.has(Switch::D3),
        bucket: Untainted,
        reason: ReasonShape::NodeClientKept,
        wording: |t| format!("with {}, unknown on a down node means untainted", t.keep),
    }
    NodeDownRunningKept {
        in_release: |r| r.has(Switch::D3),
        bucket: Disconnecting,
        reason: ReasonShape::NodeClientKept,
        wording: |t| format!("with {}, running on a down node means disconnecting", t.keep),
    }
    NodeDown {
        in_release: |_| true,
        bucket: Lost,
        reason: ReasonShape::NodeClient,
        wording: |_| "on a down node, lost".into(),
    }
    TaintedNodeKept {
        in_release: |_| true,
        bucket: Untainted,
        reason: ReasonShape::Node,
        wording: |_| {
            "on a tainted node that is not down (draining, disconnected), untainted".into()
        },
    }
}

/// Where the untainted-node reconnect checks hold; their rows and the
/// tainted-ready-node ones differ only in the node they name.
const ON_UNTAINTED: &str = "on an untainted node";
/// Where the tainted-ready-node reconnect checks hold.
const ON_READY: &str = "on a tainted ready node";

/// The wording of a reconnect past its expiry, `on` a node, deciding `bucket`.
fn reconnected_late(on: &str, bucket: &str) -> String {
    format!("{on}, reconnected after its expiry means {bucket}")
}

/// The wording of a reconnect in time, `on` a node.
fn reconnected(t: &Terms, on: &str) -> String {
    if t.rewritten {
        format!(
            "{on}, an allocation whose client has not reported since it went unknown is reconnecting"
        )
    } else {
        format!("{on}, reconnected in time means reconnecting")
    }
}

/// The wording of a disconnected node's group that lacks `setting`.
fn lost_without(setting: &str) -> String {
    format!("on a disconnected node, a group without {setting} is lost")
}

impl TaintRule {
    pub(super) fn row(self) -> &'static TaintRow {
        &TAINT_RULES[self as usize]
    }

    /// Whether the release with `switches` has this check.
    pub(super) fn in_release(self, switches: &Switches) -> bool {
        (self.row().in_release)(switches)
    }

    /// The bucket the rule decides.
    pub fn bucket(self) -> Bucket {
        self.row().bucket
    }

    /// What the rule's bucket reason names.
    pub fn reason(self) -> ReasonShape {
        self.row().reason
    }
}
