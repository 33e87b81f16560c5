//! Devices in the placement stage of a service job: device affinities
//! choose the node through the bin packer's "devices" score (in the
//! placement's final score and in `--explain`), and a request counted
//! over two devices of a node (#26649) passes feasibility from 1.11.0 but
//! exhausts the node, since the allocator takes every instance of one
//! request from one device.

use plan_inspect::explain::{Explanation, explain};
use plan_inspect::model::Snapshot;
use plan_inspect::read::read_snapshot_from;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::JobReport;
use plan_inspect::version::{Release, VersionRequest, v};
use serde_json::{Value, json};

fn id(i: usize) -> String {
    format!("{i:08}-0000-4000-8000-000000000000")
}

/// A GPU `name` with `instances` healthy instances and its graphics clock.
fn gpu(name: &str, instances: usize, clock_mhz: i64) -> Value {
    let instances: Vec<Value> = (0..instances)
        .map(|i| json!({"ID": format!("{name}-{i}"), "Healthy": true}))
        .collect();
    json!({
        "Type": "gpu", "Vendor": "nvidia", "Name": name,
        "Attributes": {"graphics_clock": {"Int": clock_mhz, "Unit": "MHz"}},
        "Instances": instances
    })
}

/// A ready node `node-i` of 4000 MHz and 8192 MB with `devices`.
fn node(i: usize, devices: Vec<Value>) -> Value {
    json!({
        "ID": id(i), "Name": format!("node-{i}"), "Datacenter": "dc1",
        "Status": "ready", "SchedulingEligibility": "eligible",
        "Attributes": {"kernel.name": "linux"},
        "Drivers": {"exec": {"Detected": true, "Healthy": true}},
        "NodeResources": {
            "Cpu": {"CpuShares": 4000}, "Memory": {"MemoryMB": 8192},
            "Disk": {"DiskMB": 10240}, "Devices": devices
        },
        "ReservedResources": {}
    })
}

/// Job "web", one allocation of one exec task asking `device`.
fn job(device: Value) -> Value {
    json!({
        "ID": "web", "Name": "web", "Namespace": "default", "Type": "service",
        "Priority": 50, "Version": 0, "Datacenters": ["dc1"],
        "TaskGroups": [{
            "Name": "web", "Count": 1, "EphemeralDisk": {"SizeMB": 100},
            "Tasks": [{"Name": "web", "Driver": "exec",
                       "Resources": {"CPU": 500, "MemoryMB": 1024, "Devices": [device]}}]
        }]
    })
}

fn snapshot(nodes: Vec<Value>, job: Value) -> Snapshot {
    let text = json!({
        "Now": "2022-04-01T00:00:00Z", "Jobs": [job], "Nodes": nodes, "Allocs": []
    })
    .to_string();
    read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap()
}

fn options(release: Release) -> Options {
    Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    }
}

fn replay(s: &Snapshot, release: Release) -> JobReport {
    Replay::new(s, &options(release))
        .unwrap()
        .report()
        .jobs
        .remove(0)
}

fn explained(s: &Snapshot, release: Release) -> Explanation {
    explain(s, &options(release), "web.web[0]").expect("explain failed")
}

/// The value of fact `name` of step `title`.
fn fact(e: &Explanation, title: &str, name: &str) -> String {
    let step = e.steps.iter().find(|s| s.title == title);
    let step = step.unwrap_or_else(|| panic!("no step {title}: {:?}", e.steps));
    let fact = step.facts.iter().find(|f| f.name == name);
    fact.unwrap_or_else(|| panic!("no fact {name} in {step:?}"))
        .value
        .clone()
}

/// Two equal nodes, node-0 with a 2080ti (1350 MHz), node-1 with a 1080ti
/// (1480 MHz): an affinity for a clock over 1.4 GHz scores node-1's
/// device 1.0 and node-0's 0.0, so node-1 wins where the lower node ID
/// would win a tie (scheduler/rank.go:542-547 at 1.3.0).
#[test]
fn a_device_affinity_chooses_the_node_by_its_devices_score() {
    let request = json!({"Name": "nvidia/gpu", "Count": 1, "Affinities": [
        {"LTarget": "${device.attr.graphics_clock}", "Operand": ">",
         "RTarget": "1.4 GHz", "Weight": 50}]});
    let nodes = vec![
        node(0, vec![gpu("2080ti", 1, 1350)]),
        node(1, vec![gpu("1080ti", 1, 1480)]),
    ];
    let s = snapshot(nodes, job(request.clone()));
    for release in [v(1, 3, 0), v(2, 0, 5)] {
        let r = replay(&s, release);
        let place = &r.plan.place[0];
        assert_eq!(place.node_id.as_deref(), Some(id(1).as_str()), "{release}");
        let e = explained(&s, release);
        let scores = fact(&e, "Scores", "node-1");
        let binpack = scores
            .split("binpack ")
            .nth(1)
            .and_then(|s| s.split(',').next())
            .unwrap()
            .parse::<f64>()
            .unwrap();
        let score = place.score.unwrap().0;
        assert!((score - (binpack + 1.0) / 2.0).abs() < 1e-4, "{scores}");
        assert!(scores.ends_with("devices 1.0000)"), "{scores}");
        assert!(fact(&e, "Scores", "node-0").ends_with("devices 0.0000)"));
    }
    // Without affinities there is no "devices" score, and the tie goes to
    // the lower node ID.
    let plain = json!({"Name": "nvidia/gpu", "Count": 1});
    let nodes = vec![
        node(0, vec![gpu("2080ti", 1, 1350)]),
        node(1, vec![gpu("1080ti", 1, 1480)]),
    ];
    let s = snapshot(nodes, job(plain));
    let r = replay(&s, v(2, 0, 5));
    assert_eq!(r.plan.place[0].node_id.as_deref(), Some(id(0).as_str()));
    let e = explained(&s, v(2, 0, 5));
    assert!(!fact(&e, "Scores", "node-0").contains("devices"));
}

/// #26649: a request of two GPUs on a node with one 1080ti and one 2080ti.
/// Before 1.11.0 the `DeviceChecker` filters the node ("missing
/// devices"); from 1.11.0 it passes, and the allocator, which takes one
/// request's instances from one device, exhausts it.
#[test]
fn a_request_counted_over_two_devices_passes_feasibility_from_1_11_0() {
    let request = json!({"Name": "nvidia/gpu", "Count": 2});
    let nodes = vec![node(
        0,
        vec![gpu("1080ti", 1, 1480), gpu("2080ti", 1, 1350)],
    )];
    let s = snapshot(nodes, job(request));
    for (release, spans) in [
        (v(1, 10, 5), false),
        (v(1, 11, 0), true),
        (v(2, 0, 5), true),
    ] {
        let r = replay(&s, release);
        let f = &r.plan.failed_placements[0];
        assert_eq!(f.count, 1, "{release}");
        let filtered: u64 = f.metrics.constraint_filtered.values().sum();
        let exhausted = f
            .metrics
            .dimension_exhausted
            .get("devices: no devices match request")
            .copied()
            .unwrap_or(0);
        assert_eq!(
            (filtered, exhausted),
            (!spans as u64, spans as u64),
            "{release}"
        );
    }
}

/// Where Nomad walks a node's devices as a Go map, the replay takes them by
/// vendor, type and name, so the order of the snapshot's `Devices` array
/// does not change the plan: group "one" takes its GPU from the "a" device
/// (two instances) in either order, which leaves no device with the two
/// that group "two" asks for.
#[test]
fn the_order_of_a_node_s_devices_does_not_change_the_plan() {
    let group = |name: &str, count: u64| {
        json!({"Name": name, "Count": 1, "EphemeralDisk": {"SizeMB": 100},
               "Tasks": [{"Name": "t", "Driver": "exec", "Resources": {"CPU": 100,
                   "MemoryMB": 100, "Devices": [{"Name": "gpu", "Count": count}]}}]})
    };
    let mut j = job(json!({"Name": "gpu", "Count": 1}));
    j["TaskGroups"] = json!([group("one", 1), group("two", 2)]);
    let (a, b) = (gpu("a", 2, 1000), gpu("b", 1, 1000));
    let mut reports = Vec::new();
    for devices in [vec![a.clone(), b.clone()], vec![b, a]] {
        let s = snapshot(vec![node(0, devices)], j.clone());
        let r = replay(&s, v(2, 0, 5));
        let failed: Vec<&str> = r
            .plan
            .failed_placements
            .iter()
            .map(|f| f.task_group.as_str())
            .collect();
        assert_eq!(failed, ["two"]);
        reports.push(serde_json::to_string(&r).unwrap());
    }
    assert_eq!(reports[0], reports[1]);
}
