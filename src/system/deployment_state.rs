//! What a system job's deployment is while the scheduler works on it
//! (1.11.0 on): the deployment with its group states, the status updates
//! and the counts per group it is sized from.

use std::collections::BTreeMap;

use crate::model::{Deployment, DeploymentState, Id, Job, JobType};
use crate::reconciler::Rules;
use crate::version::Switch;

/// A status change of a deployment the plan carries
/// (`DeploymentStatusUpdate`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusUpdate {
    pub deployment_id: Id,
    pub status: &'static str,
    pub description: &'static str,
}

/// A deployment being worked on: Nomad's `*Deployment` whose group states
/// may be set to nil (`None`) for groups without feasible nodes.
#[derive(Clone, Debug)]
pub struct WorkingDeployment {
    pub deployment: Deployment,
    pub groups: BTreeMap<String, Option<DeploymentState>>,
}

impl WorkingDeployment {
    pub(super) fn of(d: &Deployment) -> WorkingDeployment {
        WorkingDeployment {
            deployment: d.clone(),
            groups: d
                .task_groups
                .iter()
                .map(|(k, v)| (k.to_string(), Some(v.clone())))
                .collect(),
        }
    }

    pub(super) fn active(&self) -> bool {
        self.deployment.active()
    }
}

/// A group's counts as `computeJobAllocs` keeps them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GroupCounts {
    /// Nodes the group runs or is to run on (`tgCandidateNodeCounts`):
    /// place, in-place, ignore and destructive tuples, less each placement
    /// no node took.
    pub candidates: i64,
    /// Destructive updates (`tgDestructiveUpdateCounts`), less each failed
    /// placement that replaces an allocation.
    pub destructive: i64,
    /// Canaries among the ignored allocations.
    pub existing_canaries: i64,
}

/// Whether the release gives this job system deployments: system jobs
/// from 1.11.0 (sysbatch jobs go through the node reconciler without).
pub fn replays_deployments(rules: &Rules, job: &Job) -> bool {
    rules.has(Switch::SystemDeployments) && job.job_type == JobType::System
}
