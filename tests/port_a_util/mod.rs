//! Name and flag checks of reconcile_test.go (`assertNamesHaveIndexes` over
//! the various result lists, `assertPlaceResultsHavePreviousAllocs`,
//! `assertPlacementsAreRescheduled`) shared by tests/nomad_reconcile_a*.rs.
#![allow(dead_code)]

use std::collections::HashSet;

use plan_inspect::model::{Allocation, TaskState};
use plan_inspect::report::JobReport;
use plan_inspect::time::Time;

use crate::common::{Cluster, indexes};

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

/// The snapshot allocation `id`.
pub fn alloc<'c>(c: &'c Cluster, id: &str) -> &'c Allocation {
    c.snapshot
        .allocs
        .iter()
        .find(|a| a.id == id)
        .unwrap_or_else(|| panic!("no alloc {id}"))
}

/// Indexes of the attribute updates' allocation names, sorted.
pub fn attribute_update_indexes(c: &Cluster, r: &JobReport) -> Vec<u64> {
    indexes(
        r.plan
            .attribute_updates
            .iter()
            .map(|u| alloc(c, &u.alloc_id).name.as_str()),
    )
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
            assert_eq!(alloc(c, prev).name, p.name, "previous alloc name");
            found += 1;
        }
    }
    assert_eq!(found, n, "placements with previous allocs");
}

/// `assertPlacementsAreRescheduled`: exactly `n` placements with a previous
/// allocation are reschedules.
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

/// Task states `{name: {State: "start", FinishedAt: finished}}`.
pub fn finished_at(name: &str, finished: Time) -> std::collections::BTreeMap<String, TaskState> {
    [(
        name.to_string(),
        TaskState {
            state: "start".into(),
            finished_at: finished,
            ..TaskState::default()
        },
    )]
    .into_iter()
    .collect()
}

/// The contract's invariant (spec section 6): every allocation of the job
/// appears exactly once in its group, in one bucket or in `set_aside`.
pub fn assert_partition(c: &Cluster, r: &JobReport) {
    let mut seen: Vec<(String, String)> = Vec::new();
    for g in &r.groups {
        let b = &g.buckets;
        for set in [
            &b.untainted,
            &b.migrate,
            &b.lost,
            &b.disconnecting,
            &b.reconnecting,
            &b.ignore,
        ] {
            seen.extend(set.iter().map(|e| (g.name.clone(), e.id.clone())));
        }
        seen.extend(g.set_aside.iter().map(|e| (g.name.clone(), e.id.clone())));
    }
    seen.sort();
    let mut want: Vec<(String, String)> = c
        .snapshot
        .allocs
        .iter()
        .filter(|a| a.job_id == r.id && a.namespace == r.namespace)
        .map(|a| (a.task_group.clone(), a.id.clone()))
        .collect();
    want.sort();
    assert_eq!(seen, want, "allocations by group, in buckets or set aside");
}
