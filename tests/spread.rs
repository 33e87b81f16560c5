//! Spread blocks in the placement stage of service jobs, end to end:
//! `TestSpread_ImplicitTargets` (scheduler/spread_test.go, v1.6.0) and the
//! release rows of spread scoring (#17198, #17195) and NUMA (#18818) at the
//! tags on both sides of each. Nomad samples nodes at random; these assert
//! counts per datacenter, which plan-inspect's ranking of every node forces.

use std::collections::BTreeMap;

use plan_inspect::read::read_snapshot_from;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::Report;
use plan_inspect::version::{Release, VersionRequest, v};
use serde_json::{Value, json};

/// `mock.Node()` (nomad/mock/node.go, v1.6.0): 4000 MHz, 8192 MB, in `dc`;
/// node IDs sort by their datacenter first.
fn node(dc: &str, i: usize) -> Value {
    json!({
        "ID": format!("{dc}-{i:04}-0000-4000-8000-000000000000"),
        "Name": format!("{dc}-{i}"),
        "Datacenter": dc,
        "NodePool": "default",
        "Status": "ready",
        "SchedulingEligibility": "eligible",
        "ComputedClass": "v1:mock",
        "Attributes": {"kernel.name": "linux", "driver.mock_driver": "1"},
        "Drivers": {"mock_driver": {"Detected": true, "Healthy": true}},
        "NodeResources": {"Cpu": {"CpuShares": 4000}, "Memory": {"MemoryMB": 8192},
                          "Disk": {"DiskMB": 100 * 1024}},
        "ReservedResources": {"Cpu": {"CpuShares": 100}, "Memory": {"MemoryMB": 256}}
    })
}

/// `mock.MinJob()` (v1.6.0) as the server canonicalises it: group "g" of
/// `count`, task "t" with the default 100 MHz and 300 MB, 300 MB of disk.
fn job(count: i64, dcs: &[&str], spreads: Value, task_resources: Value) -> Value {
    json!({
        "ID": "j", "Name": "j", "Namespace": "default", "Type": "service",
        "Priority": 50, "Version": 0, "Datacenters": dcs, "NodePool": "default",
        "TaskGroups": [{
            "Name": "g", "Count": count, "Spreads": spreads,
            "EphemeralDisk": {"SizeMB": 300},
            "Tasks": [{"Name": "t", "Driver": "mock_driver", "Resources": task_resources}]
        }]
    })
}

fn replay(nodes: Vec<Value>, job: Value, release: Release) -> Report {
    let snapshot =
        json!({"Now": "2023-06-01T00:00:00Z", "Jobs": [job], "Nodes": nodes, "Allocs": []});
    let text = snapshot.to_string();
    let snapshot = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    };
    Replay::new(&snapshot, &options).unwrap().report()
}

/// Placements per datacenter (node IDs start with it).
fn per_dc(report: &Report) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for p in &report.jobs[0].plan.place {
        let node = p.node_id.as_deref().expect("placed");
        *out.entry(node[..3].to_string()).or_insert(0) += 1;
    }
    out
}

fn twelve_nodes() -> Vec<Value> {
    ["dc1", "dc2", "dc3"]
        .iter()
        .flat_map(|dc| (0..4).map(move |i| node(dc, i)))
        .collect()
}

fn by_dc(targets: &[(&str, i64)]) -> Value {
    let targets: Vec<Value> = targets
        .iter()
        .map(|(v, p)| json!({"Value": v, "Percent": p}))
        .collect();
    json!([{"Weight": 100, "Attribute": "${node.datacenter}", "SpreadTarget": targets}])
}

/// Spread targets as (value, percent), and allocations as (datacenter, count).
type Targets = &'static [(&'static str, i64)];
type Counts = &'static [(&'static str, usize)];

const DEFAULT_TASK: fn() -> Value = || json!({"CPU": 100, "MemoryMB": 300});

/// `TestSpread_ImplicitTargets` (v1.6.0): 12 allocations over four nodes in
/// each of dc1, dc2 and dc3 with 50% in dc1 put 6 there, with the rest
/// implicit, as `"*"` or named.
#[test]
fn spread_test_go_v1_6_0_implicit_targets() {
    let dcs = ["dc1", "dc2", "dc3"];
    let cases: [(Targets, Counts); 3] = [
        (&[("dc1", 50)], &[("dc1", 6)]),
        (&[("dc1", 50), ("*", 50)], &[("dc1", 6)]),
        (
            &[("dc1", 50), ("dc2", 25), ("dc3", 25)],
            &[("dc1", 6), ("dc2", 3), ("dc3", 3)],
        ),
    ];
    for (targets, expect) in cases {
        let r = replay(
            twelve_nodes(),
            job(12, &dcs, by_dc(targets), DEFAULT_TASK()),
            v(1, 6, 0),
        );
        let got = per_dc(&r);
        assert_eq!(got.values().sum::<usize>(), 12, "{targets:?}");
        for (dc, n) in expect {
            assert_eq!(
                got.get(*dc).copied().unwrap_or(0),
                *n,
                "{targets:?}: {got:?}"
            );
        }
    }
}

/// #17195 (1.3.15, 1.4.10, 1.5.6, 1.6.0): the implicit-target case of
/// `TestSpread_ImplicitTargets` before and after. At 1.5.5 dc2 and dc3
/// each count against the whole remainder of 6, so they fill like dc1 and
/// the 12 split 4/4/4 (Nomad #11823); at 1.5.6 they share it and dc1 gets 6.
#[test]
fn implicit_spread_values_count_together_from_1_5_6() {
    let dcs = ["dc1", "dc2", "dc3"];
    for targets in [&[("dc1", 50)][..], &[("dc1", 50), ("*", 50)][..]] {
        let at = |release| {
            let r = replay(
                twelve_nodes(),
                job(12, &dcs, by_dc(targets), DEFAULT_TASK()),
                release,
            );
            per_dc(&r)
        };
        let four = BTreeMap::from([("dc1".into(), 4), ("dc2".into(), 4), ("dc3".into(), 4)]);
        assert_eq!(at(v(1, 5, 5)), four, "{targets:?}");
        assert_eq!(at(v(1, 5, 6))["dc1"], 6, "{targets:?}");
    }
}

/// #17198 (1.3.15, 1.4.10, 1.5.6, 1.6.0): the only node is in dc3, which
/// the targets want 0% of. At 1.5.5 its spread boost divides by zero and
/// the placement's final score is -Inf (written as null in JSON, which has
/// no infinity); at 1.5.6 the boost is the lowest so far, -1, averaged
/// with the binpack score.
#[test]
fn a_zero_spread_target_scores_the_lowest_boost_from_1_5_6() {
    let spreads = by_dc(&[("dc1", 50), ("dc2", 50), ("*", 0)]);
    let at = |release| {
        let r = replay(
            vec![node("dc3", 0)],
            job(1, &["dc3"], spreads.clone(), DEFAULT_TASK()),
            release,
        );
        r.jobs[0].plan.place[0].score.expect("placed").0
    };
    assert_eq!(at(v(1, 5, 5)), f64::NEG_INFINITY);
    let after = at(v(1, 5, 6));
    assert!(after > -0.5 && after < -0.4, "{after}");
    assert_eq!(at(v(1, 4, 9)), f64::NEG_INFINITY);
    assert_eq!(at(v(1, 4, 10)), after);
}

/// #18818 (1.7.0): a task asking for a NUMA affinity is placed on the
/// lowest free cores as the community edition does, with one warning that
/// names it; at 1.6.0, before the block existed, the warning says so.
#[test]
fn a_numa_affinity_is_warned_about_from_1_7_0() {
    let resources = json!({"CPU": 100, "MemoryMB": 300, "NUMA": {"Affinity": "require"}});
    let at = |release| {
        let r = replay(
            vec![node("dc1", 0)],
            job(1, &["dc1"], Value::Null, resources.clone()),
            release,
        );
        assert!(r.jobs[0].plan.place[0].node_id.is_some());
        let numa: Vec<String> = r
            .warnings
            .iter()
            .filter(|w| w.message.contains("numa"))
            .map(|w| format!("{}: {}", w.code, w.message))
            .collect();
        assert_eq!(numa.len(), 1, "{numa:?}");
        numa[0].clone()
    };
    let before = at(v(1, 6, 0));
    assert!(
        before.starts_with(
            "input_ignored: the numa block of default/j group g task t (affinity = require) ignored"
        ) && before.contains("only from Nomad 1.7.0 on (#18818)"),
        "{before}"
    );
    let after = at(v(1, 7, 0));
    assert!(
        after.starts_with("input_ignored: the numa affinity of default/j group g task t (affinity = require) ignored")
            && after.contains("lowest free cores"),
        "{after}"
    );
    let none = json!({"CPU": 100, "MemoryMB": 300, "NUMA": {"Affinity": "none"}});
    let r = replay(
        vec![node("dc1", 0)],
        job(1, &["dc1"], Value::Null, none),
        v(1, 7, 0),
    );
    assert!(r.warnings.iter().all(|w| !w.message.contains("numa")));
}

/// `TestSpreadOnLargeCluster` (spread_test.go, v1.3.0), scaled down from
/// 10,000 nodes so the suite stays quick: nodes alternate between dc-1 and
/// dc-2, each with a rack; the job spreads evenly on `${meta.rack}` (a
/// block without weight or targets, as the test writes it) and asks 6000
/// MHz and 6000 MB per allocation. The allocations per rack must differ by
/// at most one (`validateEqualSpread`). Nomad's uneven racks are random;
/// here rack `r{i}` holds `i + 1` nodes.
#[test]
fn spread_test_go_v1_3_0_spread_on_large_cluster() {
    let even = |nodes: usize, racks: usize| (0..nodes).map(|i| i % racks).collect::<Vec<_>>();
    let uneven = |racks: usize| {
        (0..racks)
            .flat_map(|r| std::iter::repeat_n(r, r + 1))
            .collect::<Vec<_>>()
    };
    let cases = [
        ("even racks=10 allocs=50", even(200, 10), 50),
        ("many even racks=100 allocs=50", even(200, 100), 50),
        ("uneven racks=19 allocs=50", uneven(19), 50),
    ];
    for (name, racks, allocs) in cases {
        let nodes: Vec<Value> = racks
            .iter()
            .enumerate()
            .map(|(i, rack)| {
                let dc = ["dc-1", "dc-2"][i % 2];
                let mut n = node(dc, i);
                n["Meta"] = json!({"rack": format!("r{rack}")});
                n["NodeResources"]["Cpu"]["CpuShares"] = json!(14000);
                n["NodeResources"]["Memory"]["MemoryMB"] = json!(32000);
                n
            })
            .collect();
        let mut j = job(
            allocs,
            &["dc-1", "dc-2"],
            Value::Null,
            json!({"CPU": 6000, "MemoryMB": 6000}),
        );
        j["Spreads"] = json!([{"Attribute": "${meta.rack}"}]);
        let r = replay(nodes, j, v(1, 3, 0));
        let plan = &r.jobs[0].plan;
        assert!(plan.failed_placements.is_empty(), "{name}");
        let mut per_rack: BTreeMap<usize, usize> = racks.iter().map(|r| (*r, 0)).collect();
        for p in &plan.place {
            let id = p.node_id.as_deref().unwrap();
            let i: usize = id[5..9].parse().unwrap();
            *per_rack.get_mut(&racks[i]).unwrap() += 1;
        }
        let (min, max) = (per_rack.values().min(), per_rack.values().max());
        assert!(max.unwrap() - min.unwrap() <= 1, "{name}: {per_rack:?}");
        assert_eq!(per_rack.values().sum::<usize>(), allocs as usize, "{name}");
    }
}

/// An allocation updated in place is in Nomad's plan (`NodeAllocation`)
/// while it is still in the state, so a property set counts it twice
/// (v1.3.0 scheduler/generic_sched.go:424, propertyset.go:175): with
/// `distinct_property` allowing 2 per rack and the rack's one allocation
/// updated in place, a second allocation no longer fits the rack.
#[test]
fn an_in_place_update_counts_twice_in_a_distinct_property() {
    let spec = |version: u64, priority: i64| {
        let mut j = job(2, &["dc1"], Value::Null, DEFAULT_TASK());
        j["Version"] = json!(version);
        j["Priority"] = json!(priority);
        j["JobModifyIndex"] = json!(version * 10);
        j["TaskGroups"][0]["Constraints"] = json!([{"LTarget": "${meta.rack}", "RTarget": "2",
                                                    "Operand": "distinct_property"}]);
        j
    };
    let mut n = node("dc1", 0);
    n["Meta"] = json!({"rack": "r0"});
    let id = n["ID"].clone();
    let alloc = json!({
        "ID": "a1", "Name": "j.g[0]", "Namespace": "default", "JobID": "j", "TaskGroup": "g",
        "NodeID": id, "JobVersion": 1, "Job": spec(1, 50),
        "DesiredStatus": "run", "ClientStatus": "running",
        "AllocatedResources": {"Tasks": {"t": {"Cpu": {"CpuShares": 100},
                                              "Memory": {"MemoryMB": 300}}},
                               "Shared": {"DiskMB": 300}}
    });
    let snapshot = json!({"Now": "2023-06-01T00:00:00Z", "Jobs": [spec(2, 60)],
                          "Nodes": [n], "Allocs": [alloc]});
    let text = snapshot.to_string();
    let snapshot = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(v(1, 3, 0))),
        ..Options::default()
    };
    let report = Replay::new(&snapshot, &options).unwrap().report();
    let plan = &report.jobs[0].plan;
    assert_eq!(plan.in_place_update.len(), 1);
    assert_eq!(plan.failed_placements.len(), 1);
    let filtered = &plan.failed_placements[0].metrics.constraint_filtered;
    assert_eq!(
        filtered.keys().collect::<Vec<_>>(),
        ["distinct_property: ${meta.rack}=r0 used by 2 allocs"]
    );
}

/// The same snapshot with its nodes in the opposite order places the same
/// allocations on the same nodes with the same scores: the evaluation's
/// lowest boost and the sums it keeps depend on the node-ID order alone.
#[test]
fn spread_placements_do_not_depend_on_the_input_order() {
    let dcs = ["dc1", "dc2", "dc3"];
    let spreads = by_dc(&[("dc1", 50), ("dc2", 50), ("*", 0)]);
    let run = |nodes: Vec<Value>| {
        let r = replay(
            nodes,
            job(12, &dcs, spreads.clone(), DEFAULT_TASK()),
            v(1, 6, 0),
        );
        r.jobs[0]
            .plan
            .place
            .iter()
            .map(|p| (p.name.clone(), p.node_id.clone(), p.score.map(|s| s.0)))
            .collect::<Vec<_>>()
    };
    let forward = run(twelve_nodes());
    let mut reversed = twelve_nodes();
    reversed.reverse();
    assert_eq!(forward, run(reversed));
    assert_eq!(forward.len(), 12);
}
