//! Nomad's generic-scheduler reconciler (`scheduler/reconcile.go` at
//! 8ac3e642e6): from a job, its allocations, its tainted nodes and its
//! deployment, the changes that bring the cluster to the job spec.
//!
//! Where Nomad iterates a Go map, this port iterates in a fixed order: task
//! groups by name, allocations by ID. Each such order is one that Nomad
//! itself could take, so every result here is one Nomad could produce.

mod alloc_set;
mod bucket;
mod bucket_reason;
mod canary;
mod deployment;
mod disconnecting;
mod followup;
mod name_index;
mod placement;
mod reconnect_decision;
mod reschedule;
mod results;
mod rules;
mod stop;
mod tainted;
mod trace;

pub use alloc_set::AllocSet;
pub use bucket::{Bucket, ByBucket};
pub use bucket_reason::{BucketReason, ReasonKind, ReasonNode, ReasonTimes};
pub use name_index::{Bitmap, NameIndex, alloc_name};
pub use reconnect_decision::{ReconnectDecision, ReconnectVerdict};
pub use reschedule::{
    DelayedReschedule, RescheduleContext, RescheduleSets, should_filter, update_by_reschedulable,
};
pub use results::*;
pub use rules::Rules;
pub use tainted::{
    TaintContext, TaintRule, TaintedNodes, TaintedSets, classify, classify_rule,
    classify_rule_with, reason, tainted_nodes,
};
pub use trace::{GroupTrace, PlacementBasis, UpdateSplit};

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::model::{Allocation, Deployment, DeploymentState, Job, TaskGroup};
use crate::time::Time;
use crate::update::UpdateKind;

/// Decides ignore / destructive / in-place for an allocation against the new
/// job (`allocUpdateType`).
pub type UpdateFn<'f> = dyn Fn(&Allocation, &Job, &TaskGroup) -> UpdateKind + 'f;

/// Receives a group's six buckets (see [`ReconcileInput::buckets_known`]).
pub type BucketsFn<'a, 'f> = dyn Fn(&str, &TaintedSets<'a>) + 'f;

/// Why an allocation was taken out before `filterByTainted`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetAside {
    /// A terminal batch allocation of an older job version (`filterOldTerminalAllocs`).
    OldTerminalBatch,
    /// An unpromoted canary of an older or failed deployment, stopped.
    CancelledCanary,
    /// A canary on a draining node, stopped to migrate.
    CanaryMigrating,
    /// A canary on a lost node, stopped.
    CanaryLost,
    /// A terminal allocation of a stopped job (`filterByTerminal` in `handleStop`).
    TerminalOfStoppedJob,
}

impl SetAside {
    pub fn describe(self) -> &'static str {
        match self {
            SetAside::OldTerminalBatch => {
                "terminal batch allocation of an older job version: ignored"
            }
            SetAside::CancelledCanary => {
                "unpromoted canary of an older or failed deployment: stopped"
            }
            SetAside::CanaryMigrating => "canary on a draining node: stopped to migrate",
            SetAside::CanaryLost => "canary on a lost node: stopped",
            SetAside::TerminalOfStoppedJob => "terminal allocation of a stopped job: nothing to do",
        }
    }
}

/// The inputs of one reconcile, as `computeJobAllocs` gathers them.
pub struct ReconcileInput<'a, 'f> {
    /// The job; `None` for a purged job, treated as stopped.
    pub job: Option<&'a Job>,
    pub job_id: &'a str,
    pub batch: bool,
    pub deployment: Option<&'a Deployment>,
    pub allocs: Vec<&'a Allocation>,
    pub tainted: &'a TaintedNodes<'a>,
    pub eval_id: &'a str,
    pub eval_priority: i64,
    /// The Nomad behaviour replayed.
    pub rules: &'a Rules,
    pub now: Time,
    pub update_fn: &'f UpdateFn<'f>,
    /// Called with each group's buckets as soon as `filterByTainted` has
    /// made them, so that a caller can describe them while the rest of the
    /// job is reconciled.
    pub buckets_known: &'f BucketsFn<'a, 'f>,
}

/// The reconciler's decisions with what it saw on the way.
#[derive(Clone, Debug)]
pub struct Reconciliation<'a> {
    pub results: ReconcileResults<'a>,
    pub groups: BTreeMap<String, GroupTrace<'a>>,
}

/// `allocReconciler`.
pub struct Reconciler<'a, 'f> {
    input: ReconcileInput<'a, 'f>,
    deployment: Option<Deployment>,
    old_deployment: Option<Deployment>,
    /// `result.deployment` aliases `deployment` in Nomad once a group creates it.
    created_deployment: bool,
    deployment_paused: bool,
    deployment_failed: bool,
    result: ReconcileResults<'a>,
    groups: BTreeMap<String, GroupTrace<'a>>,
    ids_issued: u64,
    /// The current group's `computeStopByReconnecting` decisions.
    reconnect_decisions: Vec<ReconnectDecision<'a>>,
}

impl<'a, 'f> Reconciler<'a, 'f> {
    pub fn new(input: ReconcileInput<'a, 'f>) -> Reconciler<'a, 'f> {
        Reconciler {
            deployment: input.deployment.cloned(),
            input,
            old_deployment: None,
            created_deployment: false,
            deployment_paused: false,
            deployment_failed: false,
            result: ReconcileResults::default(),
            groups: BTreeMap::new(),
            ids_issued: 0,
            reconnect_decisions: Vec::new(),
        }
    }

    /// `Compute`.
    pub fn compute(mut self) -> Reconciliation<'a> {
        let matrix = self.alloc_matrix();
        self.cancel_unneeded_deployments();
        match self.input.job.filter(|j| !j.stop) {
            None => self.handle_stop(matrix),
            Some(job) => {
                self.compute_deployment_paused(job);
                let mut complete = true;
                for (group, set) in matrix {
                    // Nomad evaluates every group even once one is incomplete.
                    let group_complete = self.compute_group(job, &group, set);
                    complete = complete && group_complete;
                }
                self.compute_deployment_updates(job, complete);
            }
        }
        if self.created_deployment {
            self.result.deployment = self.deployment.clone();
        }
        Reconciliation {
            results: self.result,
            groups: self.groups,
        }
    }

    /// `newAllocMatrix`: allocations by task group, plus every group of the job.
    fn alloc_matrix(&self) -> BTreeMap<String, AllocSet<'a>> {
        let mut m: BTreeMap<&'a str, Vec<&'a Allocation>> = BTreeMap::new();
        for alloc in &self.input.allocs {
            m.entry(&alloc.task_group).or_default().push(alloc);
        }
        if let Some(job) = self.input.job {
            for tg in &job.task_groups {
                m.entry(&tg.name).or_default();
            }
        }
        m.into_iter()
            .map(|(group, allocs)| (group.to_string(), allocs.into_iter().collect()))
            .collect()
    }

    fn taint_ctx(&self) -> TaintContext<'a, 'a> {
        TaintContext {
            tainted: self.input.tainted,
            rules: self.input.rules,
            now: self.input.now,
        }
    }

    /// `filterByTainted` on a group's allocations, handed to `buckets_known`.
    fn group_buckets(&self, group: &str, set: &AllocSet<'a>) -> TaintedSets<'a> {
        let sets = set.filter_by_tainted(self.taint_ctx());
        (self.input.buckets_known)(group, &sets);
        sets
    }

    /// A deterministic ID for something this evaluation creates: a UUID
    /// derived from the eval, the job and a sequence number.
    fn derive_id(&mut self, kind: &str, scope: &str) -> String {
        self.ids_issued += 1;
        let job = self.input.job.map_or("", |j| j.namespace.as_str());
        let name = format!(
            "plan-inspect/{kind}/{}/{job}/{}/{scope}/{}",
            self.input.eval_id, self.input.job_id, self.ids_issued
        );
        uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_OID, name.as_bytes()).to_string()
    }

    /// `handleStop`: stop every non-terminal allocation of a stopped or purged job.
    fn handle_stop(&mut self, matrix: BTreeMap<String, AllocSet<'a>>) {
        for (group, set) in matrix {
            let trace = self.groups.entry(group.clone()).or_default();
            trace.removed = self
                .input
                .job
                .is_none_or(|j| j.lookup_task_group(&group).is_none());
            for alloc in set.iter().filter(|a| a.terminal_status()) {
                trace
                    .set_aside
                    .push((alloc, SetAside::TerminalOfStoppedJob));
            }
            let changes = DesiredChanges {
                stop: self.filter_and_stop_all(&group, &set.non_terminal()),
                ..DesiredChanges::default()
            };
            self.result.desired_tg_updates.insert(group, changes);
        }
    }

    /// `filterAndStopAll`: stops all but the ignored (unknown) allocations
    /// and those expiring that are no longer unknown, yet counts them all as
    /// stopped, as Nomad does.
    fn filter_and_stop_all(&mut self, group: &str, set: &AllocSet<'a>) -> u64 {
        let sets = self.group_buckets(group, set);
        for (bucket, set) in sets.iter() {
            match bucket {
                Bucket::Ignore => {}
                Bucket::Lost => self.mark_stop(set, Some("lost"), desc::LOST),
                Bucket::Expiring => {
                    let unknown = set.filter(|a| a.client_status == crate::model::status::UNKNOWN);
                    self.mark_stop(&unknown, None, desc::NOT_NEEDED);
                }
                _ => self.mark_stop(set, None, desc::NOT_NEEDED),
            }
        }
        self.groups.entry(group.to_string()).or_default().buckets = sets;
        set.len() as u64
    }

    fn mark_stop(
        &mut self,
        set: &AllocSet<'a>,
        client_status: Option<&'static str>,
        description: &'static str,
    ) {
        for alloc in set.iter() {
            self.stop(alloc, client_status, description, None);
        }
    }

    fn stop(
        &mut self,
        alloc: &'a Allocation,
        client_status: Option<&'static str>,
        description: &'static str,
        followup_eval_id: Option<Arc<str>>,
    ) {
        self.result.stop.push(StopResult {
            alloc,
            client_status,
            description,
            followup_eval_id,
        });
    }

    /// `initializeDeploymentState`: the group's state in the current
    /// deployment, or a fresh one from its update strategy.
    fn initialize_deployment_state(&self, group: &str, tg: &TaskGroup) -> (DeploymentState, bool) {
        if let Some(state) = self
            .deployment
            .as_ref()
            .and_then(|d| d.task_groups.get(group))
        {
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

    /// `computeGroup`: reconciles one task group; returns whether the
    /// deployment is complete as far as this group goes.
    fn compute_group(&mut self, job: &'a Job, group: &str, all: AllocSet<'a>) -> bool {
        let mut changes = DesiredChanges::default();
        let Some(tg) = job.lookup_task_group(group) else {
            self.groups.entry(group.to_string()).or_default().removed = true;
            changes.stop = self.filter_and_stop_all(group, &all);
            self.result
                .desired_tg_updates
                .insert(group.to_string(), changes);
            return true;
        };
        let (mut dstate, existing_deployment) = self.initialize_deployment_state(group, tg);

        let (all, old_terminal) = self.filter_old_terminal_allocs(job, all);
        changes.ignore += old_terminal.len() as u64;
        let mut trace = GroupTrace::default();
        trace
            .set_aside
            .extend(old_terminal.iter().map(|a| (a, SetAside::OldTerminalBatch)));

        let (canaries, all) = self.cancel_unneeded_canaries(all, &mut changes, &mut trace);

        let sets = self.group_buckets(group, &all);
        changes.ignore += sets[Bucket::Ignore].len() as u64;
        // `computeStop` takes allocations out of these two.
        let mut migrate = sets[Bucket::Migrate].clone();
        let mut reconnecting = sets[Bucket::Reconnecting].clone();
        let disconnecting = &sets[Bucket::Disconnecting];

        let rctx = RescheduleContext {
            rules: self.input.rules,
            batch: self.input.batch,
            now: self.input.now,
            eval_id: self.input.eval_id,
            deployment: self.deployment.as_ref(),
        };
        let RescheduleSets {
            untainted,
            now: reschedule_now,
            later: mut reschedule_later,
        } = sets[Bucket::Untainted].filter_by_rescheduleable(rctx, false);
        let (untainted, lost) =
            self.merge_expiring(tg, &sets[Bucket::Expiring], untainted, &sets[Bucket::Lost]);
        let lost = &lost;

        let fields = self.input.rules.disconnect_fields();
        let lost_later = lost.delay_by_stop_after_client_disconnect(self.input.now, fields);
        let by_policy = disconnecting.filter_by_rescheduleable(rctx, true);
        let disconnected = self.compute_disconnecting(tg, disconnecting, by_policy, &lost_later);
        let untainted = untainted.union(&[&disconnected.untainted]);
        let reschedule_now = reschedule_now.union(&[&disconnected.now]);
        reschedule_later.extend(disconnected.later);
        let lost_later_evals = disconnected.followup_evals;

        self.create_reschedule_later_evals(reschedule_later.clone(), group);

        let mut name_index = NameIndex::new(
            self.input.job_id,
            group,
            tg.count,
            // Disjoint: filterByRescheduleable splits, buckets partition.
            &[&untainted, &migrate, &reschedule_now, lost],
        );

        let is_canarying = dstate.desired_canaries != 0 && !dstate.promoted;
        let stop = self.compute_stop(
            tg,
            &mut name_index,
            &untainted,
            &mut migrate,
            lost,
            &canaries,
            &mut reconnecting,
            is_canarying,
            &lost_later_evals,
        );
        changes.stop += stop.len() as u64;
        trace.reconnect_decisions = std::mem::take(&mut self.reconnect_decisions);
        let mut untainted = untainted.difference(&[&stop]);

        self.compute_reconnecting(job, &reconnecting);
        // Nomad adds every reconnect update so far, from earlier groups too.
        changes.ignore += self.result.reconnect_updates.len() as u64;

        let ([ignore, inplace, destructive], destructive_why) =
            self.compute_updates(job, tg, &untainted);
        changes.ignore += ignore.len() as u64;
        changes.in_place_update += inplace.len() as u64;
        trace.updates = UpdateSplit {
            ignore: ignore.clone(),
            inplace: inplace.clone(),
            destructive: destructive_why,
        };
        if !existing_deployment {
            dstate.desired_total += (destructive.len() + inplace.len()) as i64;
        }

        if is_canarying {
            untainted = untainted.difference(&[&canaries]);
        }

        let requires_canaries = tg.update.as_ref().is_some_and(|u| {
            !destructive.is_empty() && (canaries.len() as i64) < u.canary && !dstate.promoted
        });
        if requires_canaries {
            self.compute_canaries(
                tg,
                &mut dstate,
                &destructive,
                &canaries,
                &mut changes,
                &mut name_index,
            );
        }
        if existing_deployment && let Some(d) = self.deployment.as_mut() {
            d.task_groups.insert(group.to_string(), dstate.clone());
        }

        if requires_canaries {
            trace.placement.canaries_desired = dstate.desired_canaries;
            trace.placement.canaries_existing = canaries.len();
        }
        let is_canarying = dstate.desired_canaries != 0 && !dstate.promoted;
        let under_provisioned_by =
            self.compute_under_provisioned_by(tg, &untainted, &destructive, &migrate, is_canarying);

        let mut place = Vec::new();
        if lost_later.is_empty() {
            place = self.compute_placements(
                tg,
                &mut name_index,
                &untainted,
                &migrate,
                &reschedule_now,
                lost,
                &reconnecting,
                is_canarying,
            );
            if !existing_deployment {
                dstate.desired_total += place.len() as i64;
            }
        }

        let place_ready = !self.deployment_paused && !self.deployment_failed && !is_canarying;
        trace.placement = PlacementBasis {
            count: tg.count,
            untainted: untainted.len(),
            migrate: migrate.len(),
            reschedule: reschedule_now.len(),
            reconnecting: reconnecting.len(),
            lost: lost.len(),
            lost_later: lost_later.len(),
            place_ready,
            ..trace.placement
        };
        let placements = place.len();
        let under_provisioned_by = self.compute_replacements(
            place_ready,
            &mut changes,
            place,
            &reschedule_now,
            lost,
            under_provisioned_by,
        );
        if place_ready {
            trace.placement.destructive_allowed = under_provisioned_by;
            let why = &trace.updates.destructive;
            self.compute_destructive_updates(why, under_provisioned_by, &mut changes, tg);
        } else {
            changes.ignore += destructive.len() as u64;
        }

        self.compute_migrations(&mut changes, &migrate, tg, is_canarying);
        self.create_deployment(job, tg, existing_deployment, dstate, &all, &destructive);

        let complete = self.is_deployment_complete(
            group,
            &destructive,
            &inplace,
            &migrate,
            &reschedule_now,
            placements,
            &reschedule_later,
            requires_canaries,
        );

        trace.buckets = sets;
        trace.reschedule_now = reschedule_now;
        trace.reschedule_later = reschedule_later;
        self.groups.insert(group.to_string(), trace);
        self.result
            .desired_tg_updates
            .insert(group.to_string(), changes);
        complete
    }

    /// `filterOldTerminalAllocs`: batch jobs set aside terminal allocations
    /// of older job versions.
    fn filter_old_terminal_allocs(
        &self,
        job: &Job,
        all: AllocSet<'a>,
    ) -> (AllocSet<'a>, AllocSet<'a>) {
        if !self.input.batch {
            return (all, AllocSet::new());
        }
        let old = all.filter(|a| {
            (a.job_version() < job.version || a.job_create_index() < job.create_index)
                && a.terminal_status()
        });
        (all.difference(&[&old]), old)
    }

    /// `computeUpdates`: splits the untainted allocations into ignore,
    /// in-place and destructive, with why each destructive one is (in ID
    /// order); in-place ones go straight to the result.
    #[allow(clippy::type_complexity)]
    fn compute_updates(
        &mut self,
        job: &Job,
        tg: &TaskGroup,
        untainted: &AllocSet<'a>,
    ) -> ([AllocSet<'a>; 3], Vec<(&'a Allocation, Arc<str>)>) {
        let mut why = Vec::new();
        let sets = untainted.split(|alloc| match (self.input.update_fn)(alloc, job, tg) {
            UpdateKind::Ignore => Some(0),
            UpdateKind::InPlace => {
                self.result.inplace_update.push(alloc);
                Some(1)
            }
            UpdateKind::Destructive(reason) => {
                why.push((alloc, reason));
                Some(2)
            }
        });
        (sets, why)
    }

    /// `computeReconnecting`: reconnecting allocations that resume, unless
    /// something asks them to move or they run an older job.
    fn compute_reconnecting(&mut self, job: &Job, reconnecting: &AllocSet<'a>) {
        for alloc in reconnecting.iter() {
            let t = &alloc.desired_transition;
            if t.should_migrate()
                || t.should_reschedule()
                || t.should_force_reschedule()
                || alloc.job_version() < job.version
                || alloc.job_create_index() < job.create_index
                || alloc.desired_status != crate::model::status::RUN
            {
                continue;
            }
            self.result.reconnect_updates.insert(&alloc.id, alloc);
        }
    }
}
