//! One job's report: its groups, each with its buckets, counts and (for a
//! system job) its diff, and the job's plan.

use std::ops::Deref;

use serde::Serialize;

use super::buckets::{BucketEntry, Buckets, RescheduleLater, SetAsideEntry};
use super::plan::Plan;
use crate::model::{Id, JobType};
use crate::reconciler::DesiredChanges;

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

/// Allocation entries from which a job's report is large: a renderer
/// writes it from the writing thread rather than holding its text, and the
/// memory it frees is worth handing back.
const LARGE: usize = 4096;

impl JobReport {
    /// Whether the report is large (4,096 allocation entries or more).
    pub fn is_large(&self) -> bool {
        self.entries() >= LARGE
    }

    /// How many allocation entries its groups list, a measure of its size.
    pub fn entries(&self) -> usize {
        self.groups
            .iter()
            .map(|g| {
                let buckets: usize = g.buckets.iter().map(|(_, set)| set.len()).sum();
                let diff = g.system_diff.as_ref().map_or(0, |d| {
                    d.sets().iter().map(|(_, set)| set.len()).sum::<usize>()
                });
                buckets + diff
            })
            .sum()
    }
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
