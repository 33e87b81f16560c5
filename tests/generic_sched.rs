//! The placement stage of service and batch jobs: Nomad's placement cases
//! of scheduler/generic_sched_test.go at 1.3.0 (and 1.10.5 where a release
//! changes them), on the mock node and job of nomad/mock/mock.go at 1.3.0.
//! Nomad samples nodes at random; these assert what is forced (counts,
//! metrics of failures, the blocked evaluation, the set of acceptable
//! nodes) and, where plan-inspect's fixed order decides, say so.

use std::collections::BTreeSet;

use plan_inspect::read::read_snapshot_from;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::JobReport;
use plan_inspect::version::{Release, VersionRequest, v};
use serde_json::{Value, json};

/// `mock.Node()` at 1.3.0: 4000 MHz, 8192 MB, 100 GiB of disk, less 100
/// MHz, 256 MB, 4 GiB and port 22 reserved; linux, the exec driver.
pub(super) fn node(i: usize) -> Value {
    json!({
        "ID": format!("{i:08}-0000-4000-8000-000000000000"),
        "Name": format!("node-{i}"),
        "Datacenter": "dc1",
        "Status": "ready",
        "SchedulingEligibility": "eligible",
        "NodeClass": "linux-medium-pci",
        "ComputedClass": "v1:mock",
        "Attributes": {"kernel.name": "linux", "arch": "x86", "nomad.version": "1.3.0",
                       "driver.exec": "1", "unique.hostname": format!("node-{i}")},
        "Drivers": {"exec": {"Detected": true, "Healthy": true}},
        "NodeResources": {
            "Cpu": {"CpuShares": 4000},
            "Memory": {"MemoryMB": 8192},
            "Disk": {"DiskMB": 100 * 1024},
            "Networks": [{"Mode": "host", "Device": "eth0", "CIDR": "192.168.0.100/32",
                          "IP": "192.168.0.100", "MBits": 1000}]
        },
        "ReservedResources": {
            "Cpu": {"CpuShares": 100},
            "Memory": {"MemoryMB": 256},
            "Disk": {"DiskMB": 4 * 1024},
            "Networks": {"ReservedHostPorts": "22"}
        }
    })
}

/// `mock.Job()` at 1.3.0: group "web" of `count`, one exec task of 500
/// MHz and 256 MB with two dynamic ports on a 50 Mbit network, 150 MB of
/// disk, on linux.
pub(super) fn job(count: i64) -> Value {
    json!({
        "ID": "mock-service", "Name": "mock-service", "Namespace": "default",
        "Type": "service", "Priority": 50, "Version": 0, "Datacenters": ["dc1"],
        "Constraints": [{"LTarget": "${attr.kernel.name}", "RTarget": "linux", "Operand": "="}],
        "TaskGroups": [group("web", count)]
    })
}

pub(super) fn group(name: &str, count: i64) -> Value {
    json!({
        "Name": name, "Count": count,
        "EphemeralDisk": {"SizeMB": 150},
        "Tasks": [{
            "Name": "web", "Driver": "exec",
            "Resources": {"CPU": 500, "MemoryMB": 256,
                          "Networks": [{"MBits": 50,
                                        "DynamicPorts": [{"Label": "http"}, {"Label": "admin"}]}]}
        }]
    })
}

pub(super) fn replay_at(nodes: Vec<Value>, job: Value, release: Release) -> JobReport {
    let snapshot = json!({
        "Now": "2022-04-01T00:00:00Z",
        "Jobs": [job], "Nodes": nodes, "Allocs": []
    });
    let text = snapshot.to_string();
    let snapshot = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    };
    let mut report = Replay::new(&snapshot, &options).unwrap().report();
    report.jobs.remove(0)
}

fn replay(nodes: Vec<Value>, job: Value) -> JobReport {
    replay_at(nodes, job, v(1, 3, 0))
}

pub(super) fn nodes(n: usize) -> Vec<Value> {
    (0..n).map(node).collect()
}

pub(super) fn placed_nodes(r: &JobReport) -> Vec<String> {
    r.plan
        .place
        .iter()
        .filter_map(|p| p.node_id.as_deref().map(str::to_string))
        .collect()
}

/// TestServiceSched_JobRegister (generic_sched_test.go, 1.3.0): ten
/// placements on ten nodes, none failed, nothing queued, no blocked eval.
#[test]
fn generic_sched_test_go_v1_3_0_job_register() {
    let r = replay(nodes(10), job(10));
    assert_eq!(r.plan.place.len(), 10);
    assert_eq!(placed_nodes(&r).len(), 10);
    assert!(r.plan.place.iter().all(|p| p.score.is_some()));
    assert!(r.plan.failed_placements.is_empty());
    assert!(r.plan.blocked_eval.is_none());
    assert_eq!(r.plan.queued_allocations["web"], 0);
    // Ranking every node, job anti-affinity sends each to an empty node.
    let distinct: BTreeSet<String> = placed_nodes(&r).into_iter().collect();
    assert_eq!(distinct.len(), 10);
}

/// TestServiceSched_JobRegister_CountZero (1.3.0): nothing to place,
/// nothing failed or queued.
#[test]
fn generic_sched_test_go_v1_3_0_job_register_count_zero() {
    let r = replay(nodes(10), job(0));
    assert!(r.plan.place.is_empty());
    assert!(r.plan.failed_placements.is_empty());
    assert!(r.plan.blocked_eval.is_none());
    assert!(r.plan.queued_allocations.is_empty());
}

/// TestServiceSched_JobRegister_AllocFail (1.3.0): no nodes; ten
/// failures coalesced into one entry of count 10 (`CoalescedFailures` 9),
/// the datacenter counted with no node, a blocked evaluation, ten queued.
#[test]
fn generic_sched_test_go_v1_3_0_job_register_alloc_fail() {
    let r = replay(Vec::new(), job(10));
    assert_eq!(placed_nodes(&r), Vec::<String>::new());
    let [failed] = r.plan.failed_placements.as_slice() else {
        panic!("{:?}", r.plan.failed_placements);
    };
    assert_eq!((failed.task_group.as_str(), failed.count), ("web", 10));
    assert_eq!(failed.metrics.nodes_evaluated, 0);
    assert_eq!(failed.metrics.nodes_available["dc1"], 0);
    let blocked = r.plan.blocked_eval.as_ref().unwrap();
    assert_eq!(blocked.status, "blocked");
    assert_eq!(blocked.triggered_by, "queued-allocs");
    assert_eq!(
        blocked.status_description,
        "created to place remaining allocations"
    );
    assert_eq!(r.plan.queued_allocations["web"], 10);
}

/// From 1.5.0 (wildcard datacenters) an empty datacenter is no longer a
/// key of `NodesAvailable` (scheduler/util.go:353-356 at 1.3.0).
#[test]
fn an_empty_datacenter_is_counted_only_before_1_5_0() {
    let r = replay_at(Vec::new(), job(1), v(1, 5, 0));
    let failed = &r.plan.failed_placements[0];
    assert!(failed.metrics.nodes_available.is_empty());
    let r = replay_at(Vec::new(), job(1), v(1, 4, 0));
    assert_eq!(
        r.plan.failed_placements[0].metrics.nodes_available["dc1"],
        0
    );
}

/// TestServiceSched_JobRegister_DistinctHosts (1.3.0): with
/// `distinct_hosts` and eleven allocations on ten nodes, ten go to
/// distinct nodes and one fails, filtered by "distinct_hosts" on all ten.
#[test]
fn generic_sched_test_go_v1_3_0_job_register_distinct_hosts() {
    let mut j = job(11);
    j["Constraints"]
        .as_array_mut()
        .unwrap()
        .push(json!({"Operand": "distinct_hosts"}));
    let r = replay(nodes(10), j);
    let placed: BTreeSet<String> = placed_nodes(&r).into_iter().collect();
    assert_eq!(placed.len(), 10);
    let failed = &r.plan.failed_placements[0];
    assert_eq!(failed.count, 1);
    assert_eq!(failed.metrics.nodes_evaluated, 10);
    assert_eq!(failed.metrics.constraint_filtered["distinct_hosts"], 10);
    assert_eq!(failed.metrics.class_filtered["linux-medium-pci"], 10);
}

/// TestServiceSched_JobRegister_FeasibleAndInfeasibleTG (1.3.0): one
/// group can run, the other's constraint matches no node: two placed,
/// two failed with the constraint's text, and a blocked evaluation whose
/// only class is eligible for the first group.
#[test]
fn generic_sched_test_go_v1_3_0_job_register_feasible_and_infeasible_tg() {
    let mut j = job(2);
    let mut tg2 = group("web2", 2);
    tg2["Constraints"] =
        json!([{"LTarget": "${node.class}", "RTarget": "class_0", "Operand": "="}]);
    j["TaskGroups"].as_array_mut().unwrap().push(tg2);
    let r = replay(nodes(1), j);
    let on: Vec<_> = r
        .plan
        .place
        .iter()
        .filter(|p| p.node_id.is_some())
        .collect();
    assert_eq!(on.len(), 2);
    assert!(on.iter().all(|p| &*p.task_group == "web"));
    let [failed] = r.plan.failed_placements.as_slice() else {
        panic!("{:?}", r.plan.failed_placements);
    };
    assert_eq!((failed.task_group.as_str(), failed.count), ("web2", 2));
    assert_eq!(failed.metrics.nodes_filtered, 1);
    assert_eq!(
        failed.metrics.constraint_filtered["${node.class} = class_0"],
        1
    );
    assert_eq!(r.plan.queued_allocations["web"], 0);
    assert_eq!(r.plan.queued_allocations["web2"], 2);
    let blocked = r.plan.blocked_eval.as_ref().unwrap();
    assert!(blocked.class_eligibility["v1:mock"]);
    assert!(!blocked.escaped_computed_class);
}

/// TestServiceSched_JobRegister_CreateBlockedEval (1.3.0): one node of a
/// class the job cannot use and one full node; the blocked evaluation
/// names the first class ineligible and the second eligible; the metrics
/// count one filtered and one exhausted node, and the nearest miss is the
/// full node with its memory shortfall.
#[test]
fn generic_sched_test_go_v1_3_0_job_register_create_blocked_eval() {
    let mut full = node(1);
    full["NodeResources"]["Memory"]["MemoryMB"] = json!(300);
    full["ComputedClass"] = json!("v1:full");
    let mut other = node(2);
    other["Attributes"]["kernel.name"] = json!("windows");
    other["ComputedClass"] = json!("v1:windows");
    let r = replay(vec![full, other], job(1));
    let failed = &r.plan.failed_placements[0];
    assert_eq!(failed.metrics.nodes_evaluated, 2);
    assert_eq!(failed.metrics.nodes_filtered, 1);
    assert_eq!(
        failed.metrics.constraint_filtered["${attr.kernel.name} = linux"],
        1
    );
    assert_eq!(failed.metrics.nodes_exhausted, 1);
    assert_eq!(failed.metrics.dimension_exhausted["memory"], 1);
    let miss = failed.nearest_miss.as_ref().unwrap();
    assert_eq!(miss.node_name, "node-1");
    assert_eq!((miss.dimension.as_str(), miss.lacks), ("memory", Some(212)));
    let blocked = r.plan.blocked_eval.as_ref().unwrap();
    let classes: Vec<(&str, bool)> = blocked
        .class_eligibility
        .iter()
        .map(|(c, e)| (c.as_str(), *e))
        .collect();
    assert_eq!(classes, [("v1:full", true), ("v1:windows", false)]);
}

/// The bin packing score prefers the fuller node: of two nodes, one
/// already running an allocation of another job, the placement goes there
/// (`BinPackIterator`, scheduler/rank.go at 1.3.0).
#[test]
fn bin_packing_prefers_the_fuller_node() {
    let snapshot = json!({
        "Now": "2022-04-01T00:00:00Z",
        "Jobs": [job(1)],
        "Nodes": nodes(2),
        "Allocs": [{
            "ID": "a-other", "Namespace": "default", "JobID": "other", "TaskGroup": "x",
            "Name": "other.x[0]", "NodeID": "00000001-0000-4000-8000-000000000000",
            "ClientStatus": "running", "DesiredStatus": "run",
            "AllocatedResources": {"Tasks": {"t": {"Cpu": {"CpuShares": 2000},
                                                    "Memory": {"MemoryMB": 4096}}},
                                   "Shared": {"DiskMB": 0}}
        }]
    });
    let text = snapshot.to_string();
    let snapshot = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(v(1, 3, 0))),
        job: Some("mock-service".to_string()),
        ..Options::default()
    };
    let report = Replay::new(&snapshot, &options).unwrap().report();
    let place = &report.jobs[0].plan.place[0];
    assert_eq!(
        place.node_id.as_deref(),
        Some("00000001-0000-4000-8000-000000000000")
    );
}

/// F-4 at both sides: a failed allocation waits for its follow-up
/// evaluation and the other allocation has no node. Up to 1.10.4 the
/// follow-up stands in for the blocked evaluation (v1.3.0
/// scheduler/generic_sched.go:293-296); from 1.10.5 both are created
/// (v1.10.5 generic_sched.go:302).
#[test]
fn f_4_a_blocked_evaluation_beside_follow_ups_from_1_10_5() {
    let mut j = job(2);
    j["TaskGroups"][0]["ReschedulePolicy"] = json!({
        "Attempts": 0, "Interval": 0, "Delay": 60_000_000_000u64,
        "DelayFunction": "constant", "MaxDelay": 0, "Unlimited": true
    });
    let failed = json!({
        "ID": "a-failed", "Namespace": "default", "JobID": "mock-service", "TaskGroup": "web",
        "Name": "mock-service.web[0]", "NodeID": "gone", "Job": j.clone(),
        "ClientStatus": "failed", "DesiredStatus": "run",
        "TaskStates": {"web": {"State": "dead", "Failed": true,
                               "FinishedAt": "2022-03-31T23:59:50Z"}}
    });
    let at = |release| {
        let snapshot = json!({
            "Now": "2022-04-01T00:00:00Z",
            "Jobs": [j.clone()], "Nodes": [], "Allocs": [failed.clone()]
        });
        let text = snapshot.to_string();
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
    };
    for (release, blocked) in [
        (v(1, 10, 4), false),
        (v(1, 10, 5), true),
        (v(1, 11, 0), true),
    ] {
        let r = at(release);
        assert_eq!(r.plan.followup_evals.len(), 1, "{release:?}");
        assert_eq!(r.plan.failed_placements[0].count, 1, "{release:?}");
        assert_eq!(r.plan.blocked_eval.is_some(), blocked, "{release:?}");
    }
}

/// `genericAllocUpdateFn` (scheduler/util.go at 1.3.0): an update that
/// changes no task is in place only if the stack still takes the node.
/// A new job constraint the node fails makes it destructive, naming the
/// constraint; with no other node, the replacement fails and the old
/// allocation keeps running (its stop is withdrawn, `PopUpdate`).
#[test]
fn an_in_place_update_the_node_no_longer_takes_is_destructive() {
    let mut old = job(1);
    old["JobModifyIndex"] = json!(1);
    let mut new = job(1);
    new["JobModifyIndex"] = json!(2);
    new["Version"] = json!(1);
    let alloc = |job: &Value| {
        json!({
            "ID": "a-0", "Namespace": "default", "JobID": "mock-service", "TaskGroup": "web",
            "Name": "mock-service.web[0]", "NodeID": "00000000-0000-4000-8000-000000000000",
            "Job": job, "ClientStatus": "running", "DesiredStatus": "run",
            "AllocatedResources": {"Tasks": {"web": {"Cpu": {"CpuShares": 500},
                                                      "Memory": {"MemoryMB": 256}}},
                                   "Shared": {"DiskMB": 150}}
        })
    };
    let run = |new: &Value| {
        let snapshot = json!({
            "Now": "2022-04-01T00:00:00Z",
            "Jobs": [new], "Nodes": nodes(1), "Allocs": [alloc(&old)]
        });
        let text = snapshot.to_string();
        let snapshot = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
        let options = Options {
            nomad_version: Some(VersionRequest::Release(v(1, 3, 0))),
            ..Options::default()
        };
        Replay::new(&snapshot, &options)
            .unwrap()
            .report()
            .jobs
            .remove(0)
    };
    // Still feasible and fitting: in place.
    let r = run(&new);
    assert_eq!(r.plan.in_place_update.len(), 1);
    assert!(r.plan.destructive_update.is_empty());
    // A constraint the node fails: destructive, and nowhere to go.
    new["Constraints"] = json!([{"LTarget": "${attr.kernel.name}", "RTarget": "windows",
                                 "Operand": "="}]);
    let r = run(&new);
    assert!(r.plan.in_place_update.is_empty());
    let [d] = r.plan.destructive_update.as_slice() else {
        panic!("{:?}", r.plan.destructive_update);
    };
    assert!(
        d.reason.contains("${attr.kernel.name} = windows"),
        "{}",
        d.reason
    );
    assert_eq!(d.node_id, None);
    assert!(r.plan.stop.is_empty());
    assert_eq!(r.plan.failed_placements[0].count, 1);
    // The in-place check ran on the same stack and marked the node's class
    // ineligible, so the placement is filtered from the class cache.
    assert_eq!(
        r.plan.failed_placements[0].metrics.constraint_filtered["computed class ineligible"],
        1
    );
    assert_eq!(r.plan.queued_allocations["web"], 1);
}

/// Node pools (1.6.0, `readyNodesInDCsAndPool`, scheduler/util.go:49 at
/// 1.6.0): only the job's pool is read, and `NodesInPool` counts its ready
/// nodes (scheduler/generic_sched.go:599 at 1.6.0); before, every node is
/// read and the count is absent (0).
#[test]
fn node_pools_from_1_6_0() {
    let mut pooled = nodes(3);
    pooled[0]["NodePool"] = json!("gpu");
    let mut j = job(5);
    j["NodePool"] = json!("default");
    j["Constraints"] = json!([{"LTarget": "${attr.kernel.name}", "RTarget": "windows",
                               "Operand": "="}]);
    let r = replay_at(pooled.clone(), j.clone(), v(1, 6, 0));
    let m = &r.plan.failed_placements[0].metrics;
    assert_eq!((m.nodes_in_pool, m.nodes_evaluated), (2, 2));
    let r = replay_at(pooled, j, v(1, 5, 6));
    let m = &r.plan.failed_placements[0].metrics;
    assert_eq!((m.nodes_in_pool, m.nodes_evaluated), (0, 3));
}

/// #17548 (1.6.0; v1.6.0 scheduler/feasible.go:812): a job in the pool
/// `all` constrained to `${node.pool} = gpu` runs on the gpu node; before,
/// the target is unknown and every node is filtered by the constraint
/// (v1.3.0 scheduler/feasible.go:800).
#[test]
fn node_pool_target_in_a_constraint_from_1_6_0() {
    let mut pooled = nodes(3);
    pooled[2]["NodePool"] = json!("gpu");
    // The pool is part of the computed class (nomad/structs/node_class.go:48).
    pooled[2]["ComputedClass"] = json!("v1:gpu");
    let mut j = job(1);
    j["NodePool"] = json!("all");
    j["Constraints"] = json!([{"LTarget": "${node.pool}", "RTarget": "gpu", "Operand": "="}]);
    for release in [v(1, 6, 0), v(2, 0, 5)] {
        let r = replay_at(pooled.clone(), j.clone(), release);
        assert_eq!(
            placed_nodes(&r),
            ["00000002-0000-4000-8000-000000000000"],
            "{release}"
        );
    }
    for release in [v(1, 3, 0), v(1, 5, 6)] {
        let r = replay_at(pooled.clone(), j.clone(), release);
        assert!(placed_nodes(&r).is_empty(), "{release}");
        let m = &r.plan.failed_placements[0].metrics;
        // One node of each class checks it; the other mock node is filtered
        // from the class cache.
        assert_eq!(m.nodes_filtered, 3, "{release}");
        assert_eq!(m.constraint_filtered["${node.pool} = gpu"], 2, "{release}");
    }
}

/// #17548 in an affinity (v1.6.0 scheduler/rank.go:764): the gpu node
/// scores the affinity and wins; before, no node matches it and the tie
/// goes to the lowest node ID.
#[test]
fn node_pool_target_in_an_affinity_from_1_6_0() {
    let mut pooled = nodes(3);
    pooled[2]["NodePool"] = json!("gpu");
    // The pool is part of the computed class (nomad/structs/node_class.go:48).
    pooled[2]["ComputedClass"] = json!("v1:gpu");
    let mut j = job(1);
    j["NodePool"] = json!("all");
    j["Affinities"] =
        json!([{"LTarget": "${node.pool}", "RTarget": "gpu", "Operand": "=", "Weight": 50}]);
    let r = replay_at(pooled.clone(), j.clone(), v(2, 0, 5));
    assert_eq!(placed_nodes(&r), ["00000002-0000-4000-8000-000000000000"]);
    let r = replay_at(pooled, j, v(1, 3, 0));
    assert_eq!(placed_nodes(&r), ["00000000-0000-4000-8000-000000000000"]);
}

/// #13651 (1.3.2, 1.4.0): an unknown target is the empty string, so
/// `${node.bogus} != ""` no longer holds (v1.3.0 scheduler/feasible.go:800
/// returned nil, which differs from "").
#[test]
fn an_unknown_target_is_empty_from_1_3_2() {
    let mut j = job(1);
    j["Constraints"] = json!([{"LTarget": "${node.bogus}", "RTarget": "", "Operand": "!="}]);
    let r = replay_at(nodes(1), j.clone(), v(1, 3, 0));
    assert_eq!(placed_nodes(&r).len(), 1);
    for release in [v(1, 3, 2), v(2, 0, 5)] {
        let r = replay_at(nodes(1), j.clone(), release);
        assert!(placed_nodes(&r).is_empty(), "{release}");
    }
}
