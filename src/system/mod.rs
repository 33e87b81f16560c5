//! Nomad's system scheduler (scheduler/scheduler_system.go and the
//! `diffSystemAllocs` family of scheduler/util.go at 8ac3e642e6), which
//! schedules `system` and `sysbatch` jobs: one allocation per task group on
//! every feasible node, no deployments.

mod diff;
mod failures;
mod fit;
mod placements;
mod ready_nodes;
mod schedule;

pub use diff::{Category, DiffEntry, SystemDiff, Unrequired, Why, split_terminal};
pub use failures::{FailedGroup, Failures, Targets};
pub use fit::{FitInput, Fitted, PlanFit};
pub use ready_nodes::{ReadyNodes, Targeting, in_datacenters, in_pool};
pub use schedule::{
    ExhaustedPlacement, FilteredPlacement, NODE_TAINTED, SystemDestructive, SystemInput,
    SystemPlacement, SystemSchedule, SystemStop,
};

#[cfg(test)]
mod tests;
