//! Queries on a job's report that tests compare against Nomad's decisions.

use std::collections::HashMap;

use plan_inspect::model::{ClientStatus, Id};
use plan_inspect::reconciler::DesiredChanges;
use plan_inspect::report::{Buckets, JobReport};

use super::{JOB, group, sorted};

/// The bucket name of every allocation of group `group`.
pub fn buckets_by_id(r: &JobReport, group: &str) -> HashMap<String, &'static str> {
    let b: &Buckets = &super::group(r, group).buckets;
    let mut out = HashMap::new();
    for (bucket, set) in b.iter() {
        let name = bucket.as_str();
        for e in set {
            assert!(
                out.insert(e.id.to_string(), name).is_none(),
                "{} in two buckets",
                e.id
            );
        }
    }
    out
}

/// The bucket of allocation `id` in group "web".
pub fn bucket_of(r: &JobReport, id: &str) -> &'static str {
    buckets_by_id(r, "web")
        .get(id)
        .copied()
        .unwrap_or_else(|| panic!("{id} in no bucket"))
}

/// The desired changes of group "web".
pub fn web_changes(r: &JobReport) -> DesiredChanges {
    group(r, "web").desired_changes.reconciler.clone()
}

/// `(alloc_id, description, client_status)` of every stop, sorted.
pub fn stops(r: &JobReport) -> Vec<(String, String, Option<String>)> {
    sorted(r.plan.stop.iter().map(|s| {
        (
            s.alloc_id.to_string(),
            s.description.to_string(),
            s.client_status
                .as_ref()
                .map(ClientStatus::as_str)
                .map(str::to_owned),
        )
    }))
}

/// `(name, previous, reschedule, lost)` of every placement, sorted.
pub fn places(r: &JobReport) -> Vec<(String, Option<String>, bool, bool)> {
    sorted(r.plan.place.iter().map(|p| {
        (
            p.name.clone(),
            p.previous_alloc_id.as_ref().map(Id::to_string),
            p.reschedule,
            p.lost,
        )
    }))
}

/// `job.web[i]` for `mock_job()`.
pub fn name(i: u64) -> String {
    format!("{JOB}.web[{i}]")
}
