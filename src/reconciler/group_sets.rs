//! A group's allocations sorted once, before any decision is made from them.

use super::alloc_set::AllocSet;
use super::bucket::Bucket;
use super::context::GroupContext;
use super::reconnect::{ReconnectOutcome, reconcile_reconnecting};
use super::reschedule::{DelayedReschedule, RescheduleSets};
use super::results::StopResult;
use super::set_aside::SetAside;
use super::tainted::{TaintRules, TaintedSets};
use crate::model::{Allocation, TaskGroup};
use crate::version::Switch;

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
    /// The rule behind each allocation of `buckets`.
    pub bucket_rules: TaintRules,
    /// From C-2, what settling the reconnecting allocations decided; its
    /// stops are out of every set below, its survivors in `untainted`.
    pub reconnected: ReconnectOutcome<'a>,
    /// The buckets the later steps work on: those of `filterByTainted`,
    /// less what the reconnects stopped (all reconnecting ones from C-2).
    pub migrate: AllocSet<'a>,
    /// The lost allocations less the reconnect's stops, with every expiring
    /// one the group does not keep.
    pub lost: AllocSet<'a>,
    pub disconnecting: AllocSet<'a>,
    pub reconnecting: AllocSet<'a>,
    /// Untainted allocations that are not rescheduled now.
    pub untainted: AllocSet<'a>,
    /// Failed untainted allocations and disconnecting ones to replace now.
    pub reschedule_now: AllocSet<'a>,
    pub reschedule_later: Vec<DelayedReschedule<'a>>,
    /// Untainted allocations whose reschedule time was read from a policy
    /// their group does not have.
    pub without_policy: AllocSet<'a>,
    /// Allocations rescheduled now by their force-reschedule transition
    /// alone.
    pub forced: AllocSet<'a>,
    /// Lost allocations waiting out `stop_after_client_disconnect`.
    pub lost_later: Vec<DelayedReschedule<'a>>,
    /// Whether the disconnecting allocations get timeout evals: always up
    /// to 1.7.1, from D-3 only in groups that support disconnects, from G-1
    /// always again.
    pub disconnect_timeouts: bool,
}

impl<'a> GroupSets<'a> {
    pub fn build(
        ctx: &GroupContext<'_, 'a, '_>,
        tg: &TaskGroup,
        all: AllocSet<'a>,
    ) -> GroupSets<'a> {
        let (all, old_terminal) = ctx.filter_old_terminal_allocs(all);
        let mut set_aside: Vec<_> = old_terminal
            .iter()
            .map(|a| (a, SetAside::OldTerminalBatch))
            .collect();
        let (canaries, all) = ctx.cancel_unneeded_canaries(all, &mut set_aside);
        let (buckets, bucket_rules) = ctx.cluster.group_buckets(&all);
        let reconnecting = &buckets[Bucket::Reconnecting];
        let reconnected = if ctx.rules.has(Switch::C2) && !reconnecting.is_empty() {
            reconcile_reconnecting(
                reconnecting,
                &all,
                ctx.job.job,
                tg,
                ctx.cluster.now,
                ctx.rules,
            )
        } else {
            ReconnectOutcome::default()
        };
        let working = |b: Bucket| buckets[b].difference(&[&reconnected.stopped]);
        let (migrate, lost) = (working(Bucket::Migrate), working(Bucket::Lost));
        let disconnecting = working(Bucket::Disconnecting);
        let reconnecting = working(Bucket::Reconnecting).difference(&[&reconnected.reconnect]);

        let rules = ctx.rules;
        let fields = rules.disconnect_fields();
        let rctx = ctx.reschedule_context();
        let resumed = |set: AllocSet<'a>| set.union(&[&reconnected.reconnect]);
        let RescheduleSets {
            untainted,
            mut now,
            later: mut reschedule_later,
            without_policy,
            mut forced,
        } = if rules.has(Switch::D1) {
            let mut sets = buckets[Bucket::Untainted].filter_by_rescheduleable(rctx, false);
            sets.untainted = resumed(sets.untainted.difference(&[&reconnected.stopped]));
            sets
        } else {
            resumed(working(Bucket::Untainted)).filter_by_rescheduleable(rctx, false)
        };
        if rules.has(Switch::G0) {
            // Batch allocations stopped with `alloc stop` migrate and are
            // rescheduled; the migrate set itself is left as it is.
            let m = buckets[Bucket::Migrate].filter_by_rescheduleable(rctx, false);
            now = now.union(&[&m.now]);
            forced = forced.union(&[&m.forced]);
            reschedule_later.extend(m.later);
        }
        let expiring = &buckets[Bucket::Expiring];
        let (mut untainted, lost) = merge_expiring(ctx, tg, expiring, untainted, lost);

        let split = disconnecting.filter_by_rescheduleable(rctx, true);
        let disconnect_timeouts =
            !rules.has(Switch::D3) || rules.has(Switch::G1) || tg.disconnect_supported(fields);
        let mut reschedule_now = now.union(&[&split.now]);
        let forced = forced.union(&[&split.forced]);
        if !rules.has(Switch::D1) {
            // Every candidate is replaced now.
        } else if disconnect_timeouts {
            untainted = untainted.union(&[&split.untainted]);
            reschedule_later.extend(split.later);
        } else {
            reschedule_now = now;
            if rules.prevents_reschedule_on_lost(Some(tg)) {
                untainted = untainted.union(&[&disconnecting]);
            }
        }
        let lost_later = lost.delay_by_stop_after_client_disconnect(ctx.cluster.now, fields);
        GroupSets {
            all,
            set_aside,
            canaries,
            untainted,
            reschedule_now,
            reschedule_later,
            without_policy,
            forced,
            lost,
            lost_later,
            disconnect_timeouts,
            buckets,
            bucket_rules,
            reconnected,
            migrate,
            disconnecting,
            reconnecting,
        }
    }

    /// The stops settling the reconnects decided, in order.
    pub fn reconnect_stops(&self) -> Vec<StopResult<'a>> {
        self.reconnected
            .stops
            .iter()
            .map(|(alloc, client_status, description)| StopResult {
                alloc,
                client_status: client_status.clone(),
                description,
                followup_eval_id: None,
            })
            .collect()
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

/// The `expiring` allocations (1.7.2 on) join the untainted ones if the
/// group prevents rescheduling on lost, else the lost ones (v1.7.2
/// scheduler/reconcile.go:487); returns (untainted, lost). Nomad merges
/// them whole, after taking the reconnect's stops out of the other sets, so
/// an expiring replacement stopped on reconnect is stopped again as lost
/// (v1.9.7 scheduler/reconcile.go:482, :497-501).
fn merge_expiring<'a>(
    ctx: &GroupContext<'_, 'a, '_>,
    tg: &TaskGroup,
    expiring: &AllocSet<'a>,
    untainted: AllocSet<'a>,
    lost: AllocSet<'a>,
) -> (AllocSet<'a>, AllocSet<'a>) {
    if expiring.is_empty() {
        (untainted, lost)
    } else if ctx.rules.keeps_expiring(tg) {
        (untainted.union(&[expiring]), lost)
    } else {
        (untainted, lost.union(&[expiring]))
    }
}
