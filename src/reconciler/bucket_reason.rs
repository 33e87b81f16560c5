//! Why an allocation is in its bucket: the facts `filterByTainted` used, and
//! the one sentence every output makes from them.

use super::reason_shape::{ReasonKind, ReasonShape};
use super::taint_rule::TaintRule;
use crate::model::{Allocation, DisconnectFields, Node};
use crate::time::Time;
use crate::version::Setting;

impl TaintRule {
    /// What the reason of this rule names.
    pub fn reason_kind(self) -> ReasonKind {
        self.reason().kind()
    }
}

/// The allocation's times that the disconnect rules look at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReasonTimes {
    /// The last transition to client status unknown; zero when none is recorded.
    pub unknown_since: Time,
    /// When `max_client_disconnect` expires, counted from `unknown_since`;
    /// none without either.
    pub disconnect_expiry: Option<Time>,
    /// The last `Reconnected` task event.
    pub reconnected_at: Option<Time>,
    /// Which group setting the release reads for the expiry.
    pub fields: DisconnectFields,
}

impl ReasonTimes {
    pub fn of(alloc: &Allocation, fields: DisconnectFields) -> ReasonTimes {
        ReasonTimes {
            unknown_since: alloc.unknown_since(fields),
            disconnect_expiry: alloc.disconnect_expiry(fields),
            reconnected_at: alloc.last_reconnect(),
            fields,
        }
    }

    /// The name of the setting that times the expiry, as the release reads
    /// it: `max_client_disconnect` to 1.7 (and first in 1.8, 1.9), the
    /// `disconnect` block's `lost_after` from 1.10 (F-1).
    fn setting(&self) -> String {
        Setting::any_of(Setting::lost_timeout(self.fields))
    }
}

/// The allocation's node as a reason describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReasonNode<'s> {
    /// The node's status; none when the node is garbage-collected.
    pub status: Option<&'s str>,
    /// The node carries a drain strategy.
    pub draining: bool,
}

impl<'s> ReasonNode<'s> {
    pub fn of(node: Option<&'s Node>) -> ReasonNode<'s> {
        ReasonNode {
            status: node.map(|n| n.status.as_str()),
            draining: node.is_some_and(Node::has_drain_strategy),
        }
    }

    pub fn describe(&self) -> String {
        match self.status {
            None => "node garbage-collected".to_string(),
            Some(status) if self.draining => format!("node {status} and draining"),
            Some(status) => format!("node {status}"),
        }
    }
}

/// The facts that put one allocation in its bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BucketReason<'s> {
    pub rule: TaintRule,
    pub node: ReasonNode<'s>,
    pub client_status: &'s str,
    pub desired_status: &'s str,
    /// Read only for rules of [`ReasonKind::Times`]; the default otherwise.
    pub times: ReasonTimes,
}

impl<'s> BucketReason<'s> {
    /// The facts of `rule` for `alloc` on `node` (`None`: garbage-collected),
    /// its times read as `fields` says.
    pub fn of(
        alloc: &'s Allocation,
        rule: TaintRule,
        node: Option<&'s Node>,
        fields: DisconnectFields,
    ) -> BucketReason<'s> {
        BucketReason {
            rule,
            node: ReasonNode::of(node),
            client_status: alloc.client_status.as_str(),
            desired_status: alloc.desired_status.as_str(),
            times: match rule.reason_kind() {
                ReasonKind::Times => ReasonTimes::of(alloc, fields),
                _ => ReasonTimes::default(),
            },
        }
    }

    /// The reason as one line, every time in it written by `time`: exact in
    /// the JSON and explanations, relative to now in tables.
    pub fn sentence(&self, time: impl Fn(Time) -> String) -> String {
        let t = &self.times;
        let unknown = || match t.disconnect_expiry {
            Some(expiry) => format!(
                "unknown since {}, {} expires {}",
                time(t.unknown_since),
                t.setting(),
                time(expiry)
            ),
            None if t.unknown_since.is_zero() => "no unknown transition recorded".to_string(),
            None => format!(
                "unknown since {}, no {}",
                time(t.unknown_since),
                t.setting()
            ),
        };
        // Without a `Reconnected` event the reconnect came from the
        // allocation's states (1.3.8 on): its latest transition is unknown.
        let reconnect = || match t.reconnected_at {
            Some(at) => format!("client reconnected {}", time(at)),
            None => format!("needs to reconnect: {}", unknown()),
        };
        let node = || self.node.describe();
        let client = self.client_status;
        let desired = self.desired_status;
        match self.rule.reason() {
            ReasonShape::Node => node(),
            ReasonShape::Terminal => format!("terminal (desired {desired}, client {client})"),
            ReasonShape::Migrate => format!("migrate transition set; {}", node()),
            ReasonShape::TerminalCanary => format!(
                "terminal canary (desired {desired}, client {client}), migrate transition set"
            ),
            ReasonShape::Expired => format!("{}: expired", unknown()),
            ReasonShape::ReconnectedLate => format!("{}, after {}", reconnect(), unknown()),
            ReasonShape::NodeClient => format!("{}; client {client}", node()),
            ReasonShape::NodeClientKept => format!(
                "{}; client {client}; {}",
                node(),
                Setting::PreventRescheduleOnLost.name()
            ),
            ReasonShape::NodeRunning => format!("{}; client running", node()),
            ReasonShape::NotWaited(missing) => format!(
                "{}; client {client}; the group sets no {}, so it is not waited for",
                node(),
                missing.name()
            ),
            ReasonShape::NodeReconnect => format!("{}; {}", node(), reconnect()),
            ReasonShape::ClientUnknown => format!("client unknown; {}", unknown()),
            ReasonShape::FailedReconnect => {
                format!("client failed, desired {desired}; {}", reconnect())
            }
        }
    }

    /// [`BucketReason::sentence`] with exact RFC 3339 times.
    pub fn exact(&self) -> String {
        self.sentence(|t| t.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Time {
        Time::parse_rfc3339(s).unwrap()
    }

    fn reason(rule: TaintRule, times: ReasonTimes) -> BucketReason<'static> {
        BucketReason {
            rule,
            node: ReasonNode {
                status: Some("ready"),
                draining: false,
            },
            client_status: "running",
            desired_status: "run",
            times,
        }
    }

    /// Every time in a reason goes through the caller's formatter, so a
    /// table can show it relative to now and the JSON exactly.
    #[test]
    fn every_time_is_written_by_the_caller() {
        let times = ReasonTimes {
            unknown_since: at("2022-04-01T11:58:00Z"),
            disconnect_expiry: Some(at("2022-04-01T12:03:00.25Z")),
            reconnected_at: Some(at("2022-04-01T11:59:30Z")),
            fields: DisconnectFields::Legacy,
        };
        let r = reason(TaintRule::HealthyNodeReconnectedAfterExpiry, times);
        assert_eq!(
            r.exact(),
            "client reconnected 2022-04-01T11:59:30Z, after unknown since 2022-04-01T11:58:00Z, \
             max_client_disconnect expires 2022-04-01T12:03:00.25Z"
        );
        assert_eq!(
            r.sentence(|_| "T".to_string()),
            "client reconnected T, after unknown since T, max_client_disconnect expires T"
        );
    }

    /// A group that does not wait for disconnected clients says so in
    /// words, naming the setting it lacks.
    #[test]
    fn a_group_that_does_not_wait_says_which_setting_it_lacks() {
        let mut r = reason(
            TaintRule::DisconnectedNodeUnsupported,
            ReasonTimes::default(),
        );
        r.node.status = Some("disconnected");
        assert_eq!(
            r.exact(),
            "node disconnected; client running; the group sets no max_client_disconnect, so it \
             is not waited for"
        );
        r.rule = TaintRule::DisconnectedNodeWithoutLostAfter;
        assert_eq!(
            r.exact(),
            "node disconnected; client running; the group sets no disconnect.lost_after, so it \
             is not waited for"
        );
    }

    /// The expiry names the setting the release reads: the `disconnect`
    /// block's `lost_after` from 1.10.
    #[test]
    fn the_expiry_names_the_release_s_setting() {
        let times = |fields| ReasonTimes {
            unknown_since: at("2022-04-01T11:58:00Z"),
            disconnect_expiry: None,
            reconnected_at: None,
            fields,
        };
        let sentence =
            |fields| reason(TaintRule::ClientUnknown, times(fields)).sentence(|_| "T".to_string());
        assert_eq!(
            sentence(DisconnectFields::Legacy),
            "client unknown; unknown since T, no max_client_disconnect"
        );
        assert_eq!(
            sentence(DisconnectFields::BlockStrict),
            "client unknown; unknown since T, no disconnect.lost_after"
        );
    }

    /// Rules of the node kind say what the node's description says, and
    /// only rules of the times kind name a time.
    #[test]
    fn kinds_say_what_a_reason_depends_on() {
        let times = ReasonTimes {
            unknown_since: at("2022-04-01T11:58:00Z"),
            disconnect_expiry: None,
            reconnected_at: Some(at("2022-04-01T11:59:30Z")),
            fields: DisconnectFields::Legacy,
        };
        for &rule in TaintRule::ALL {
            let r = reason(rule, times);
            let names_time = r.sentence(|_| "<T>".to_string()).contains("<T>");
            assert_eq!(
                names_time,
                rule.reason_kind() == ReasonKind::Times,
                "{rule:?}"
            );
            let is_node = r.exact() == r.node.describe();
            assert_eq!(is_node, rule.reason_kind() == ReasonKind::Node, "{rule:?}");
        }
    }

    #[test]
    fn nodes_are_described_by_status_and_drain() {
        let node = |status, draining| ReasonNode { status, draining }.describe();
        assert_eq!(node(None, false), "node garbage-collected");
        assert_eq!(node(Some("ready"), true), "node ready and draining");
        assert_eq!(node(Some("down"), false), "node down");
    }
}
