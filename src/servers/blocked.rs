//! The blocked-evals tracker (nomad/blocked_evals.go): one blocked
//! evaluation per job, the newer replacing the older, which the leader
//! then cancels; let go when capacity may have appeared (a node ready or
//! eligible, an allocation terminal) and run again with the trigger
//! `queued-allocs`.

use super::eval::{NewEval, PendingEval};

#[derive(Default)]
pub struct BlockedEvals {
    evals: Vec<PendingEval>,
}

/// A blocked evaluation the tracker dropped for another of its job.
pub struct Duplicate {
    pub canceled: PendingEval,
    pub kept_id: String,
}

impl BlockedEvals {
    /// Tracks `eval` (`processBlockJobDuplicate`, v1.3.0
    /// nomad/blocked_evals.go:240-286, v2.0.5 :298-343, the same rule at
    /// every tag): of the job's two blocked evaluations the one of the
    /// later write stays (Nomad compares `max(CreateIndex, SnapshotIndex)`,
    /// :249 and :307, and keeps the new one on a tie) and the other is the
    /// duplicate returned, which the leader's reaper cancels.
    pub fn block(&mut self, eval: PendingEval) -> Option<Duplicate> {
        let job = |e: &PendingEval| (e.eval.namespace.clone(), e.eval.job_id.clone());
        let Some(i) = self.evals.iter().position(|e| job(e) == job(&eval)) else {
            self.evals.push(eval);
            return None;
        };
        if self.evals[i].written() <= eval.written() {
            let kept_id = eval.eval.id.clone();
            let canceled = std::mem::replace(&mut self.evals[i], eval);
            Some(Duplicate { canceled, kept_id })
        } else {
            Some(Duplicate {
                kept_id: self.evals[i].eval.id.clone(),
                canceled: eval,
            })
        }
    }

    /// `Untrack` (v1.3.0 nomad/fsm.go:779, v2.0.5 :982): the job's
    /// tracked evaluation, dropped as a successful evaluation of the job
    /// cancels it.
    pub fn untrack(&mut self, namespace: &str, job_id: &str) -> Option<PendingEval> {
        let i = self
            .evals
            .iter()
            .position(|e| e.eval.namespace == namespace && e.eval.job_id == job_id)?;
        Some(self.evals.remove(i))
    }

    /// `Unblock`: every tracked evaluation, to enqueue again.
    pub fn release(&mut self) -> Vec<NewEval> {
        std::mem::take(&mut self.evals)
            .into_iter()
            .map(|p| p.eval)
            .collect()
    }

    /// Those still blocked at the end of the story.
    pub fn into_evals(self) -> Vec<PendingEval> {
        self.evals
    }
}
