//! What the reconciler read about one allocation while deciding, kept when
//! the replay asks for it (`--explain`), so that an explanation states the
//! decision instead of making it again.

use super::reschedule_facts::RescheduleFacts;
use super::rules::Rules;
use crate::model::{Allocation, Reconnection};
use crate::time::{Duration, Time};
use crate::version::Switch;

/// The facts of one allocation's decisions.
#[derive(Clone, Debug)]
pub struct AllocFacts {
    pub disconnect: DisconnectFacts,
    /// `None` where the group never weighs a reschedule (a removed or
    /// stopped group, an allocation outside the untainted and disconnecting
    /// buckets).
    pub reschedule: Option<RescheduleFacts>,
}

/// The disconnect timeout and reconnect comparison of `filterByTainted`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DisconnectFacts {
    /// The group's lost timeout as the release reads it.
    pub timeout: Option<Duration>,
    /// The last transition to unknown; zero when none.
    pub unknown_since: Time,
    /// `unknown_since` plus the timeout, when both are known.
    pub expiry: Option<Time>,
    /// Unknown and past its expiry at the evaluation time (`Expired`).
    pub expired: bool,
    pub reconnect: ReconnectCheck,
}

/// How the release tells that an allocation reconnected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReconnectCheck {
    /// From the allocation's states (from C-1): whether its latest
    /// client-status state is unknown.
    States { needs: bool },
    /// From its latest `Reconnected` task event, and whether it had expired
    /// by then.
    Event { at: Time, late: bool },
    /// Neither states nor an event say it did.
    None,
}

impl DisconnectFacts {
    pub fn of(alloc: &Allocation, rules: &Rules, now: Time) -> DisconnectFacts {
        let fields = rules.disconnect_fields();
        let reconnect = if rules.has(Switch::C1) {
            ReconnectCheck::States {
                needs: alloc.needs_to_reconnect_from(rules.has(Switch::H4)),
            }
        } else {
            match alloc.last_reconnect() {
                Some(at) => ReconnectCheck::Event {
                    at,
                    late: alloc.reconnected(fields) == Reconnection::AfterExpiry,
                },
                None => ReconnectCheck::None,
            }
        };
        DisconnectFacts {
            timeout: alloc
                .own_task_group()
                .and_then(|tg| tg.expiry_timeout(fields)),
            unknown_since: alloc.unknown_since(fields),
            expiry: alloc.disconnect_expiry(fields),
            expired: alloc.expired(now, fields),
            reconnect,
        }
    }
}
