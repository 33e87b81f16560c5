//! The evaluations the servers create, as the broker holds them.

use std::cmp::Ordering;

use serde::Serialize;

use crate::model::JobType;
use crate::time::Time;

/// Nomad's `EvalTrigger*` strings (nomad/structs/structs.go).
pub mod trigger {
    pub const NODE_UPDATE: &str = "node-update";
    pub const NODE_DRAIN: &str = "node-drain";
    pub const RETRY_FAILED_ALLOC: &str = "alloc-failure";
    pub const RECONNECT: &str = "reconnect";
    pub const JOB_DEREGISTER: &str = "job-deregister";
    pub const QUEUED_ALLOCS: &str = "queued-allocs";
    pub const PREEMPTION: &str = "preemption";
    pub const DEPLOYMENT_WATCHER: &str = "deployment-watcher";
}

/// What made an evaluation, which decides whether it runs without `--until`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// A server's answer to a `--what-if` event.
    Event,
    /// A plan's follow-up (`WaitUntil`) evaluation.
    Followup,
    /// A blocked evaluation the blocked-evals tracker let go.
    Unblocked,
}

/// An evaluation as a server endpoint makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEval {
    pub id: String,
    pub namespace: String,
    pub job_id: String,
    pub job_type: JobType,
    pub priority: i64,
    pub triggered_by: String,
    /// Set by node updates only.
    pub node_id: Option<String>,
    pub wait_until: Option<Time>,
    /// The Raft index of a snapshot's evaluation (`Evaluation::latest_index`);
    /// none for those the story writes, which come after every such index.
    pub raft_index: Option<u64>,
}

impl NewEval {
    pub fn pending(self, created: Time, batch: u64, within: usize, origin: Origin) -> PendingEval {
        PendingEval {
            due: self.wait_until.unwrap_or(created).max(created),
            created,
            batch,
            within,
            origin,
            eval: self,
        }
    }
}

/// A deterministic evaluation ID: a UUID from what the evaluation is and
/// the write that made it.
pub fn eval_id(at: Time, triggered_by: &str, namespace: &str, job_id: &str, salt: &str) -> String {
    let name = format!(
        "plan-inspect/what-if/{}/{triggered_by}/{namespace}/{job_id}/{salt}",
        at.unix_nanos()
    );
    uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_OID, name.as_bytes()).to_string()
}

/// An evaluation waiting in the broker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingEval {
    pub eval: NewEval,
    pub created: Time,
    /// When the broker hands it out: its `WaitUntil`, else its creation.
    pub due: Time,
    /// The server write that made it, counted over the story.
    pub batch: u64,
    /// Its place in that write.
    pub within: usize,
    pub origin: Origin,
}

impl PendingEval {
    /// The order of the writes that made evaluations: the snapshot's by
    /// their Raft index, then the story's by write and place in it.
    pub fn written(&self) -> (bool, u64, u64, usize) {
        (
            self.eval.raft_index.is_none(),
            self.eval.raft_index.unwrap_or(0),
            self.batch,
            self.within,
        )
    }

    /// The broker's order for evaluations due at the same instant: higher
    /// priority first, then the older write, then by job ID (Nomad's
    /// pending heap orders by priority, then `CreateIndex`; the evaluations
    /// of one write share an index, so the job ID decides).
    pub fn broker_order(&self, other: &PendingEval) -> Ordering {
        self.due
            .cmp(&other.due)
            .then(other.eval.priority.cmp(&self.eval.priority))
            .then(self.batch.cmp(&other.batch))
            .then(self.eval.namespace.cmp(&other.eval.namespace))
            .then(self.eval.job_id.cmp(&other.eval.job_id))
            .then(self.within.cmp(&other.within))
    }
}
