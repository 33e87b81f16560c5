//! What the reschedule filters read about one allocation: the prefilter,
//! the basis its time is counted from, and the delay arithmetic.

use super::{Prefilter, RescheduleBasis, RescheduleContext, should_filter};
use crate::model::{Allocation, DelaySteps};
use crate::time::Time;

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
    /// A disconnecting allocation its group never reschedules
    /// (`disconnect.replace = false`, from G-1).
    pub held: bool,
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
            held: rules.holds_disconnecting(alloc.own_task_group()),
        }
    }
}
