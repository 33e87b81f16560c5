//! The job's result as a fold over its groups' outcomes, in group order.
//!
//! Groups are computed one at a time, each against the deployment as the
//! groups before it left it and with the ID sequence they reached. Two of
//! Nomad's steps read more than their own group; they are the named steps
//! below, so that each group's computation stays its own.

use std::collections::BTreeMap;

use super::deployment::{self, DeploymentChange};
use super::ids::Ids;
use super::job_state::JobState;
use super::outcome::{GroupOutcome, GroupProgress};
use super::reconciliation::Reconciliation;
use super::results::{DeploymentUpdate, DesiredChanges, ReconcileResults};
use super::rules::Rules;
use super::trace::GroupTrace;
use crate::model::{Deployment, deployment_status as ds};
use crate::version::Switch;

/// The job's result so far.
pub(super) struct JobFold<'a> {
    results: ReconcileResults<'a>,
    groups: BTreeMap<String, GroupTrace<'a>>,
    /// The deployment as the groups so far left it.
    pub deployment: Option<Deployment>,
    /// Whether `deployment` was created by this evaluation.
    created: bool,
    /// Whether `deployment` goes into the plan though it was not created:
    /// an initializing one is persisted in full.
    sent_in_full: bool,
    pub ids: Ids<'a>,
    /// Until C-2, each group counts the job's reconnect updates so far as
    /// ignored.
    reconnects_ignored: bool,
    rules: &'a Rules,
}

impl<'a> JobFold<'a> {
    pub fn new(
        deployment: Option<Deployment>,
        deployment_updates: Vec<DeploymentUpdate>,
        ids: Ids<'a>,
        rules: &'a Rules,
    ) -> JobFold<'a> {
        JobFold {
            results: ReconcileResults {
                deployment_updates,
                ..ReconcileResults::default()
            },
            groups: BTreeMap::new(),
            deployment,
            created: false,
            sent_in_full: false,
            ids,
            reconnects_ignored: !rules.has(Switch::C2),
            rules,
        }
    }

    /// Merges the outcome of a group of a stopped job.
    pub fn add_stopped(&mut self, group: &str, outcome: GroupOutcome<'a>) {
        let (changes, _, _) = self.merge(group, outcome);
        self.insert_changes(group, changes);
    }

    /// Merges one group's outcome; returns whether the deployment is
    /// complete as far as this group goes.
    pub fn add(&mut self, job: &JobState<'a, '_>, group: &str, outcome: GroupOutcome<'a>) -> bool {
        let (mut changes, deployment, progress) = self.merge(group, outcome);
        if progress != GroupProgress::Removed && self.reconnects_ignored {
            self.count_reconnects_as_ignored(&mut changes);
        }
        if let Some(change) = deployment {
            self.apply_deployment_change(job, group, change);
        }
        self.insert_changes(group, changes);
        match progress {
            GroupProgress::Removed => true,
            GroupProgress::Pending => false,
            GroupProgress::Settled => deployment::group_deployed(self.deployment.as_ref(), group),
        }
    }

    /// Appends a group's decisions and keeps its trace; returns what the
    /// named steps still read.
    fn merge(
        &mut self,
        group: &str,
        outcome: GroupOutcome<'a>,
    ) -> (DesiredChanges, Option<DeploymentChange>, GroupProgress) {
        let GroupOutcome {
            changes,
            stop,
            place,
            destructive_update,
            inplace_update,
            attribute_updates,
            disconnect_updates,
            reconnect_updates,
            followup_evals,
            deployment,
            progress,
            trace,
        } = outcome;
        let r = &mut self.results;
        r.stop.extend(stop);
        r.place.extend(place);
        r.destructive_update.extend(destructive_update);
        r.inplace_update.extend(inplace_update);
        r.attribute_updates.extend(attribute_updates);
        r.disconnect_updates.extend(disconnect_updates);
        r.reconnect_updates.extend(reconnect_updates);
        if !followup_evals.is_empty() {
            r.desired_followup_evals
                .insert(group.to_string(), followup_evals);
        }
        self.groups.insert(group.to_string(), trace);
        (changes, deployment, progress)
    }

    fn insert_changes(&mut self, group: &str, changes: DesiredChanges) {
        self.results
            .desired_tg_updates
            .insert(group.to_string(), changes);
    }

    /// Nomad adds to a group's ignore count every reconnect update made so
    /// far, those of earlier groups too (`computeGroup`,
    /// `scheduler/reconcile.go:449` at 8ac3e642e6).
    fn count_reconnects_as_ignored(&self, changes: &mut DesiredChanges) {
        changes.ignore += self.results.reconnect_updates.len() as u64;
    }

    /// `createDeployment`'s side that reads beyond the group: before G-0 a
    /// group that runs this job version and updates nothing still attaches
    /// its state when any group so far has in-place updates (`updatingSpec`,
    /// `scheduler/reconcile.go:859` at 8ac3e642e6). The first group to
    /// attach to no deployment creates one.
    fn apply_deployment_change(
        &mut self,
        job: &JobState<'a, '_>,
        group: &str,
        change: DeploymentChange,
    ) {
        let state = match change {
            DeploymentChange::Update(state) => state,
            DeploymentChange::Attach {
                state,
                only_after_inplace_updates,
            } => {
                if only_after_inplace_updates && self.results.inplace_update.is_empty() {
                    return;
                }
                state
            }
        };
        let d = self.deployment.get_or_insert_with(|| {
            self.created = true;
            let id = self.ids.issue("deployment", "").into();
            deployment::new_deployment(self.rules, job.job, id, job.eval_priority)
        });
        d.task_groups.insert(group.into(), state);
    }

    /// `computeDeploymentUpdates`, once every group is merged.
    pub fn finish_deployment(&mut self, job: &JobState<'a, '_>, complete: bool) {
        self.sent_in_full = self.rules.has(Switch::B2b)
            && self
                .deployment
                .as_ref()
                .is_some_and(|d| d.status == ds::INITIALIZING);
        let updates = deployment::compute_deployment_updates(
            self.rules,
            job.job,
            self.deployment.as_mut(),
            self.created,
            complete,
        );
        self.results.deployment_updates.extend(updates);
    }

    /// The job's result: a deployment this evaluation created is part of it.
    pub fn finish(mut self) -> Reconciliation<'a> {
        if self.created || self.sent_in_full {
            self.results.deployment = self.deployment;
        }
        Reconciliation {
            results: self.results,
            groups: self.groups,
        }
    }
}
