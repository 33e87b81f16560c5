//! The evaluations the snapshot's servers already hold (`Evals`), which a
//! story with `--until` carries on: a `pending` one is handed out at its
//! `WaitUntil` (at once without one), a `blocked` one waits in the
//! blocked-evals tracker until capacity appears. The evaluation the replay
//! itself stands for (`--eval`, `EvalID`) is not run twice. They are taken
//! in ID order, as a new leader restores them (`restoreEvals`, v1.3.0
//! nomad/leader.go:556-578), so of a job's several blocked evaluations
//! (which a live leader reduces to one within a second) the tracker keeps
//! the one of the highest Raft index, the later by ID on a tie, and
//! cancels the others.

use crate::model::{JobType, Snapshot};

use super::eval::NewEval;

/// The snapshot's pending and blocked evaluations, in that order, each
/// sorted by ID, leaving out `replayed`.
pub fn intake(snapshot: &Snapshot, replayed: &str) -> (Vec<NewEval>, Vec<NewEval>) {
    let mut evals: Vec<_> = snapshot.evals.iter().filter(|e| e.id != replayed).collect();
    evals.sort_by(|a, b| a.id.cmp(&b.id));
    let of = |status: &str| -> Vec<NewEval> {
        evals
            .iter()
            .filter(|e| e.status == status)
            .map(|e| NewEval {
                id: e.id.to_string(),
                namespace: e.namespace.to_string(),
                job_id: e.job_id.to_string(),
                job_type: JobType::from(e.eval_type.as_str()),
                priority: e.priority,
                triggered_by: e.triggered_by.to_string(),
                node_id: (!e.node_id.is_empty()).then(|| e.node_id.to_string()),
                wait_until: (!e.wait_until.is_zero()).then_some(e.wait_until),
                raft_index: Some(e.latest_index()),
            })
            .collect()
    };
    (of("pending"), of("blocked"))
}
