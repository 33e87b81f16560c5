//! Assertions of reconcile_test.go (`assertResults`, `assertNamesHaveIndexes`,
//! `assertPlaceResultsHavePreviousAllocs`, ...) over a job report, and the
//! contract's partition invariant.

use std::collections::HashSet;

use plan_inspect::model::*;
use plan_inspect::reconciler::DesiredChanges;
use plan_inspect::report::{GroupReport, JobReport, PlanPlace};

use super::Cluster;

/// The group `name` of a job report.
pub fn group<'r>(job: &'r JobReport, name: &str) -> &'r GroupReport {
    job.groups
        .iter()
        .find(|g| g.name == name)
        .unwrap_or_else(|| panic!("group {name} not in the report"))
}

/// `nameToIndex` over a list of names, sorted: `web[3]` gives 3.
pub fn indexes<'n>(names: impl IntoIterator<Item = &'n str>) -> Vec<u64> {
    let mut v: Vec<u64> = names
        .into_iter()
        .map(|n| {
            let open = n.rfind('[').expect("name without index");
            n[open + 1..n.len() - 1].parse().expect("index")
        })
        .collect();
    v.sort();
    v
}

/// `intRange(a, b, c, d)`: the inclusive ranges a..=b, c..=d.
pub fn int_range(pairs: &[u64]) -> Vec<u64> {
    pairs.chunks(2).flat_map(|p| p[0]..=p[1]).collect()
}

/// The items, sorted: expected and actual lists compared without order.
pub fn sorted<T: Ord>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut v: Vec<T> = items.into_iter().collect();
    v.sort();
    v
}

/// Indexes of the placement names, sorted.
pub fn place_indexes(r: &JobReport) -> Vec<u64> {
    indexes(r.plan.place.iter().map(|p| p.name.as_str()))
}

/// Indexes of the stopped allocations' names, sorted.
pub fn stop_indexes(r: &JobReport) -> Vec<u64> {
    indexes(r.plan.stop.iter().map(|s| s.name.as_str()))
}

/// Indexes of the destructive updates' names, sorted.
pub fn destructive_indexes(r: &JobReport) -> Vec<u64> {
    indexes(r.plan.destructive_update.iter().map(|d| d.name.as_str()))
}

/// Indexes of the in-place updates' names, sorted.
pub fn inplace_indexes(r: &JobReport) -> Vec<u64> {
    indexes(r.plan.in_place_update.iter().map(|u| u.name.as_str()))
}

/// Indexes of the attribute updates' allocation names, sorted: the report
/// names an attribute update by allocation ID only.
pub fn attribute_update_indexes(c: &Cluster, r: &JobReport) -> Vec<u64> {
    let names: Vec<_> = r
        .plan
        .attribute_updates
        .iter()
        .map(|u| c.alloc_ref(&u.alloc_id).name())
        .collect();
    indexes(names.iter().map(|n| n.as_str()))
}

/// The counts `assertResults` checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Expect {
    pub create_deployment: bool,
    pub deployment_updates: usize,
    pub place: usize,
    pub destructive: usize,
    pub inplace: usize,
    pub attribute_updates: usize,
    pub disconnect_updates: usize,
    pub reconnect_updates: usize,
    pub stop: usize,
}

/// No desired changes, the base of a struct update: `{ignore: 3, ..dc()}`.
pub fn dc() -> DesiredChanges {
    DesiredChanges::default()
}

/// The desired changes of the single group "web", for `assert_results`.
pub fn web(changes: DesiredChanges) -> [(&'static str, DesiredChanges); 1] {
    [("web", changes)]
}

/// `assertResults`: the plan's sizes, plus the desired changes per group.
pub fn assert_results(job: &JobReport, expect: Expect, desired: &[(&str, DesiredChanges)]) {
    let p = &job.plan;
    let got = Expect {
        create_deployment: p.deployment.is_some(),
        deployment_updates: p.deployment_updates.len(),
        place: p.place.len(),
        destructive: p.destructive_update.len(),
        inplace: p.in_place_update.len(),
        attribute_updates: p.attribute_updates.len(),
        disconnect_updates: p.disconnect_updates.len(),
        reconnect_updates: p.reconnect_updates.len(),
        stop: p.stop.len(),
    };
    assert_eq!(got, expect, "plan sizes");
    for (name, changes) in desired {
        assert_eq!(
            &group(job, name).desired_changes.reconciler,
            changes,
            "desired changes of {name}"
        );
    }
}

/// `assertPlaceResultsHavePreviousAllocs`: names are unique and exactly `n`
/// placements replace an allocation of the same name.
pub fn assert_previous_allocs(c: &Cluster, r: &JobReport, n: usize) {
    let mut names = HashSet::new();
    let mut found = 0;
    for p in &r.plan.place {
        assert!(
            names.insert(p.name.as_str()),
            "name {} placed twice",
            p.name
        );
        if let Some(prev) = &p.previous_alloc_id {
            assert_eq!(c.alloc_ref(prev).name(), p.name, "previous alloc name");
            found += 1;
        }
    }
    assert_eq!(found, n, "placements with previous allocs");
}

/// `assertPlacementsAreRescheduled`: names are unique and exactly `n`
/// placements with a previous allocation are reschedules.
pub fn assert_rescheduled(r: &JobReport, n: usize) {
    let mut names = HashSet::new();
    let found = r
        .plan
        .place
        .iter()
        .inspect(|p| {
            assert!(
                names.insert(p.name.as_str()),
                "name {} placed twice",
                p.name
            )
        })
        .filter(|p| p.previous_alloc_id.is_some() && p.reschedule)
        .count();
    assert_eq!(found, n, "rescheduled placements");
}

/// `assertNoCanariesStopped`: no stop names a placed canary of deployment `dep`.
pub fn assert_no_canaries_stopped(c: &Cluster, dep: &str, r: &JobReport) {
    let d = c.snapshot.deployments.iter().find(|d| d.id == dep).unwrap();
    for s in &r.plan.stop {
        for state in d.task_groups.values() {
            assert!(
                !state.placed_canaries.contains(&s.alloc_id),
                "canary {} ({}) stopped",
                s.alloc_id,
                s.name
            );
        }
    }
}

/// The created deployment: `structs.NewDeployment(job)` with the given
/// description and per-group (desired total, desired canaries).
pub fn assert_created_deployment(
    r: &JobReport,
    job: &Job,
    description: &str,
    groups: &[(&str, i64, i64)],
) {
    let d = r.plan.deployment.as_ref().expect("a created deployment");
    assert_eq!(d.status, deployment_status::RUNNING);
    assert_eq!(d.status_description, description);
    assert_eq!(d.job_version, job.version);
    let got: Vec<(&str, i64, i64)> = d
        .groups
        .iter()
        .map(|(n, g)| (n.as_str(), g.desired_total, g.desired_canaries))
        .collect();
    let mut want = groups.to_vec();
    want.sort();
    assert_eq!(got, want, "created deployment groups");
    for g in d.groups.values() {
        assert!(!g.promoted && !g.auto_promote && !g.auto_revert);
    }
}

/// The plan's only deployment update sets `dep` to `status` and `description`.
pub fn assert_deployment_update(r: &JobReport, dep: &str, status: &str, description: &str) {
    let got: Vec<(&str, &str, &str)> = r
        .plan
        .deployment_updates
        .iter()
        .map(|u| {
            (
                u.deployment_id.as_str(),
                u.status.as_str(),
                u.status_description.as_str(),
            )
        })
        .collect();
    assert_eq!(got, vec![(dep, status, description)]);
}

/// Every stop of the plan carries `description`.
pub fn assert_stop_descriptions(r: &JobReport, description: &str) {
    for s in &r.plan.stop {
        assert_eq!(s.description, description, "stop of {}", s.name);
    }
}

/// The contract's invariant (spec section 6): every allocation of the job
/// appears exactly once in its group, in one bucket or in `set_aside`.
pub fn assert_partition(c: &Cluster, r: &JobReport) {
    let mut seen: Vec<(String, String)> = Vec::new();
    for g in &r.groups {
        for (_, set) in g.buckets.iter() {
            seen.extend(set.iter().map(|e| (g.name.clone(), e.id.to_string())));
        }
        seen.extend(
            g.set_aside
                .iter()
                .map(|e| (g.name.clone(), e.id.to_string())),
        );
    }
    seen.sort();
    let mut want: Vec<(String, String)> = c
        .snapshot
        .allocs
        .iter()
        .filter(|a| a.job_id == r.id && a.namespace == r.namespace)
        .map(|a| (a.task_group.to_string(), a.id.to_string()))
        .collect();
    want.sort();
    assert_eq!(seen, want, "allocations by group, in buckets or set aside");
}

pub fn assert_successful_update(r: &JobReport, deployment: &str) {
    assert_eq!(r.plan.deployment_updates.len(), 1);
    let u = &r.plan.deployment_updates[0];
    assert_eq!(u.deployment_id, deployment);
    assert_eq!(u.status, deployment_status::SUCCESSFUL);
    assert_eq!(u.status_description, deployment_status::DESC_SUCCESSFUL);
}

/// The ID of the allocation a placement replaces, as text.
pub fn previous_id(place: &PlanPlace) -> Option<String> {
    place.previous_alloc_id.as_ref().map(Id::to_string)
}
