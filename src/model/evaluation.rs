//! Evaluations, as far as `--eval` replays one.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{Id, Name, nullable};
use crate::time::Time;

/// A `structs.Evaluation` from the snapshot's `Evals`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Evaluation {
    #[serde(rename = "ID")]
    pub id: Id,
    pub namespace: Name,
    #[serde(rename = "JobID")]
    pub job_id: Name,
    pub priority: i64,
    /// The node a node-update or node-drain evaluation is for.
    #[serde(rename = "NodeID")]
    pub node_id: Name,
    #[serde(rename = "Type")]
    pub eval_type: Name,
    pub triggered_by: Name,
    pub status: Name,
    /// "allocs reconnected" on a follow-up evaluation the state store
    /// canceled when its allocations reconnected (1.10.2 on).
    pub status_description: Name,
    /// Set on an evaluation that was itself delayed; such an evaluation
    /// creates no follow-up evaluations.
    pub wait_until: Time,
    /// What the scheduler decided, kept on every finished evaluation from
    /// Nomad 1.11.0 on (`PlanAnnotations`).
    pub plan_annotations: Option<PlanAnnotations>,
    pub create_index: u64,
    /// The state index the scheduler saw: a re-blocked evaluation keeps its
    /// `CreateIndex` but carries a newer `SnapshotIndex`.
    pub snapshot_index: u64,
}

impl Evaluation {
    /// The Raft index of the evaluation's latest write, by which the
    /// blocked-evals tracker keeps the newer of a job's two blocked
    /// evaluations (`latestEvalIndex`, v1.3.0 nomad/blocked_evals.go:288-294,
    /// v2.0.5 :346-352).
    pub fn latest_index(&self) -> u64 {
        self.create_index.max(self.snapshot_index)
    }
}

/// A `structs.PlanAnnotations`: Nomad's own desired changes per group.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct PlanAnnotations {
    #[serde(rename = "DesiredTGUpdates", deserialize_with = "nullable")]
    pub desired_tg_updates: BTreeMap<String, DesiredUpdates>,
}

/// A `structs.DesiredUpdates`, with the counters 1.11.0 added.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct DesiredUpdates {
    pub ignore: u64,
    pub place: u64,
    pub migrate: u64,
    pub stop: u64,
    pub in_place_update: u64,
    pub destructive_update: u64,
    pub canary: u64,
    pub preemptions: u64,
    pub disconnect: u64,
    pub reconnect: u64,
    pub reschedule_now: u64,
    pub reschedule_later: u64,
}
