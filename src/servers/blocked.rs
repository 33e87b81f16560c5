//! The blocked-evals tracker (nomad/blocked_evals.go): one blocked
//! evaluation per job, the newest replacing the older, let go when
//! capacity may have appeared (a node ready or eligible, an allocation
//! terminal) and run again with the trigger `queued-allocs`.

use super::eval::{NewEval, PendingEval};

#[derive(Default)]
pub struct BlockedEvals {
    evals: Vec<PendingEval>,
}

impl BlockedEvals {
    /// Tracks `eval`, in place of the job's earlier blocked evaluation.
    pub fn block(&mut self, eval: PendingEval) {
        self.evals.retain(|e| {
            (&e.eval.namespace, &e.eval.job_id) != (&eval.eval.namespace, &eval.eval.job_id)
        });
        self.evals.push(eval);
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
