//! The scheduler configuration each job version's stack runs with: the
//! cluster's, merged from 1.6.0 with its node pool's own (`setJob`).

use super::JobContext;
use crate::model::{AppliedConfig, Job};
use crate::placement::Setup;
use crate::report::PlanSchedulerConfig;

impl<'a> JobContext<'a> {
    /// The configuration `job`'s stack runs with.
    pub(super) fn applied_config(&self, job: &Job) -> AppliedConfig {
        AppliedConfig::of(self.scheduler, self.node_pools, &job.node_pool)
    }

    /// The placement stage's setup for `job`, a version of the job
    /// replayed: `setJob` sets the stack's configuration with each version
    /// it takes (scheduler/generic_sched.go:566, :607 at 1.6.0).
    pub(super) fn setup_for(&self, job: &Job) -> Setup {
        self.placement.under(self.applied_config(job))
    }

    /// The plan's record of the configuration, where `job`'s pool set part
    /// of it; none for a stopped or purged job, whose stack never takes it.
    pub(super) fn config_fact(&self, job: Option<&Job>) -> Option<PlanSchedulerConfig> {
        let job = job.filter(|j| !j.stop)?;
        PlanSchedulerConfig::of(&self.applied_config(job))
    }
}
