//! A group's allocations sorted once, before any decision is made from them.

use super::group::GroupContext;
use super::{AllocSet, Bucket, DelayedReschedule, SetAside, StopResult};
use super::{RescheduleSets, TaintedSets};
use crate::model::Allocation;

/// What `computeGroup` works from: the allocations set aside, the
/// `filterByTainted` buckets, and the untainted and disconnecting ones split
/// by `filterByRescheduleable`. Every later step reads these and none
/// changes them.
pub(super) struct GroupSets<'a> {
    /// The group's allocations less those set aside.
    pub all: AllocSet<'a>,
    pub set_aside: Vec<(&'a Allocation, SetAside)>,
    /// The current deployment's canaries that are still standing.
    pub canaries: AllocSet<'a>,
    pub buckets: TaintedSets<'a>,
    /// Untainted allocations that are not rescheduled now.
    pub untainted: AllocSet<'a>,
    /// Failed untainted allocations and disconnecting ones to replace now.
    pub reschedule_now: AllocSet<'a>,
    pub reschedule_later: Vec<DelayedReschedule<'a>>,
    /// Lost allocations waiting out `stop_after_client_disconnect`.
    pub lost_later: Vec<DelayedReschedule<'a>>,
}

impl<'a> GroupSets<'a> {
    pub fn build(ctx: &GroupContext<'_, 'a, '_>, all: AllocSet<'a>) -> GroupSets<'a> {
        let (all, old_terminal) = ctx.filter_old_terminal_allocs(all);
        let mut set_aside: Vec<_> = old_terminal
            .iter()
            .map(|a| (a, SetAside::OldTerminalBatch))
            .collect();
        let (canaries, all) = ctx.cancel_unneeded_canaries(all, &mut set_aside);
        let buckets = ctx.cluster.group_buckets(ctx.name, &all);

        let rctx = ctx.reschedule_context();
        let RescheduleSets {
            untainted,
            now,
            later: reschedule_later,
        } = buckets[Bucket::Untainted].filter_by_rescheduleable(rctx, false);
        let disconnecting = &buckets[Bucket::Disconnecting];
        let reschedule_disconnecting = disconnecting.filter_by_rescheduleable(rctx, true).now;
        let lost_later =
            buckets[Bucket::Lost].delay_by_stop_after_client_disconnect(ctx.cluster.now);
        GroupSets {
            all,
            set_aside,
            canaries,
            untainted,
            reschedule_now: now.union(&[&reschedule_disconnecting]),
            reschedule_later,
            lost_later,
            buckets,
        }
    }

    /// How many allocations were set aside for `reason`.
    pub fn set_aside_count(&self, reason: SetAside) -> u64 {
        self.set_aside.iter().filter(|(_, r)| *r == reason).count() as u64
    }

    /// The stops of the set-aside allocations that are stopped, in the order
    /// they were set aside.
    pub fn set_aside_stops(&self) -> Vec<StopResult<'a>> {
        let stop = |&(alloc, reason): &(&'a Allocation, SetAside)| {
            let (client_status, description) = SetAside::stop(reason)?;
            Some(StopResult {
                alloc,
                client_status,
                description,
                followup_eval_id: None,
            })
        };
        self.set_aside.iter().filter_map(stop).collect()
    }
}
