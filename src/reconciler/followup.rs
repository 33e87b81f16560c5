//! Follow-up evaluations: delayed reschedules, `stop_after_client_disconnect`
//! delays and `max_client_disconnect` timeouts, batched in 5 s windows.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use super::alloc_set::AllocSet;
use super::group_sets::GroupSets;
use super::ids::Ids;
use super::reschedule::DelayedReschedule;
use super::results::{AllocUpdate, FollowupEval, desc, trigger};
use super::rules::Rules;
use crate::model::Id;
use crate::time::{SECOND, Time};
use crate::version::Switch;

/// Allocations due within this window of a batch's first share its eval
/// (`batchedFailedAllocWindowSize`).
const BATCH_WINDOW: i64 = 5 * SECOND;

/// A group's follow-up evaluations and the allocation updates naming them.
#[derive(Default)]
pub(super) struct Followups<'a> {
    /// In the order they were created.
    pub evals: Vec<FollowupEval<'a>>,
    /// The eval a lost allocation's stop names: its delayed replacement, or
    /// the disconnect timeout of a disconnecting one.
    pub stop_evals: HashMap<&'a Id, Arc<str>>,
    pub disconnect_updates: BTreeMap<&'a Id, AllocUpdate<'a>>,
    pub attribute_updates: BTreeMap<&'a Id, AllocUpdate<'a>>,
}

impl<'a> Followups<'a> {
    /// The group's follow-ups, made in the release's order: lost allocations
    /// waiting to be replaced, then disconnect timeouts (from D-1 the other
    /// way round), then delayed reschedules. From D-3 every disconnecting
    /// allocation is marked unknown, with or without a timeout eval.
    pub fn new(
        ids: &mut Ids,
        group: &str,
        now: Time,
        sets: &GroupSets<'a>,
        rules: &Rules,
    ) -> Followups<'a> {
        let mut f = Followups::default();
        let disconnecting = &sets.disconnecting;
        let lost_later = sets.lost_later.clone();
        if rules.has(Switch::D1) {
            let timeouts = if sets.disconnect_timeouts {
                f.create_timeout_later_evals(ids, group, disconnecting, now, rules)
            } else {
                HashMap::new()
            };
            if rules.has(Switch::D3) {
                for alloc in disconnecting.iter() {
                    f.disconnect_updates
                        .entry(&alloc.id)
                        .or_insert_with(|| AllocUpdate {
                            alloc,
                            followup_eval_id: Arc::from(""),
                        });
                }
            }
            f.stop_evals = f.create_lost_later_evals(ids, group, lost_later);
            f.stop_evals.extend(timeouts);
        } else {
            f.stop_evals = f.create_lost_later_evals(ids, group, lost_later);
            let timeouts = f.create_timeout_later_evals(ids, group, disconnecting, now, rules);
            f.stop_evals.extend(timeouts);
        }
        f.create_reschedule_later_evals(
            ids,
            group,
            sets.reschedule_later.clone(),
            &sets.migrate,
            rules,
        );
        f
    }

    /// `createLostLaterEvals`: evals for delayed reschedules; returns the
    /// eval ID of each allocation. Nomad describes only the first eval.
    fn create_lost_later_evals(
        &mut self,
        ids: &mut Ids,
        group: &str,
        delays: Vec<DelayedReschedule<'a>>,
    ) -> HashMap<&'a Id, Arc<str>> {
        if delays.is_empty() {
            return HashMap::new();
        }
        self.create_later_evals(ids, group, delays, trigger::RETRY_FAILED_ALLOC)
    }

    /// `createLaterEvals`: evals for delayed reschedules, the first
    /// triggered by `first`, the others by `alloc-failure`; returns the eval
    /// ID of each allocation. Nomad describes only the first eval.
    fn create_later_evals(
        &mut self,
        ids: &mut Ids,
        group: &str,
        delays: Vec<DelayedReschedule<'a>>,
        first: &'static str,
    ) -> HashMap<&'a Id, Arc<str>> {
        if delays.is_empty() {
            return HashMap::new();
        }
        let triggers = [first, trigger::RETRY_FAILED_ALLOC];
        let (evals, by_alloc) = batch_followups(ids, delays, group, triggers, false);
        self.evals.extend(evals);
        by_alloc
    }

    /// `createTimeoutLaterEvals`: evals at each disconnecting allocation's
    /// `max_client_disconnect` expiry, and its update to `unknown`. If any of
    /// the group's disconnecting allocations has no future timeout, Nomad
    /// creates none of them, until 1.11.2 creates them all.
    fn create_timeout_later_evals(
        &mut self,
        ids: &mut Ids,
        group: &str,
        disconnecting: &AllocSet<'a>,
        now: Time,
        rules: &Rules,
    ) -> HashMap<&'a Id, Arc<str>> {
        if disconnecting.is_empty() {
            return HashMap::new();
        }
        let delays = disconnecting.delay_by_max_client_disconnect(now, rules.disconnect_fields());
        let delays = if rules.has(Switch::G1) {
            delays
        } else {
            let future: Vec<_> = delays.into_iter().filter(|d| d.at > now).collect();
            if future.len() != disconnecting.len() {
                return HashMap::new();
            }
            future
        };
        let triggers = [trigger::MAX_DISCONNECT_TIMEOUT; 2];
        let (evals, by_alloc) = batch_followups(ids, delays, group, triggers, true);
        for alloc in disconnecting.iter() {
            if let Some(eval_id) = by_alloc.get(&alloc.id) {
                self.disconnect_updates.insert(
                    &alloc.id,
                    AllocUpdate {
                        alloc,
                        followup_eval_id: Arc::clone(eval_id),
                    },
                );
            }
        }
        self.evals.extend(evals);
        by_alloc
    }

    /// `createRescheduleLaterEvals`: evals for failed allocations to
    /// reschedule later, each allocation updated with its eval ID; from
    /// 1.11.0 a migrating one gets no update (Nomad sets the ID on the
    /// allocation it stops, in memory only).
    fn create_reschedule_later_evals(
        &mut self,
        ids: &mut Ids,
        group: &str,
        later: Vec<DelayedReschedule<'a>>,
        migrate: &AllocSet<'a>,
        rules: &Rules,
    ) {
        let allocs: Vec<_> = later.iter().map(|d| d.alloc).collect();
        let first = if rules.has(Switch::G0) {
            trigger::ALLOC_RESCHEDULE
        } else {
            trigger::RETRY_FAILED_ALLOC
        };
        let by_alloc = self.create_later_evals(ids, group, later, first);
        for alloc in allocs {
            if let Some(eval_id) = by_alloc.get(&alloc.id) {
                // A disconnecting allocation's unknown update carries the
                // reschedule eval instead of its timeout eval.
                if let Some(update) = self.disconnect_updates.get_mut(&alloc.id) {
                    update.followup_eval_id = Arc::clone(eval_id);
                    continue;
                }
                if rules.has(Switch::G0) && migrate.contains(&alloc.id) {
                    continue;
                }
                self.attribute_updates.insert(
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

/// Groups delays into evals: each batch starts at its earliest time and
/// takes everything due less than 5 s after it; the first is triggered by
/// `first`, the others by `rest`. Ties (which Go's unstable
/// sort leaves arbitrary) are ordered by allocation ID.
fn batch_followups<'a>(
    ids: &mut Ids,
    mut delays: Vec<DelayedReschedule<'a>>,
    group: &str,
    [first, rest]: [&'static str; 2],
    describe_all: bool,
) -> (Vec<FollowupEval<'a>>, HashMap<&'a Id, Arc<str>>) {
    delays.sort_by(|a, b| a.at.cmp(&b.at).then_with(|| a.alloc.id.cmp(&b.alloc.id)));
    let mut evals: Vec<FollowupEval<'a>> = Vec::new();
    let mut by_alloc = HashMap::with_capacity(delays.len());
    for d in delays {
        let start_new = evals
            .last()
            .is_none_or(|e| d.at.sub(e.wait_until) >= BATCH_WINDOW);
        if start_new {
            let triggered_by = if evals.is_empty() { first } else { rest };
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
                id: Arc::from(ids.issue(triggered_by, group)),
                triggered_by,
                wait_until: d.at,
                status_description: description,
                task_group: group.to_string(),
                alloc_ids: Vec::new(),
            });
        }
        let eval = evals.last_mut().expect("a batch was started above");
        eval.alloc_ids.push(&d.alloc.id);
        by_alloc.insert(&d.alloc.id, Arc::clone(&eval.id));
    }
    (evals, by_alloc)
}
