//! A lost (or expiring) allocation that gets no replacement says why: the
//! reconciler records the reason, the table's row and `--explain` word it
//! (issue 33 item 3). Each reason under the releases that have it.

use plan_inspect::explain::explain;
use plan_inspect::model::*;
use plan_inspect::reconciler::{Keeper, Unreplaced};
use plan_inspect::render::table::{Style, render};
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::{BucketEntry, Report};
use plan_inspect::version::{Release, VersionRequest, v};

use crate::common::*;

fn options(release: Release) -> Options {
    Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    }
}

/// The bucket entry of allocation `id` in `report`.
fn entry<'r>(report: &'r Report, id: &str) -> &'r BucketEntry {
    report
        .jobs
        .iter()
        .flat_map(|j| &j.groups)
        .flat_map(|g| g.buckets.iter().flat_map(|(_, es)| es))
        .find(|e| e.id == *id)
        .unwrap_or_else(|| panic!("no entry {id}"))
}

/// Replays `c` as `release` and checks that `id` is not replaced for
/// `why`: in the report, on its table row, and in its explanation.
fn assert_unreplaced(c: &Cluster, release: Release, id: &str, why: Unreplaced) {
    let report = Replay::new(&c.snapshot, &options(release))
        .unwrap()
        .report();
    assert_eq!(entry(&report, id).unreplaced, Some(why), "{release}");
    assert!(
        !report.jobs[0]
            .plan
            .place
            .iter()
            .any(|p| p.previous_alloc_id.as_ref().is_some_and(|p| *p == *id)),
        "{release}: {id} is replaced"
    );
    let style = Style {
        verbose: true,
        width: 400,
        ..Style::default()
    };
    let table = render(&report, style);
    let row = table
        .lines()
        .find(|l| l.contains(id))
        .unwrap_or_else(|| panic!("{release}: no row of {id}:\n{table}"));
    assert!(
        row.trim_end().ends_with(&format!("; {}", why.describe())),
        "{release}: {row}"
    );
    let e = explain(&c.snapshot, &options(release), id).unwrap();
    let plan = e.steps.iter().find(|s| s.title == "Plan").unwrap();
    assert!(
        plan.facts
            .iter()
            .any(|f| f.name == "replacement" && f.value == why.describe()),
        "{release}: {plan:?}"
    );
}

/// Replays `c` as `release` and checks that `id` carries no reason.
fn assert_no_reason(c: &Cluster, release: Release, id: &str) {
    let report = Replay::new(&c.snapshot, &options(release))
        .unwrap()
        .report();
    assert_eq!(entry(&report, id).unreplaced, None, "{release}");
    let e = explain(&c.snapshot, &options(release), id).unwrap();
    let plan = e.steps.iter().find(|s| s.title == "Plan").unwrap();
    assert!(
        !plan.facts.iter().any(|f| f.name == "replacement"),
        "{plan:?}"
    );
}

/// A job of `count` whose allocation `web[index]` sits on a down node,
/// the others running; returns the lost allocation's ID.
fn lost_of(c: &mut Cluster, job: Job, allocs: u64, index: u64) -> String {
    let job = c.job(job);
    let ids = c.allocs(&job, allocs);
    let id = ids[index as usize].clone();
    c.set_node_status(&id, node_status::DOWN);
    id
}

const RELEASES: [Release; 4] = [Release::Seed, v(1, 5, 0), v(1, 8, 0), v(2, 0, 5)];

/// Every release replaces a lost allocation the count needs: no reason.
#[test]
fn a_replaced_lost_allocation_has_no_reason() {
    let mut c = Cluster::new();
    let id = lost_of(&mut c, job_of(3, None), 3, 2);
    for release in RELEASES {
        assert_no_reason(&c, release, &id);
    }
}

/// A stopped job stops every allocation and places none
/// (v1.3.0 scheduler/reconcile.go:236 `handleStop`).
#[test]
fn a_stopped_job_does_not_replace_its_lost_allocation() {
    let mut c = Cluster::new();
    let mut job = job_of(3, None);
    job.stop = true;
    let id = lost_of(&mut c, job, 3, 2);
    for release in RELEASES {
        assert_unreplaced(&c, release, &id, Unreplaced::JobStopped);
    }
}

/// A purged job (absent from `Jobs`) is stopped whole.
#[test]
fn a_purged_job_does_not_replace_its_lost_allocation() {
    let mut c = Cluster::new();
    let id = lost_of(&mut c, job_of(3, None), 3, 2);
    c.snapshot.jobs.clear();
    for release in RELEASES {
        assert_unreplaced(&c, release, &id, Unreplaced::JobPurged);
    }
}

/// A group gone from the job spec is stopped whole.
#[test]
fn a_removed_group_does_not_replace_its_lost_allocation() {
    let mut c = Cluster::new();
    let old = c.job(job_of(2, None));
    let id = c.alloc(&old, 0);
    c.set_node_status(&id, node_status::DOWN);
    let mut renamed = job_of(2, None);
    renamed.task_groups[0].name = "api".into();
    c.job(renamed);
    for release in RELEASES {
        assert_unreplaced(&c, release, &id, Unreplaced::GroupRemoved);
    }
}

/// Lowered from 3 to 2, the group's two running allocations meet the count
/// and the lost third is not replaced (v1.3.0 scheduler/reconcile.go:724
/// `computePlacements` stops at the count).
#[test]
fn a_lowered_count_met_without_the_lost_allocation_does_not_replace_it() {
    let mut c = Cluster::new();
    let id = lost_of(&mut c, job_of(2, None), 3, 2);
    for release in RELEASES {
        assert_unreplaced(&c, release, &id, Unreplaced::CountMet { count: 2 });
    }
}

/// Count 0: before 1.11.0 the count is met by nothing; from 1.11.0 the
/// group is stopped whole as a removed one is
/// (v1.11.0 scheduler/reconciler/reconcile_cluster.go `computeGroup`).
#[test]
fn a_group_scaled_to_zero_does_not_replace_its_lost_allocation() {
    let mut c = Cluster::new();
    let id = lost_of(&mut c, job_of(0, None), 1, 0);
    for release in [Release::Seed, v(1, 10, 5)] {
        assert_unreplaced(&c, release, &id, Unreplaced::CountMet { count: 0 });
    }
    for release in [v(1, 11, 0), v(2, 0, 5)] {
        assert_unreplaced(&c, release, &id, Unreplaced::ScaledToZero);
    }
}

/// A group with `stop_after_client_disconnect` computes no placement while
/// a lost allocation waits out the timeout
/// (v1.3.0 scheduler/reconcile.go:431-436).
#[test]
fn a_lost_allocation_waiting_for_stop_after_client_disconnect_is_not_replaced_yet() {
    let mut c = Cluster::new();
    let mut job = job_of(2, None);
    job.task_groups[0].stop_after_client_disconnect = Some(HOUR);
    let id = lost_of(&mut c, job, 2, 1);
    for (release, fields) in [
        (Release::Seed, DisconnectFields::Legacy),
        (v(1, 8, 0), DisconnectFields::LegacyFirst),
    ] {
        assert_unreplaced(&c, release, &id, Unreplaced::WaitsForStopAfter(fields));
    }
}

/// An expired unknown allocation is expiring from 1.7.2; a group with
/// `prevent_reschedule_on_lost` keeps it (to 1.9), one with
/// `disconnect { replace = false }` from 1.10.0, until 1.11.2 makes every
/// expiring allocation lost (v1.7.2 scheduler/reconcile.go:487, v1.10.0
/// :498, v1.11.2 scheduler/reconciler/reconcile_cluster.go:439).
#[test]
fn a_group_that_keeps_expiring_allocations_does_not_replace_them() {
    let expired = |c: &mut Cluster, mut job: Job| {
        job.task_groups[0].max_client_disconnect = Some(5 * MINUTE);
        job.task_groups[0].disconnect = job.task_groups[0].disconnect.take().map(|mut d| {
            d.lost_after = 5 * MINUTE;
            d
        });
        let job = c.job(job);
        let ids = c.allocs(&job, 2);
        let id = ids[1].clone();
        c.alloc_mut(&id).client_status = status::UNKNOWN.into();
        went_unknown(c, &id, 10 * MINUTE);
        c.set_node_status(&id, node_status::DISCONNECTED);
        id
    };
    let mut c = Cluster::new();
    let mut job = job_of(2, None);
    job.task_groups[0].prevent_reschedule_on_lost = true;
    let id = expired(&mut c, job);
    for release in [v(1, 7, 2), v(1, 9, 7)] {
        let kept = Unreplaced::Kept(Keeper::PreventRescheduleOnLost);
        assert_unreplaced(&c, release, &id, kept);
    }

    let mut c = Cluster::new();
    let mut job = job_of(2, None);
    job.task_groups[0].disconnect = Some(DisconnectStrategy {
        replace: Some(false),
        ..DisconnectStrategy::default()
    });
    let id = expired(&mut c, job);
    for release in [v(1, 10, 0), v(1, 11, 1)] {
        assert_unreplaced(&c, release, &id, Unreplaced::Kept(Keeper::ReplaceFalse));
    }
    assert_no_reason(&c, v(1, 11, 2), &id);
}

/// While the deployment is paused only lost replacements and reschedules go
/// ahead, as many as there are lost allocations, reschedules first: the
/// failed allocation's reschedule takes the one slot
/// (v1.3.0 scheduler/reconcile.go:492-500 `computeReplacements`).
#[test]
fn a_paused_deployment_gives_the_lost_allocation_s_slot_to_a_reschedule() {
    let mut c = Cluster::new();
    let mut job = job_of(2, Some(one_attempt_policy()));
    job.task_groups[0].update = Some(no_canary_update());
    let job = c.job(job);
    let ids = c.allocs(&job, 2);
    fail_at(c.alloc_mut(&ids[0]), now().add(-HOUR));
    c.set_node_status(&ids[1], node_status::DOWN);
    let dep = c.new_deployment(&job);
    c.deployment_mut(&dep).status = deployment_status::PAUSED.into();
    // The failed one is of no deployment, which would hold its reschedule.
    c.alloc_mut(&ids[1]).deployment_id = dep.as_str().into();
    for release in RELEASES {
        assert_unreplaced(&c, release, &ids[1], Unreplaced::PlacementsHeld);
    }
}
