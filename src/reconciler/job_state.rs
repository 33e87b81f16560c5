//! What every group of one job is reconciled against, split as Nomad HEAD
//! splits it (`ReconcilerState` and `ClusterState` in
//! `scheduler/reconciler/reconcile_cluster.go`): facts of the job and its
//! evaluation, and facts of the cluster.

use std::collections::BTreeMap;

use super::alloc_facts::{AllocFacts, DisconnectFacts};
use super::alloc_set::AllocSet;
use super::input::UpdateFn;
use super::rules::Rules;
use super::tainted::{TaintContext, TaintRules, TaintedNodes, TaintedSets};
use crate::model::{Allocation, Deployment, Id, Job};
use crate::time::Time;

/// The job and its evaluation, fixed before the first group is computed.
pub(super) struct JobState<'a, 'f> {
    pub job: &'a Job,
    pub job_id: &'a str,
    pub batch: bool,
    pub eval_id: &'a str,
    pub eval_priority: i64,
    /// The deployment `cancelUnneededDeployments` retired, whose unpromoted
    /// canaries are stopped.
    pub old_deployment: Option<&'a Deployment>,
    /// Whether the current deployment is paused or failed.
    pub deployment: Standing,
    pub update_fn: &'f UpdateFn<'a, 'f>,
}

/// The cluster as the replay sees it.
pub(super) struct ClusterState<'a> {
    pub tainted: &'a TaintedNodes<'a>,
    pub rules: &'a Rules,
    pub now: Time,
    /// Whether groups keep their allocations' facts.
    pub record: bool,
}

impl<'a> ClusterState<'a> {
    pub fn taint(&self) -> TaintContext<'a, 'a> {
        TaintContext {
            tainted: self.tainted,
            rules: self.rules,
            now: self.now,
        }
    }

    /// The disconnect facts of `allocs`, when the replay records facts.
    pub fn facts_of(
        &self,
        allocs: impl IntoIterator<Item = &'a Allocation>,
    ) -> BTreeMap<&'a Id, AllocFacts> {
        if !self.record {
            return BTreeMap::new();
        }
        allocs
            .into_iter()
            .map(|a| {
                let facts = AllocFacts {
                    disconnect: DisconnectFacts::of(a, self.rules, self.now),
                    reschedule: None,
                };
                (&a.id, facts)
            })
            .collect()
    }

    /// `filterByTainted` on a group's allocations, with each one's rule.
    pub fn group_buckets(&self, set: &AllocSet<'a>) -> (TaintedSets<'a>, TaintRules) {
        set.classify_by_tainted(self.taint())
    }
}

/// Whether the current deployment holds placements back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Standing {
    /// Paused or pending: nothing is placed on it.
    pub paused: bool,
    pub failed: bool,
}
