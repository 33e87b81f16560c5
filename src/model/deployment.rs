//! Deployments.

use serde::{Deserialize, Serialize};

use super::{Id, Name, SortedMap, nullable};
use crate::time::{Duration, Time};

/// A `structs.Deployment`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Deployment {
    #[serde(rename = "ID")]
    pub id: Id,
    pub namespace: Name,
    #[serde(rename = "JobID")]
    pub job_id: Name,
    pub job_version: u64,
    pub job_modify_index: u64,
    pub job_spec_modify_index: u64,
    pub job_create_index: u64,
    pub is_multiregion: bool,
    #[serde(deserialize_with = "nullable")]
    pub task_groups: SortedMap<Name, DeploymentState>,
    pub status: Name,
    pub status_description: Name,
    pub eval_priority: i64,
    pub create_index: u64,
    pub modify_index: u64,
}

/// A `structs.DeploymentState`: one task group's progress.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "PascalCase", default)]
pub struct DeploymentState {
    pub auto_revert: bool,
    pub auto_promote: bool,
    pub progress_deadline: Duration,
    pub promoted: bool,
    #[serde(deserialize_with = "nullable")]
    pub placed_canaries: Vec<Id>,
    pub desired_canaries: i64,
    pub desired_total: i64,
    pub placed_allocs: i64,
    pub healthy_allocs: i64,
    pub unhealthy_allocs: i64,
    /// When the deployment watcher fails the group for want of progress:
    /// the first placement plus the progress deadline, pushed on by each
    /// allocation that becomes healthy; zero until then.
    pub require_progress_by: Time,
}

/// Deployment status strings and descriptions of `nomad/structs`.
pub mod deployment_status {
    pub const RUNNING: &str = "running";
    pub const PAUSED: &str = "paused";
    pub const FAILED: &str = "failed";
    pub const SUCCESSFUL: &str = "successful";
    pub const CANCELLED: &str = "cancelled";
    pub const PENDING: &str = "pending";
    pub const BLOCKED: &str = "blocked";
    pub const UNBLOCKING: &str = "unblocking";
    /// Set by the multiregion deployment watcher from B-2 #15325 on; no earlier
    /// release writes it.
    pub const INITIALIZING: &str = "initializing";

    pub const DESC_RUNNING: &str = "Deployment is running";
    pub const DESC_NEEDS_PROMOTION: &str = "Deployment is running but requires manual promotion";
    pub const DESC_AUTO_PROMOTION: &str = "Deployment is running pending automatic promotion";
    pub const DESC_SUCCESSFUL: &str = "Deployment completed successfully";
    pub const DESC_PAUSED: &str = "Deployment is paused";
    pub const DESC_FAILED_BY_USER: &str = "Deployment marked as failed";
    pub const DESC_STOPPED_JOB: &str = "Cancelled because job is stopped";
    pub const DESC_NEWER_JOB: &str = "Cancelled due to newer version of job";
    pub const DESC_BLOCKED: &str = "Deployment is complete but waiting for peer region";
    pub const DESC_PENDING_FOR_PEER: &str = "Deployment is pending, waiting for peer region";
}

use deployment_status as ds;

impl Deployment {
    /// `Active`: not yet in a terminal status.
    pub fn active(&self) -> bool {
        matches!(
            self.status.as_str(),
            ds::RUNNING
                | ds::PAUSED
                | ds::BLOCKED
                | ds::UNBLOCKING
                | ds::PENDING
                | ds::INITIALIZING
        )
    }

    /// `RequiresPromotion`: running with unpromoted canaries.
    pub fn requires_promotion(&self) -> bool {
        self.status == ds::RUNNING
            && self
                .task_groups
                .values()
                .any(|g| g.desired_canaries > 0 && !g.promoted)
    }

    /// `HasAutoPromote`: running, and every canarying group auto-promotes.
    pub fn has_auto_promote(&self) -> bool {
        !self.task_groups.is_empty()
            && self.status == ds::RUNNING
            && self
                .task_groups
                .values()
                .all(|g| g.desired_canaries <= 0 || g.auto_promote)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `HasAutoPromote` (nomad/structs/structs.go:9214-9224) only looks at
    /// groups with `DesiredCanaries > 0`.
    #[test]
    fn auto_promote_ignores_groups_without_positive_canaries() {
        let group = |desired_canaries, auto_promote| DeploymentState {
            desired_canaries,
            auto_promote,
            ..DeploymentState::default()
        };
        let d = Deployment {
            status: ds::RUNNING.into(),
            task_groups: [("a".into(), group(2, true)), ("b".into(), group(-1, false))].into(),
            ..Deployment::default()
        };
        assert!(d.has_auto_promote());
    }
}
