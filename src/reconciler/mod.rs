//! Nomad's generic-scheduler reconciler (`scheduler/reconcile.go` at
//! 8ac3e642e6): from a job, its allocations, its tainted nodes and its
//! deployment, the changes that bring the cluster to the job spec.
//!
//! Where Nomad iterates a Go map, this port iterates in a fixed order: task
//! groups by name, allocations by ID. Each such order is one that Nomad
//! itself could take, so every result here is one Nomad could produce.

mod alloc_facts;
mod alloc_set;
mod bucket;
mod bucket_reason;
mod canary;
mod deployment;
mod fold;
mod followup;
mod group;
mod group_sets;
mod ids;
mod job_state;
mod name_index;
mod outcome;
mod placement;
mod reconnect;
mod reconnect_decision;
mod reconnect_picker;
mod release_facts;
mod reschedule;
mod reschedule_facts;
mod results;
mod rules;
mod set_aside;
mod stop;
mod tainted;
mod trace;
mod unreplaced;
mod update;

pub use alloc_facts::{AllocFacts, DisconnectFacts, ReconnectCheck};
pub use alloc_set::AllocSet;
pub use bucket::{Bucket, ByBucket};
pub use bucket_reason::{BucketReason, ReasonKind, ReasonNode, ReasonShape, ReasonTimes};
pub use name_index::{Bitmap, NameIndex, alloc_name};
pub use reconnect_decision::{ReconnectDecision, ReconnectVerdict};
pub use reconnect_picker::pick_reconnecting_alloc;
pub use release_facts::{ReconnectWeighing, ReleaseFacts};
pub use reschedule::{
    DelayedReschedule, Prefilter, RescheduleBasis, RescheduleContext, RescheduleDecision,
    RescheduleSets, should_filter, update_by_reschedulable,
};
pub use reschedule_facts::RescheduleFacts;
pub use results::{
    AllocUpdate, DeploymentUpdate, DesiredChanges, DestructiveResult, FollowupEval, PlaceResult,
    ReconcileResults, StopResult, desc, trigger,
};
pub use rules::Rules;
pub use set_aside::SetAside;
pub use tainted::{
    TaintContext, TaintRule, TaintRules, TaintedNodes, TaintedSets, classify, classify_rule,
    reason, tainted_nodes,
};
pub use trace::{GroupTrace, PlacementBasis, UpdateSplit};
pub use unreplaced::{Keeper, Unreplaced};
pub use update::{
    Difference, UpdateCheck, UpdateKind, alloc_update_kind, glob_match, skips_feasibility,
    tasks_updated,
};

use std::collections::BTreeMap;

use crate::model::{Allocation, Deployment, Job, TaskGroup};
use crate::time::Time;

use crate::version::Switch;
use fold::JobFold;
use group::GroupContext;
use ids::Ids;
use job_state::{ClusterState, JobState};

/// Decides ignore / destructive / in-place for an allocation against the new
/// job (`allocUpdateType`).
pub type UpdateFn<'a, 'f> = dyn Fn(&'a Allocation, &'a Job, &'a TaskGroup) -> UpdateKind + 'f;

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
    pub update_fn: &'f UpdateFn<'a, 'f>,
    /// Keep what each allocation's decisions read ([`GroupTrace::facts`]),
    /// for explanations; a plain replay does without.
    pub record: bool,
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
}

impl<'a, 'f> Reconciler<'a, 'f> {
    pub fn new(input: ReconcileInput<'a, 'f>) -> Reconciler<'a, 'f> {
        Reconciler { input }
    }

    /// `Compute`: each group computed on its own, their outcomes folded into
    /// the job's result in group order.
    pub fn compute(self) -> Reconciliation<'a> {
        let input = &self.input;
        let matrix = alloc_matrix(input);
        let retired = deployment::cancel_unneeded_deployments(input.job, input.deployment);
        let cluster = ClusterState {
            tainted: input.tainted,
            rules: input.rules,
            now: input.now,
            record: input.record,
        };
        let ids = Ids::new(input.eval_id, input.job, input.job_id);
        let mut fold = JobFold::new(retired.current.cloned(), retired.updates, ids, input.rules);
        match input.job.filter(|j| !j.stop) {
            None => {
                let last = matrix.len().saturating_sub(1);
                for (i, (group, set)) in matrix.into_iter().enumerate() {
                    let mut outcome = group::stop_stopped_job(&cluster, input.job, &group, &set);
                    if input.rules.has(Switch::G0b) && i != last {
                        outcome.stop.clear();
                    }
                    fold.add_stopped(&group, outcome);
                }
            }
            Some(job) => {
                let standing = deployment::deployment_paused(input.rules, job, retired.current);
                let state = JobState {
                    job,
                    job_id: input.job_id,
                    batch: input.batch,
                    eval_id: input.eval_id,
                    eval_priority: input.eval_priority,
                    old_deployment: retired.old,
                    deployment: standing,
                    update_fn: input.update_fn,
                };
                let mut complete = true;
                for (group, set) in matrix {
                    let ctx = GroupContext {
                        name: &group,
                        job: &state,
                        cluster: &cluster,
                        rules: input.rules,
                        deployment: fold.deployment.as_ref(),
                    };
                    let outcome = ctx.compute_group(set, &mut fold.ids);
                    // Nomad evaluates every group even once one is incomplete.
                    complete &= fold.add(&state, &group, outcome);
                }
                fold.finish_deployment(&state, complete);
            }
        }
        fold.finish()
    }
}

/// `newAllocMatrix`: allocations by task group, plus every group of the job.
fn alloc_matrix<'a>(input: &ReconcileInput<'a, '_>) -> BTreeMap<String, AllocSet<'a>> {
    let mut m: BTreeMap<&'a str, Vec<&'a Allocation>> = BTreeMap::new();
    for alloc in &input.allocs {
        m.entry(&alloc.task_group).or_default().push(alloc);
    }
    if let Some(job) = input.job {
        for tg in &job.task_groups {
            m.entry(&tg.name).or_default();
        }
    }
    m.into_iter()
        .map(|(group, allocs)| (group.to_string(), allocs.into_iter().collect()))
        .collect()
}
