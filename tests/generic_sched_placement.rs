//! More placement cases of scheduler/generic_sched_test.go at 1.3.0 and
//! 2.0.5, on `mock.Node()` and `mock.Job()` as tests/generic_sched.rs
//! builds them: disk, `distinct_property`, a count grown on a small node,
//! lifecycle tasks and memory oversubscription. Nomad's harness counts the
//! plan's allocations (new and updated in place) and the state's; here the
//! job's running allocations stay as they are, so the plan's placements
//! are the new ones and the assertions count those.

use std::collections::BTreeSet;

use plan_inspect::read::read_snapshot_from;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::JobReport;
use plan_inspect::version::{Release, VersionRequest, v};
use serde_json::{Value, json};

use super::generic_sched::{job, node, nodes, placed_nodes};

const BOTH: [Release; 2] = [v(1, 3, 0), v(2, 0, 5)];

fn id(i: usize) -> String {
    format!("{i:08}-0000-4000-8000-000000000000")
}

/// `mock.Alloc()` of group "web" of the mock job, index `index`, running
/// on node `n`: 500 MHz, 256 MB, 150 MB of disk, port 5000 and 9876.
fn mock_alloc(index: usize, n: usize) -> Value {
    json!({
        "ID": format!("a{index}"), "Name": format!("mock-service.web[{index}]"),
        "Namespace": "default", "JobID": "mock-service", "TaskGroup": "web",
        "NodeID": id(n), "JobVersion": 0,
        "DesiredStatus": "run", "ClientStatus": "running",
        "AllocatedResources": {
            "Tasks": {"web": {"Cpu": {"CpuShares": 500}, "Memory": {"MemoryMB": 256},
                "Networks": [{"Device": "eth0", "IP": "192.168.0.100", "MBits": 50,
                              "ReservedPorts": [{"Label": "admin", "Value": 5000}],
                              "DynamicPorts": [{"Label": "http", "Value": 9876}]}]}},
            "Shared": {"DiskMB": 150}
        }
    })
}

fn replay(
    nodes: Vec<Value>,
    job: Value,
    allocs: Vec<Value>,
    config: Option<Value>,
    release: Release,
) -> JobReport {
    let mut snapshot = json!({
        "Now": "2022-04-01T00:00:00Z", "Jobs": [job], "Nodes": nodes, "Allocs": allocs
    });
    if let Some(c) = config {
        snapshot["SchedulerConfig"] = c;
    }
    let text = snapshot.to_string();
    let snapshot = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    };
    let mut report = Replay::new(&snapshot, &options).unwrap().report();
    report.jobs.remove(0)
}

/// The failed count of group `tg`, 0 when none failed.
fn failed(r: &JobReport, tg: &str) -> u64 {
    r.plan
        .failed_placements
        .iter()
        .find(|f| f.task_group == tg)
        .map_or(0, |f| f.count)
}

/// TestServiceSched_JobRegister_DiskConstraints: two allocations of 88 GiB
/// of disk on a node with 96 GiB free; one is placed, one fails in "disk"
/// and a blocked evaluation waits for it.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_register_disk_constraints() {
    let mut j = job(2);
    j["TaskGroups"][0]["EphemeralDisk"]["SizeMB"] = json!(88 * 1024);
    for release in BOTH {
        let r = replay(nodes(1), j.clone(), Vec::new(), None, release);
        assert_eq!(placed_nodes(&r), [id(0)], "{release}");
        assert_eq!(failed(&r, "web"), 1, "{release}");
        let f = &r.plan.failed_placements[0];
        assert_eq!(f.metrics.dimension_exhausted["disk"], 1, "{release}");
        assert!(r.plan.blocked_eval.is_some(), "{release}");
        assert_eq!(r.plan.queued_allocations["web"], 1, "{release}");
    }
}

/// Ten nodes, the first five in `rack1` and the others in `rack2`, or
/// each in its own rack with `each`.
fn racked(each: bool) -> Vec<Value> {
    (0..10)
        .map(|i| {
            let rack = match (each, i < 5) {
                (true, _) => format!("rack{i}"),
                (false, true) => "rack1".to_string(),
                (false, false) => "rack2".to_string(),
            };
            let mut n = node(i);
            n["Meta"] = json!({"rack": rack});
            n["ComputedClass"] = json!(format!("v1:{rack}"));
            n
        })
        .collect()
}

fn distinct_property(l_target: &str, r_target: &str) -> Value {
    json!({"Operand": "distinct_property", "LTarget": l_target, "RTarget": r_target})
}

/// TestServiceSched_JobRegister_DistinctProperty: eight allocations at most
/// two per rack over two racks; four are placed, no node twice over its
/// share, and four fail with a blocked evaluation.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_register_distinct_property() {
    let mut j = job(8);
    j["Constraints"]
        .as_array_mut()
        .unwrap()
        .push(distinct_property("${meta.rack}", "2"));
    for release in BOTH {
        let r = replay(racked(false), j.clone(), Vec::new(), None, release);
        let placed = placed_nodes(&r);
        assert_eq!(placed.len(), 4, "{release}");
        let rack1 = placed.iter().filter(|n| **n < id(5)).count();
        assert_eq!(rack1, 2, "{release}");
        assert_eq!(failed(&r, "web"), 4, "{release}");
        assert!(r.plan.blocked_eval.is_some(), "{release}");
    }
}

/// TestServiceSched_JobRegister_DistinctProperty_TaskGroup: the first
/// group (count 1) is distinct on `${meta.ssd}`, which both nodes share;
/// the second (count 2) is not constrained. All three are placed.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_register_distinct_property_task_group() {
    let ssd = |i| {
        let mut n = node(i);
        n["Meta"] = json!({"ssd": "true"});
        n
    };
    let mut j = job(1);
    let mut tg2 = j["TaskGroups"][0].clone();
    j["TaskGroups"][0]["Constraints"] = json!([distinct_property("${meta.ssd}", "")]);
    tg2["Name"] = json!("tg2");
    tg2["Count"] = json!(2);
    j["TaskGroups"].as_array_mut().unwrap().push(tg2);
    for release in BOTH {
        let r = replay(vec![ssd(0), ssd(1)], j.clone(), Vec::new(), None, release);
        assert_eq!(placed_nodes(&r).len(), 3, "{release}");
        assert!(r.plan.failed_placements.is_empty(), "{release}");
        assert!(r.plan.blocked_eval.is_none(), "{release}");
    }
}

/// TestServiceSched_JobRegister_DistinctProperty_TaskGroup_Incr: a group
/// distinct on `${node.unique.id}` runs three allocations on nodes 0-2 of
/// six and grows to six: the three new ones take nodes 3-5.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_register_distinct_property_task_group_incr() {
    let mut j = job(6);
    j["TaskGroups"][0]["Constraints"] = json!([distinct_property("${node.unique.id}", "")]);
    let allocs: Vec<Value> = (0..3).map(|i| mock_alloc(i, i)).collect();
    for release in BOTH {
        let r = replay(nodes(6), j.clone(), allocs.clone(), None, release);
        let placed: BTreeSet<String> = placed_nodes(&r).into_iter().collect();
        assert_eq!(placed, (3..6).map(id).collect(), "{release}");
        assert!(r.plan.failed_placements.is_empty(), "{release}");
        assert!(r.plan.blocked_eval.is_none(), "{release}");
    }
}

/// TestServiceSched_JobModify_IncrCount_NodeLimit: a node of 1000 MHz
/// (900 free) runs one allocation of 256 MHz; the count grows to three,
/// which fit beside it: nothing is stopped or fails.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_modify_incr_count_node_limit() {
    let mut n = node(0);
    n["NodeResources"]["Cpu"]["CpuShares"] = json!(1000);
    let mut j = job(3);
    j["TaskGroups"][0]["Tasks"][0]["Resources"]["CPU"] = json!(256);
    let mut a = mock_alloc(0, 0);
    a["AllocatedResources"]["Tasks"]["web"]["Cpu"]["CpuShares"] = json!(256);
    for release in BOTH {
        let r = replay(vec![n.clone()], j.clone(), vec![a.clone()], None, release);
        assert_eq!(placed_nodes(&r), [id(0), id(0)], "{release}");
        assert!(r.plan.stop.is_empty(), "{release}");
        assert!(r.plan.failed_placements.is_empty(), "{release}");
    }
}

/// TestServiceSched_JobModify_DistinctProperty: eleven allocations, one per
/// rack over ten racks, four of them running: six more are placed, each
/// on a rack of its own, and one fails, every node filtered by its rack.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_modify_distinct_property() {
    let mut j = job(11);
    j["Constraints"]
        .as_array_mut()
        .unwrap()
        .push(distinct_property("${meta.rack}", ""));
    let allocs: Vec<Value> = (0..4).map(|i| mock_alloc(i, i)).collect();
    for release in BOTH {
        let r = replay(racked(true), j.clone(), allocs.clone(), None, release);
        let placed: BTreeSet<String> = placed_nodes(&r).into_iter().collect();
        assert_eq!(placed, (4..10).map(id).collect(), "{release}");
        assert_eq!(failed(&r, "web"), 1, "{release}");
        let f = &r.plan.failed_placements[0];
        let filtered: u64 = f.metrics.constraint_filtered.values().sum();
        assert_eq!((f.metrics.nodes_filtered, filtered), (10, 10), "{release}");
        assert!(r.plan.blocked_eval.is_some(), "{release}");
    }
}

/// `mock.VariableLifecycleJob`: `main` main tasks, `init` prestart tasks
/// and `side` prestart sidecars, each asking `cpu` MHz and `memory` MB.
fn lifecycle_job(cpu: i64, memory: i64, main: usize, init: usize, side: usize) -> Value {
    let task = |name: String, hook: Option<(&str, bool)>| {
        let mut t = json!({"Name": name, "Driver": "exec",
                           "Resources": {"CPU": cpu, "MemoryMB": memory}});
        if let Some((hook, sidecar)) = hook {
            t["Lifecycle"] = json!({"Hook": hook, "Sidecar": sidecar});
        }
        t
    };
    let mut tasks = Vec::new();
    tasks.extend((0..main).map(|i| task(format!("main-{i}"), None)));
    tasks.extend((0..init).map(|i| task(format!("init-{i}"), Some(("prestart", false)))));
    tasks.extend((0..side).map(|i| task(format!("side-{i}"), Some(("prestart", true)))));
    let mut j = job(1);
    j["TaskGroups"][0]["Tasks"] = json!(tasks);
    j["TaskGroups"][0]["EphemeralDisk"]["SizeMB"] = json!(300);
    j
}

/// TestGenericSched_AllocFit_Lifecycle: on a node of 1200 MHz (1100 free),
/// init tasks run before the main ones and count only against the
/// largest phase, sidecars against both.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_alloc_fit_lifecycle() {
    let cases = [
        ("simple init + sidecar", 500, 256, 1, 1, 1, true),
        ("too big init + sidecar", 700, 256, 1, 1, 1, false),
        ("many init + sidecar", 100, 100, 3, 5, 5, true),
        ("too many init + sidecar", 100, 100, 10, 10, 10, false),
        ("too many too big", 1000, 100, 10, 10, 10, false),
    ];
    let mut n = node(0);
    n["NodeResources"]["Cpu"]["CpuShares"] = json!(1200);
    for release in BOTH {
        for (name, cpu, memory, main, init, side, fits) in cases {
            let j = lifecycle_job(cpu, memory, main, init, side);
            let r = replay(vec![n.clone()], j, Vec::new(), None, release);
            assert_eq!(
                placed_nodes(&r).len(),
                usize::from(fits),
                "{release} {name}"
            );
            assert_eq!(failed(&r, "web"), u64::from(!fits), "{release} {name}");
        }
    }
}

/// TestGenericSched_AllocFit_MemoryOversubscription: ten allocations of
/// 200 MB with a 500 MB ceiling on a node with 1164 MB free: five fit by
/// their memory, the ceiling is not counted, five fail in "memory".
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_alloc_fit_memory_oversubscription() {
    let mut n = node(0);
    n["NodeResources"]["Cpu"]["CpuShares"] = json!(10000);
    n["NodeResources"]["Memory"]["MemoryMB"] = json!(1224);
    n["ReservedResources"]["Memory"]["MemoryMB"] = json!(60);
    let mut j = job(10);
    let resources = &mut j["TaskGroups"][0]["Tasks"][0]["Resources"];
    resources["CPU"] = json!(100);
    resources["MemoryMB"] = json!(200);
    resources["MemoryMaxMB"] = json!(500);
    let config = json!({"SchedulerAlgorithm": "binpack", "MemoryOversubscriptionEnabled": true});
    for release in BOTH {
        let r = replay(
            vec![n.clone()],
            j.clone(),
            Vec::new(),
            Some(config.clone()),
            release,
        );
        assert_eq!(placed_nodes(&r).len(), 5, "{release}");
        assert_eq!(failed(&r, "web"), 5, "{release}");
        let f = &r.plan.failed_placements[0];
        assert_eq!(f.metrics.dimension_exhausted["memory"], 1, "{release}");
    }
}
