//! Placing with an older version of the job, as `computePlacements` does
//! for a downgraded non-canary placement: the stack takes that version and
//! then the current one back (`setJob`, `setNodes`).

use super::setup::Setup;
use super::state::Placer;
use super::target::Target;
use crate::model::Job;

impl<'a> Placer<'a> {
    /// Places with `job`, another version of the same job, from now on:
    /// its constraints, affinities, spreads and priority, its scheduler
    /// configuration (`setup`), and with `retarget` its datacenters and
    /// node pool. The plan so far, the failures and the class verdicts,
    /// kept by group name, stay.
    pub fn set_job(&mut self, job: &'a Job, retarget: bool, setup: Setup) {
        self.job = job;
        self.setup = setup;
        self.checks.set_job(job);
        self.spreads.set_job(job);
        if retarget {
            self.target = Target::of(self.cluster, job, &self.setup);
        }
    }
}
