//! Duplicate allocation names fixed before the plan (D-1b, #18873; 1.4.14,
//! 1.5.10, 1.6.3, 1.7.0): the group's name index counts names held twice,
//! releasing one keeps the name in use, and a planned allocation whose name
//! is held twice gets the next free name.
//!
//! Test_allocNameIndex_Duplicates and TestBitmapFrom
//! (scheduler/reconcile_util_test.go at v1.6.3) run against `NameIndex`;
//! TestServiceSched_JobModify_ExistingDuplicateAllocIndex and its
//! non-destructive twin (scheduler/generic_sched_test.go at v1.6.3) against
//! the replayed plan, which places every allocation (Nomad renames only
//! those it finds a node for).

use plan_inspect::model::*;
use plan_inspect::reconciler::{AllocSet, Bitmap, NameIndex};
use plan_inspect::report::JobReport;
use plan_inspect::version::{Release, VersionRequest, v};

use crate::common::*;

fn alloc(id: &str, name: &str, job: &str, group: &str) -> Allocation {
    Allocation {
        id: id.into(),
        name: name.into(),
        job_id: job.into(),
        task_group: group.into(),
        ..Allocation::default()
    }
}

/// Test_allocNameIndex_Duplicates (scheduler/reconcile_util_test.go at
/// v1.6.3): cache[0] is held twice; releasing it drops the duplicate and
/// keeps the name, so the next name is cache[3].
#[test]
fn test_alloc_name_index_duplicates() {
    let allocs = [
        alloc("6b255fa3", "example.cache[0]", "example", "cache"),
        alloc("e24771e6", "example.cache[1]", "example", "cache"),
        alloc("d7842822", "example.cache[2]", "example", "cache"),
        alloc("76a6a487", "example.cache[0]", "example", "cache"),
    ];
    let set: AllocSet<'_> = allocs.iter().collect();
    let mut index = NameIndex::new("example", "cache", 4, &set, true);
    assert!(index.is_duplicate(0));
    assert!(!index.is_duplicate(1));
    index.unset_index(0);
    assert!(!index.is_duplicate(0));
    assert_eq!(index.next(1), ["example.cache[3]"]);
    // Before D-1b releasing cache[0] frees it.
    let mut index = NameIndex::new("example", "cache", 4, &set, false);
    assert!(!index.is_duplicate(0));
    index.unset_index(0);
    assert_eq!(index.next(1), ["example.cache[0]"]);
}

/// TestBitmapFrom (scheduler/reconcile_util_test.go at v1.6.3): a single
/// allocation holds no duplicate.
#[test]
fn test_bitmap_from_v1_6_3() {
    let allocs = [alloc("a", "foo.bar[8]", "foo", "bar")];
    let set: AllocSet<'_> = allocs.iter().collect();
    for min in [1, 8] {
        let (bitmap, duplicates) =
            Bitmap::from_indexes_counting(set.iter().map(Allocation::index), min);
        assert_eq!(bitmap.size(), 16);
        assert!(duplicates.is_empty());
    }
}

/// An index held three times keeps both duplicates when released once: Nomad
/// decrements a copy of the count (v1.6.3 scheduler/reconcile_util.go:725),
/// so only an index held exactly twice loses its duplicate entry.
#[test]
fn releasing_a_name_held_three_times_changes_nothing() {
    let allocs = [
        alloc("a", "j.g[0]", "j", "g"),
        alloc("b", "j.g[0]", "j", "g"),
        alloc("c", "j.g[0]", "j", "g"),
    ];
    let set: AllocSet<'_> = allocs.iter().collect();
    let mut index = NameIndex::new("j", "g", 3, &set, true);
    index.unset_index(0);
    index.unset_index(0);
    assert!(index.is_duplicate(0));
    assert_eq!(index.next(2), ["j.g[1]", "j.g[2]"]);
}

/// The ten allocations of TestServiceSched_JobModify_ExistingDuplicateAllocIndex:
/// `my-job.web[i]`, the even ones `my-job.web[0]`, of the job
/// "mock-service", whose ID does not prefix those names, so every index
/// reads as 0.
fn existing_duplicates(names: impl Fn(u64) -> String) -> Cluster {
    let mut c = Cluster::new();
    let old = std::sync::Arc::new(mock_job());
    c.job(destructive_update(&old));
    for i in 0..10 {
        let id = c.alloc(&old, i);
        c.alloc_mut(&id).name = names(i).into();
    }
    c
}

fn replay_at(c: &mut Cluster, release: Release) -> JobReport {
    c.snapshot.nomad_version = Some(VersionRequest::Release(release));
    c.replay_job(JOB)
}

fn destructive_names(r: &JobReport) -> Vec<String> {
    r.plan
        .destructive_update
        .iter()
        .map(|d| d.name.clone())
        .collect()
}

fn has_duplicates(names: &[String]) -> bool {
    sorted(names.iter()).windows(2).any(|w| w[0] == w[1])
}

/// TestServiceSched_JobModify_ExistingDuplicateAllocIndex
/// (scheduler/generic_sched_test.go at v1.6.3): a destructive update of ten
/// allocations all holding index 0 plans ten allocations with distinct
/// names: nine get the free names 1 to 9, the last index 0 again.
#[test]
fn test_service_sched_job_modify_existing_duplicate_alloc_index() {
    let mut c = existing_duplicates(|i| format!("my-job.web[{}]", if i % 2 == 0 { 0 } else { i }));
    let r = replay_at(&mut c, v(1, 6, 3));
    let names = destructive_names(&r);
    assert_eq!(names.len(), 10);
    assert!(!has_duplicates(&names), "{names:?}");
    let mut expected: Vec<String> = (1..10).map(|i| format!("mock-service.web[{i}]")).collect();
    expected.push("mock-service.web[0]".into());
    assert_eq!(names, expected);
}

/// TestServiceSched_JobModify_ExistingDuplicateAllocIndexNonDestructive
/// (scheduler/generic_sched_test.go at v1.6.3): an in-place update of the
/// same allocations neither stops nor renames them.
#[test]
fn test_service_sched_job_modify_existing_duplicate_alloc_index_non_destructive() {
    let mut c = existing_duplicates(|i| format!("my-job.web[{}]", if i % 2 == 0 { 0 } else { i }));
    let job = std::sync::Arc::new(inplace_update(&mock_job()));
    c.snapshot.jobs = vec![job];
    let r = replay_at(&mut c, v(1, 6, 3));
    assert!(r.plan.destructive_update.is_empty());
    assert!(r.plan.stop.is_empty() && r.plan.place.is_empty());
    let ids: Vec<String> = r
        .plan
        .in_place_update
        .iter()
        .map(|u| u.alloc_id.to_string())
        .collect();
    let all: Vec<String> = c.snapshot.allocs.iter().map(|a| a.id.to_string()).collect();
    assert_eq!(sorted(ids), sorted(all));
}

/// D-1b at the first patch of each series: a destructive update of four
/// allocations named web[0], web[1], web[2], web[0] plans web[0] twice up to
/// 1.4.13, 1.5.9 and 1.6.2 (and 1.3.16: the 1.3 series never had it); from 1.4.14, 1.5.10, 1.6.3 and 1.7.0 the first
/// web[0] (by ID) becomes web[3], after which web[0] is held once.
#[test]
fn duplicate_names_are_renamed_in_the_plan_from_1_4_14_1_5_10_1_6_3_and_1_7_0() {
    let mut c = Cluster::new();
    let old = std::sync::Arc::new(job_of(4, None));
    c.job(destructive_update(&old));
    for i in [0, 1, 2, 0] {
        c.alloc(&old, i);
    }
    let name = |i: u64| format!("mock-service.web[{i}]");
    for (before, from) in [
        (v(1, 4, 13), v(1, 4, 14)),
        (v(1, 5, 9), v(1, 5, 10)),
        (v(1, 6, 2), v(1, 6, 3)),
        // 1.7.0 is the first of its series.
        (v(1, 3, 16), v(1, 7, 0)),
    ] {
        let r = replay_at(&mut c, before);
        assert_eq!(
            destructive_names(&r),
            [name(0), name(1), name(2), name(0)],
            "{before}"
        );
        let r = replay_at(&mut c, from);
        assert_eq!(
            destructive_names(&r),
            [name(3), name(1), name(2), name(0)],
            "{from}"
        );
    }
}

/// TestServiceSched_JobModify_ProposedDuplicateAllocIndex
/// (scheduler/generic_sched_test.go at v1.6.3): a promoted canary web[0] of
/// the new job (count 3 to 4) beside the three old allocations: the three
/// destructive updates are planned under names the canary does not hold
/// (the old web[0]'s replacement becomes web[3]); 1.6.2 plans web[0] again.
#[test]
fn test_service_sched_job_modify_proposed_duplicate_alloc_index() {
    let mut c = Cluster::new();
    // Nomad's test sets the canary update on the job, which its harness does
    // not copy into the group: the group has no update strategy.
    let old = std::sync::Arc::new(job_with(3, None));
    let mut new = destructive_update(&old);
    new.version += 1;
    new.task_groups[0].count += 1;
    let new = c.job(new);
    for i in 0..3 {
        c.alloc(&old, i);
    }
    let dep = c.new_deployment(&new);
    let canary = c.alloc(&new, 0);
    c.alloc_mut(&canary).deployment_id = (&dep).into();
    c.set_deployment_state(
        &dep,
        "web",
        DeploymentState {
            promoted: true,
            desired_total: 4,
            healthy_allocs: 1,
            placed_allocs: 1,
            ..DeploymentState::default()
        },
    );
    c.add_placed_canary(&dep, "web", &canary);
    let canary_name = c.alloc_ref(&canary).name().to_string();
    let planned = |r: &JobReport| -> Vec<String> {
        let mut names = destructive_names(r);
        names.extend(r.plan.place.iter().map(|p| p.name.clone()));
        names
    };
    let r = replay_at(&mut c, v(1, 6, 3));
    let names = planned(&r);
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(!names.contains(&canary_name), "{names:?}");
    assert!(!has_duplicates(&names), "{names:?}");
    let r = replay_at(&mut c, v(1, 6, 2));
    assert!(planned(&r).contains(&canary_name));
}

/// `--explain` of a renamed placement names the reconciler's choice.
#[test]
fn explain_names_the_duplicate_the_scheduler_renamed() {
    use plan_inspect::explain::explain;
    use plan_inspect::replay::Options;
    let mut c = Cluster::new();
    let old = std::sync::Arc::new(job_of(4, None));
    c.job(destructive_update(&old));
    for i in [0, 1, 2, 0] {
        c.alloc(&old, i);
    }
    c.snapshot.nomad_version = Some(VersionRequest::Release(v(1, 6, 3)));
    let e =
        explain(&c.snapshot, &Options::default(), "mock-service.web[3]").expect("explain failed");
    let text = plan_inspect::render::explain::table(&e, false, 400, true);
    assert!(
        text.contains(
            "Name: the reconciler chose mock-service.web[0], which more than one allocation of \
             the group holds: the scheduler plans the next free name instead"
        ),
        "{text}"
    );
}
