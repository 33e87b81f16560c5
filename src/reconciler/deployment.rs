//! Deployment bookkeeping: cancel, pause, create, complete.

use super::alloc_set::AllocSet;
use super::context::GroupContext;
use super::job_state::Standing;
use super::results::DeploymentUpdate;
use super::rules::Rules;
use crate::model::{Deployment, DeploymentState, Id, Job, TaskGroup, deployment_status as ds};
use crate::version::Switch;

fn update(id: &Id, status: &'static str, description: &'static str) -> DeploymentUpdate {
    DeploymentUpdate {
        deployment_id: id.to_string(),
        status,
        status_description: description,
    }
}

/// What `cancelUnneededDeployments` leaves.
pub(super) struct Retired<'a> {
    /// The deployment the job's groups are reconciled into.
    pub current: Option<&'a Deployment>,
    /// The one set aside, whose unpromoted canaries are stopped.
    pub old: Option<&'a Deployment>,
    pub updates: Vec<DeploymentUpdate>,
}

/// `cancelUnneededDeployments`: cancels an active deployment of a stopped
/// job or of another job version, and drops a successful one.
pub(super) fn cancel_unneeded_deployments<'a>(
    job: Option<&Job>,
    deployment: Option<&'a Deployment>,
) -> Retired<'a> {
    let mut updates = Vec::new();
    let Some(job) = job.filter(|j| !j.stop) else {
        if let Some(d) = deployment.filter(|d| d.active()) {
            updates.push(update(&d.id, ds::CANCELLED, ds::DESC_STOPPED_JOB));
        }
        return Retired {
            current: None,
            old: deployment,
            updates,
        };
    };
    let Some(d) = deployment else {
        return Retired {
            current: None,
            old: None,
            updates,
        };
    };
    let (mut current, mut old) = (Some(d), None);
    if d.job_create_index != job.create_index || d.job_version != job.version {
        if d.active() {
            updates.push(update(&d.id, ds::CANCELLED, ds::DESC_NEWER_JOB));
        }
        (current, old) = (None, Some(d));
    }
    if d.status == ds::SUCCESSFUL {
        (current, old) = (None, Some(d));
    }
    Retired {
        current,
        old,
        updates,
    }
}

/// `computeDeploymentPaused`.
pub(super) fn deployment_paused(
    rules: &Rules,
    job: &Job,
    deployment: Option<&Deployment>,
) -> Standing {
    match deployment {
        Some(d) => Standing {
            paused: d.status == ds::PAUSED
                || d.status == ds::PENDING
                || (d.status == ds::INITIALIZING && rules.has(Switch::B2b)),
            failed: d.status == ds::FAILED,
        },
        // A multiregion deployment is created pending; do not place on it.
        None => Standing {
            paused: rules.pauses_multiregion_without_deployment(job),
            failed: false,
        },
    }
}

/// What one group asks of the job's deployment.
#[derive(Clone, Debug)]
pub(super) enum DeploymentChange {
    /// The group's state in the deployment that already tracks it.
    Update(DeploymentState),
    /// The group's state for a deployment it is not in yet, created if the
    /// job has none.
    Attach {
        state: DeploymentState,
        /// The group already runs this job version and changes nothing in
        /// it: it attaches only if an earlier group has in-place updates.
        only_after_inplace_updates: bool,
    },
}

impl<'a> GroupContext<'_, 'a, '_> {
    /// `initializeDeploymentState`: the group's state in the current
    /// deployment, or a fresh one from its update strategy.
    pub(super) fn initialize_deployment_state(&self, tg: &TaskGroup) -> (DeploymentState, bool) {
        if let Some(state) = self.deployment.and_then(|d| d.task_groups.get(self.name)) {
            return (state.clone(), true);
        }
        let mut state = DeploymentState::default();
        if let Some(u) = tg.update_strategy() {
            state.auto_revert = u.auto_revert;
            state.auto_promote = u.auto_promote;
            state.progress_deadline = u.progress_deadline;
        }
        (state, false)
    }

    /// The group's side of `createDeployment`: a group with an update
    /// strategy and something to deploy attaches its state, unless it
    /// already runs this job version and updates nothing in it; before G-0
    /// an earlier group's in-place updates still count as its own.
    pub(super) fn deployment_change(
        &self,
        tg: &TaskGroup,
        existing: bool,
        state: DeploymentState,
        all: &AllocSet<'a>,
        updating_spec: bool,
    ) -> Option<DeploymentChange> {
        if existing {
            return Some(DeploymentChange::Update(state));
        }
        if tg.update_strategy().is_none() || state.desired_total == 0 {
            return None;
        }
        let job = self.job.job;
        let had_running = all
            .iter()
            .any(|a| a.job_version() == job.version && a.job_create_index() == job.create_index);
        let unchanged = had_running && !updating_spec;
        if unchanged && self.rules.has(Switch::G0) {
            return None;
        }
        Some(DeploymentChange::Attach {
            state,
            only_after_inplace_updates: unchanged,
        })
    }
}

/// `structs.NewDeployment`.
pub(super) fn new_deployment(rules: &Rules, job: &Job, id: Id, eval_priority: i64) -> Deployment {
    let mut d = Deployment {
        id,
        namespace: job.namespace.clone(),
        job_id: job.id.clone(),
        job_version: job.version,
        job_modify_index: job.modify_index,
        job_spec_modify_index: job.job_modify_index,
        job_create_index: job.create_index,
        is_multiregion: job.is_multiregion(),
        task_groups: Default::default(),
        status: ds::RUNNING.into(),
        status_description: ds::DESC_RUNNING.into(),
        eval_priority,
        create_index: 0,
        modify_index: 0,
    };
    // Nomad tests `periodic && parameterized` here, unlike in
    // computeDeploymentPaused; reproduced as is.
    if !rules.has(Switch::B2b)
        && job.is_multiregion()
        && !(job.is_periodic() && job.is_parameterized())
    {
        d.status = ds::PENDING.into();
        d.status_description = ds::DESC_PENDING_FOR_PEER.into();
    }
    d
}

/// The deployment's side of `isDeploymentComplete`, for a group with
/// nothing left to do: complete once its state is healthy and promoted.
pub(super) fn group_deployed(deployment: Option<&Deployment>, group: &str) -> bool {
    let Some(d) = deployment else {
        return false;
    };
    match d.task_groups.get(group) {
        Some(s) => {
            let enough_healthy = s.healthy_allocs >= s.desired_total.max(s.desired_canaries);
            let canaries_promoted = s.desired_canaries <= 0 || s.promoted;
            enough_healthy && canaries_promoted
        }
        None => true,
    }
}

/// `computeDeploymentUpdates`: marks a complete deployment successful (or
/// blocked, for multiregion), moves an initializing one to pending, and
/// describes a created one.
pub(super) fn compute_deployment_updates(
    rules: &Rules,
    job: &Job,
    deployment: Option<&mut Deployment>,
    created: bool,
    complete: bool,
) -> Vec<DeploymentUpdate> {
    let Some(d) = deployment else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if complete {
        if job.is_multiregion() {
            if d.status != ds::UNBLOCKING && d.status != ds::SUCCESSFUL {
                out.push(update(&d.id, ds::BLOCKED, ds::DESC_BLOCKED));
            }
        } else {
            out.push(update(&d.id, ds::SUCCESSFUL, ds::DESC_SUCCESSFUL));
        }
    }
    if d.status == ds::INITIALIZING && rules.has(Switch::B2b) {
        out.push(update(&d.id, ds::PENDING, ds::DESC_PENDING_FOR_PEER));
    }
    if created && d.requires_promotion() {
        d.status_description = if d.has_auto_promote() {
            ds::DESC_AUTO_PROMOTION
        } else {
            ds::DESC_NEEDS_PROMOTION
        }
        .into();
    }
    out
}
