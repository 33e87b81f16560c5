//! A group's allocations sorted once, before any decision is made from them.

use super::group::GroupContext;
use super::reconnect::{ReconnectOutcome, reconcile_reconnecting};
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
    /// `filterByTainted`'s buckets as it made them (reports show these).
    pub buckets: TaintedSets<'a>,
    /// From C-2, what settling the reconnecting allocations decided; its
    /// stops are out of every set below, its survivors in `untainted`.
    pub reconnected: ReconnectOutcome<'a>,
    /// The buckets the later steps work on: those of `filterByTainted`,
    /// less what the reconnects stopped (all reconnecting ones from C-2).
    pub migrate: AllocSet<'a>,
    pub lost: AllocSet<'a>,
    pub disconnecting: AllocSet<'a>,
    pub reconnecting: AllocSet<'a>,
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
        let reconnecting = &buckets[Bucket::Reconnecting];
        let reconnected = if ctx.rules.reconciles_reconnects_first() && !reconnecting.is_empty() {
            reconcile_reconnecting(reconnecting, &all, ctx.job.job)
        } else {
            ReconnectOutcome::default()
        };
        let working = |b: Bucket| buckets[b].difference(&[&reconnected.stopped]);
        let untainted = working(Bucket::Untainted).union(&[&reconnected.reconnect]);
        let (migrate, lost) = (working(Bucket::Migrate), working(Bucket::Lost));
        let disconnecting = working(Bucket::Disconnecting);
        let reconnecting = working(Bucket::Reconnecting).difference(&[&reconnected.reconnect]);

        let rctx = ctx.reschedule_context();
        let RescheduleSets {
            untainted,
            now,
            later: reschedule_later,
        } = untainted.filter_by_rescheduleable(rctx, false);
        let reschedule_disconnecting = disconnecting.filter_by_rescheduleable(rctx, true).now;
        let lost_later = lost.delay_by_stop_after_client_disconnect(ctx.cluster.now);
        GroupSets {
            all,
            set_aside,
            canaries,
            untainted,
            reschedule_now: now.union(&[&reschedule_disconnecting]),
            reschedule_later,
            lost_later,
            buckets,
            reconnected,
            migrate,
            lost,
            disconnecting,
            reconnecting,
        }
    }

    /// The stops settling the reconnects decided, in order.
    pub fn reconnect_stops(&self) -> Vec<StopResult<'a>> {
        let stop = |&(alloc, client_status, description)| StopResult {
            alloc,
            client_status,
            description,
            followup_eval_id: None,
        };
        self.reconnected.stops.iter().map(stop).collect()
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
