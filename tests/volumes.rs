//! Volume feasibility and the sticky-disk preferred node of the placement
//! stage: Nomad's CSI and host volume cases of
//! scheduler/generic_sched_test.go and the sticky-disk cases, replayed at
//! the tags named (and on both sides of each catalogued change), on the
//! mocks of nomad/mock/mock.go at 1.3.0. The servers' default scheduler
//! configuration is replayed, not the test harness's empty one: the
//! harness retries a failed placement with preemption, which resets the
//! metrics, so its filter counts can differ (said where they do).

use std::collections::BTreeSet;

use plan_inspect::read::read_snapshot_from;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::{JobReport, Report};
use plan_inspect::version::{Release, VersionRequest, v};
use serde_json::{Value, json};

fn node_id(i: usize) -> String {
    format!("{i:08}-0000-4000-8000-000000000000")
}

/// `mock.Node()` at 1.3.0 in datacenter `dc`.
fn node_in(i: usize, dc: &str) -> Value {
    json!({
        "ID": node_id(i), "Name": format!("node-{i}"), "Datacenter": dc,
        "Status": "ready", "SchedulingEligibility": "eligible",
        "NodeClass": "linux-medium-pci", "ComputedClass": "v1:mock",
        "Attributes": {"kernel.name": "linux", "nomad.version": "1.3.0", "driver.exec": "1"},
        "Drivers": {"exec": {"Detected": true, "Healthy": true}},
        "NodeResources": {
            "Cpu": {"CpuShares": 4000}, "Memory": {"MemoryMB": 8192},
            "Disk": {"DiskMB": 100 * 1024},
            "Networks": [{"Mode": "host", "Device": "eth0", "CIDR": "192.168.0.100/32",
                          "IP": "192.168.0.100", "MBits": 1000}]
        },
        "ReservedResources": {"Cpu": {"CpuShares": 100}, "Memory": {"MemoryMB": 256},
                              "Disk": {"DiskMB": 4 * 1024}}
    })
}

fn node(i: usize) -> Value {
    node_in(i, "dc1")
}

/// A node running the CSI node plugin `plugin` healthy, with room for
/// `max` volumes.
fn csi_node(i: usize, plugin: &str, max: i64) -> Value {
    let mut n = node(i);
    n["CSINodePlugins"] = json!({plugin: {"PluginID": plugin, "Healthy": true,
                                          "NodeInfo": {"MaxVolumes": max}}});
    n
}

/// `mock.Job()` at 1.3.0, without its network: group "web" of `count`,
/// one exec task of 500 MHz and 256 MB, 150 MB of disk.
fn job(count: i64, volumes: Value) -> Value {
    json!({
        "ID": "mock-service", "Name": "mock-service", "Namespace": "default",
        "Type": "service", "Priority": 50, "Version": 0, "Datacenters": ["dc1"],
        "JobModifyIndex": 1,
        "TaskGroups": [{
            "Name": "web", "Count": count, "EphemeralDisk": {"SizeMB": 150},
            "Volumes": volumes,
            "Tasks": [{"Name": "web", "Driver": "exec",
                       "Resources": {"CPU": 500, "MemoryMB": 256}}]
        }]
    })
}

/// A running allocation `web[index]` of `job` on node `on`.
fn alloc(job: &Value, index: usize, on: usize) -> Value {
    json!({
        "ID": format!("a{index}-{}", job["ID"].as_str().unwrap()),
        "Namespace": "default", "JobID": job["ID"], "TaskGroup": "web",
        "Name": format!("{}.web[{index}]", job["ID"].as_str().unwrap()),
        "NodeID": node_id(on), "Job": job, "ClientStatus": "running", "DesiredStatus": "run",
        "AllocatedResources": {"Tasks": {"web": {"Cpu": {"CpuShares": 500},
                                                  "Memory": {"MemoryMB": 256}}},
                               "Shared": {"DiskMB": 150}}
    })
}

fn volume(id: &str, plugin: &str, mode: &str) -> Value {
    json!({"ID": id, "Namespace": "default", "PluginID": plugin, "AccessMode": mode,
           "AttachmentMode": "file-system", "ReadAllocs": {}, "WriteAllocs": {}})
}

fn run(snapshot: Value, release: Release) -> Report {
    let mut snapshot = snapshot;
    snapshot["Now"] = json!("2022-04-01T00:00:00Z");
    let text = snapshot.to_string();
    let snapshot = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    };
    Replay::new(&snapshot, &options).unwrap().report()
}

fn replay(snapshot: Value, release: Release) -> JobReport {
    run(snapshot, release).jobs.remove(0)
}

fn placed(r: &JobReport) -> Vec<(String, String)> {
    r.plan
        .place
        .iter()
        .filter_map(|p| Some((p.name.clone(), p.node_id.as_deref()?.to_string())))
        .collect()
}

/// The volumes of TestServiceSched_CSIVolumesPerAlloc: a shared
/// read-only volume and `volume-unique[N]` for the first `n` indexes.
fn per_alloc_volumes(n: usize) -> Vec<Value> {
    let mut out = vec![volume(
        "volume-shared",
        "test-plugin",
        "multi-node-reader-only",
    )];
    for i in 0..n {
        out.push(volume(
            &format!("volume-unique[{i}]"),
            "test-plugin",
            "single-node-writer",
        ));
    }
    out
}

fn per_alloc_job(count: i64) -> Value {
    job(
        count,
        json!({
            "shared": {"Type": "csi", "Name": "shared", "Source": "volume-shared",
                       "ReadOnly": true},
            "unique": {"Type": "csi", "Name": "unique", "Source": "volume-unique",
                       "PerAlloc": true}
        }),
    )
}

fn per_alloc_snapshot(count: i64, volumes: usize, running: usize) -> Value {
    let j = per_alloc_job(count);
    let allocs: Vec<Value> = (0..running).map(|i| alloc(&j, i, i)).collect();
    json!({
        "Jobs": [j], "Allocs": allocs,
        "Nodes": (0..5).map(|i| csi_node(i, "test-plugin", 2)).collect::<Vec<_>>(),
        "CSIVolumes": per_alloc_volumes(volumes),
        "CSIPlugins": [{"ID": "test-plugin", "NodesHealthy": 5}]
    })
}

/// TestServiceSched_CSIVolumesPerAlloc (generic_sched_test.go, v1.3.2,
/// where #13274 set its filter count to 5): three allocations with
/// `per_alloc` volumes go to three nodes; scaled to five with only three
/// volumes, `web[3]` finds no `volume-unique[3]` on any node, both
/// placements fail (queued 2, a blocked evaluation); with the two volumes
/// added both are placed on the two free nodes.
#[test]
fn generic_sched_test_go_v1_3_2_csi_volumes_per_alloc() {
    let r = replay(per_alloc_snapshot(3, 3, 0), v(1, 3, 2));
    let nodes: BTreeSet<String> = placed(&r).into_iter().map(|(_, n)| n).collect();
    assert_eq!(nodes.len(), 3, "{:?}", r.plan.failed_placements);
    assert!(r.plan.blocked_eval.is_none());

    let r = replay(per_alloc_snapshot(5, 3, 3), v(1, 3, 2));
    assert!(placed(&r).is_empty());
    let failed = &r.plan.failed_placements[0];
    assert_eq!(failed.count, 2);
    assert_eq!(r.plan.queued_allocations["web"], 2);
    assert!(r.plan.blocked_eval.is_some());
    assert_eq!(
        failed.metrics.constraint_filtered["missing CSI Volume volume-unique[3]"],
        5
    );

    let r = replay(per_alloc_snapshot(5, 5, 3), v(1, 3, 2));
    let got: BTreeSet<(String, String)> = placed(&r).into_iter().collect();
    let want: BTreeSet<(String, String)> = [
        ("mock-service.web[3]".to_string(), node_id(3)),
        ("mock-service.web[4]".to_string(), node_id(4)),
    ]
    .into();
    assert_eq!(got, want);
    assert!(r.plan.failed_placements.is_empty());
}

/// The same scale-up at 1.3.1, before #13274 (v1.3.1
/// scheduler/feasible.go:1138): the second node, of a class already found
/// eligible, ends the search, so two nodes are filtered, not five (the
/// test harness, retrying with preemption, counts one).
#[test]
fn csi_unavailable_on_an_eligible_class_ends_the_search_before_1_3_2() {
    let r = replay(per_alloc_snapshot(5, 3, 3), v(1, 3, 1));
    let failed = &r.plan.failed_placements[0];
    assert_eq!(failed.metrics.nodes_evaluated, 2);
    assert_eq!(
        failed.metrics.constraint_filtered["missing CSI Volume volume-unique[3]"],
        2
    );
}

/// At 2.0.5 (#28312) the reason lists the missing volumes in Nomad's new
/// words, and a group with CSI volumes escapes its computed class, so the
/// blocked evaluation carries no class eligibility; at 2.0.4 it names the
/// mock class eligible.
#[test]
fn missing_csi_volumes_are_listed_and_escape_the_class_from_2_0_5() {
    let r = replay(per_alloc_snapshot(5, 3, 3), v(2, 0, 5));
    let failed = &r.plan.failed_placements[0];
    assert_eq!(
        failed.metrics.constraint_filtered["missing CSI volume(s) volume-unique[3]"],
        5
    );
    let blocked = r.plan.blocked_eval.as_ref().unwrap();
    assert!(blocked.escaped_computed_class);
    assert!(blocked.class_eligibility.is_empty());
    let r = replay(per_alloc_snapshot(5, 3, 3), v(2, 0, 4));
    let failed = &r.plan.failed_placements[0];
    assert_eq!(
        failed.metrics.constraint_filtered["missing CSI Volume volume-unique[3]"],
        5
    );
    let blocked = r.plan.blocked_eval.as_ref().unwrap();
    assert!(!blocked.escaped_computed_class);
    assert_eq!(blocked.class_eligibility.get("v1:mock"), Some(&true));
}

/// TestServiceSched_CSITopology (generic_sched_test.go, v1.3.2, added by
/// #13274): twelve nodes in four zones, each zone's plugin on its nodes;
/// `myvolume[0]` and `myvolume[1]` of the zone-0 and zone-1 plugins. Both
/// allocations are placed, each in its volume's zone, no blocked
/// evaluation. At 1.3.1 `web[1]` fails: the first node, of zone 0, is of a
/// class already eligible and lacks the plugin, which ended the search.
#[test]
fn generic_sched_test_go_v1_3_2_csi_topology() {
    let zones = ["zone-0", "zone-1", "zone-2", "zone-3"];
    let nodes: Vec<Value> = (0..12)
        .map(|i| {
            let zone = zones[i % 4];
            let mut n = csi_node(i, &format!("test-plugin-{zone}"), 3);
            n["Datacenter"] = json!(zone);
            n["ComputedClass"] = json!(format!("v1:{zone}"));
            n["CSINodePlugins"][format!("test-plugin-{zone}")]["NodeInfo"]["AccessibleTopology"] =
                json!({"Segments": {"zone": zone}});
            n
        })
        .collect();
    let mut vols = Vec::new();
    for (i, zone) in zones[..2].iter().enumerate() {
        let mut vol = volume(
            &format!("myvolume[{i}]"),
            &format!("test-plugin-{zone}"),
            "single-node-writer",
        );
        vol["RequestedTopologies"] = json!({"Required": [{"Segments": {"zone": zone}}]});
        vols.push(vol);
    }
    let mut j = job(
        2,
        json!({"myvolume": {"Type": "csi", "Name": "unique", "Source": "myvolume",
                            "PerAlloc": true}}),
    );
    j["Datacenters"] = json!(zones);
    let plugins: Vec<Value> = zones
        .iter()
        .map(|z| json!({"ID": format!("test-plugin-{z}"), "NodesHealthy": 3}))
        .collect();
    let snapshot = json!({"Jobs": [j], "Nodes": nodes, "Allocs": [],
                          "CSIVolumes": vols, "CSIPlugins": plugins});
    let r = replay(snapshot.clone(), v(1, 3, 2));
    assert!(r.plan.failed_placements.is_empty());
    assert!(r.plan.blocked_eval.is_none());
    for (name, node) in placed(&r) {
        let index: usize = node[..8].parse().unwrap();
        let want: usize = name[name.len() - 2..name.len() - 1].parse().unwrap();
        assert_eq!(index % 4, want, "{name} on {node}");
    }
    let r = replay(snapshot, v(1, 3, 1));
    assert_eq!(placed(&r).len(), 1);
    assert_eq!(r.plan.failed_placements[0].count, 1);
}

/// Claims: a single-writer volume another job writes to filters every
/// node with Nomad's words; the job's own claim does not block it. The
/// plan's own earlier placements add no claims (the checker reads the
/// state only), so two allocations of the job may both take it.
#[test]
fn write_claims_of_other_jobs_exhaust_a_single_writer_volume() {
    let mut vol = volume("data", "test-plugin", "single-node-writer");
    vol["WriteAllocs"] = json!({"other-alloc": null});
    let other = job(1, json!({}));
    let mut other = other;
    other["ID"] = json!("other");
    let mut other_alloc = alloc(&other, 0, 4);
    other_alloc["ID"] = json!("other-alloc");
    let snapshot = |holder: Value| {
        json!({
            "Jobs": [job(2, json!({"data": {"Type": "csi", "Source": "data"}})), other],
            "Allocs": [holder],
            "Nodes": (0..3).map(|i| csi_node(i, "test-plugin", 5)).collect::<Vec<_>>(),
            "CSIVolumes": [vol.clone()],
            "CSIPlugins": [{"ID": "test-plugin", "NodesHealthy": 3}]
        })
    };
    let report = run(snapshot(other_alloc.clone()), v(1, 3, 2));
    let r = report.jobs.iter().find(|j| j.id == "mock-service").unwrap();
    let failed = &r.plan.failed_placements[0];
    assert_eq!(failed.count, 2);
    assert_eq!(
        failed.metrics.constraint_filtered["CSI volume data has exhausted its available writer claims"],
        3
    );
    // The claim held by the job's own allocation.
    let mut own = other_alloc;
    own["JobID"] = json!("mock-service");
    let report = run(snapshot(own), v(1, 3, 2));
    let r = report.jobs.iter().find(|j| j.id == "mock-service").unwrap();
    assert!(r.plan.failed_placements.is_empty());
    assert_eq!(placed(r).len(), 2);
}

/// Without a `CSIVolumes` table the requests are not checked, and one
/// warning per job says so.
#[test]
fn without_a_csi_volumes_table_csi_requests_are_warned_not_checked() {
    let j = per_alloc_job(2);
    let snapshot = json!({"Jobs": [j], "Allocs": [], "Nodes": [node(0), node(1)]});
    let report = run(snapshot, v(1, 3, 0));
    assert_eq!(placed(&report.jobs[0]).len(), 2);
    let w: Vec<_> = report
        .warnings
        .iter()
        .filter(|w| w.code == "csi_unchecked")
        .collect();
    assert_eq!(w.len(), 1);
    assert!(
        w[0].message.contains("no CSIVolumes table"),
        "{}",
        w[0].message
    );
}

/// A system job checks CSI volumes per node too: a node without the
/// plugin is filtered with Nomad's words, the others take it.
#[test]
fn a_system_job_checks_csi_volumes_on_each_node() {
    let mut j = job(
        1,
        json!({"data": {"Type": "csi", "Source": "data", "ReadOnly": true}}),
    );
    j["Type"] = json!("system");
    let snapshot = json!({
        "Jobs": [j], "Allocs": [],
        "Nodes": [csi_node(0, "test-plugin", 5), node(1)],
        "CSIVolumes": [volume("data", "test-plugin", "multi-node-reader-only")],
        "CSIPlugins": [{"ID": "test-plugin", "NodesHealthy": 1}]
    });
    let r = replay(snapshot, v(1, 3, 0));
    let on: Vec<String> = placed(&r).into_iter().map(|(_, n)| n).collect();
    assert_eq!(on, [node_id(0)]);
    let failed = &r.plan.failed_placements[0];
    let reason = format!(
        "CSI plugin test-plugin is missing from client {}",
        node_id(1)
    );
    assert_eq!(failed.metrics.constraint_filtered[&reason], 1);
}

fn host_job(count: i64, per_alloc: bool) -> Value {
    job(
        count,
        json!({"data": {"Type": "host", "Source": "data", "PerAlloc": per_alloc}}),
    )
}

/// #18679 (1.6.3, 1.7.0; v1.7.0 scheduler/stack.go:265): of two nodes of
/// one computed class only the second has the host volume. From 1.6.3 each
/// node is checked and the allocation lands there; at 1.6.2 the first
/// node's failure marks the class ineligible and the second is skipped.
#[test]
fn host_volumes_are_checked_per_node_from_1_6_3() {
    let mut with = node(1);
    with["HostVolumes"] = json!({"data": {"Name": "data", "Path": "/srv"}});
    let snapshot = json!({"Jobs": [host_job(1, false)], "Allocs": [],
                          "Nodes": [node(0), with]});
    let r = replay(snapshot.clone(), v(1, 6, 3));
    assert_eq!(placed(&r)[0].1, node_id(1));
    let r = replay(snapshot, v(1, 6, 2));
    assert!(placed(&r).is_empty());
    let m = &r.plan.failed_placements[0].metrics;
    assert_eq!(m.constraint_filtered["missing compatible host volumes"], 1);
    assert_eq!(m.constraint_filtered["computed class ineligible"], 1);
}

/// #15780 (1.5.0; v1.5.0 feasible.go:164): `per_alloc` host volumes name
/// `data[N]`, so from 1.5.10 (with #18679) each allocation goes to the
/// node with its index. From 1.5.0 to 1.5.9 the check is still cached per
/// computed class, the flaw #18679 describes: `web[1]` takes the class
/// `web[0]` found eligible, on the node that lacks `data[1]`, and skips
/// the class found ineligible. Before 1.5.0 `data` itself is looked for
/// and both fail.
#[test]
fn per_alloc_host_volumes_from_1_5_0() {
    let mut n0 = node(0);
    n0["HostVolumes"] = json!({"data[1]": {"Name": "data[1]"}});
    n0["ComputedClass"] = json!("v1:a");
    let mut n1 = node(1);
    n1["HostVolumes"] = json!({"data[0]": {"Name": "data[0]"}});
    n1["ComputedClass"] = json!("v1:b");
    let snapshot = json!({"Jobs": [host_job(2, true)], "Allocs": [], "Nodes": [n0, n1]});
    let on = |release| -> BTreeSet<(String, String)> {
        placed(&replay(snapshot.clone(), release))
            .into_iter()
            .collect()
    };
    let pair = |i: usize, n: usize| (format!("mock-service.web[{i}]"), node_id(n));
    assert_eq!(on(v(1, 5, 10)), [pair(0, 1), pair(1, 0)].into());
    assert_eq!(on(v(1, 5, 0)), [pair(0, 1), pair(1, 1)].into());
    let r = replay(snapshot, v(1, 4, 0));
    assert!(placed(&r).is_empty());
    assert_eq!(r.plan.failed_placements[0].count, 2);
}

/// A job whose group keeps its ephemeral disk (`sticky`, `migrate`).
fn disk_job(version: u64, disk: Value) -> Value {
    let mut j = job(1, json!({}));
    j["TaskGroups"][0]["EphemeralDisk"] = disk;
    j["Version"] = json!(version);
    j["JobModifyIndex"] = json!(version + 1);
    if version > 0 {
        j["TaskGroups"][0]["Tasks"][0]["Resources"]["CPU"] = json!(510);
    }
    j
}

/// Node 0 runs the job's allocation; node 1 runs another job's large one,
/// so bin packing prefers node 1 for anything new.
fn sticky_snapshot(old: &Value, new: &Value, dc1: &str) -> Value {
    let mut big = job(1, json!({}));
    big["ID"] = json!("big");
    let mut big_alloc = alloc(&big, 0, 1);
    big_alloc["AllocatedResources"]["Tasks"]["web"] =
        json!({"Cpu": {"CpuShares": 3000}, "Memory": {"MemoryMB": 6000}});
    json!({"Jobs": [new, big], "Allocs": [alloc(old, 0, 0), big_alloc],
           "Nodes": [node(0), node_in(1, dc1)]})
}

fn replacement_node(report: &Report) -> Option<String> {
    let r = report.jobs.iter().find(|j| j.id == "mock-service").unwrap();
    let [d] = r.plan.destructive_update.as_slice() else {
        panic!("{:?}", r.plan.destructive_update);
    };
    d.node_id.as_deref().map(str::to_string)
}

/// TestServiceSched_JobRegister_StickyAllocs (generic_sched_test.go,
/// v1.3.0): ten allocations of a sticky group on ten nodes, then an
/// update that replaces them all: each replacement goes to its previous
/// allocation's node (`findPreferredNode`, v1.3.0 generic_sched.go:783).
/// Job anti-affinity alone sends each there too; the next test is the one
/// only the preferred node passes.
#[test]
fn generic_sched_test_go_v1_3_0_job_register_sticky_allocs() {
    let mut old = disk_job(0, json!({"SizeMB": 150, "Sticky": true}));
    let mut new = disk_job(1, json!({"SizeMB": 150, "Sticky": true}));
    old["TaskGroups"][0]["Count"] = json!(10);
    new["TaskGroups"][0]["Count"] = json!(10);
    let allocs: Vec<Value> = (0..10).map(|i| alloc(&old, i, i)).collect();
    let snapshot = json!({"Jobs": [new], "Allocs": allocs,
                          "Nodes": (0..10).map(node).collect::<Vec<_>>()});
    let r = replay(snapshot, v(1, 3, 0));
    assert_eq!(r.plan.destructive_update.len(), 10);
    for d in &r.plan.destructive_update {
        let index: usize = d.name[d.name.len() - 2..d.name.len() - 1].parse().unwrap();
        assert_eq!(
            d.node_id.as_deref(),
            Some(node_id(index).as_str()),
            "{}",
            d.name
        );
    }
}

/// The preferred node is tried alone first and wins even where bin
/// packing would choose another: with `sticky` the replacement stays on
/// node 0; without, it goes to the fuller node 1.
#[test]
fn a_sticky_disk_keeps_its_node_where_bin_packing_would_move_it() {
    for (disk, want) in [
        (json!({"SizeMB": 150, "Sticky": true}), 0),
        (json!({"SizeMB": 150}), 1),
    ] {
        let old = disk_job(0, disk.clone());
        let new = disk_job(1, disk);
        let report = run(sticky_snapshot(&old, &new, "dc1"), v(1, 3, 0));
        assert_eq!(replacement_node(&report), Some(node_id(want)));
    }
}

/// #16826 (1.5.4, 1.6.0; v1.5.4 generic_sched.go:796): `migrate` implies
/// `sticky`; at 1.5.3 a migrating disk has no preferred node.
#[test]
fn a_migrating_disk_prefers_its_node_from_1_5_4() {
    let old = disk_job(0, json!({"SizeMB": 150, "Migrate": true}));
    let new = disk_job(1, json!({"SizeMB": 150, "Migrate": true}));
    let snapshot = sticky_snapshot(&old, &new, "dc1");
    let at = |release| replacement_node(&run(snapshot.clone(), release));
    assert_eq!(at(v(1, 5, 4)), Some(node_id(0)));
    assert_eq!(at(v(1, 6, 0)), Some(node_id(0)));
    assert_eq!(at(v(1, 5, 3)), Some(node_id(1)));
}

/// #26662 (1.11.0; v1.11.0 generic_sched.go:868, :871): with the job's
/// datacenters changed, no node is preferred. Before, the previous node is
/// tried even when it is no longer in the job's datacenters: at 1.10.5
/// the replacement stays on node 0 in dc1 although the job now runs only
/// in dc2.
#[test]
fn a_sticky_disk_prefers_its_node_only_with_unchanged_targets_from_1_11_0() {
    let disk = json!({"SizeMB": 150, "Sticky": true});
    let old = disk_job(0, disk.clone());
    let mut widened = disk_job(1, disk.clone());
    widened["Datacenters"] = json!(["dc1", "dc2"]);
    let snapshot = sticky_snapshot(&old, &widened, "dc2");
    let at = |release| replacement_node(&run(snapshot.clone(), release));
    assert_eq!(at(v(1, 10, 5)), Some(node_id(0)));
    assert_eq!(at(v(1, 11, 0)), Some(node_id(1)));

    let mut moved = disk_job(1, disk);
    moved["Datacenters"] = json!(["dc2"]);
    let snapshot = sticky_snapshot(&old, &moved, "dc2");
    let at = |release| replacement_node(&run(snapshot.clone(), release));
    assert_eq!(at(v(1, 10, 5)), Some(node_id(0)));
    assert_eq!(at(v(1, 11, 0)), Some(node_id(1)));
}

/// A dynamic host volume (1.10.0 on: a node volume with an `ID`) is
/// checked as a static one, and one warning per job says so.
#[test]
fn a_dynamic_host_volume_is_checked_as_static_and_warned() {
    let mut n = node(0);
    n["HostVolumes"] = json!({"data": {"Name": "data", "ID": "dhv-1", "ReadOnly": false}});
    let snapshot = json!({"Jobs": [host_job(1, false)], "Allocs": [], "Nodes": [n, node(1)]});
    let report = run(snapshot, v(1, 10, 5));
    assert_eq!(placed(&report.jobs[0])[0].1, node_id(0));
    let w: Vec<_> = report
        .warnings
        .iter()
        .filter(|w| w.code == "dynamic_host_volume_unchecked")
        .collect();
    assert_eq!(w.len(), 1);
    assert!(
        w[0].message.starts_with("default/mock-service: 1 node(s)"),
        "{}",
        w[0].message
    );
}

/// TestSystemSched_CSITopology (scheduler_system_test.go, added at 1.5.0;
/// here at 1.5.0 and 2.0.5): twelve nodes in four zones, each running its
/// zone's plugin; a multi-writer volume of a non-default namespace needs
/// zone 0. The system job runs on the three zone-0 nodes only, and no
/// blocked evaluation is created (what Nomad asserts).
#[test]
fn scheduler_system_test_go_v1_5_0_v2_0_5_csi_topology() {
    let ns = "non-default-namespace";
    let zones = ["zone-0", "zone-1", "zone-2", "zone-3"];
    let nodes: Vec<Value> = (0..12)
        .map(|i| {
            let zone = zones[i % 4];
            let mut n = csi_node(i, &format!("test-plugin-{zone}"), 3);
            n["Datacenter"] = json!(zone);
            n["ComputedClass"] = json!(format!("v1:{zone}"));
            n["CSINodePlugins"][format!("test-plugin-{zone}")]["NodeInfo"]["AccessibleTopology"] =
                json!({"Segments": {"zone": zone}});
            n
        })
        .collect();
    let mut vol = volume("myvolume", "test-plugin-zone-0", "multi-node-multi-writer");
    vol["Namespace"] = json!(ns);
    vol["RequestedTopologies"] = json!({"Required": [{"Segments": {"zone": "zone-0"}}]});
    let mut j = job(
        1,
        json!({"myvolume": {"Type": "csi", "Name": "unique", "Source": "myvolume"}}),
    );
    j["Type"] = json!("system");
    j["Namespace"] = json!(ns);
    j["Datacenters"] = json!(zones);
    let plugins: Vec<Value> = zones
        .iter()
        .map(|z| json!({"ID": format!("test-plugin-{z}"), "NodesHealthy": 3}))
        .collect();
    let snapshot = json!({"Jobs": [j], "Nodes": nodes, "Allocs": [],
                          "CSIVolumes": [vol], "CSIPlugins": plugins});
    for release in [v(1, 5, 0), v(2, 0, 5)] {
        let r = replay(snapshot.clone(), release);
        let on: BTreeSet<String> = placed(&r).into_iter().map(|(_, n)| n).collect();
        assert_eq!(on, [0, 4, 8].map(node_id).into(), "{release}");
        assert!(r.plan.blocked_eval.is_none(), "{release}");
        assert!(r.plan.more_blocked_evals.is_empty(), "{release}");
    }
}

/// TestServiceSched_JobRegister_StickyStaticHostVolume (added at 2.0.4;
/// here at 2.0.5): a `sticky` request for a static host volume, which
/// only dynamic volumes honour, finds no node: the one node is filtered
/// by the host volume check, the placement fails and a blocked evaluation
/// is created. (Before #28202, at 2.0.3, the checker passed it:
/// src/feasibility host volume tests.)
#[test]
fn generic_sched_test_go_v2_0_5_job_register_sticky_static_host_volume() {
    let mut n = node(0);
    n["HostVolumes"] = json!({"foo": {"Name": "foo", "Path": "/srv/foo"}});
    let j = job(
        1,
        json!({"foo": {"Type": "host", "Source": "foo", "Sticky": true}}),
    );
    let snapshot = json!({"Jobs": [j], "Nodes": [n], "Allocs": []});
    let r = replay(snapshot, v(2, 0, 5));
    assert!(placed(&r).is_empty());
    let [failed] = r.plan.failed_placements.as_slice() else {
        panic!("{:?}", r.plan.failed_placements);
    };
    assert_eq!(failed.count, 1);
    assert_eq!(
        failed.metrics.constraint_filtered["missing compatible host volumes"], 1,
        "{:?}",
        failed.metrics.constraint_filtered
    );
    assert!(r.plan.blocked_eval.is_some());
}
