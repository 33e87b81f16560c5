//! Nomad's `BinPackIterator` cases of scheduler/rank_test.go at v1.3.0,
//! end to end through the placement stage: two 2048 MHz, 2048 MB nodes
//! and a task asking 1024 of each. Nomad's plan and state allocations are
//! the replay's own placements, other jobs' allocations and the plan's
//! stops.

use plan_inspect::read::read_snapshot_from;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::JobReport;
use plan_inspect::version::{VersionRequest, v};
use serde_json::{Value, json};

const NODE0: &str = "00000000-0000-4000-8000-000000000000";
const NODE1: &str = "11111111-0000-4000-8000-000000000000";

pub(super) fn node(id: &str) -> Value {
    json!({
        "ID": id, "Name": id, "Datacenter": "dc1", "Status": "ready",
        "SchedulingEligibility": "eligible",
        "Attributes": {"driver.exec": "1"},
        "Drivers": {"exec": {"Detected": true, "Healthy": true}},
        "NodeResources": {"Cpu": {"CpuShares": 2048}, "Memory": {"MemoryMB": 2048},
                          "Disk": {"DiskMB": 10240}}
    })
}

pub(super) fn group(name: &str, mhz: i64, mb: i64) -> Value {
    json!({
        "Name": name, "Count": 1, "EphemeralDisk": {"SizeMB": 0},
        "Tasks": [{"Name": "web", "Driver": "exec", "Resources": {"CPU": mhz, "MemoryMB": mb}}]
    })
}

pub(super) fn job(groups: Vec<Value>) -> Value {
    json!({"ID": "j", "Name": "j", "Namespace": "default", "Type": "service",
           "Priority": 50, "Version": 1, "Datacenters": ["dc1"], "TaskGroups": groups})
}

/// An allocation holding `mhz` and `mb` on `node`, pending and desired to
/// run, of `job` and `group`.
pub(super) fn alloc(id: &str, job: &str, group: &str, node: &str, mhz: i64, mb: i64) -> Value {
    json!({
        "ID": id, "Name": format!("{job}.{group}[0]"), "Namespace": "default",
        "JobID": job, "TaskGroup": group, "NodeID": node, "JobVersion": 0,
        "DesiredStatus": "run", "ClientStatus": "pending",
        "AllocatedResources": {"Tasks": {"web": {"Cpu": {"CpuShares": mhz},
                                                "Memory": {"MemoryMB": mb}}},
                               "Shared": {"DiskMB": 0}}
    })
}

fn replay(nodes: &[&str], job: Value, allocs: Vec<Value>) -> JobReport {
    replay_nodes(nodes.iter().map(|n| node(n)).collect(), job, allocs)
}

fn replay_nodes(nodes: Vec<Value>, job: Value, allocs: Vec<Value>) -> JobReport {
    let snapshot =
        json!({"Now": "2022-04-01T00:00:00Z", "Jobs": [job], "Nodes": nodes, "Allocs": allocs});
    let text = snapshot.to_string();
    let snapshot = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(v(1, 3, 0))),
        ..Options::default()
    };
    let report = Replay::new(&snapshot, &options).unwrap().report();
    report.jobs.into_iter().find(|j| j.id == "j").unwrap()
}

/// The node and score of the placement of `group`.
fn placed(r: &JobReport, group: &str) -> (String, f64) {
    let p = r
        .plan
        .place
        .iter()
        .find(|p| &*p.task_group == group)
        .unwrap();
    (
        p.node_id.as_deref().unwrap().to_string(),
        p.score.unwrap().0,
    )
}

/// `TestBinPackIterator_PlannedAlloc`: the plan has already filled node 0
/// and half filled node 1 (here with the job's groups "a" and "b", placed
/// first); the ask fits only node 1, which it fills exactly: score 1.
#[test]
fn rank_test_go_v1_3_0_bin_pack_iterator_planned_alloc() {
    let groups = vec![
        group("a", 2048, 2048),
        group("b", 1024, 1024),
        group("web", 1024, 1024),
    ];
    let r = replay(&[NODE0, NODE1], job(groups), Vec::new());
    assert_eq!(placed(&r, "a").0, NODE0);
    assert_eq!(placed(&r, "b").0, NODE1);
    assert_eq!(placed(&r, "web"), (NODE1.to_string(), 1.0));
}

/// `TestBinPackIterator_ExistingAlloc`: other jobs' allocations fill node
/// 0 and half of node 1.
#[test]
fn rank_test_go_v1_3_0_bin_pack_iterator_existing_alloc() {
    let allocs = vec![
        alloc("a1", "j1", "web", NODE0, 2048, 2048),
        alloc("a2", "j2", "web", NODE1, 1024, 1024),
    ];
    let r = replay(&[NODE0, NODE1], job(vec![group("web", 1024, 1024)]), allocs);
    assert_eq!(placed(&r, "web"), (NODE1.to_string(), 1.0));
}

/// `TestBinPackIterator_ExistingAlloc_PlannedEvict`: node 0's allocation
/// is stopped by the plan (here the job's removed group "old"), so node 0
/// takes the ask too, at a lower score than node 1's exact fit.
#[test]
fn rank_test_go_v1_3_0_bin_pack_iterator_existing_alloc_planned_evict() {
    let allocs = vec![
        alloc("a1", "j", "old", NODE0, 2048, 2048),
        alloc("a2", "j2", "web", NODE1, 1024, 1024),
    ];
    let web = || job(vec![group("web", 1024, 1024)]);
    let r = replay(&[NODE0, NODE1], web(), allocs.clone());
    assert_eq!(r.plan.stop.len(), 1);
    assert_eq!(placed(&r, "web"), (NODE1.to_string(), 1.0));
    // Node 0 alone: it fits once the stop frees it.
    let r = replay(&[NODE0], web(), vec![allocs[0].clone()]);
    let (node, score) = placed(&r, "web");
    assert_eq!(node, NODE0);
    assert!((0.5..0.95).contains(&score), "{score}");
}

/// `TestNodeAntiAffinity_PenaltyNodes` (rank_test.go v1.3.0): the node a
/// failed allocation ran on scores -1 for its replacement, the other none.
/// Here the two empty nodes tie on bin packing, so the penalty alone sends
/// the reschedule of the allocation that failed on node 0 to node 1.
#[test]
fn rank_test_go_v1_3_0_node_anti_affinity_penalty_nodes() {
    let mut web = group("web", 1024, 1024);
    web["ReschedulePolicy"] = json!({"Attempts": 1, "Interval": 86_400_000_000_000u64,
        "Delay": 5_000_000_000u64, "DelayFunction": "constant", "MaxDelay": 3_600_000_000_000u64});
    let mut failed = alloc("f1", "j", "web", NODE0, 1024, 1024);
    failed["JobVersion"] = json!(1);
    failed["ClientStatus"] = json!("failed");
    failed["TaskStates"] = json!({"web": {"State": "dead", "Failed": true,
        "FinishedAt": "2022-03-31T23:59:50Z"}});
    let r = replay(&[NODE0, NODE1], job(vec![web]), vec![failed]);
    let p = &r.plan.place[0];
    assert_eq!(
        p.previous_alloc_id
            .as_ref()
            .map(|i| i.to_string())
            .as_deref(),
        Some("f1")
    );
    assert_eq!(placed(&r, "web").0, NODE1);
    // Without the failure the tie goes to the lower node ID.
    let r = replay(
        &[NODE0, NODE1],
        job(vec![group("web", 1024, 1024)]),
        Vec::new(),
    );
    assert_eq!(placed(&r, "web").0, NODE0);
}

/// A node named `name` with `total` MHz and MB of which `reserved` are
/// kept back.
fn sized(id: &str, total: i64, reserved: i64) -> Value {
    let mut n = node(id);
    n["NodeResources"]["Cpu"]["CpuShares"] = json!(total);
    n["NodeResources"]["Memory"]["MemoryMB"] = json!(total);
    n["ReservedResources"] = json!({"Cpu": {"CpuShares": reserved},
                                    "Memory": {"MemoryMB": reserved}});
    n
}

/// `TestBinPackIterator_NoExistingAlloc_MixedReserve` (rank_test.go
/// v1.3.0): an ask of 1000 fits "no-reserved" (1100) best, then
/// "reserved" (2000 less 800), then "reserved2" (2000 less 500), never
/// "overloaded" (900). Node IDs run the other way, so the scores decide,
/// not the tie-break; each replay drops the node that won before.
#[test]
fn rank_test_go_v1_3_0_bin_pack_iterator_no_existing_alloc_mixed_reserve() {
    let all = [
        ("0-overloaded", 900, 0),
        ("1-reserved2", 2000, 500),
        ("2-reserved", 2000, 800),
        ("3-no-reserved", 1100, 0),
    ];
    let mut left: Vec<_> = all.to_vec();
    for want in ["3-no-reserved", "2-reserved", "1-reserved2"] {
        let nodes: Vec<Value> = left.iter().map(|(id, t, r)| sized(id, *t, *r)).collect();
        let r = replay_nodes(nodes, job(vec![group("web", 1000, 1000)]), Vec::new());
        assert_eq!(placed(&r, "web").0, want);
        left.retain(|(id, _, _)| *id != want);
    }
    let overloaded = vec![sized("0-overloaded", 900, 0)];
    let failed = replay_nodes(overloaded, job(vec![group("web", 1000, 1000)]), Vec::new());
    assert_eq!(failed.plan.failed_placements[0].metrics.nodes_exhausted, 1);
}

/// `TestFeasibleRankIterator` (rank_test.go v1.3.0, v2.0.5
/// scheduler/feasible/rank_test.go): every feasible node comes out of the
/// ranking. Ten nodes that all fit the ask are all scored, in the
/// explanation's count, before the best is chosen.
#[test]
fn rank_test_go_v1_3_0_v2_0_5_feasible_rank_iterator() {
    let ids: Vec<String> = (0..10)
        .map(|i| format!("{i:08}-0000-4000-8000-000000000000"))
        .collect();
    let nodes: Vec<Value> = ids.iter().map(|id| node(id)).collect();
    let snapshot = json!({"Now": "2022-04-01T00:00:00Z",
        "Jobs": [job(vec![group("web", 1024, 1024)])], "Nodes": nodes, "Allocs": []});
    let text = snapshot.to_string();
    let snapshot = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
    for release in [v(1, 3, 0), v(2, 0, 5)] {
        let options = Options {
            nomad_version: Some(VersionRequest::Release(release)),
            ..Options::default()
        };
        let e = plan_inspect::explain::explain(&snapshot, &options, "j.web[0]").unwrap();
        let scores = e.steps.iter().find(|s| s.title == "Scores").unwrap();
        assert!(
            scores.conclusion.starts_with("10 nodes fit"),
            "{release}: {}",
            scores.conclusion
        );
    }
}
