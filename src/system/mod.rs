//! Nomad's system scheduler (scheduler/scheduler_system.go and the
//! `diffSystemAllocs` family of scheduler/util.go at 8ac3e642e6), which
//! schedules `system` and `sysbatch` jobs: one allocation per task group on
//! every feasible node; from 1.11.0 through the node reconciler
//! (scheduler/reconciler/reconcile_node.go), with deployments for system
//! jobs.

mod deployment_state;
mod diff;
mod failures;
mod fit;
mod in_place;
mod in_place_fit;
mod node_deployment;
mod placements;
mod ready_nodes;
mod rollout;
mod schedule;
mod why;

pub use deployment_state::{GroupCounts, StatusUpdate, WorkingDeployment};
pub use diff::{Category, DiffEntry, SystemDiff, split_terminal};
pub use failures::{FailedGroup, Failures, Targets};
pub use fit::{FitInput, Fitted, PlanFit};
pub use in_place_fit::InPlaceFit;
pub use ready_nodes::{ReadyNodes, Targeting, in_datacenters, in_pool};
pub use schedule::{
    ExhaustedPlacement, FilteredPlacement, NODE_TAINTED, SystemDestructive, SystemInput,
    SystemPlacement, SystemSchedule, SystemStop,
};
pub use why::{Unrequired, Why};

#[cfg(test)]
mod tests;
