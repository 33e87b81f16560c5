//! The result of a replay: JSON output schema version 1.
//!
//! These types are the machine-readable contract (`docs/json-schema.md`).
//! Every list is sorted, so the same snapshot gives the same bytes.
//!
//! Strings that many entries repeat (node IDs and statuses, task groups, an
//! allocation's name) are shared, bucket entries' mostly with the
//! snapshot's allocations, and the scheduler's fixed texts are
//! `&'static str`: a report on a million allocations holds no copy of them.
//! A bucket entry keeps the facts of its reason, put into words only when
//! it is written.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use serde::Serialize;

pub use crate::placement::{AllocMetric, Score};

use crate::model::{ClientStatus, DesiredStatus, Id, JobType, Name};
use crate::reconciler::{
    Bucket, BucketReason, ByBucket, DesiredChanges, ReasonNode, ReasonTimes, TaintRule, Unreplaced,
};
use crate::time::Time;
use crate::version::Profile;
use crate::warning::Warning;

mod count_gap;
mod fate;
mod summary;

pub use count_gap::{CountGap, GapCause, PlanList};
pub use fate::{Fate, Fates};
pub use summary::AllocationSummary;

/// The version of this schema; bumped on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// The whole document. `jobs` and `warnings` come last, which the
/// streamed JSON relies on (`render::json::render_streamed`).
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub schema_version: u32,
    /// The evaluation time.
    pub now: Time,
    pub now_source: NowSource,
    /// The evaluation ID the reconciler ran with.
    pub eval_id: String,
    /// The priority of the evaluation replayed with `--eval`; null when none
    /// is, and each job's own priority is used.
    pub eval_priority: Option<i64>,
    pub supports_disconnected_clients: bool,
    /// The Nomad release replayed, and why.
    pub nomad_version: Profile,
    pub jobs: Vec<JobReport>,
    pub warnings: Vec<Warning>,
}

/// Where the evaluation time came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NowSource {
    /// `--now`.
    Flag,
    /// The snapshot's `Now` key.
    Snapshot,
    /// The time in the snapshot's `SnapshotMeta` ID.
    SnapshotMeta,
    /// The machine's clock: not reproducible.
    Clock,
}

/// One job and its plan. Serialised (in `summary.rs`) with each group's
/// `allocations` ([`GroupReport::summaries`]), which need the plan.
#[derive(Clone, Debug)]
pub struct JobReport {
    pub namespace: String,
    pub id: String,
    /// Written as `type`.
    pub job_type: JobType,
    pub version: u64,
    pub priority: i64,
    /// Stopped, or purged (absent from `Jobs`): every allocation is stopped.
    pub stopped: bool,
    pub purged: bool,
    pub groups: Vec<GroupReport>,
    pub plan: Plan,
}

/// One task group.
#[derive(Clone, Debug, Serialize)]
pub struct GroupReport {
    pub name: String,
    /// The desired count; 0 for a removed group.
    pub count: i64,
    /// Present in allocations but not in the job spec (or the job is purged).
    pub removed: bool,
    pub buckets: Buckets,
    pub set_aside: Vec<SetAsideEntry>,
    pub reschedule_now: Vec<Id>,
    pub reschedule_later: Vec<RescheduleLater>,
    pub desired_changes: GroupChanges,
    /// System and sysbatch jobs only: the system scheduler's diff, which
    /// takes the place of the buckets (those stay empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_diff: Option<SystemDiffReport>,
}

/// `diffSystemAllocs` for one task group: every allocation it examined, by
/// set, and the nodes the feasibility checks turned down.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SystemDiffReport {
    pub update: Vec<BucketEntry>,
    pub migrate: Vec<BucketEntry>,
    pub stop: Vec<BucketEntry>,
    pub ignore: Vec<BucketEntry>,
    pub lost: Vec<BucketEntry>,
    /// From 1.3.0: running on a disconnected node, marked unknown.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub disconnecting: Vec<BucketEntry>,
    /// From 1.3.0: back from a disconnect; updated in place from C-1.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reconnecting: Vec<BucketEntry>,
    pub filtered_nodes: Vec<FilteredNode>,
}

impl SystemDiffReport {
    /// The allocation sets with their names, as the JSON keys them.
    pub fn sets(&self) -> [(&'static str, &Vec<BucketEntry>); 7] {
        [
            ("update", &self.update),
            ("migrate", &self.migrate),
            ("stop", &self.stop),
            ("ignore", &self.ignore),
            ("lost", &self.lost),
            ("disconnecting", &self.disconnecting),
            ("reconnecting", &self.reconnecting),
        ]
    }
}

/// A node that would get a placement but fails a feasibility check.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct FilteredNode {
    pub node_id: String,
    pub name: String,
    pub reason: String,
}

/// A group's counts: the reconciler's `DesiredUpdates`, and the counts of
/// the plan's entries that Nomad 1.3 does not keep there (later releases
/// count them in `DesiredUpdates` too), serialised after them in one object.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GroupChanges {
    #[serde(flatten)]
    pub reconciler: DesiredChanges,
    /// Disconnect updates of the group's allocations.
    pub disconnect: u64,
    /// Reconnect updates of the group's allocations.
    pub reconnect: u64,
    /// Failed allocations rescheduled now.
    pub reschedule_now: u64,
    /// Failed allocations rescheduled by a follow-up evaluation.
    pub reschedule_later: u64,
}

impl Deref for GroupChanges {
    type Target = DesiredChanges;
    fn deref(&self) -> &DesiredChanges {
        &self.reconciler
    }
}

/// The sets of `filterByTainted`, one key per bucket. `expiring` is a key
/// only for releases that have the bucket (1.7.2 on), so that the JSON of
/// older profiles keeps its six keys; every other key is always present.
#[derive(Clone, Debug, Default)]
pub struct Buckets {
    pub sets: ByBucket<Vec<BucketEntry>>,
    pub expiring: bool,
}

impl Deref for Buckets {
    type Target = ByBucket<Vec<BucketEntry>>;
    fn deref(&self) -> &Self::Target {
        &self.sets
    }
}

impl DerefMut for Buckets {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.sets
    }
}

impl Serialize for Buckets {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let shown = self
            .sets
            .iter()
            .filter(|(b, _)| *b != Bucket::Expiring || self.expiring);
        let mut map = s.serialize_map(None)?;
        for (b, entries) in shown {
            map.serialize_entry(b.as_str(), entries)?;
        }
        map.end()
    }
}

/// One allocation in a bucket. Its reason is kept as facts and put in
/// words by [`BucketEntry::reason_with`] alone: the JSON with exact times,
/// the tables relative to now.
#[derive(Clone, Debug)]
pub struct BucketEntry {
    pub id: Id,
    pub name: Arc<str>,
    pub node_id: Name,
    /// The node's status, or null when the node is garbage-collected.
    pub node_status: Option<Name>,
    pub client_status: ClientStatus,
    pub desired_status: DesiredStatus,
    /// The version of the job the allocation runs (of its embedded job).
    pub job_version: u64,
    /// A canary of a deployment (`DeploymentStatus.Canary`).
    pub canary: bool,
    /// Why the allocation is in its set.
    pub why: EntryWhy,
    /// Why a lost or expiring allocation gets no replacement.
    pub unreplaced: Option<Unreplaced>,
}

/// Why an allocation is in its set.
#[derive(Clone, Debug)]
pub enum EntryWhy {
    /// The check of `filterByTainted` that chose the bucket, with what it
    /// read besides the entry's own statuses.
    Tainted {
        rule: TaintRule,
        /// The node carries a drain strategy.
        node_draining: bool,
        /// The times the rule looked at, for rules of
        /// [`ReasonKind::Times`](crate::reconciler::ReasonKind::Times).
        times: Option<Box<ReasonTimes>>,
    },
    /// A system job's diff, which `filterByTainted` does not decide, in
    /// its own words.
    Said(Name),
}

impl BucketEntry {
    /// The reason as one line, its times written by `time`
    /// ([`BucketReason::sentence`]).
    pub fn reason_with(&self, time: impl Fn(Time) -> String) -> Cow<'_, str> {
        match &self.why {
            EntryWhy::Tainted {
                rule,
                node_draining,
                times,
            } => Cow::Owned(
                BucketReason {
                    rule: *rule,
                    node: ReasonNode {
                        status: self.node_status.as_deref(),
                        draining: *node_draining,
                    },
                    client_status: self.client_status.as_str(),
                    desired_status: self.desired_status.as_str(),
                    times: times.as_deref().copied().unwrap_or_default(),
                }
                .sentence(time),
            ),
            EntryWhy::Said(words) => Cow::Borrowed(words),
        }
    }

    /// The reason with exact times, as the JSON writes it.
    pub fn reason(&self) -> Cow<'_, str> {
        self.reason_with(|t| t.to_string())
    }
}

impl Serialize for BucketEntry {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut entry = s.serialize_struct("BucketEntry", 9)?;
        entry.serialize_field("id", &self.id)?;
        entry.serialize_field("name", &self.name)?;
        entry.serialize_field("node_id", &self.node_id)?;
        entry.serialize_field("node_status", &self.node_status)?;
        entry.serialize_field("client_status", &self.client_status)?;
        entry.serialize_field("desired_status", &self.desired_status)?;
        entry.serialize_field("job_version", &self.job_version)?;
        entry.serialize_field("canary", &self.canary)?;
        entry.serialize_field("reason", &*self.reason())?;
        entry.end()
    }
}

/// An allocation removed before `filterByTainted`.
#[derive(Clone, Debug, Serialize)]
pub struct SetAsideEntry {
    pub id: Id,
    pub name: String,
    /// As in [`BucketEntry`].
    pub job_version: u64,
    pub canary: bool,
    pub reason: String,
}

/// A failed allocation to reschedule later.
#[derive(Clone, Debug, Serialize)]
pub struct RescheduleLater {
    pub id: Id,
    pub at: Time,
}

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
    /// Placements and in-place updates taken on nodes without resources,
    /// where fit was not checked (by the placement stage or, for system
    /// jobs, the system scheduler), for the `resource_fit_unknown` warning.
    #[serde(skip)]
    pub fit_unchecked: u64,
    /// Whether the reconnect updates are entries of Nomad's plan (from C-1)
    /// rather than only logged (the seed), and so change something.
    #[serde(skip)]
    pub reconnects_planned: bool,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn update(id: &str) -> PlanFollowupUpdate {
        PlanFollowupUpdate {
            alloc_id: id.to_string().into(),
            followup_eval_id: "e".to_string(),
        }
    }

    #[test]
    fn is_noop_counts_what_nomad_puts_in_the_plan() {
        assert!(Plan::default().is_noop());
        let changed = [
            Plan {
                attribute_updates: vec![update("a")],
                ..Plan::default()
            },
            Plan {
                disconnect_updates: vec![update("a")],
                ..Plan::default()
            },
            Plan {
                deployment_updates: vec![PlanDeploymentUpdate {
                    deployment_id: "d".to_string(),
                    status: "successful".to_string(),
                    status_description: String::new(),
                }],
                ..Plan::default()
            },
            Plan {
                deployment: Some(PlanDeployment {
                    id: "d".to_string(),
                    status: "running".to_string(),
                    status_description: String::new(),
                    job_version: 1,
                    groups: BTreeMap::new(),
                }),
                ..Plan::default()
            },
            Plan {
                in_place_update: vec![PlanInPlace {
                    alloc_id: "a".into(),
                    name: "web.web[0]".to_string(),
                    deployment_id: None,
                }],
                ..Plan::default()
            },
        ];
        for plan in &changed {
            assert!(!plan.is_noop(), "{plan:?}");
        }
    }

    #[test]
    fn reconnect_updates_and_followup_evals_alone_are_a_noop() {
        let plan = Plan {
            reconnect_updates: vec![PlanReconnect {
                alloc_id: "a".into(),
                alloc_state: None,
            }],
            followup_evals: vec![PlanFollowupEval {
                id: "e".to_string(),
                triggered_by: "alloc-failure".to_string(),
                wait_until: Time::default(),
                status_description: String::new(),
                task_group: "web".to_string(),
                alloc_ids: vec!["a".into()],
            }],
            ..Plan::default()
        };
        assert!(plan.is_noop());
        assert!(!plan.touches(&Id::from("a")));
        // From C-1 the reconnect update is an entry of the plan.
        let planned = Plan {
            reconnects_planned: true,
            ..plan
        };
        assert!(!planned.is_noop());
        assert!(planned.touches(&Id::from("a")));
    }

    #[test]
    fn touches_names_only_the_changed_allocation() {
        let plan = Plan {
            attribute_updates: vec![update("a")],
            ..Plan::default()
        };
        assert!(plan.touches(&Id::from("a")));
        assert!(!plan.touches(&Id::from("b")));
    }
}
