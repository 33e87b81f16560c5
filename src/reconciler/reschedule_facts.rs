//! What the reschedule filters read about one allocation: the prefilter,
//! the basis its time is counted from, and the delay arithmetic.

use super::reschedule::{Prefilter, RescheduleBasis, RescheduleContext, should_filter};
use super::rules::Rules;
use crate::model::{Allocation, DelaySteps, TaskGroup};
use crate::time::Time;
use crate::version::Switch;

/// One allocation's reschedule, as `filterByRescheduleable` weighs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RescheduleFacts {
    /// Terminal with a `NextAllocation`: already replaced, never weighed.
    pub replaced: bool,
    pub prefilter: Prefilter,
    /// Whether the policy is read at all (`updateByReschedulable`).
    pub policy_read: bool,
    pub basis: RescheduleBasis,
    /// The time the basis counts from.
    pub fail_time: Time,
    /// When the next attempt is allowed (zero: none), and whether one is.
    pub next: Time,
    pub eligible: bool,
    /// Reschedule attempts within the policy's interval before the fail
    /// time, when the allocation has a policy.
    pub attempts: Option<i64>,
    pub delay: DelaySteps,
    /// How the release replaces the allocation should it disconnect.
    pub disconnecting: DisconnectingReplacement,
}

/// How a disconnecting allocation is replaced, as the replayed release
/// decides for the allocation's own task group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DisconnectingReplacement {
    /// At once, whatever its policy (before D-1).
    AtOnce,
    /// Never rescheduled: its group sets `disconnect.replace = false`
    /// (from G-1); only a force-reschedule moves it.
    Held,
    /// Its group has a `disconnect` block whose `replace` alone decides,
    /// at once or never, whatever the policy (D-4b).
    ByReplace(bool),
    /// By its reschedule policy (from D-1).
    ByPolicy,
}

impl DisconnectingReplacement {
    /// The rule `rules` applies to a disconnecting allocation of `group`:
    /// at once before D-1 (1.4.14, 1.5.10, 1.6.3, 1.7.0); by `replace`
    /// alone for a group with a disconnect block from 1.8.0 to 1.11.1
    /// (D-4b); from 1.11.2 (G-1) by its policy, except never with
    /// `replace = false`.
    pub fn of(rules: &Rules, group: Option<&TaskGroup>) -> Self {
        if !rules.has(Switch::D1) {
            DisconnectingReplacement::AtOnce
        } else if rules.holds_disconnecting(group) {
            DisconnectingReplacement::Held
        } else {
            match rules.replaces_disconnecting_at_once(group) {
                Some(replace) => DisconnectingReplacement::ByReplace(replace),
                None => DisconnectingReplacement::ByPolicy,
            }
        }
    }
}

impl RescheduleFacts {
    pub fn of(alloc: &Allocation, ctx: RescheduleContext<'_>, disconnecting: bool) -> Self {
        let rules = ctx.rules;
        let prefilter = should_filter(alloc, ctx.batch, rules);
        let basis = RescheduleBasis::of(alloc, rules, ctx.eval_id, disconnecting);
        let fail_time = basis.fail_time(alloc, rules, ctx.now);
        let (next, eligible) = basis.next(alloc, rules, ctx.now);
        RescheduleFacts {
            replaced: !alloc.next_allocation.is_empty() && alloc.terminal_status(),
            prefilter,
            policy_read: !prefilter.skips_policy(rules, disconnecting),
            basis,
            fail_time,
            next,
            eligible,
            attempts: alloc
                .reschedule_policy()
                .map(|p| alloc.reschedule_attempts(p, fail_time)),
            delay: alloc.next_delay_steps(),
            disconnecting: DisconnectingReplacement::of(rules, alloc.own_task_group()),
        }
    }
}
