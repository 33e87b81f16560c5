//! The part of `computeGroup` that handles allocations on disconnected
//! nodes: which are replaced now, later or kept, their timeout evals and
//! unknown updates, and the expired ones of the `expiring` bucket.

use std::collections::HashMap;
use std::sync::Arc;

use super::{AllocSet, AllocUpdate, DelayedReschedule, Reconciler, RescheduleSets};
use crate::model::TaskGroup;

/// What the disconnecting allocations add to the group's sets, and the
/// follow-up eval of every allocation that `computeStop` stops with one.
#[derive(Default)]
pub(super) struct DisconnectOutcome<'a> {
    /// Kept, and counted, while unknown.
    pub untainted: AllocSet<'a>,
    pub now: AllocSet<'a>,
    pub later: Vec<DelayedReschedule<'a>>,
    /// The lost-later and timeout evals by allocation.
    pub followup_evals: HashMap<&'a str, Arc<str>>,
}

impl<'a> Reconciler<'a, '_> {
    /// The disconnecting allocations of group `tg`, given what
    /// `filterByRescheduleable` makes of them, with the lost-later evals of
    /// `lost_later`, created in the order the release creates them.
    pub(super) fn compute_disconnecting(
        &mut self,
        tg: &TaskGroup,
        disconnecting: &AllocSet<'a>,
        rescheduleable: RescheduleSets<'a>,
        lost_later: &[DelayedReschedule<'a>],
    ) -> DisconnectOutcome<'a> {
        let rules = self.input.rules;
        let group = tg.name.as_str();
        let mut out = DisconnectOutcome::default();
        if !rules.reschedules_disconnecting_by_policy() {
            out.now = rescheduleable.now;
            out.followup_evals = self.create_lost_later_evals(lost_later.to_vec(), group);
            let timeouts = self.create_timeout_later_evals(disconnecting, group);
            out.followup_evals.extend(timeouts);
            return out;
        }
        let mut timeouts = HashMap::new();
        if !disconnecting.is_empty() {
            let fields = rules.disconnect_fields();
            if !rules.has_expiring_bucket() || tg.disconnect_supported(fields) {
                let sets = rescheduleable;
                (out.untainted, out.now, out.later) = (sets.untainted, sets.now, sets.later);
                timeouts = self.create_timeout_later_evals(disconnecting, group);
            } else if rules.prevents_reschedule_on_lost(Some(tg)) {
                out.untainted = disconnecting.clone();
            }
            if rules.has_expiring_bucket() {
                // Every one is marked unknown, with or without a timeout eval.
                for alloc in disconnecting.iter() {
                    self.result
                        .disconnect_updates
                        .entry(&alloc.id)
                        .or_insert_with(|| AllocUpdate {
                            alloc,
                            followup_eval_id: Arc::from(""),
                        });
                }
            }
        }
        out.followup_evals = self.create_lost_later_evals(lost_later.to_vec(), group);
        out.followup_evals.extend(timeouts);
        out
    }

    /// The `expiring` allocations join the untainted ones if the group
    /// prevents rescheduling on lost, else the lost ones; returns
    /// (untainted, lost).
    pub(super) fn merge_expiring(
        &self,
        tg: &TaskGroup,
        expiring: &AllocSet<'a>,
        untainted: AllocSet<'a>,
        lost: &AllocSet<'a>,
    ) -> (AllocSet<'a>, AllocSet<'a>) {
        if expiring.is_empty() {
            (untainted, lost.clone())
        } else if self.input.rules.prevents_reschedule_on_lost(Some(tg)) {
            (untainted.union(&[expiring]), lost.clone())
        } else {
            (untainted, lost.union(&[expiring]))
        }
    }
}
