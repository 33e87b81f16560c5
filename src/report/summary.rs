//! A group's `allocations`: each allocation once, with its bucket and fate,
//! whatever the job's type. The buckets, the system diff's sets and the
//! set-aside list hold the details; this is the one list a script reads to
//! ask about any job alike. It is made while the JSON is written, from the
//! group and the job's plan, so a report holds no second copy of it.

use serde::{Serialize, Serializer};

use super::buckets::BucketEntry;
use super::fate::{Fate, Fates};
use super::job::{GroupReport, JobReport};
use crate::model::Id;

/// One allocation of a group, as `allocations` lists it.
#[derive(Debug, Serialize)]
pub struct AllocationSummary<'a> {
    pub id: &'a Id,
    pub name: &'a str,
    /// The bucket `filterByTainted` chose (service and batch jobs), the set
    /// of the system scheduler's diff (system and sysbatch jobs), or
    /// `set_aside`.
    pub bucket: &'static str,
    pub fate: Fate,
    /// Why the allocation is in its bucket, as the bucket entry says.
    pub reason: Reason<'a>,
}

/// The reason of a summary, put into words only as it is written, so that a
/// large group's list holds no sentence of its own.
#[derive(Debug)]
pub enum Reason<'a> {
    Entry(&'a BucketEntry),
    Said(&'a str),
}

impl Serialize for Reason<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Reason::Entry(e) => s.serialize_str(&e.reason()),
            Reason::Said(words) => s.serialize_str(words),
        }
    }
}

impl GroupReport {
    /// Every allocation of the group with its fate in `fates`, by ID.
    pub fn summaries<'a>(&'a self, fates: &Fates<'_>) -> Vec<AllocationSummary<'a>> {
        let entry = |bucket: &'static str, e: &'a BucketEntry| AllocationSummary {
            id: &e.id,
            name: &e.name,
            bucket,
            fate: fates.of_alloc(&e.id),
            reason: Reason::Entry(e),
        };
        let buckets = self
            .buckets
            .iter()
            .flat_map(|(b, entries)| entries.iter().map(move |e| entry(b.as_str(), e)));
        let system = self.system_diff.iter().flat_map(|d| {
            d.sets()
                .into_iter()
                .flat_map(move |(set, entries)| entries.iter().map(move |e| entry(set, e)))
        });
        let set_aside = self.set_aside.iter().map(|s| AllocationSummary {
            id: &s.id,
            name: &s.name,
            bucket: "set_aside",
            fate: fates.of_alloc(&s.id),
            reason: Reason::Said(&s.reason),
        });
        let mut all: Vec<AllocationSummary<'a>> = buckets.chain(system).chain(set_aside).collect();
        all.sort_by(|a, b| a.id.cmp(b.id));
        all
    }
}

/// A group as the JSON writes it: its fields, then `allocations`, listed
/// only when the group is written, one group at a time.
struct GroupJson<'a> {
    group: &'a GroupReport,
    fates: &'a Fates<'a>,
}

impl Serialize for GroupJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Written<'a> {
            #[serde(flatten)]
            group: &'a GroupReport,
            allocations: Vec<AllocationSummary<'a>>,
        }
        Written {
            group: self.group,
            allocations: self.group.summaries(self.fates),
        }
        .serialize(s)
    }
}

impl Serialize for JobReport {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let fates = Fates::of(&self.plan);
        let groups: Vec<GroupJson<'_>> = self
            .groups
            .iter()
            .map(|group| GroupJson {
                group,
                fates: &fates,
            })
            .collect();
        let mut job = s.serialize_struct("JobReport", 9)?;
        job.serialize_field("namespace", &self.namespace)?;
        job.serialize_field("id", &self.id)?;
        job.serialize_field("type", &self.job_type)?;
        job.serialize_field("version", &self.version)?;
        job.serialize_field("priority", &self.priority)?;
        job.serialize_field("stopped", &self.stopped)?;
        job.serialize_field("purged", &self.purged)?;
        job.serialize_field("groups", &groups)?;
        job.serialize_field("plan", &self.plan)?;
        job.end()
    }
}
