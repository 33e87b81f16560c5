//! A group's allocations as the reconciler sorted them: `filterByTainted`'s
//! buckets, the allocations set aside before it, and the reschedules.

use std::borrow::Cow;
use std::ops::{Deref, DerefMut};

use serde::Serialize;

use crate::model::{ClientStatus, DesiredStatus, Id, Name};
use crate::reconciler::{
    Bucket, BucketReason, ByBucket, ReasonNode, ReasonTimes, TaintRule, Unreplaced,
};
use crate::time::Time;

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
    pub name: Name,
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
