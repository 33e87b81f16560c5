//! scheduler/stack_test.go at 1.3.0 and 2.0.5 (scheduler/feasible/ at
//! 2.0.5), the `Select` cases of the generic stack asserted on what
//! plan-inspect records: the chosen node, the explanation's filtered and
//! exhausted nodes, and the failure metrics. Not ported: `SetNodes` and
//! `SetJob` (they read the iterators' internals), `Select_MetricsReset`
//! (it counts the two nodes Nomad samples; plan-inspect ranks every node),
//! the `AllocationTime` half of `Select_Size` (a clock) and the system
//! stack's cases other than `Select_Secrets`, which tests/system_fit.rs
//! covers through the system scheduler.
//!
//! A `Select` call is replayed as the evaluation that makes it: a preferred
//! node is the previous node of a sticky disk's replacement, and an
//! allocation name is the placement's. Nomad's preferred node need not be
//! among the stack's nodes; plan-inspect's must be in the snapshot.

use plan_inspect::explain::{Step, explain};
use plan_inspect::read::read_snapshot_from;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::JobReport;
use plan_inspect::version::{Release, VersionRequest, v};
use serde_json::{Value, json};

use super::generic_sched::{job, node, placed_nodes, replay_at};

const BOTH: [Release; 2] = [v(1, 3, 0), v(2, 0, 5)];
/// The first tag of `SecretsProviderChecker` (#26303) and the newest.
const SECRETS: [Release; 2] = [v(1, 11, 0), v(2, 0, 5)];

fn id(i: usize) -> String {
    format!("{i:08}-0000-4000-8000-000000000000")
}

/// The step `title` of `--explain mock-service.web[0]` at `release`.
fn explained(nodes: Vec<Value>, job: Value, release: Release, title: &str) -> Step {
    let text = json!({
        "Now": "2022-04-01T00:00:00Z", "Jobs": [job], "Nodes": nodes, "Allocs": []
    })
    .to_string();
    let snapshot = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    };
    let e = explain(&snapshot, &options, "mock-service.web[0]").unwrap();
    e.steps
        .into_iter()
        .find(|s| s.title == title)
        .unwrap_or_else(|| panic!("no step {title}"))
}

fn fact<'s>(s: &'s Step, name: &str) -> &'s str {
    s.facts
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.value.as_str())
        .unwrap_or_else(|| panic!("no fact {name} in {s:?}"))
}

/// TestServiceStack_Select_Size: one node, and the job is placed there.
#[test]
fn stack_test_go_v1_3_0_v2_0_5_service_select_size() {
    for release in BOTH {
        let r = replay_at(vec![node(0)], job(1), release);
        assert_eq!(placed_nodes(&r), [id(0)], "{release}");
    }
}

/// TestServiceStack_Select_DriverFilter: only node 0 has the `foo`
/// driver the task asks for.
#[test]
fn stack_test_go_v1_3_0_v2_0_5_service_select_driver_filter() {
    let mut zero = node(0);
    zero["Attributes"]["driver.foo"] = json!("1");
    zero["Drivers"]["foo"] = json!({"Detected": true, "Healthy": true});
    zero["ComputedClass"] = json!("v1:foo");
    let mut j = job(1);
    j["TaskGroups"][0]["Tasks"][0]["Driver"] = json!("foo");
    for release in BOTH {
        let r = replay_at(vec![zero.clone(), node(1)], j.clone(), release);
        assert_eq!(placed_nodes(&r), [id(0)], "{release}");
    }
}

/// TestServiceStack_Select_ConstraintFilter: node 0 runs freebsd, which
/// the job asks for; node 1 is filtered by the constraint (one node
/// filtered, of class `linux-medium-pci`).
#[test]
fn stack_test_go_v1_3_0_v2_0_5_service_select_constraint_filter() {
    let mut zero = node(0);
    zero["Attributes"]["kernel.name"] = json!("freebsd");
    zero["ComputedClass"] = json!("v1:freebsd");
    let mut j = job(1);
    j["Constraints"][0]["RTarget"] = json!("freebsd");
    for release in BOTH {
        let r = replay_at(vec![zero.clone(), node(1)], j.clone(), release);
        assert_eq!(placed_nodes(&r), [id(0)], "{release}");
        let step = explained(
            vec![zero.clone(), node(1)],
            j.clone(),
            release,
            "Feasibility",
        );
        assert_eq!(step.conclusion, "1 of 2 evaluated nodes are filtered");
        assert_eq!(
            fact(&step, "${attr.kernel.name} = freebsd"),
            "1 node: node-1"
        );
    }
}

/// TestServiceStack_Select_BinPack_Overflow: node 1 has all its CPU
/// reserved; node 0 is chosen and node 1 is the one exhausted node, in
/// `cpu`.
#[test]
fn stack_test_go_v1_3_0_v2_0_5_service_select_bin_pack_overflow() {
    let mut one = node(1);
    one["ReservedResources"]["Cpu"]["CpuShares"] = json!(4000);
    for release in BOTH {
        let r = replay_at(vec![node(0), one.clone()], job(1), release);
        assert_eq!(placed_nodes(&r), [id(0)], "{release}");
        let step = explained(vec![node(0), one.clone()], job(1), release, "Resources");
        assert_eq!(step.conclusion, "1 of 2 feasible nodes have no room");
        assert!(fact(&step, "cpu").starts_with("1 node: node-1"), "{step:?}");
    }
}

/// TestServiceStack_Select_HostVolume (2.0.5; the `per_alloc` half needs
/// #15780, 1.5.0): the node with host volume `unique` takes the
/// allocation; with `per_alloc`, index 0 goes to the node with
/// `per_alloc[0]`, index 1 to the one with `per_alloc[1]`, and index 2
/// finds none, filtered on all three nodes as "missing compatible host
/// volumes".
#[test]
fn stack_test_go_v2_0_5_service_select_host_volume() {
    let vol = |name: &str| json!({"Name": name, "Path": format!("/tmp/{name}")});
    let mut n1 = node(1);
    n1["HostVolumes"] = json!({"unique": vol("unique"), "per_alloc[0]": vol("per_alloc[0]")});
    n1["ComputedClass"] = json!("v1:vol1");
    let mut n2 = node(2);
    n2["HostVolumes"] = json!({"per_alloc[1]": vol("per_alloc[1]")});
    n2["ComputedClass"] = json!("v1:vol2");
    let nodes = vec![node(0), n1, n2];
    let mut j = job(1);
    j["TaskGroups"][0]["Volumes"] =
        json!({"unique": {"Name": "unique", "Type": "host", "Source": "unique"}});
    let r = replay_at(nodes.clone(), j.clone(), v(2, 0, 5));
    assert_eq!(placed_nodes(&r), [id(1)]);
    let mut j = job(3);
    j["TaskGroups"][0]["Volumes"] = json!({"per_alloc": {"Name": "per_alloc", "Type": "host",
                                            "Source": "per_alloc", "PerAlloc": true}});
    let r = replay_at(nodes, j, v(2, 0, 5));
    let by_name: Vec<(&str, Option<&str>)> = r
        .plan
        .place
        .iter()
        .map(|p| (p.name.as_str(), p.node_id.as_deref()))
        .collect();
    assert_eq!(
        by_name,
        [
            ("mock-service.web[0]", Some(id(1).as_str())),
            ("mock-service.web[1]", Some(id(2).as_str())),
            ("mock-service.web[2]", None),
        ]
    );
    let m = &r.plan.failed_placements[0].metrics;
    assert_eq!(m.constraint_filtered.len(), 1);
    assert_eq!(m.constraint_filtered["missing compatible host volumes"], 3);
}

/// `job` with task `secret` blocks of `providers`.
fn with_secrets(mut j: Value, providers: &[&str]) -> Value {
    let secrets: Vec<Value> = providers
        .iter()
        .map(|p| json!({"Name": format!("s-{p}"), "Provider": p, "Path": "x"}))
        .collect();
    j["TaskGroups"][0]["Tasks"][0]["Secrets"] = json!(secrets);
    j
}

/// Node `i` with the secrets provider `foo` fingerprinted, in a computed
/// class of its own as `ComputeClass` makes it.
fn foo_node(i: usize) -> Value {
    let mut n = node(i);
    n["Attributes"]["plugins.secrets.foo.version"] = json!("0.0.1");
    n["ComputedClass"] = json!("v1:foo");
    n
}

/// TestServiceStack_Select_Secrets (#26303): only node 0 fingerprinted
/// the provider `foo` of the task's `secret` block, and the job lands
/// there; with the provider on node 1 instead the placement follows it
/// (without the checker the tie of node IDs picks node 0, as at 1.10.5).
/// With the provider on no node both are filtered, the second by the
/// class cache.
#[test]
fn stack_test_go_v1_11_0_v2_0_5_service_select_secrets() {
    let j = with_secrets(job(1), &["foo"]);
    for release in SECRETS {
        let r = replay_at(vec![foo_node(0), node(1)], j.clone(), release);
        assert_eq!(placed_nodes(&r), [id(0)], "{release}");
        let r = replay_at(vec![node(0), foo_node(1)], j.clone(), release);
        assert_eq!(placed_nodes(&r), [id(1)], "{release}");
        let r = replay_at(vec![node(0), node(1)], j.clone(), release);
        assert!(placed_nodes(&r).is_empty(), "{release}");
        let m = &r.plan.failed_placements[0].metrics;
        assert_eq!(m.nodes_filtered, 2);
        // The second node of the class is ruled out by the class cache.
        assert_eq!(m.constraint_filtered["missing secrets provider"], 1);
        assert_eq!(m.constraint_filtered["computed class ineligible"], 1);
        let step = explained(
            vec![node(0), foo_node(1)],
            j.clone(),
            release,
            "Feasibility",
        );
        assert_eq!(fact(&step, "missing secrets provider"), "1 node: node-0");
    }
    let r = replay_at(vec![node(0), foo_node(1)], j, v(1, 10, 5));
    assert_eq!(placed_nodes(&r), [id(0)]);
}

/// TestSystemStack_Select_Secrets (#26303): the system job runs on the
/// node with the provider only; once the attribute is gone from it too,
/// no node takes the group.
#[test]
fn stack_test_go_v1_11_0_v2_0_5_system_select_secrets() {
    let mut j = with_secrets(job(1), &["foo"]);
    j["Type"] = json!("system");
    for release in SECRETS {
        let r = replay_at(vec![foo_node(0), node(1)], j.clone(), release);
        assert_eq!(placed_nodes(&r), [id(0)], "{release}");
        let r = replay_at(vec![node(0), node(1)], j.clone(), release);
        assert!(placed_nodes(&r).is_empty(), "{release}");
    }
    let r = replay_at(vec![foo_node(0), node(1)], j, v(1, 10, 5));
    assert_eq!(placed_nodes(&r), [id(0), id(1)]);
}

/// The replay of a snapshot with allocations and volumes at `release`.
fn replay_snapshot(mut snapshot: Value, release: Release) -> JobReport {
    snapshot["Now"] = json!("2022-04-01T00:00:00Z");
    let text = snapshot.to_string();
    let snapshot = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    };
    let mut report = Replay::new(&snapshot, &options).unwrap().report();
    report.jobs.remove(0)
}

/// `mock.Job()` at `version` with the ephemeral disk `disk`; version 1
/// asks 10 MHz more, a destructive update.
fn disk_job(version: u64, disk: Value) -> Value {
    let mut j = job(1);
    j["TaskGroups"][0]["EphemeralDisk"] = disk;
    j["Version"] = json!(version);
    j["JobModifyIndex"] = json!(version + 1);
    j["TaskGroups"][0]["Tasks"][0]["Resources"]["CPU"] = json!(500 + 10 * version);
    j
}

/// The running allocation `web[0]` of `job` on node `on`.
fn alloc_on(job: &Value, on: usize) -> Value {
    json!({
        "ID": "a0", "Namespace": "default", "JobID": job["ID"], "TaskGroup": "web",
        "Name": "mock-service.web[0]", "NodeID": id(on), "Job": job,
        "ClientStatus": "running", "DesiredStatus": "run",
        "AllocatedResources": {"Tasks": {"web": {"Cpu": {"CpuShares": 500},
                                                  "Memory": {"MemoryMB": 256}}},
                               "Shared": {"DiskMB": 150}}
    })
}

/// The node of the one destructive update's replacement.
fn replacement(r: &JobReport) -> Option<String> {
    let [d] = r.plan.destructive_update.as_slice() else {
        panic!("{:?}", r.plan.destructive_update);
    };
    d.node_id.as_deref().map(str::to_string)
}

/// TestServiceStack_Select_PreferringNodes: the preferred node wins
/// (`SelectOptions.PreferredNodes` is the previous node of a sticky disk,
/// here node 1, which the tie of node IDs would not pick: without
/// `sticky` the replacement goes to node 0); once the preferred node runs
/// windows, which the job's constraint refuses, the other node takes it.
/// Nomad's side-effect check on the options has no counterpart.
#[test]
fn stack_test_go_v1_3_0_v2_0_5_service_select_preferring_nodes() {
    let sticky = json!({"SizeMB": 150, "Sticky": true});
    let plain = json!({"SizeMB": 150});
    let snapshot = |disk: &Value, one: Value| {
        let old = disk_job(0, disk.clone());
        json!({"Jobs": [disk_job(1, disk.clone())], "Allocs": [alloc_on(&old, 1)],
               "Nodes": [node(0), one]})
    };
    let mut windows = node(1);
    windows["Attributes"]["kernel.name"] = json!("windows");
    windows["ComputedClass"] = json!("v1:windows");
    for release in BOTH {
        let at =
            |disk: &Value, one: Value| replacement(&replay_snapshot(snapshot(disk, one), release));
        assert_eq!(at(&sticky, node(1)), Some(id(1)), "{release}");
        assert_eq!(at(&plain, node(1)), Some(id(0)), "{release}");
        assert_eq!(at(&sticky, windows.clone()), Some(id(0)), "{release}");
    }
}

/// TestServiceStack_Select_CSI: node 0 runs the controller and node
/// plugins of `bar` healthy; the group's `per_alloc` read-only request
/// `foo` names volume `foo[0]` for the allocation of index 0, which goes
/// to node 0 (node 1 has no plugin). Nomad selects for index 0 only; the
/// replay places the group's second allocation too, and it fails: no
/// volume `foo[1]` exists (in Nomad's words at each tag). At 1.3.0 the
/// first node's unavailable volume on an eligible class ends the search
/// (before #13274), so one node is evaluated; at 2.0.5 both are.
#[test]
fn stack_test_go_v1_3_0_v2_0_5_service_select_csi() {
    let mut zero = node(0);
    zero["CSIControllerPlugins"] = json!({"bar": {"PluginID": "bar", "Healthy": true,
        "ControllerInfo": {"SupportsReadOnlyAttach": true, "SupportsListVolumes": true}}});
    zero["CSINodePlugins"] = json!({"bar": {"PluginID": "bar", "Healthy": true,
        "NodeInfo": {"ID": id(0), "MaxVolumes": 2}}});
    zero["ComputedClass"] = json!("v1:csi");
    let mut j = job(2);
    j["TaskGroups"][0]["Volumes"] = json!({"foo": {"Name": "bar", "Type": "csi",
        "Source": "foo", "ReadOnly": true, "PerAlloc": true}});
    let snapshot = json!({
        "Jobs": [j], "Allocs": [], "Nodes": [zero, node(1)],
        "CSIVolumes": [{"ID": "foo[0]", "Namespace": "default", "PluginID": "bar",
                        "AccessMode": "multi-node-single-writer",
                        "AttachmentMode": "file-system", "ReadAllocs": {}, "WriteAllocs": {}}],
        "CSIPlugins": [{"ID": "bar", "ControllersHealthy": 1, "NodesHealthy": 1}]
    });
    for (release, missing, evaluated) in [
        (v(1, 3, 0), "missing CSI Volume foo[1]", 1),
        (v(2, 0, 5), "missing CSI volume(s) foo[1]", 2),
    ] {
        let r = replay_snapshot(snapshot.clone(), release);
        let placed: Vec<(&str, Option<&str>)> = r
            .plan
            .place
            .iter()
            .map(|p| (p.name.as_str(), p.node_id.as_deref()))
            .collect();
        assert_eq!(
            placed,
            [
                ("mock-service.web[0]", Some(id(0).as_str())),
                ("mock-service.web[1]", None)
            ],
            "{release}"
        );
        let m = &r.plan.failed_placements[0].metrics;
        assert_eq!(m.nodes_evaluated, evaluated, "{release}");
        assert_eq!(m.constraint_filtered.len(), 1, "{release}");
        assert_eq!(m.constraint_filtered[missing], evaluated, "{release}");
    }
}
