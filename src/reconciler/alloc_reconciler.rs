//! `allocReconciler`: each task group computed on its own, their outcomes
//! folded into the job's result.

use std::collections::BTreeMap;

use super::alloc_set::AllocSet;
use super::context::GroupContext;
use super::deployment;
use super::fold::JobFold;
use super::group;
use super::ids::Ids;
use super::input::ReconcileInput;
use super::job_state::{ClusterState, JobState};
use super::reconciliation::Reconciliation;
use crate::model::Allocation;
use crate::version::Switch;

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
