//! Which failed allocations are rescheduled now, later, or not at all:
//! `filterByRescheduleable`, `shouldFilter`, `updateByReschedulable`.

use super::{AllocSet, Rules};
use crate::model::{Allocation, Deployment, status};
use crate::time::{SECOND, Time};

/// Nomad reschedules an allocation whose time is within this window of now,
/// to absorb clock drift between servers (`rescheduleWindowSize`).
const RESCHEDULE_WINDOW: i64 = SECOND;

/// An allocation to reschedule at a later time.
#[derive(Clone, Debug)]
pub struct DelayedReschedule<'a> {
    pub alloc: &'a Allocation,
    pub at: Time,
}

/// The result of `filterByRescheduleable`.
#[derive(Clone, Debug, Default)]
pub struct RescheduleSets<'a> {
    pub untainted: AllocSet<'a>,
    pub now: AllocSet<'a>,
    pub later: Vec<DelayedReschedule<'a>>,
}

/// What `updateByReschedulable` needs besides the allocation.
#[derive(Clone, Copy)]
pub struct RescheduleContext<'d> {
    pub rules: &'d Rules,
    pub batch: bool,
    pub now: Time,
    pub eval_id: &'d str,
    pub deployment: Option<&'d Deployment>,
}

impl<'a> AllocSet<'a> {
    /// `filterByRescheduleable`. With `disconnecting`, the untainted set is
    /// left empty and nothing is rescheduled later.
    pub fn filter_by_rescheduleable(
        &self,
        ctx: RescheduleContext<'_>,
        disconnecting: bool,
    ) -> RescheduleSets<'a> {
        const UNTAINTED: Option<usize> = Some(0);
        const NOW: Option<usize> = Some(1);
        let mut later = Vec::new();
        let [untainted, now] = self.split(|alloc| {
            if disconnecting
                && ctx.rules.skips_unknown_disconnecting()
                && alloc.client_status == status::UNKNOWN
            {
                return None;
            }
            if !alloc.next_allocation.is_empty() && alloc.terminal_status() {
                return None;
            }
            let (untainted, ignore) = should_filter(alloc, ctx.batch, ctx.rules);
            if untainted || ignore {
                return UNTAINTED.filter(|_| untainted && !disconnecting);
            }
            let (now, reschedule_later, at) = update_by_reschedulable(alloc, ctx, disconnecting);
            if !disconnecting && !now {
                if reschedule_later {
                    later.push(DelayedReschedule { alloc, at });
                }
                UNTAINTED
            } else {
                NOW
            }
        });
        RescheduleSets {
            untainted,
            now,
            later,
        }
    }
}

/// `shouldFilter`: whether an allocation counts as untainted, or is ignored,
/// before its reschedule policy is looked at.
pub fn should_filter(alloc: &Allocation, batch: bool, rules: &Rules) -> (bool, bool) {
    let desired_terminal = matches!(alloc.desired_status.as_str(), status::STOP | status::EVICT);
    if batch {
        if alloc.desired_status == status::EVICT && rules.ignores_evicted_batch_allocs() {
            return (false, true);
        }
        if desired_terminal {
            return if alloc.ran_successfully() {
                (true, false)
            } else {
                (false, true)
            };
        }
        return if alloc.client_status == status::FAILED {
            (false, false)
        } else {
            (true, false)
        };
    }
    if desired_terminal {
        return (false, true);
    }
    if matches!(
        alloc.client_status.as_str(),
        status::COMPLETE | status::LOST
    ) {
        return (false, true);
    }
    (false, false)
}

/// `updateByReschedulable`: (now, later, when).
pub fn update_by_reschedulable(
    alloc: &Allocation,
    ctx: RescheduleContext<'_>,
    disconnecting: bool,
) -> (bool, bool, Time) {
    if let Some(d) = ctx.deployment
        && alloc.deployment_id == d.id
        && d.active()
        && !alloc.desired_transition.should_reschedule()
    {
        return (false, false, Time::ZERO);
    }
    let forced = alloc.desired_transition.should_force_reschedule();
    let (at, eligible) = if disconnecting {
        alloc.next_reschedule_time_by_fail_time(ctx.now)
    } else {
        alloc.next_reschedule_time()
    };
    if eligible && (alloc.followup_eval_id == ctx.eval_id || at.sub(ctx.now) <= RESCHEDULE_WINDOW) {
        return (true, false, at);
    }
    let later = eligible && alloc.followup_eval_id.is_empty();
    (forced, later, at)
}

impl<'a> AllocSet<'a> {
    /// `delayByStopAfterClientDisconnect`: lost allocations whose group waits
    /// `stop_after_client_disconnect` before replacing them. Nomad reads the
    /// wall clock here; plan-inspect uses the evaluation time.
    pub fn delay_by_stop_after_client_disconnect(&self, now: Time) -> Vec<DelayedReschedule<'a>> {
        self.iter()
            .filter(|a| a.should_client_stop())
            .map(|alloc| DelayedReschedule {
                alloc,
                at: alloc.wait_client_stop(now),
            })
            .filter(|d| d.at > now)
            .collect()
    }

    /// `delayByMaxClientDisconnect`: when each disconnecting allocation
    /// becomes lost; those without a future timeout are left out.
    pub fn delay_by_max_client_disconnect(&self, now: Time) -> Vec<DelayedReschedule<'a>> {
        self.iter()
            .map(|alloc| DelayedReschedule {
                alloc,
                at: alloc.disconnect_timeout(now),
            })
            .filter(|d| d.at > now)
            .collect()
    }
}
