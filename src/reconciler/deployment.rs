//! Deployment bookkeeping: cancel, pause, create, complete.

use std::collections::BTreeMap;

use super::{AllocSet, DeploymentUpdate, Reconciler};
use crate::model::{Deployment, DeploymentState, Job, TaskGroup, deployment_status as ds};

impl<'a> Reconciler<'a, '_> {
    fn push_deployment_update(
        &mut self,
        id: String,
        status: &'static str,
        description: &'static str,
    ) {
        self.result.deployment_updates.push(DeploymentUpdate {
            deployment_id: id,
            status,
            status_description: description,
        });
    }

    /// `cancelUnneededDeployments`: cancels an active deployment of a stopped
    /// job or of another job version, and drops a successful one.
    pub(super) fn cancel_unneeded_deployments(&mut self) {
        let stopped = self.input.job.is_none_or(|j| j.stop);
        if stopped {
            if let Some(d) = &self.deployment
                && d.active()
            {
                let id = d.id.clone();
                self.push_deployment_update(id, ds::CANCELLED, ds::DESC_STOPPED_JOB);
            }
            self.old_deployment = self.deployment.take();
            return;
        }
        let (Some(d), Some(job)) = (self.deployment.clone(), self.input.job) else {
            return;
        };
        if d.job_create_index != job.create_index || d.job_version != job.version {
            if d.active() {
                self.push_deployment_update(d.id.clone(), ds::CANCELLED, ds::DESC_NEWER_JOB);
            }
            self.old_deployment = Some(d.clone());
            self.deployment = None;
        }
        if d.status == ds::SUCCESSFUL {
            self.old_deployment = Some(d);
            self.deployment = None;
        }
    }

    /// `computeDeploymentPaused`.
    pub(super) fn compute_deployment_paused(&mut self, job: &Job) {
        match &self.deployment {
            Some(d) => {
                self.deployment_paused = d.status == ds::PAUSED || d.status == ds::PENDING;
                self.deployment_failed = d.status == ds::FAILED;
            }
            // A multiregion deployment is created pending; do not place on it.
            None => {
                if job.is_multiregion() && !(job.is_periodic() || job.is_parameterized()) {
                    self.deployment_paused = true;
                }
            }
        }
    }

    /// `createDeployment`: attaches the group's state to a deployment,
    /// creating one if this is an update of a job with an update strategy.
    pub(super) fn create_deployment(
        &mut self,
        job: &Job,
        tg: &TaskGroup,
        existing: bool,
        dstate: DeploymentState,
        all: &AllocSet<'a>,
        destructive: &AllocSet<'a>,
    ) {
        if existing || tg.update_strategy().is_none() || dstate.desired_total == 0 {
            return;
        }
        // Nomad looks at in-place updates of every group handled so far.
        let updating_spec = !destructive.is_empty() || !self.result.inplace_update.is_empty();
        let had_running = all
            .iter()
            .any(|a| a.job_version() == job.version && a.job_create_index() == job.create_index);
        if had_running && !updating_spec {
            return;
        }
        if self.deployment.is_none() {
            let mut d = self.new_deployment(job);
            // Nomad tests `periodic && parameterized` here, unlike in
            // computeDeploymentPaused; reproduced as is.
            if job.is_multiregion() && !(job.is_periodic() && job.is_parameterized()) {
                d.status = ds::PENDING.to_string();
                d.status_description = ds::DESC_PENDING_FOR_PEER.to_string();
            }
            self.deployment = Some(d);
            self.created_deployment = true;
        }
        if let Some(d) = self.deployment.as_mut() {
            d.task_groups.insert(tg.name.clone(), dstate);
        }
    }

    /// `structs.NewDeployment`, with a derived ID.
    fn new_deployment(&mut self, job: &Job) -> Deployment {
        Deployment {
            id: self.derive_id("deployment", ""),
            namespace: job.namespace.clone(),
            job_id: job.id.clone(),
            job_version: job.version,
            job_modify_index: job.modify_index,
            job_spec_modify_index: job.job_modify_index,
            job_create_index: job.create_index,
            is_multiregion: job.is_multiregion(),
            task_groups: BTreeMap::new(),
            status: ds::RUNNING.to_string(),
            status_description: ds::DESC_RUNNING.to_string(),
            eval_priority: self.input.eval_priority,
            create_index: 0,
            modify_index: 0,
        }
    }

    /// `isDeploymentComplete`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn is_deployment_complete(
        &self,
        group: &str,
        destructive: &AllocSet<'a>,
        inplace: &AllocSet<'a>,
        migrate: &AllocSet<'a>,
        reschedule_now: &AllocSet<'a>,
        placements: usize,
        reschedule_later: &[super::DelayedReschedule<'a>],
        requires_canaries: bool,
    ) -> bool {
        let nothing_left = destructive.len()
            + inplace.len()
            + placements
            + migrate.len()
            + reschedule_now.len()
            + reschedule_later.len()
            == 0;
        if !nothing_left || requires_canaries {
            return false;
        }
        let Some(d) = &self.deployment else {
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

    /// `computeDeploymentUpdates`: marks a complete deployment successful
    /// (or blocked, for multiregion) and describes a created one.
    pub(super) fn compute_deployment_updates(&mut self, job: &Job, complete: bool) {
        if let Some(d) = &self.deployment
            && complete
        {
            let id = d.id.clone();
            if job.is_multiregion() {
                if d.status != ds::UNBLOCKING && d.status != ds::SUCCESSFUL {
                    self.push_deployment_update(id, ds::BLOCKED, ds::DESC_BLOCKED);
                }
            } else {
                self.push_deployment_update(id, ds::SUCCESSFUL, ds::DESC_SUCCESSFUL);
            }
        }
        if self.created_deployment
            && let Some(d) = self.deployment.as_mut()
            && d.requires_promotion()
        {
            d.status_description = if d.has_auto_promote() {
                ds::DESC_AUTO_PROMOTION
            } else {
                ds::DESC_NEEDS_PROMOTION
            }
            .to_string();
        }
    }
}
