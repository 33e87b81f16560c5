//! Resource fit, failed placements and preemption of system jobs (and, in
//! `generic_preemption`, preemption by service and batch jobs): the
//! placement and preemption cases of scheduler/scheduler_system_test.go,
//! ported under the tag they come from and replayed at that release (and
//! at 1.10.5, the last release before 1.11.0's node reconciler, whose
//! cases are in tests/system_deployment.rs), on snapshots built from Nomad's mocks
//! (nomad/mock/mock.go `Node`, `SystemJob`, `Job` at v1.3.0).

use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use serde_json::{Value, json};

use crate::common::piped;

const NOW: &str = "2024-01-01T00:00:00Z";

/// `mock.Node()`: 4000 MHz, 8192 MB, 100 GB, eth0 at 1000 Mbit/s, with
/// 100 MHz, 256 MB, 4 GB and port 22 reserved.
fn node(id: &str) -> Value {
    json!({
        "ID": id, "Name": id, "Datacenter": "dc1", "Status": "ready",
        "SchedulingEligibility": "eligible", "NodeClass": "linux-medium-pci",
        "ComputedClass": "v1:mock", "NodePool": "default",
        "Attributes": {"kernel.name": "linux", "arch": "x86", "driver.exec": "1",
                       "unique.hostname": id},
        "Drivers": {"exec": {"Detected": true, "Healthy": true}},
        "NodeResources": {
            "Cpu": {"CpuShares": 4000}, "Memory": {"MemoryMB": 8192},
            "Disk": {"DiskMB": 102400},
            "Networks": [{"Mode": "host", "Device": "eth0", "CIDR": "192.168.0.100/32",
                          "MBits": 1000}],
            "NodeNetworks": [{"Mode": "host", "Device": "eth0",
                "Addresses": [{"Alias": "default", "Address": "192.168.0.100",
                               "Family": "ipv4"}]}]},
        "ReservedResources": {"Cpu": {"CpuShares": 100}, "Memory": {"MemoryMB": 256},
            "Disk": {"DiskMB": 4096}, "Networks": {"ReservedHostPorts": "22"}}
    })
}

/// `mock.SystemJob()`: priority 100, one group "web" whose task asks
/// 500 MHz, 256 MB and 50 Mbit/s with a dynamic port; the default 300 MB
/// disk.
fn system_job(id: &str) -> Value {
    json!({
        "ID": id, "Name": "my-job", "Namespace": "default", "Type": "system",
        "Priority": 100, "Datacenters": ["dc1"], "Status": "pending",
        "Constraints": [{"LTarget": "${attr.kernel.name}", "RTarget": "linux", "Operand": "="}],
        "TaskGroups": [{"Name": "web", "Count": 1, "EphemeralDisk": {"SizeMB": 300},
            "Tasks": [{"Name": "web", "Driver": "exec", "Config": {"command": "/bin/date"},
                "Resources": {"CPU": 500, "MemoryMB": 256,
                    "Networks": [{"MBits": 50, "DynamicPorts": [{"Label": "http"}]}]}}]}],
        "Version": 0, "CreateIndex": 42, "ModifyIndex": 99, "JobModifyIndex": 99
    })
}

/// An allocation of `job` (embedded) on `node` holding `resources`.
fn alloc(id: &str, job: &Value, node: &str, name: &str, resources: Value) -> Value {
    json!({
        "ID": id, "Namespace": "default", "Name": name, "NodeID": node,
        "JobID": job["ID"], "Job": job, "TaskGroup": job["TaskGroups"][0]["Name"],
        "DesiredStatus": "run", "ClientStatus": "running",
        "DesiredTransition": {}, "AllocatedResources": resources,
        "CreateIndex": 100, "ModifyIndex": 100
    })
}

/// The plan of `job` replayed at `version` on the snapshot.
fn replay(doc: &Value, job: &str, version: &str) -> Value {
    job_of(&report(doc, version), job)["plan"].clone()
}

/// The whole report replayed at `version` on the snapshot.
fn report(doc: &Value, version: &str) -> Value {
    let out = plan_inspect(doc, &["--format", "json", "--nomad-version", version]);
    serde_json::from_str(&out).unwrap()
}

/// What the binary prints with `args` for the snapshot on its stdin, at
/// `NOW` and 200 columns; it must succeed.
fn plan_inspect(doc: &Value, args: &[&str]) -> String {
    let mut command = Command::cargo_bin("plan-inspect").unwrap();
    command
        .args(["-", "--now", NOW])
        .args(args)
        .env("COLUMNS", "200");
    let (code, out, err) = piped(&mut command, &serde_json::to_vec(doc).unwrap());
    assert_eq!(code, 0, "{err}");
    out
}

/// The report of job `id`.
fn job_of<'r>(report: &'r Value, id: &str) -> &'r Value {
    report["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["id"] == id)
        .unwrap_or_else(|| panic!("no job {id}"))
}

fn snapshot(nodes: Vec<Value>, jobs: Vec<Value>, allocs: Vec<Value>) -> Value {
    json!({"Jobs": jobs, "Nodes": nodes, "Allocs": allocs, "Deployments": [], "Now": NOW})
}

fn count(plan: &Value, key: &str) -> usize {
    plan[key].as_array().map_or(0, Vec::len)
}

/// A node without a resources block (a dump cut down by hand; Nomad's
/// scheduler would dereference nil there) takes its placement unchecked,
/// and the one `resource_fit_unknown` warning, the placement stage's,
/// counts that placement only.
#[test]
fn a_system_placement_on_a_node_without_resources_is_counted_once() {
    let mut bare = node("node-2");
    let fields = bare.as_object_mut().unwrap();
    fields.remove("NodeResources");
    fields.remove("ReservedResources");
    let doc = snapshot(vec![node("node-1"), bare], vec![system_job("sys")], vec![]);
    for version in ["1.6.5", "1.10.5"] {
        let report = report(&doc, version);
        assert_eq!(count(&job_of(&report, "sys")["plan"], "place"), 2);
        let unknown: Vec<&Value> = report["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|w| w["code"] == "resource_fit_unknown")
            .collect();
        assert_eq!(unknown.len(), 1, "{report}");
        let message = unknown[0]["message"].as_str().unwrap();
        assert!(
            message.starts_with("default/sys: 1 placement(s)"),
            "{message}"
        );
    }
}

/// A node whose resources block reports no CPU or memory is checked as
/// Nomad's `AllocsFit` checks it (v1.3.0 nomad/structs/funcs.go:199-202,
/// v2.0.5 :194-197): exhausted in `cpu`, the first dimension compared,
/// with no warning.
#[test]
fn a_system_placement_on_a_node_at_zero_is_exhausted_in_cpu() {
    let mut zero = node("node-2");
    let resources = zero["NodeResources"].as_object_mut().unwrap();
    resources.remove("Cpu");
    resources.remove("Memory");
    let doc = snapshot(vec![node("node-1"), zero], vec![system_job("sys")], vec![]);
    for version in ["1.3.0", "1.10.5"] {
        let report = report(&doc, version);
        let plan = &job_of(&report, "sys")["plan"];
        assert_eq!(count(plan, "place"), 1, "{plan}");
        assert_eq!(count(plan, "failed_placements"), 1, "{plan}");
        let m = &plan["failed_placements"][0]["metrics"];
        assert_eq!(m["dimension_exhausted"], json!({"cpu": 1}), "{plan}");
        assert!(
            report["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .all(|w| w["code"] != "resource_fit_unknown"),
            "{report}"
        );
    }
}

/// TestSystemSched_NilDeploymentState (scheduler_system_test.go, added at
/// 2.0.0; here at 2.0.5 and 1.11.0, whose node reconciler reads system
/// deployments): a system job of two groups runs on both nodes; its
/// successful deployment has no state for "web" (a `null` in the dump)
/// and one for "api". Nomad asserts the evaluation completes without a
/// panic; here the snapshot is read and the replay changes nothing.
#[test]
fn scheduler_system_test_go_v2_0_5_nil_deployment_state() {
    let mut job = system_job("sys");
    let mut api = job["TaskGroups"][0].clone();
    api["Name"] = json!("api");
    api["Tasks"][0]["Name"] = json!("api");
    job["TaskGroups"].as_array_mut().unwrap().push(api);
    let mut allocs = Vec::new();
    for n in ["node-1", "node-2"] {
        for tg in ["web", "api"] {
            let resources = json!({"Tasks": {tg: {"Cpu": {"CpuShares": 500},
                "Memory": {"MemoryMB": 256}}}, "Shared": {"DiskMB": 300}});
            let mut a = alloc(
                &format!("{n}-{tg}"),
                &job,
                n,
                &format!("my-job.{tg}[0]"),
                resources,
            );
            a["TaskGroup"] = json!(tg);
            allocs.push(a);
        }
    }
    let mut doc = snapshot(vec![node("node-1"), node("node-2")], vec![job], allocs);
    doc["Deployments"] = json!([{
        "ID": "d1", "Namespace": "default", "JobID": "sys", "JobVersion": 0,
        "JobCreateIndex": 42, "JobModifyIndex": 99, "Status": "successful",
        "TaskGroups": {"web": null, "api": {"DesiredTotal": 2, "HealthyAllocs": 2}}
    }]);
    for version in ["1.11.0", "2.0.5"] {
        let plan = replay(&doc, "sys", version);
        for key in ["place", "stop", "destructive_update", "failed_placements"] {
            assert_eq!(count(&plan, key), 0, "{version} {key}: {plan}");
        }
    }
}

mod failures;
mod generic_preemption;
mod in_place;
mod preemption;
