//! `downgradedJobForPlacement` on its own, as Nomad's
//! TestDowngradedJobForPlacement_PicksTheLatest calls it.

use serde_json::{Value, json};

use super::downgrade::History;
use crate::model::{Id, Snapshot};
use crate::read::read_snapshot_from;
use crate::report::VersionGaps;

/// `mock.Job()` reduced to what the lookup reads: group "web", no
/// job-level `update` block, created at index 10.
fn job(version: u64) -> Value {
    json!({
        "ID": "mock-service", "Namespace": "default", "Type": "service",
        "Version": version, "CreateIndex": 10, "Datacenters": ["dc1"],
        "TaskGroups": [{"Name": "web", "Count": 1,
                        "Tasks": [{"Name": "web", "Driver": "exec",
                                   "Env": {"version": version.to_string()}}]}]
    })
}

fn deployment(version: u64, promoted: bool, canaries: i64) -> Value {
    json!({
        "ID": format!("d{version}"), "Namespace": "default", "JobID": "mock-service",
        "JobVersion": version, "JobCreateIndex": 10, "Status": "successful",
        "TaskGroups": {"web": {"DesiredTotal": 1, "Promoted": promoted,
                               "DesiredCanaries": canaries}}
    })
}

fn snapshot(doc: Value) -> Snapshot {
    read_snapshot_from(doc.to_string().as_bytes(), "snapshot.json").unwrap()
}

/// The version and deployment a placement of "web" replacing version
/// `min` gets, with the gaps it met.
fn lookup(s: &Snapshot, min: u64) -> (Option<(u64, Option<String>)>, VersionGaps) {
    let history = History::new(s);
    let allocs: Vec<_> = s.allocs.iter().collect();
    let mut gaps = VersionGaps::default();
    let found = history
        .downgrade(&s.jobs[0], &allocs, "web", min, &mut gaps)
        .map(|d| (d.job.version, d.deployment_id.map(Id::to_string)));
    (found, gaps)
}

/// TestDowngradedJobForPlacement_PicksTheLatest (scheduler/
/// generic_sched_test.go:6038 at 1.3.0, :7040 at 1.10.5, :7451 at 2.0.5):
/// after each update the lookup finds the latest deployment that was
/// promoted or needed no canaries. The state holds the current version and
/// the five before it, as a server keeps six (`JobTrackedVersions`).
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_downgraded_job_for_placement_picks_the_latest() {
    // (version, promoted, needs canaries, expected version)
    let updates = [
        (1, true, true, 1),
        (2, true, true, 2),
        (3, true, true, 3),
        (4, false, true, 3),
        (5, false, true, 3),
        (6, false, true, 3),
        (7, true, true, 7),
        (8, false, false, 8),
    ];
    let mut deployments = vec![deployment(0, true, 0)];
    for (version, promoted, canaries, expected) in updates {
        deployments.push(deployment(version, promoted, i64::from(canaries)));
        let s = snapshot(json!({
            "Jobs": [job(version)],
            "JobVersions": (version.saturating_sub(5)..=version).map(job).collect::<Vec<_>>(),
            "Deployments": deployments,
        }));
        let (found, gaps) = lookup(&s, 0);
        assert_eq!(
            found,
            Some((expected, Some(format!("d{expected}")))),
            "update to {version}"
        );
        assert_eq!(gaps, VersionGaps::default());
    }
}

/// Without a deployment that qualifies, the replaced allocation's own
/// version is used when it has no job-level `update` block
/// (generic_sched.go:490 at 1.3.0, :478 at 2.0.5), with no deployment.
#[test]
fn without_a_stable_deployment_the_replaced_version_without_an_update_block() {
    let mut with_update = job(1);
    with_update["Update"] = json!({"Stagger": 30_000_000_000u64, "MaxParallel": 1});
    for (v1, expected) in [(job(1), Some((1, None))), (with_update, None)] {
        let s = snapshot(json!({
            "Jobs": [job(2)],
            "JobVersions": [v1, job(2)],
            "Deployments": [deployment(2, false, 1)],
        }));
        assert_eq!(lookup(&s, 1).0, expected);
    }
}

/// The version found must be at least the replaced allocation's and have
/// the group (generic_sched.go:534 at 1.3.0, :528 at 2.0.5); a deployment
/// of an earlier job with the same ID (another `JobCreateIndex`) is not
/// read; a deployment whose version the state lacks ends the search.
#[test]
fn the_version_found_is_checked() {
    let run = |versions: Vec<Value>, deployments: Vec<Value>, min| {
        let s = snapshot(json!({
            "Jobs": [job(3)], "JobVersions": versions, "Deployments": deployments,
        }));
        lookup(&s, min).0
    };
    let stable = || vec![deployment(1, true, 1), deployment(3, false, 1)];
    let d1 = Some("d1".to_string());
    assert_eq!(run(vec![job(1), job(3)], stable(), 1), Some((1, d1)));
    assert_eq!(run(vec![job(1), job(3)], stable(), 2), None);
    let mut renamed = job(1);
    renamed["TaskGroups"][0]["Name"] = json!("api");
    assert_eq!(run(vec![renamed, job(3)], stable(), 1), None);
    // The earlier job's deployment is passed over for the fallback.
    let mut earlier = deployment(1, true, 1);
    earlier["JobCreateIndex"] = json!(5);
    assert_eq!(run(vec![job(1), job(3)], vec![earlier], 1), Some((1, None)));
    let older = vec![deployment(0, true, 0), deployment(1, true, 1)];
    assert_eq!(run(vec![job(0), job(3)], older, 0), None);
}

/// A dump without `JobVersions` is answered from the allocations that
/// embed a version, and says which versions it took so or found nowhere.
#[test]
fn without_job_versions_the_allocations_answer() {
    let alloc = |version| {
        json!({"ID": format!("a{version}"), "Name": "mock-service.web[0]",
               "Namespace": "default", "JobID": "mock-service", "TaskGroup": "web",
               "NodeID": "n1", "DesiredStatus": "run", "ClientStatus": "running",
               "Job": job(version)})
    };
    let doc = |versions: Option<Vec<Value>>| {
        let mut d = json!({"Jobs": [job(3)], "Allocs": [alloc(1)],
                           "Deployments": [deployment(1, true, 1)]});
        if let Some(v) = versions {
            d["JobVersions"] = json!(v);
        }
        snapshot(d)
    };
    let (found, gaps) = lookup(&doc(None), 1);
    assert_eq!(found, Some((1, Some("d1".to_string()))));
    assert_eq!(gaps.from_allocs.into_iter().collect::<Vec<_>>(), vec![1]);
    // Listed, the table is Nomad's: a version it lacks is missing.
    let (found, gaps) = lookup(&doc(Some(vec![job(3)])), 1);
    assert_eq!((found, gaps), (None, VersionGaps::default()));
    let s = snapshot(json!({"Jobs": [job(3)]}));
    let (found, gaps) = lookup(&s, 0);
    assert_eq!(found, None);
    assert_eq!(gaps.unknown.into_iter().collect::<Vec<_>>(), vec![0]);
}
