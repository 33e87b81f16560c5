//! Evaluations, as far as `--eval` replays one.

use serde::Deserialize;

use crate::time::Time;

/// A `structs.Evaluation` from the snapshot's `Evals`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Evaluation {
    #[serde(rename = "ID")]
    pub id: String,
    pub namespace: String,
    #[serde(rename = "JobID")]
    pub job_id: String,
    pub priority: i64,
    #[serde(rename = "Type")]
    pub eval_type: String,
    pub triggered_by: String,
    pub status: String,
    /// "allocs reconnected" on a follow-up evaluation the state store
    /// canceled when its allocations reconnected (1.10.2 on).
    pub status_description: String,
    /// Set on an evaluation that was itself delayed; such an evaluation
    /// creates no follow-up evaluations.
    pub wait_until: Time,
}
