//! The result of a replay: JSON output schema version 1.
//!
//! These types are the machine-readable contract (`docs/json-schema.md`).
//! Every list is sorted, so the same snapshot gives the same bytes.
//!
//! Strings that many entries repeat (node IDs and statuses, task groups, an
//! allocation's name) are shared, bucket entries' mostly with the
//! snapshot's allocations, and the scheduler's fixed texts are
//! `&'static str`: a report on a million allocations holds no copy of them.
//! A bucket entry keeps the facts of its reason, put into words only when
//! it is written.

use serde::Serialize;

pub use crate::placement::{AllocMetric, Score};

use crate::time::Time;
use crate::version::Profile;
use crate::warning::Warning;

mod buckets;
mod count_gap;
mod fate;
mod job;
mod plan;
mod summary;

pub use buckets::{BucketEntry, Buckets, EntryWhy, RescheduleLater, SetAsideEntry};
pub use count_gap::{CountGap, GapCause, PlanList};
pub use fate::{Fate, Fates};
pub use job::{FilteredNode, GroupChanges, GroupReport, JobReport, SystemDiffReport};
pub use plan::{
    BlockedEval, FailedPlacement, NearestMiss, Plan, PlanAllocState, PlanDeployment,
    PlanDeploymentGroup, PlanDeploymentUpdate, PlanDestructive, PlanFollowupEval,
    PlanFollowupUpdate, PlanInPlace, PlanPlace, PlanPreemption, PlanReconnect, PlanSchedulerConfig,
    PlanStop, VersionGaps,
};
pub use summary::AllocationSummary;

/// The version of this schema; bumped on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// The whole document. `jobs` and `warnings` come last, which the
/// streamed JSON relies on (`render::json::render_streamed`).
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub schema_version: u32,
    /// The evaluation time.
    pub now: Time,
    pub now_source: NowSource,
    /// The evaluation ID the reconciler ran with.
    pub eval_id: String,
    /// The priority of the evaluation replayed with `--eval`; null when none
    /// is, and each job's own priority is used.
    pub eval_priority: Option<i64>,
    pub supports_disconnected_clients: bool,
    /// The Nomad release replayed, and why.
    pub nomad_version: Profile,
    pub jobs: Vec<JobReport>,
    pub warnings: Vec<Warning>,
}

/// Where the evaluation time came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NowSource {
    /// `--now`.
    Flag,
    /// The snapshot's `Now` key.
    Snapshot,
    /// The time in the snapshot's `SnapshotMeta` ID.
    SnapshotMeta,
    /// The machine's clock: not reproducible.
    Clock,
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::model::Id;

    fn update(id: &str) -> PlanFollowupUpdate {
        PlanFollowupUpdate {
            alloc_id: id.to_string().into(),
            followup_eval_id: "e".to_string(),
        }
    }

    #[test]
    fn is_noop_counts_what_nomad_puts_in_the_plan() {
        assert!(Plan::default().is_noop());
        let changed = [
            Plan {
                attribute_updates: vec![update("a")],
                ..Plan::default()
            },
            Plan {
                disconnect_updates: vec![update("a")],
                ..Plan::default()
            },
            Plan {
                deployment_updates: vec![PlanDeploymentUpdate {
                    deployment_id: "d".to_string(),
                    status: "successful".to_string(),
                    status_description: String::new(),
                }],
                ..Plan::default()
            },
            Plan {
                deployment: Some(PlanDeployment {
                    id: "d".to_string(),
                    status: "running".to_string(),
                    status_description: String::new(),
                    job_version: 1,
                    groups: BTreeMap::new(),
                }),
                ..Plan::default()
            },
            Plan {
                in_place_update: vec![PlanInPlace {
                    alloc_id: "a".into(),
                    name: "web.web[0]".to_string(),
                    deployment_id: None,
                }],
                ..Plan::default()
            },
        ];
        for plan in &changed {
            assert!(!plan.is_noop(), "{plan:?}");
        }
    }

    #[test]
    fn reconnect_updates_and_followup_evals_alone_are_a_noop() {
        let plan = Plan {
            reconnect_updates: vec![PlanReconnect {
                alloc_id: "a".into(),
                alloc_state: None,
            }],
            followup_evals: vec![PlanFollowupEval {
                id: "e".to_string(),
                triggered_by: "alloc-failure".to_string(),
                wait_until: Time::default(),
                status_description: String::new(),
                task_group: "web".to_string(),
                alloc_ids: vec!["a".into()],
            }],
            ..Plan::default()
        };
        assert!(plan.is_noop());
        assert!(!plan.touches(&Id::from("a")));
        // From C-1 the reconnect update is an entry of the plan.
        let planned = Plan {
            reconnects_planned: true,
            ..plan
        };
        assert!(!planned.is_noop());
        assert!(planned.touches(&Id::from("a")));
    }

    #[test]
    fn touches_names_only_the_changed_allocation() {
        let plan = Plan {
            attribute_updates: vec![update("a")],
            ..Plan::default()
        };
        assert!(plan.touches(&Id::from("a")));
        assert!(!plan.touches(&Id::from("b")));
    }
}
