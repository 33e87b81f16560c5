//! Placements of an older job version (`downgradedJobForPlacement`):
//! TestServiceSched_JobRegister_Datacenter_Downgrade (scheduler/
//! generic_sched_test.go:858 at 1.4.11, :852 at 1.10.5, :1098 at 2.0.5)
//! and TestServiceSched_JobRegister_NodePool_Downgrade (:858 at 1.6.0,
//! :962 at 1.10.5, :1213 at 2.0.5), on the mock node and job of
//! tests/generic_sched.rs: ten nodes, the first five in one datacenter or
//! pool, the last five in another.

use plan_inspect::explain::explain;
use plan_inspect::read::read_snapshot_from;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::{JobReport, PlanPlace, Report};
use plan_inspect::version::{Release, VersionRequest, v};
use serde_json::{Value, json};

use super::generic_sched::{job, node};

/// Ten mock nodes, the last five with `key` set to `second`.
fn ten_nodes(key: &str, second: &str) -> Vec<Value> {
    (0..10)
        .map(|i| {
            let mut n = node(i);
            if i >= 5 {
                n[key] = json!(second);
            }
            n
        })
        .collect()
}

/// Version 1 of the test's job: three of group "web" with a canary
/// update of one at a time, and `mock.Job()`'s reschedule policy (two
/// attempts in ten minutes, five seconds apart).
fn job_v1() -> Value {
    let mut j = job(3);
    j["Version"] = json!(1);
    j["Status"] = json!("running");
    j["CreateIndex"] = json!(5);
    j["JobModifyIndex"] = json!(10);
    j["TaskGroups"][0]["ReschedulePolicy"] = json!({
        "Attempts": 2, "Interval": 600_000_000_000u64, "Delay": 5_000_000_000u64,
        "DelayFunction": "constant"
    });
    j["TaskGroups"][0]["Update"] = json!({
        "Stagger": 30_000_000_000u64, "MaxParallel": 1, "HealthCheck": "checks",
        "MinHealthyTime": 30_000_000_000u64, "HealthyDeadline": 540_000_000_000u64,
        "ProgressDeadline": 600_000_000_000u64, "AutoRevert": true, "Canary": 1
    });
    j
}

/// Three allocations of `v1` on the first three nodes, healthy, the first
/// a canary and the second failed, all named as `mock.Alloc()` names them.
fn allocs(v1: &Value) -> Vec<Value> {
    (0..3)
        .map(|i| {
            json!({
                "ID": format!("a{i}"), "Name": "mock-service.web[0]", "Namespace": "default",
                "JobID": "mock-service", "TaskGroup": "web", "Job": v1.clone(),
                "NodeID": format!("{i:08}-0000-4000-8000-000000000000"),
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
        .collect()
}

/// The snapshot of the test: `v2` registered over `v1`, with both in
/// `JobVersions` as Nomad's state holds them (left out with `versions`
/// false).
fn snapshot(nodes: Vec<Value>, v1: Value, v2: Value, versions: bool) -> Value {
    let mut s = json!({
        "Now": "2022-04-01T00:00:00Z", "Nodes": nodes, "Jobs": [v2.clone()],
        "Allocs": allocs(&v1),
    });
    if versions {
        s["JobVersions"] = json!([v1, v2]);
    }
    s
}

fn replay(doc: &Value, release: Release) -> Report {
    let snapshot = read_snapshot_from(doc.to_string().as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    };
    Replay::new(&snapshot, &options).unwrap().report()
}

fn node_index(p: &PlanPlace) -> usize {
    p.node_id.as_deref().unwrap()[..8].parse().unwrap()
}

/// The canary of version 2, and the replacement of the failed allocation.
fn canary_and_replacement(r: &JobReport) -> (&PlanPlace, &PlanPlace) {
    let [a, b] = r.plan.place.as_slice() else {
        panic!("{:?}", r.plan.place);
    };
    match a.canary {
        true => (a, b),
        false => (b, a),
    }
}

/// The failed allocation's replacement is a non-canary placement during
/// the canary deployment version 2 starts: it is made with version 1, the
/// failed allocation's own (no deployment exists and version 1 has no
/// job-level `update` block), whose datacenter is dc1; the canary goes to
/// dc2. Nomad's test looks at the node of each placement it makes; here
/// both placements are made, and each node's datacenter is forced.
#[test]
fn generic_sched_test_go_v1_4_11_v2_0_5_job_register_datacenter_downgrade() {
    let v1 = job_v1();
    let mut v2 = v1.clone();
    v2["Version"] = json!(2);
    v2["JobModifyIndex"] = json!(20);
    v2["Datacenters"] = json!(["dc2"]);
    let doc = snapshot(ten_nodes("Datacenter", "dc2"), v1, v2, true);
    for release in [v(1, 4, 11), v(1, 5, 7), v(1, 6, 0), v(1, 10, 5), v(2, 0, 5)] {
        let report = replay(&doc, release);
        let r = &report.jobs[0];
        let (canary, replacement) = canary_and_replacement(r);
        assert_eq!(canary.job_version, None, "{release}");
        assert!(node_index(canary) >= 5, "{release}: the canary in dc2");
        assert!(replacement.reschedule && replacement.downgrade_non_canary);
        assert_eq!(
            replacement.previous_alloc_id.as_ref().unwrap().to_string(),
            "a1"
        );
        assert_eq!(replacement.job_version, Some(1), "{release}");
        assert!(
            node_index(replacement) < 5,
            "{release}: the replacement in dc1"
        );
        assert!(
            report
                .warnings
                .iter()
                .all(|w| w.code != "job_versions_missing")
        );
    }
}

/// Before #17652 the stack takes version 1's group but keeps the nodes of
/// version 2's datacenters, set once for the evaluation (v1.3.0
/// generic_sched.go:501): the replacement lands in dc2.
#[test]
fn a_downgraded_placement_keeps_the_current_datacenters_before_1_4_11() {
    let v1 = job_v1();
    let mut v2 = v1.clone();
    v2["Version"] = json!(2);
    v2["JobModifyIndex"] = json!(20);
    v2["Datacenters"] = json!(["dc2"]);
    let doc = snapshot(ten_nodes("Datacenter", "dc2"), v1, v2, true);
    for release in [v(1, 3, 0), v(1, 4, 10), v(1, 5, 6)] {
        let report = replay(&doc, release);
        let (_, replacement) = canary_and_replacement(&report.jobs[0]);
        assert_eq!(replacement.job_version, Some(1), "{release}");
        assert!(node_index(replacement) >= 5, "{release}");
    }
}

/// The snapshot of TestServiceSched_JobRegister_NodePool_Downgrade:
/// version 1 in pool-binpack (the first five nodes), version 2 in
/// pool-spread (the last five), the pools' own algorithms `old` and `new`
/// (none where empty) under the cluster's `cluster`.
fn pools_snapshot(old: &str, new: &str, cluster: &str) -> Value {
    let mut nodes = ten_nodes("NodePool", "pool-spread");
    for n in &mut nodes[..5] {
        n["NodePool"] = json!("pool-binpack");
    }
    let mut v1 = job_v1();
    v1["NodePool"] = json!("pool-binpack");
    let mut v2 = v1.clone();
    v2["Version"] = json!(2);
    v2["JobModifyIndex"] = json!(20);
    v2["NodePool"] = json!("pool-spread");
    let mut doc = snapshot(nodes, v1, v2, true);
    doc["SchedulerConfig"] = json!({"SchedulerAlgorithm": cluster});
    let own = |a: &str| match a {
        "" => Value::Null,
        a => json!({"SchedulerAlgorithm": a}),
    };
    doc["NodePools"] = json!([
        {"Name": "pool-binpack", "SchedulerConfiguration": own(old)},
        {"Name": "pool-spread", "SchedulerConfiguration": own(new)}
    ]);
    doc
}

/// TestServiceSched_JobRegister_NodePool_Downgrade: as above with node
/// pools, version 1 in pool-binpack and version 2 in pool-spread, each
/// pool with its own algorithm (bin packing and spread) over the
/// cluster's bin packing. Nomad's test looks at each placement's pool,
/// which is forced; which node of the pool each algorithm picks is
/// `a_downgraded_placement_runs_with_its_own_pool_s_configuration`.
#[test]
fn generic_sched_test_go_v1_6_0_v2_0_5_job_register_node_pool_downgrade() {
    let doc = pools_snapshot("binpack", "spread", "binpack");
    for release in [v(1, 6, 0), v(1, 10, 5), v(2, 0, 5)] {
        let report = replay(&doc, release);
        let (canary, replacement) = canary_and_replacement(&report.jobs[0]);
        assert!(
            node_index(canary) >= 5,
            "{release}: the canary in pool-spread"
        );
        assert_eq!(replacement.job_version, Some(1), "{release}");
        assert!(
            node_index(replacement) < 5,
            "{release}: the replacement in pool-binpack"
        );
    }
}

/// `pools_snapshot` with another job's allocation on node 4 (pool-binpack)
/// and node 9 (pool-spread), which bin packing seeks and spread avoids.
fn busy_pools_snapshot(old: &str, new: &str, cluster: &str) -> Value {
    let mut doc = pools_snapshot(old, new, cluster);
    let mut other = job(1);
    other["ID"] = json!("other");
    other["Name"] = json!("other");
    for i in [4, 9] {
        let pool = if i < 5 { "pool-binpack" } else { "pool-spread" };
        other["NodePool"] = json!(pool);
        let alloc = json!({
            "ID": format!("b{i}"), "Name": "other.web[0]", "Namespace": "default",
            "JobID": "other", "TaskGroup": "web", "Job": other.clone(),
            "NodeID": format!("{i:08}-0000-4000-8000-000000000000"),
            "DesiredStatus": "run", "ClientStatus": "running",
            "AllocatedResources": {
                "Tasks": {"web": {"Cpu": {"CpuShares": 500}, "Memory": {"MemoryMB": 256}}},
                "Shared": {"DiskMB": 150}
            }
        });
        doc["Allocs"].as_array_mut().unwrap().push(alloc);
    }
    doc
}

/// The stack takes each version's pool's configuration with the version
/// (`setJob`, scheduler/generic_sched.go:566 and :607 at 1.6.0). Under
/// the cluster's bin packing both placements go beside the other job
/// (nodes 4 and 9), under its spread away from it (3 and 5). With
/// pool-binpack spreading and pool-spread bin packing of their own, the
/// replacement (version 1) spreads and the canary (version 2) bin packs,
/// and the other way round; `--explain` of the replacement names version
/// 1's pool.
#[test]
fn a_downgraded_placement_runs_with_its_own_pool_s_configuration() {
    let nodes = |doc: &Value, release: Release| {
        let report = replay(doc, release);
        let (canary, replacement) = canary_and_replacement(&report.jobs[0]);
        (node_index(canary), node_index(replacement))
    };
    for release in [v(1, 6, 0), v(2, 0, 5)] {
        let spread = nodes(&busy_pools_snapshot("", "", "spread"), release);
        let binpack = nodes(&busy_pools_snapshot("", "", "binpack"), release);
        assert_eq!((spread, binpack), ((5, 3), (9, 4)), "{release}");
        let crossed = nodes(
            &busy_pools_snapshot("spread", "binpack", "binpack"),
            release,
        );
        assert_eq!(crossed, (9, 3), "{release}");
        let crossed = nodes(&busy_pools_snapshot("binpack", "spread", "spread"), release);
        assert_eq!(crossed, (5, 4), "{release}");
    }
    let doc = busy_pools_snapshot("spread", "binpack", "binpack");
    let snapshot = read_snapshot_from(doc.to_string().as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(v(2, 0, 5))),
        ..Options::default()
    };
    let report = Replay::new(&snapshot, &options).unwrap().report();
    let (_, replacement) = canary_and_replacement(&report.jobs[0]);
    let e = explain(&snapshot, &options, &replacement.name).unwrap();
    let step = e
        .steps
        .iter()
        .find(|s| s.title == "Scheduler configuration")
        .expect("a scheduler configuration step");
    let facts: Vec<(&str, &str)> = step
        .facts
        .iter()
        .map(|f| (f.name.as_str(), f.value.as_str()))
        .collect();
    assert_eq!(
        facts,
        [
            (
                "scheduler algorithm",
                "spread (set by node pool pool-binpack)"
            ),
            (
                "memory oversubscription",
                "off (the cluster's): a task's memory_max does not reach its allocation"
            )
        ]
    );
}

/// The older version's own constraints place it: version 1 pins the group
/// to node-7's host name, version 2 does not, and the replacement goes
/// there; `--explain` names the version.
#[test]
fn a_downgraded_placement_meets_the_older_versions_constraints() {
    let mut v1 = job_v1();
    v1["TaskGroups"][0]["Constraints"] = json!([
        {"LTarget": "${attr.unique.hostname}", "RTarget": "node-7", "Operand": "="}
    ]);
    let mut v2 = job_v1();
    v2["Version"] = json!(2);
    v2["JobModifyIndex"] = json!(20);
    v2["TaskGroups"][0]["Tasks"][0]["Env"] = json!({"v": "2"});
    let doc = snapshot((0..10).map(node).collect(), v1, v2, true);
    let release = v(1, 10, 5);
    let report = replay(&doc, release);
    let (canary, replacement) = canary_and_replacement(&report.jobs[0]);
    assert_eq!(replacement.job_version, Some(1));
    assert_eq!(node_index(replacement), 7);
    assert_ne!(node_index(canary), 7, "the canary is not bound to node-7");
    let snapshot = read_snapshot_from(doc.to_string().as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    };
    let e = explain(&snapshot, &options, "a1").unwrap();
    assert!(
        e.fate.iter().any(|f| f.contains("job version 1")),
        "{:?}",
        e.fate
    );
}

/// A dump without `JobVersions` takes version 1 from the allocations that
/// embed it, and says so.
#[test]
fn without_job_versions_the_allocations_give_the_older_version() {
    let v1 = job_v1();
    let mut v2 = v1.clone();
    v2["Version"] = json!(2);
    v2["JobModifyIndex"] = json!(20);
    v2["Datacenters"] = json!(["dc2"]);
    let doc = snapshot(ten_nodes("Datacenter", "dc2"), v1, v2, false);
    let report = replay(&doc, v(2, 0, 5));
    let (_, replacement) = canary_and_replacement(&report.jobs[0]);
    assert_eq!(replacement.job_version, Some(1));
    let w = report
        .warnings
        .iter()
        .find(|w| w.code == "job_versions_missing")
        .expect("a job_versions_missing warning");
    assert!(
        w.message
            .contains("version(s) 1 taken from the allocations")
    );
}

/// The JSON names the version only on the placement that uses an older
/// one.
#[test]
fn the_json_names_an_older_version_only_where_used() {
    let v1 = job_v1();
    let mut v2 = v1.clone();
    v2["Version"] = json!(2);
    v2["JobModifyIndex"] = json!(20);
    v2["Datacenters"] = json!(["dc2"]);
    let doc = snapshot(ten_nodes("Datacenter", "dc2"), v1, v2, true);
    let report = replay(&doc, v(2, 0, 5));
    let json: Value = serde_json::to_value(&report).unwrap();
    let place = json["jobs"][0]["plan"]["place"].as_array().unwrap();
    let versions: Vec<Option<u64>> = place
        .iter()
        .map(|p| p.get("job_version").map(|v| v.as_u64().unwrap()))
        .collect();
    let mut sorted = versions.clone();
    sorted.sort();
    assert_eq!(sorted, vec![None, Some(1)]);
}

/// Under `--until` the placements of version 1 become allocations that
/// run version 1 (`AppendAlloc` with the older job): when their node goes
/// down five minutes on, the next evaluation finds them at version 1.
#[test]
fn a_placement_of_an_older_version_runs_it_under_until() {
    use plan_inspect::servers::{Request, run};
    let v1 = job_v1();
    let mut v2 = v1.clone();
    v2["Version"] = json!(2);
    v2["JobModifyIndex"] = json!(20);
    v2["Datacenters"] = json!(["dc2"]);
    let doc = snapshot(ten_nodes("Datacenter", "dc2"), v1, v2, true);
    let snapshot = read_snapshot_from(doc.to_string().as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(v(2, 0, 5))),
        ..Options::default()
    };
    let first = replay(&doc, v(2, 0, 5));
    let (_, replacement) = canary_and_replacement(&first.jobs[0]);
    let node = replacement.node_id.as_deref().unwrap()[..8].to_string();
    let request = Request {
        events: vec![
            "node-down:00000002".parse().unwrap(),
            format!("node-down:{node}@5m").parse().unwrap(),
        ],
        until: Some("30m".parse().unwrap()),
        healthy_after: None,
    };
    let story = run(&snapshot, &options, &request).unwrap();
    // Between the two node updates the deployment watcher evaluates the job
    // once the canary is healthy.
    let triggers: Vec<&str> = story
        .timeline
        .iter()
        .map(|e| e.evaluation.triggered_by.as_str())
        .collect();
    assert_eq!(
        triggers,
        ["node-update", "deployment-watcher", "node-update"]
    );
    let second = &story.timeline[2];
    let on_node: Vec<u64> = second.job.groups[0]
        .buckets
        .iter()
        .flat_map(|(_, entries)| entries)
        .filter(|e| e.node_id.starts_with(&node))
        .map(|e| e.job_version)
        .collect();
    assert_eq!(on_node, vec![1]);
}
