//! The concrete plan for one job: what it stops, places and updates, what
//! fails to place, and the evaluations and deployment changes it creates.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::Serialize;

use crate::model::{AppliedConfig, ClientStatus, Id};
use crate::placement::{AllocMetric, Score};
use crate::time::{Duration, Time};

/// The concrete plan for one job.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Plan {
    pub stop: Vec<PlanStop>,
    pub place: Vec<PlanPlace>,
    pub destructive_update: Vec<PlanDestructive>,
    pub in_place_update: Vec<PlanInPlace>,
    pub disconnect_updates: Vec<PlanFollowupUpdate>,
    pub reconnect_updates: Vec<PlanReconnect>,
    pub attribute_updates: Vec<PlanFollowupUpdate>,
    pub followup_evals: Vec<PlanFollowupEval>,
    pub deployment: Option<PlanDeployment>,
    pub deployment_updates: Vec<PlanDeploymentUpdate>,
    /// Task groups with allocations no node could take, sorted by group.
    pub failed_placements: Vec<FailedPlacement>,
    /// The evaluation Nomad leaves blocked to place them when capacity
    /// appears.
    pub blocked_eval: Option<BlockedEval>,
    /// The blocked evaluations a system or sysbatch evaluation leaves after
    /// `blocked_eval`, one per further task group whose first failure
    /// found no room; written only when there are some.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub more_blocked_evals: Vec<BlockedEval>,
    /// Nomad's `QueuedAllocations`: per task group with placements, how
    /// many are still unplaced after the plan.
    pub queued_allocations: BTreeMap<String, u64>,
    /// Allocations of other jobs evicted to make room (Nomad's
    /// `NodePreemptions`), sorted by allocation ID; written only when the
    /// plan preempts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub preemptions: Vec<PlanPreemption>,
    /// The scheduler configuration the job's stack ran with, written only
    /// where its node pool's own configuration set part of it (from 1.6.0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheduler_config: Option<PlanSchedulerConfig>,
    /// Placements and in-place updates taken on nodes without a resources
    /// block, where fit was not checked (by the placement stage or, for
    /// system jobs, the system scheduler), for the `resource_fit_unknown`
    /// warning.
    #[serde(skip)]
    pub fit_unchecked: u64,
    /// Whether the reconnect updates are entries of Nomad's plan (from C-1)
    /// rather than only logged (the seed), and so change something.
    #[serde(skip)]
    pub reconnects_planned: bool,
    /// Job versions a dump without `JobVersions` could not give for
    /// placements of an older version, for the `job_versions_missing`
    /// warning.
    #[serde(skip)]
    pub version_gaps: VersionGaps,
}

/// The scheduler configuration a job ran with where its node pool set
/// part of it: the merged settings, and which of them the pool set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlanSchedulerConfig {
    pub node_pool: String,
    /// `binpack` or `spread`.
    pub scheduler_algorithm: String,
    pub memory_oversubscription_enabled: bool,
    /// The settings the pool set, by these field names; the others are
    /// the cluster's.
    pub set_by_node_pool: Vec<&'static str>,
}

impl PlanSchedulerConfig {
    /// The fact for `applied`, if its pool set part of it.
    pub fn of(applied: &AppliedConfig) -> Option<PlanSchedulerConfig> {
        let pool = applied.pool.as_ref()?;
        let mut set = Vec::new();
        if pool.scheduler_algorithm {
            set.push("scheduler_algorithm");
        }
        if pool.memory_oversubscription {
            set.push("memory_oversubscription_enabled");
        }
        Some(PlanSchedulerConfig {
            node_pool: pool.name.clone(),
            scheduler_algorithm: applied.config.algorithm().to_string(),
            memory_oversubscription_enabled: applied.config.memory_oversubscription_enabled,
            set_by_node_pool: set,
        })
    }
}

/// Versions a dump without `JobVersions` could not answer for from
/// `Jobs`: those taken from the allocations that embed them, and those
/// found nowhere.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VersionGaps {
    pub from_allocs: BTreeSet<u64>,
    pub unknown: BTreeSet<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct PlanStop {
    pub alloc_id: Id,
    pub name: String,
    pub task_group: Arc<str>,
    /// The client status the stop sets (`lost`), or null to leave it.
    pub client_status: Option<ClientStatus>,
    pub description: &'static str,
    pub followup_eval_id: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct PlanPlace {
    pub task_group: Arc<str>,
    pub name: String,
    pub canary: bool,
    pub previous_alloc_id: Option<Id>,
    pub reschedule: bool,
    pub lost: bool,
    pub downgrade_non_canary: bool,
    pub min_job_version: u64,
    /// The older job version the placement is made with
    /// (`downgradedJobForPlacement`); left out for the current version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_version: Option<u64>,
    /// The deployment Nomad gives the allocation when it is not the plan's:
    /// set by a placement of an older version, for it and every later
    /// placement of the evaluation (`None` inside: no deployment).
    #[serde(skip)]
    pub deployment_id: Option<Option<String>>,
    /// The node chosen; null exactly when no node could take it.
    pub node_id: Option<Arc<str>>,
    /// The chosen node's final score; null for a failed placement and for
    /// system placements, which are not ranked.
    pub score: Option<Score>,
}

/// The failures of one task group: Nomad's `FailedTGAllocs` entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FailedPlacement {
    pub task_group: String,
    /// Allocations that failed: `CoalescedFailures` + 1.
    pub count: u64,
    /// The metrics of the first failure.
    pub metrics: AllocMetric,
    /// The feasible node that came closest, and what it lacked; null when
    /// no node passed the feasibility checks. plan-inspect's own, not
    /// Nomad's.
    pub nearest_miss: Option<NearestMiss>,
}

/// The best-scoring node among those exhausted, and its shortfall.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NearestMiss {
    pub node_id: String,
    pub node_name: String,
    /// Nomad's dimension ("memory", "network: reserved port collision").
    pub dimension: String,
    /// How much it lacked, where the dimension is an amount.
    pub lacks: Option<i64>,
    /// The unit of `lacks`: "MHz", "cores", "MB" or "ports".
    pub unit: Option<&'static str>,
}

/// The blocked evaluation a failed placement leaves
/// (`Evaluation.CreateBlockedEval`), or the replayed evaluation blocked
/// again (`ReblockEval`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BlockedEval {
    pub id: String,
    /// Always `blocked`.
    pub status: &'static str,
    /// `queued-allocs`; a reblocked evaluation keeps its own.
    pub triggered_by: String,
    pub status_description: String,
    /// Per computed node class seen, whether the job could run on it.
    pub class_eligibility: BTreeMap<String, bool>,
    /// Whether a constraint escapes the computed class (`unique.*`), so
    /// any node change may unblock it.
    pub escaped_computed_class: bool,
    /// The node whose failed placement left it: system and sysbatch jobs
    /// only (`addBlocked` sets `NodeID`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_id: Option<String>,
    /// The replayed evaluation was itself blocked: it is put back with
    /// this run's class eligibility instead of a new one being created.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reblocked: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct PlanDestructive {
    pub alloc_id: Id,
    pub name: String,
    pub task_group: String,
    /// The first difference that makes the update destructive.
    pub reason: String,
    /// Nomad's label for that difference (`tasksUpdated`'s
    /// `comparison.label`, 1.5.2 on); absent before, and where Nomad names
    /// none (the node checks of `genericAllocUpdateFn`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<&'static str>,
    /// The node of the replacement: for a service or batch job the node
    /// the placement stage picks, null when none could take it (the old
    /// allocation then keeps running); for a system job the allocation's
    /// own node.
    pub node_id: Option<Arc<str>>,
    /// The chosen node's final score; null for system jobs and failures.
    pub score: Option<Score>,
}

impl PlanDestructive {
    /// Whether the replacement found a node. One that did not leaves the
    /// old allocation running: Nomad withdraws its stop (`PopUpdate`,
    /// scheduler/generic_sched.go at 1.3.0).
    pub fn replaced(&self) -> bool {
        self.node_id.is_some()
    }
}

/// An allocation evicted for a placement of higher priority.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct PlanPreemption {
    pub alloc_id: Id,
    pub name: String,
    pub node_id: String,
    pub namespace: String,
    pub job_id: String,
    /// The priority of the job version it runs.
    pub job_priority: i64,
    /// The name of the placement it makes room for.
    pub preempted_by: String,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct PlanInPlace {
    pub alloc_id: Id,
    pub name: String,
    /// The deployment the updated allocation joins, if any.
    pub deployment_id: Option<String>,
}

/// A disconnect update (client status set to `unknown`) or an attribute
/// update (`FollowupEvalID` set), each pointing at its follow-up eval.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct PlanFollowupUpdate {
    pub alloc_id: Id,
    pub followup_eval_id: String,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct PlanReconnect {
    pub alloc_id: Id,
    /// The state the update appends to the allocation's `AllocStates`
    /// (`AppendState`, from C-1: 1.3.8, 1.4.3, 1.5.0), which later
    /// evaluations read to tell it has reconnected; absent before C-1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alloc_state: Option<PlanAllocState>,
}

/// One `structs.AllocState` entry a plan update appends.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct PlanAllocState {
    /// Always `ClientStatus`.
    pub field: &'static str,
    /// The allocation's client status (`running`).
    pub value: String,
    /// The evaluation time; Nomad stamps its wall clock.
    pub time: Time,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct PlanFollowupEval {
    pub id: String,
    pub triggered_by: String,
    pub wait_until: Time,
    pub status_description: String,
    pub task_group: String,
    pub alloc_ids: Vec<Id>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PlanDeployment {
    pub id: String,
    pub status: String,
    pub status_description: String,
    pub job_version: u64,
    pub groups: BTreeMap<String, PlanDeploymentGroup>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PlanDeploymentGroup {
    pub desired_total: i64,
    pub desired_canaries: i64,
    pub auto_revert: bool,
    pub auto_promote: bool,
    pub promoted: bool,
    /// The group's `progress_deadline`, which the deployment written with
    /// the plan keeps for its watcher.
    #[serde(skip)]
    pub progress_deadline: Duration,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct PlanDeploymentUpdate {
    pub deployment_id: String,
    pub status: String,
    pub status_description: String,
}

impl Plan {
    /// Nomad's `Plan.IsNoOp` (nomad/structs/structs.go:11309 at 8ac3e642e6):
    /// nothing for a node (stops, placements, destructive and in-place
    /// updates, disconnect and attribute updates), no new deployment and no
    /// deployment update. A destructive update whose replacement found no
    /// node is not in Nomad's plan. The seed only logs reconnect updates
    /// (scheduler/generic_sched.go:433-435), so alone they are a no-op there;
    /// from C-1 they are plan entries (v1.3.8 generic_sched.go:420). So are
    /// follow-up evaluations alone a no-op, which Nomad creates only for a
    /// plan that is not a no-op (generic_sched.go:306-317). Used by
    /// `--detailed-exitcode` and by the tables' "Nothing to do".
    pub fn is_noop(&self) -> bool {
        (!self.reconnects_planned || self.reconnect_updates.is_empty())
            && self.stop.is_empty()
            && self.place.is_empty()
            && !self
                .destructive_update
                .iter()
                .any(PlanDestructive::replaced)
            && self.in_place_update.is_empty()
            && self.disconnect_updates.is_empty()
            && self.attribute_updates.is_empty()
            && self.deployment.is_none()
            && self.deployment_updates.is_empty()
    }

    /// A no-op plan with no failed placement: the one predicate of
    /// `--detailed-exitcode` and of the jobs the tables leave out.
    pub fn is_settled(&self) -> bool {
        self.is_noop() && self.failed_placements.is_empty()
    }

    /// Whether the plan changes the allocation `alloc_id`, in the terms of
    /// [`Plan::is_noop`]: stopped, replaced, updated, or marked unknown.
    pub fn touches(&self, alloc_id: &Id) -> bool {
        self.stop.iter().any(|s| s.alloc_id == *alloc_id)
            || self
                .place
                .iter()
                .any(|p| p.previous_alloc_id.as_ref() == Some(alloc_id))
            || self
                .destructive_update
                .iter()
                .any(|d| d.alloc_id == *alloc_id && d.replaced())
            || self.in_place_update.iter().any(|u| u.alloc_id == *alloc_id)
            || self
                .disconnect_updates
                .iter()
                .any(|u| u.alloc_id == *alloc_id)
            || self
                .attribute_updates
                .iter()
                .any(|u| u.alloc_id == *alloc_id)
            || self.reconnects_planned
                && self
                    .reconnect_updates
                    .iter()
                    .any(|u| u.alloc_id == *alloc_id)
    }
}
