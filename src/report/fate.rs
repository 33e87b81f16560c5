//! What the plan does with each allocation, in one word: the plan lists its
//! actions by kind, and a script asking about one allocation should not have
//! to look through every list.

use std::collections::HashMap;

use serde::Serialize;

use super::plan::Plan;
use crate::model::{ClientStatus, Id};

/// An allocation's fate. When the plan does several things to one
/// allocation, the first variant that applies names it (the declaration
/// order is the precedence): a disconnecting allocation that is also
/// replaced is `disconnect`, a lost one replaced at once is `lost`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    /// Replaced by an allocation of the new job version.
    DestructiveUpdate,
    /// Updated where it runs.
    InPlaceUpdate,
    /// Marked `unknown` until its client's disconnect window ends.
    Disconnect,
    /// Resumed on its reconnected client.
    Reconnect,
    /// Stopped with client status `lost`, or replaced as lost.
    Lost,
    /// Failed, and replaced now.
    RescheduleNow,
    /// Stopped and replaced elsewhere (a drain, a tainted node).
    Migrate,
    /// Not stopped (it is terminal already), but a new allocation takes its
    /// place on its node.
    Replace,
    /// Stopped, not replaced.
    Stop,
    /// Failed, and given the follow-up evaluation that will replace it.
    RescheduleLater,
    /// Nothing in the plan names it.
    Untouched,
}

/// The fate of every allocation a plan names, built once per job.
pub struct Fates<'p>(HashMap<&'p Id, Fate>);

impl<'p> Fates<'p> {
    pub fn of(plan: &'p Plan) -> Self {
        let stopped: HashMap<&Id, bool> = plan
            .stop
            .iter()
            .map(|s| (&s.alloc_id, s.client_status == Some(ClientStatus::Lost)))
            .collect();
        let mut fates = Fates(HashMap::with_capacity(stopped.len()));
        for (&id, &lost) in &stopped {
            fates.mark(id, if lost { Fate::Lost } else { Fate::Stop });
        }
        for p in &plan.place {
            let Some(id) = &p.previous_alloc_id else {
                continue;
            };
            let fate = if p.lost {
                Fate::Lost
            } else if p.reschedule {
                Fate::RescheduleNow
            } else if stopped.contains_key(id) {
                Fate::Migrate
            } else {
                Fate::Replace
            };
            fates.mark(id, fate);
        }
        let kinds = [
            (
                Fate::DestructiveUpdate,
                plan.destructive_update
                    .iter()
                    .filter(|d| d.replaced())
                    .map(|d| &d.alloc_id)
                    .collect::<Vec<_>>(),
            ),
            (
                Fate::InPlaceUpdate,
                plan.in_place_update.iter().map(|u| &u.alloc_id).collect(),
            ),
            (
                Fate::Disconnect,
                plan.disconnect_updates
                    .iter()
                    .map(|u| &u.alloc_id)
                    .collect(),
            ),
            (
                Fate::Reconnect,
                plan.reconnect_updates.iter().map(|u| &u.alloc_id).collect(),
            ),
            (
                Fate::RescheduleLater,
                plan.attribute_updates.iter().map(|u| &u.alloc_id).collect(),
            ),
        ];
        for (fate, ids) in kinds {
            for id in ids {
                fates.mark(id, fate);
            }
        }
        fates
    }

    /// The fate of allocation `id`.
    pub fn of_alloc(&self, id: &Id) -> Fate {
        self.0.get(id).copied().unwrap_or(Fate::Untouched)
    }

    /// Records `fate` for `id` unless it has one that comes first.
    fn mark(&mut self, id: &'p Id, fate: Fate) {
        let f = self.0.entry(id).or_insert(fate);
        *f = (*f).min(fate);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::report::{PlanFollowupUpdate, PlanPlace, PlanStop};

    fn stop(id: &str, client_status: Option<&str>) -> PlanStop {
        PlanStop {
            alloc_id: id.into(),
            name: format!("web.web[{id}]"),
            task_group: Arc::from("web"),
            client_status: client_status.map(ClientStatus::from),
            description: "d",
            followup_eval_id: None,
        }
    }

    fn place(previous: &str, reschedule: bool, lost: bool) -> PlanPlace {
        PlanPlace {
            task_group: Arc::from("web"),
            name: format!("web.web[{previous}]"),
            canary: false,
            previous_alloc_id: Some(previous.into()),
            reschedule,
            lost,
            downgrade_non_canary: false,
            min_job_version: 0,
            job_version: None,
            deployment_id: None,
            node_id: None,
            score: None,
        }
    }

    fn update(id: &str) -> PlanFollowupUpdate {
        PlanFollowupUpdate {
            alloc_id: id.into(),
            followup_eval_id: "e".to_string(),
        }
    }

    #[test]
    fn each_action_names_its_fate() {
        let plan = Plan {
            stop: vec![
                stop("lost", Some("lost")),
                stop("migrated", None),
                stop("stopped", None),
                stop("failed", None),
            ],
            place: vec![
                place("migrated", false, false),
                place("failed", true, false),
                place("terminal", false, false),
                place("replaced-lost", false, true),
            ],
            attribute_updates: vec![update("later")],
            disconnect_updates: vec![update("gone")],
            ..Plan::default()
        };
        let fates = Fates::of(&plan);
        for (id, fate) in [
            ("lost", Fate::Lost),
            ("replaced-lost", Fate::Lost),
            ("migrated", Fate::Migrate),
            ("stopped", Fate::Stop),
            ("failed", Fate::RescheduleNow),
            ("terminal", Fate::Replace),
            ("later", Fate::RescheduleLater),
            ("gone", Fate::Disconnect),
            ("absent", Fate::Untouched),
        ] {
            assert_eq!(fates.of_alloc(&Id::from(id)), fate, "{id}");
        }
    }

    #[test]
    fn the_first_fate_in_order_wins() {
        // A disconnecting allocation replaced at once keeps its disconnect.
        let plan = Plan {
            disconnect_updates: vec![update("a")],
            place: vec![place("a", true, false)],
            ..Plan::default()
        };
        assert_eq!(Fates::of(&plan).of_alloc(&Id::from("a")), Fate::Disconnect);
        assert_eq!(
            serde_json::to_string(&Fate::RescheduleNow).unwrap(),
            "\"reschedule_now\""
        );
    }
}
