//! Queued allocations in cases of scheduler/generic_sched_test.go at
//! 1.3.0 and 2.0.5: a job larger than its one node, and a drain with
//! nowhere to go, on `mock.Node()` and `mock.Job()` as
//! tests/generic_sched.rs builds them.

use plan_inspect::read::read_snapshot_from;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::JobReport;
use plan_inspect::version::{Release, VersionRequest, v};
use serde_json::{Value, json};

use super::generic_sched::{job, node, placed_nodes};

const BOTH: [Release; 2] = [v(1, 3, 0), v(2, 0, 5)];

fn replay(nodes: Vec<Value>, job: Value, allocs: Vec<Value>, release: Release) -> JobReport {
    let text = json!({
        "Now": "2022-04-01T00:00:00Z", "Jobs": [job], "Nodes": nodes, "Allocs": allocs
    })
    .to_string();
    let snapshot = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    };
    Replay::new(&snapshot, &options)
        .unwrap()
        .report()
        .jobs
        .remove(0)
}

/// TestServiceSched_Plan_Partial_Progress: three allocations of 3600 MHz
/// on a node with 3900 free: one is placed, two fail in "cpu" and stay
/// queued.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_plan_partial_progress() {
    let mut j = job(3);
    j["TaskGroups"][0]["Tasks"][0]["Resources"]["CPU"] = json!(3600);
    for release in BOTH {
        let r = replay(vec![node(0)], j.clone(), Vec::new(), release);
        assert_eq!(placed_nodes(&r).len(), 1, "{release}");
        let [f] = r.plan.failed_placements.as_slice() else {
            panic!("{release}: {:?}", r.plan.failed_placements);
        };
        assert_eq!(f.count, 2, "{release}");
        assert_eq!(f.metrics.dimension_exhausted["cpu"], 1, "{release}");
        assert_eq!(r.plan.queued_allocations["web"], 2, "{release}");
    }
}

/// TestServiceSched_NodeDrain_Queued_Allocations: both allocations run on
/// the one node, which drains with them marked to migrate. The draining
/// node is not ready for placements (`readyNodesInDCs`,
/// scheduler/util.go:445 at 1.3.0), so both migrations are queued.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_node_drain_queued_allocations() {
    let mut n = node(0);
    n["SchedulingEligibility"] = json!("ineligible");
    n["DrainStrategy"] = json!({"DrainSpec": {"Deadline": 0, "IgnoreSystemJobs": false},
        "ForceDeadline": "0001-01-01T00:00:00Z", "StartedAt": "0001-01-01T00:00:00Z"});
    let j = job(2);
    let allocs: Vec<Value> = (0..2)
        .map(|i| {
            json!({
                "ID": format!("a{i}"), "Name": format!("my-job.web[{i}]"),
                "Namespace": "default", "JobID": "mock-service", "TaskGroup": "web",
                "NodeID": n["ID"], "Job": j, "DesiredStatus": "run",
                "ClientStatus": "running", "DesiredTransition": {"Migrate": true},
                "AllocatedResources": {"Tasks": {"web": {"Cpu": {"CpuShares": 500},
                    "Memory": {"MemoryMB": 256}}}, "Shared": {"DiskMB": 150}}
            })
        })
        .collect();
    for release in BOTH {
        let r = replay(vec![n.clone()], j.clone(), allocs.clone(), release);
        assert!(placed_nodes(&r).is_empty(), "{release}");
        assert_eq!(r.plan.queued_allocations["web"], 2, "{release}");
        assert_eq!(r.plan.failed_placements[0].count, 2, "{release}");
    }
}
