//! Follow-up evaluations: delayed reschedules, `stop_after_client_disconnect`
//! delays and `max_client_disconnect` timeouts, batched in 5 s windows.

use std::collections::HashMap;
use std::sync::Arc;

use super::{AllocSet, AllocUpdate, DelayedReschedule, FollowupEval, Reconciler, desc, trigger};
use crate::time::SECOND;

/// Allocations due within this window of a batch's first share its eval
/// (`batchedFailedAllocWindowSize`).
const BATCH_WINDOW: i64 = 5 * SECOND;

impl<'a> Reconciler<'a, '_> {
    /// Groups delays into evals: each batch starts at its earliest time and
    /// takes everything due less than 5 s after it. Ties (which Go's unstable
    /// sort leaves arbitrary) are ordered by allocation ID.
    fn batch_followups(
        &mut self,
        mut delays: Vec<DelayedReschedule<'a>>,
        group: &str,
        triggered_by: &'static str,
        describe_all: bool,
    ) -> (Vec<FollowupEval<'a>>, HashMap<&'a str, Arc<str>>) {
        delays.sort_by(|a, b| a.at.cmp(&b.at).then_with(|| a.alloc.id.cmp(&b.alloc.id)));
        let mut evals: Vec<FollowupEval<'a>> = Vec::new();
        let mut by_alloc = HashMap::with_capacity(delays.len());
        for d in delays {
            let start_new = evals
                .last()
                .is_none_or(|e| d.at.sub(e.wait_until) >= BATCH_WINDOW);
            if start_new {
                let description = if describe_all || evals.is_empty() {
                    if triggered_by == trigger::MAX_DISCONNECT_TIMEOUT {
                        desc::DISCONNECT_TIMEOUT_FOLLOWUP
                    } else {
                        desc::RESCHEDULING_FOLLOWUP
                    }
                } else {
                    ""
                };
                evals.push(FollowupEval {
                    id: Arc::from(self.derive_id(triggered_by, group)),
                    triggered_by,
                    wait_until: d.at,
                    status_description: description,
                    task_group: group.to_string(),
                    alloc_ids: Vec::new(),
                });
            }
            let eval = evals.last_mut().expect("a batch was started above");
            eval.alloc_ids.push(&d.alloc.id);
            by_alloc.insert(d.alloc.id.as_str(), Arc::clone(&eval.id));
        }
        (evals, by_alloc)
    }

    fn append_followup_evals(&mut self, group: &str, evals: Vec<FollowupEval<'a>>) {
        self.result
            .desired_followup_evals
            .entry(group.to_string())
            .or_default()
            .extend(evals);
    }

    /// `createLostLaterEvals`: evals for delayed reschedules; returns the
    /// eval ID of each allocation. Nomad describes only the first eval.
    pub(super) fn create_lost_later_evals(
        &mut self,
        delays: Vec<DelayedReschedule<'a>>,
        group: &str,
    ) -> HashMap<&'a str, Arc<str>> {
        if delays.is_empty() {
            return HashMap::new();
        }
        let (evals, by_alloc) =
            self.batch_followups(delays, group, trigger::RETRY_FAILED_ALLOC, false);
        self.append_followup_evals(group, evals);
        by_alloc
    }

    /// `createTimeoutLaterEvals`: evals at each disconnecting allocation's
    /// `max_client_disconnect` expiry, and its update to `unknown`. If any of
    /// the group's disconnecting allocations has no future timeout, Nomad
    /// creates none of them.
    pub(super) fn create_timeout_later_evals(
        &mut self,
        disconnecting: &AllocSet<'a>,
        group: &str,
    ) -> HashMap<&'a str, Arc<str>> {
        if disconnecting.is_empty() {
            return HashMap::new();
        }
        let fields = self.input.rules.disconnect_fields();
        let delays = disconnecting.delay_by_max_client_disconnect(self.input.now, fields);
        if delays.len() != disconnecting.len() {
            return HashMap::new();
        }
        let (evals, by_alloc) =
            self.batch_followups(delays, group, trigger::MAX_DISCONNECT_TIMEOUT, true);
        // In ID order, as the map keeps them.
        for alloc in disconnecting.iter() {
            if let Some(eval_id) = by_alloc.get(alloc.id.as_str()) {
                self.result.disconnect_updates.insert(
                    &alloc.id,
                    AllocUpdate {
                        alloc,
                        followup_eval_id: Arc::clone(eval_id),
                    },
                );
            }
        }
        self.append_followup_evals(group, evals);
        by_alloc
    }

    /// `createRescheduleLaterEvals`: evals for failed allocations to
    /// reschedule later, each allocation updated with its eval ID.
    pub(super) fn create_reschedule_later_evals(
        &mut self,
        later: Vec<DelayedReschedule<'a>>,
        group: &str,
    ) {
        let allocs: Vec<_> = later.iter().map(|d| d.alloc).collect();
        let by_alloc = self.create_lost_later_evals(later, group);
        for alloc in allocs {
            if let Some(eval_id) = by_alloc.get(alloc.id.as_str()) {
                // A disconnecting allocation's unknown update carries the
                // reschedule eval instead of its timeout eval.
                if let Some(update) = self.result.disconnect_updates.get_mut(alloc.id.as_str()) {
                    update.followup_eval_id = Arc::clone(eval_id);
                    continue;
                }
                self.result.attribute_updates.insert(
                    &alloc.id,
                    AllocUpdate {
                        alloc,
                        followup_eval_id: Arc::clone(eval_id),
                    },
                );
            }
        }
    }
}
