//! The spread cases of scheduler/generic_sched_test.go at 1.3.0 and 2.0.5
//! (`TestServiceSched_Spread`, `TestServiceSched_EvenSpread`) and
//! `TestSpreadPanicDowngrade` (scheduler/spread_test.go at 1.3.0,
//! scheduler/integration/spread_test.go at 2.0.5), on the mock node and job
//! of tests/generic_sched.rs: ten nodes, the even ones in dc2.

use std::collections::BTreeMap;

use plan_inspect::explain::explain;
use plan_inspect::read::read_snapshot_from;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::JobReport;
use plan_inspect::version::{Release, VersionRequest, v};
use serde_json::{Value, json};

use super::generic_sched::{job, node};

const BOTH: [Release; 2] = [v(1, 3, 0), v(2, 0, 5)];

/// Ten mock nodes, those of even index in dc2; at 2.0.5 with the dynamic
/// port range 20000-20005 the test narrows it to.
fn ten_nodes(release: Release) -> Vec<Value> {
    (0..10)
        .map(|i| {
            let mut n = node(i);
            if i % 2 == 0 {
                n["Datacenter"] = json!("dc2");
            }
            if release == v(2, 0, 5) {
                n["NodeResources"]["MinDynamicPort"] = json!(20000);
                n["NodeResources"]["MaxDynamicPort"] = json!(20005);
            }
            n
        })
        .collect()
}

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
    let mut report = Replay::new(&snapshot, &options).unwrap().report();
    report.jobs.remove(0)
}

/// Placements per datacenter: odd node indexes are dc1.
fn per_dc(r: &JobReport) -> BTreeMap<&'static str, usize> {
    let mut out = BTreeMap::new();
    for p in &r.plan.place {
        let id = p.node_id.as_deref().expect("placed");
        let index: usize = id[..8].parse().unwrap();
        *out.entry(if index.is_multiple_of(2) {
            "dc2"
        } else {
            "dc1"
        })
        .or_insert(0) += 1;
    }
    out
}

/// The mock job of count 10 on dc1 and dc2 (`dc*` at 2.0.5) with the
/// group's `spread` blocks.
fn spread_job(release: Release, spreads: Value) -> Value {
    let mut j = job(10);
    j["Datacenters"] = match release == v(2, 0, 5) {
        true => json!(["dc*"]),
        false => json!(["dc1", "dc2"]),
    };
    j["TaskGroups"][0]["Spreads"] = spreads;
    j
}

/// TestServiceSched_Spread: ten allocations over dc1 and dc2 with targets
/// of 100% down to 10% in dc1 put exactly that share there, and nothing
/// fails or blocks.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_service_sched_spread() {
    for release in BOTH {
        for i in 0..10usize {
            let start = 100 - 10 * i as i64;
            let spreads = json!([{"Attribute": "${node.datacenter}", "Weight": 100,
                "SpreadTarget": [{"Value": "dc1", "Percent": start},
                                 {"Value": "dc2", "Percent": 100 - start}]}]);
            let r = replay(
                ten_nodes(release),
                spread_job(release, spreads),
                Vec::new(),
                release,
            );
            let mut want = BTreeMap::from([("dc1", 10 - i)]);
            if i > 0 {
                want.insert("dc2", i);
            }
            assert_eq!(per_dc(&r), want, "{release} {start}% in dc1");
            assert!(r.plan.failed_placements.is_empty(), "{release} {start}%");
            assert!(r.plan.blocked_eval.is_none(), "{release} {start}%");
        }
    }
}

/// TestServiceSched_EvenSpread: a spread on the datacenter without
/// targets splits ten allocations five and five.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_service_sched_even_spread() {
    for release in BOTH {
        let spreads = json!([{"Attribute": "${node.datacenter}", "Weight": 100}]);
        let mut j = spread_job(release, spreads);
        j["Datacenters"] = json!(["dc1", "dc2"]);
        let r = replay(ten_nodes(v(1, 3, 0)), j, Vec::new(), release);
        let want = BTreeMap::from([("dc1", 5), ("dc2", 5)]);
        assert_eq!(per_dc(&r), want, "{release}");
        assert!(r.plan.blocked_eval.is_none(), "{release}");
    }
}

/// TestSpreadPanicDowngrade: four allocations of version 1, which spreads
/// on `${node.unique.name}`, one of them a canary and one failed (with
/// `mock.Job()`'s reschedule policy), on five nodes; version 2 drops the
/// spread and keeps the canary update of one at a time. Nomad asserts the evaluation is processed into one plan
/// (it once panicked when a placement took the older version's spread);
/// here the replay completes, the failed allocation is replaced, and every
/// placement lands on a node. At 1.3.0 the spread change is destructive,
/// so version 2 starts with a canary and the replacement is made with
/// version 1, whose job-level `update` block has no `max_parallel`
/// (`downgradedJobForPlacement`; the dump has no `JobVersions`, so the
/// allocations give it); at 2.0.5 it is an in-place update, no canary,
/// and the replacement is version 2's.
#[test]
fn spread_test_go_v1_3_0_v2_0_5_spread_panic_downgrade() {
    let nodes: Vec<Value> = (0..5).map(node).collect();
    let mut job1 = job(5);
    job1["Version"] = json!(1);
    job1["Status"] = json!("running");
    job1["Spreads"] = json!([{"Attribute": "${node.unique.name}", "Weight": 50,
                              "SpreadTarget": []}]);
    job1["Update"] = json!({"Stagger": 30_000_000_000u64, "MaxParallel": 0});
    job1["JobModifyIndex"] = json!(10);
    job1["TaskGroups"][0]["ReschedulePolicy"] = json!({
        "Attempts": 2, "Interval": 600_000_000_000u64, "Delay": 5_000_000_000u64,
        "DelayFunction": "constant"
    });
    job1["TaskGroups"][0]["Update"] = json!({
        "Stagger": 30_000_000_000u64, "MaxParallel": 1, "HealthCheck": "checks",
        "MinHealthyTime": 30_000_000_000u64, "HealthyDeadline": 540_000_000_000u64,
        "ProgressDeadline": 600_000_000_000u64, "AutoRevert": true, "Canary": 1
    });
    let mut job2 = job1.clone();
    job2["Version"] = json!(2);
    job2["JobModifyIndex"] = json!(20);
    job2["Spreads"] = Value::Null;
    let allocs: Vec<Value> = (0..4)
        .map(|i| {
            json!({
                "ID": format!("a{i}"), "Name": "mock-service.web[0]", "Namespace": "default",
                "JobID": "mock-service", "TaskGroup": "web", "Job": job1.clone(),
                "NodeID": format!("{i:08}-0000-4000-8000-000000000000"), "JobVersion": 1,
                "DesiredStatus": "run",
                "ClientStatus": if i == 1 { "failed" } else { "running" },
                "DeploymentStatus": {"Healthy": true, "Canary": i == 0,
                                     "Timestamp": "2022-03-31T23:59:00Z"},
                "AllocatedResources": {
                    "Tasks": {"web": {"Cpu": {"CpuShares": 500}, "Memory": {"MemoryMB": 256}}},
                    "Shared": {"DiskMB": 150}
                }
            })
        })
        .collect();
    for release in BOTH {
        let r = replay(nodes.clone(), job2.clone(), allocs.clone(), release);
        assert!(!r.plan.place.is_empty(), "{release}");
        assert!(
            r.plan.place.iter().all(|p| p.node_id.is_some()),
            "{release}"
        );
        assert!(r.plan.failed_placements.is_empty(), "{release}");
        let replacement = r.plan.place.iter().find(|p| p.reschedule).unwrap();
        let older = (release == v(1, 3, 0)).then_some(1);
        assert_eq!(replacement.job_version, older, "{release}");
    }
}

/// TestServiceSched_Spread_NodeLimitForFeasibilityChecks (added at 2.0.1;
/// here at 2.0.5): with `NodeLimitForFeasibilityChecks` 5 in the scheduler
/// configuration and a datacenter spread, Nomad ranks five of twenty
/// nodes and reports 5 evaluated. plan-inspect ranks every feasible node
/// (docs/nomad-behaviour.md), so the setting does not change its choice,
/// which is one Nomad could make: all twenty tie. Forced: the one
/// allocation is placed and nothing fails; the explanation ranks all
/// twenty where Nomad's metric says five.
#[test]
fn generic_sched_test_go_v2_0_5_spread_node_limit_for_feasibility_checks() {
    let mut j = job(1);
    j["TaskGroups"][0]["Spreads"] = json!([{"Attribute": "${node.datacenter}", "Weight": 100}]);
    let nodes: Vec<Value> = (0..20).map(node).collect();
    let text = json!({
        "Now": "2022-04-01T00:00:00Z", "Jobs": [j], "Nodes": nodes, "Allocs": [],
        "SchedulerConfig": {"SchedulerAlgorithm": "binpack", "NodeLimitForFeasibilityChecks": 5}
    })
    .to_string();
    let snapshot = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(v(2, 0, 5))),
        ..Options::default()
    };
    let r = Replay::new(&snapshot, &options)
        .unwrap()
        .report()
        .jobs
        .remove(0);
    assert_eq!(r.plan.place.len(), 1);
    assert!(r.plan.place[0].node_id.is_some());
    assert!(r.plan.failed_placements.is_empty());
    let e = explain(&snapshot, &options, &r.plan.place[0].name).unwrap();
    let scores = e.steps.iter().find(|s| s.title == "Scores").unwrap();
    assert!(
        scores.conclusion.starts_with("20 nodes fit"),
        "{}",
        scores.conclusion
    );
}
