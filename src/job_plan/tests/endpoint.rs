//! nomad/job_endpoint_test.go `TestJobEndpoint_Plan_*` (v1.10.5, v2.0.5,
//! the same text at both): a job registered, then planned, on a cluster
//! without nodes. `Plan_ACL` does not apply: a snapshot has no ACLs.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::super::{admit, plan_job};
use crate::model::{Release, Snapshot, v};
use crate::replay::Options;
use crate::version::VersionRequest;

/// `mock.Job()` as API JSON (its actions and check arguments left out).
pub(super) fn mock_job() -> Map<String, Value> {
    let s = 1_000_000_000_i64;
    serde_json::from_value(json!({
        "Region": "global", "ID": "mock-service", "Name": "my-job", "Namespace": "default",
        "NodePool": "default", "Type": "service", "Priority": 50, "AllAtOnce": false,
        "Datacenters": ["dc1"],
        "Constraints": [{"LTarget": "${attr.kernel.name}", "RTarget": "linux", "Operand": "="}],
        "TaskGroups": [{
            "Name": "web", "Count": 10,
            "Constraints": [{"LTarget": "${attr.consul.version}", "RTarget": ">= 1.8.0", "Operand": "semver"}],
            "EphemeralDisk": {"SizeMB": 150},
            "RestartPolicy": {"Attempts": 3, "Interval": 600 * s, "Delay": 60 * s, "Mode": "delay"},
            "ReschedulePolicy": {"Attempts": 2, "Interval": 600 * s, "Delay": 5 * s, "DelayFunction": "constant",
                                 "MaxDelay": 0, "Unlimited": false},
            "Networks": [{"Mode": "host", "DynamicPorts": [{"Label": "http"}, {"Label": "admin"}]}],
            "Tasks": [{
                "Name": "web", "Driver": "exec", "Config": {"command": "/bin/date"},
                "Env": {"FOO": "bar"},
                "Constraints": [{"LTarget": "${attr.consul.version}", "RTarget": ">= 1.8.0", "Operand": "semver"}],
                "Services": [
                    {"Name": "${TASK}-frontend", "PortLabel": "http",
                     "Tags": ["pci:${meta.pci-dss}", "datacenter:${node.datacenter}"],
                     "Checks": [{"Name": "check-table", "Type": "script",
                                 "Command": "/usr/local/check-table-${meta.database}",
                                 "Interval": 30 * s, "Timeout": 5 * s}],
                     "Cluster": "default"},
                    {"Name": "${TASK}-admin", "PortLabel": "admin", "Cluster": "default"}],
                "Resources": {"CPU": 500, "MemoryMB": 256},
                "LogConfig": {"MaxFiles": 10, "MaxFileSizeMB": 10},
                "Meta": {"foo": "bar"}}],
            "Meta": {"elb_check_type": "http", "elb_check_interval": "30s", "elb_check_min": "3"}}],
        "Meta": {"owner": "armon"}
    }))
    .unwrap()
}

pub(super) fn options() -> Options {
    options_at(v(1, 10, 5))
}

pub(super) fn options_at(release: Release) -> Options {
    Options {
        now: Some("2025-06-01T00:00:00Z".parse().unwrap()),
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    }
}

/// A snapshot without nodes, holding `job` as `Job.Register` stored it at
/// index 1000.
fn registered(job: Map<String, Value>) -> Snapshot {
    registered_at(job, v(1, 10, 5))
}

fn registered_at(job: Map<String, Value>, release: Release) -> Snapshot {
    let mut stored = admit(job, release, None).unwrap();
    for k in ["CreateIndex", "ModifyIndex", "JobModifyIndex"] {
        stored.insert(k.into(), json!(1000));
    }
    stored.insert("Version".into(), json!(0));
    stored.insert("Status".into(), json!("pending"));
    let text = Value::Object(stored).to_string();
    Snapshot {
        jobs: vec![Arc::new(crate::model::from_slice(text.as_bytes()).unwrap())],
        planned_job_text: Some(text),
        ..Snapshot::default()
    }
}

/// What `Plan_WithDiff` and `Plan_NoDiff` check of an unchanged job planned
/// on a cluster without nodes: the index for `-check-index`, the
/// annotations, and the failed group's metrics (nothing evaluated, as no
/// node is ready). plan-inspect always returns the diff (Nomad leaves it
/// out when the request asks for none), so `Plan_NoDiff`'s "no diff" is
/// asserted as a diff without changes: leaving it out changes nothing else.
fn plan_unchanged(release: Release) {
    let snapshot = registered_at(mock_job(), release);
    let (report, plan) = plan_job(&snapshot, mock_job(), &options_at(release)).unwrap();
    assert_eq!(plan.job_modify_index, 1000, "bad cas");
    assert_eq!(plan.diff.kind, crate::job_plan::DiffType::None);
    let group = &plan.diff.task_groups[0];
    assert_eq!(group.updates.get("create"), Some(&10), "the annotations");
    let job = &report.jobs[0];
    assert_eq!(job.version, 0, "an unchanged spec is not registered again");
    let failed = &job.plan.failed_placements;
    assert_eq!(failed.len(), 1, "no failed task group alloc metrics");
    assert_eq!(
        (failed[0].task_group.as_str(), failed[0].count),
        ("web", 10)
    );
    let m = &failed[0].metrics;
    assert_eq!((m.nodes_evaluated, m.nodes_in_pool), (0, 0));
    assert!(m.nodes_available.is_empty(), "{:?}", m.nodes_available);
}

#[test]
fn job_endpoint_test_go_v1_10_5_plan_with_diff() {
    plan_unchanged(v(1, 10, 5));
}

#[test]
fn job_endpoint_test_go_v2_0_5_plan_with_diff() {
    plan_unchanged(v(2, 0, 5));
}

#[test]
fn job_endpoint_test_go_v1_10_5_plan_no_diff() {
    plan_unchanged(v(1, 10, 5));
}

#[test]
fn job_endpoint_test_go_v2_0_5_plan_no_diff() {
    plan_unchanged(v(2, 0, 5));
}

/// `TestJobDiff`'s "Different IDs" (v2.0.5): Nomad refuses to diff two
/// jobs of different IDs. A plan looks the old job up by the new one's ID
/// (the reader keeps the text of that job only, `ReadFilter::keep_job_text`),
/// so a job file with another ID is a new job beside the snapshot's:
/// everything is created (end to end: tests/job_plan.rs
/// `a_new_job_is_all_added_at_index_zero`).
#[test]
fn diff_test_go_v2_0_5_job_diff_different_ids() {
    let mut snapshot = registered_at(mock_job(), v(2, 0, 5));
    snapshot.planned_job_text = None;
    let mut other = mock_job();
    other.insert("ID".into(), json!("other"));
    let (report, plan) = plan_job(&snapshot, other, &options_at(v(2, 0, 5))).unwrap();
    assert_eq!(plan.diff.kind, crate::job_plan::DiffType::Added);
    assert_eq!(plan.diff.id, "other");
    assert_eq!(plan.job_modify_index, 0);
    assert_eq!(plan.diff.task_groups[0].updates.get("create"), Some(&10));
    assert_eq!(&*report.jobs[0].id, "other");
}

#[test]
fn job_endpoint_test_go_v1_10_5_plan_of_a_changed_job_is_its_next_version() {
    let snapshot = registered(mock_job());
    let mut changed = mock_job();
    changed["TaskGroups"][0]["Tasks"][0]["Env"]["FOO"] = json!("baz");
    let (report, plan) = plan_job(&snapshot, changed, &options()).unwrap();
    assert_eq!(plan.job_modify_index, 1000);
    assert_eq!(report.jobs[0].version, 1);
    let task = &plan.diff.task_groups[0].tasks[0];
    assert_eq!(task.annotations, ["forces create/destroy update"]);
    assert_eq!(task.fields[0].name, "Env[FOO]");
}

#[test]
fn job_endpoint_test_go_v1_10_5_plan_scaling() {
    plan_scaling(v(1, 10, 5));
}

#[test]
fn job_endpoint_test_go_v2_0_5_plan_scaling() {
    plan_scaling(v(2, 0, 5));
}

/// A new job with a scaling block whose task fits no node: the block is in
/// the diff and the group fails.
fn plan_scaling(release: Release) {
    let mut job = mock_job();
    job["TaskGroups"][0]["Tasks"][0]["Resources"]["MemoryMB"] = json!(999_999_999);
    job["TaskGroups"][0]["Scaling"] =
        json!({"Min": 1, "Max": 100, "Type": "horizontal", "Enabled": true});
    let (report, plan) = plan_job(&Snapshot::default(), job, &options_at(release)).unwrap();
    assert_eq!(plan.job_modify_index, 0);
    assert_eq!(plan.diff.kind, crate::job_plan::DiffType::Added);
    let objects: Vec<&str> = plan.diff.task_groups[0]
        .objects
        .iter()
        .map(|o| o.name.as_str())
        .collect();
    assert!(objects.contains(&"Scaling"), "{objects:?}");
    let plan = &report.jobs[0].plan;
    assert_eq!(plan.place.len(), 10);
    let failed: Vec<&str> = plan
        .failed_placements
        .iter()
        .map(|f| f.task_group.as_str())
        .collect();
    assert_eq!(failed, ["web"], "the failed group's metrics");
}

/// A new job in a namespace the dump's `Namespaces` does not list is
/// refused as the state store refuses it; without the key it is assumed.
#[test]
fn state_store_go_v1_10_5_a_new_job_needs_its_namespace() {
    let mut job = mock_job();
    job.insert("Namespace".into(), json!("staging"));
    let listed = Snapshot {
        namespaces: Some(vec!["default".into()]),
        ..Snapshot::default()
    };
    let err = plan_job(&listed, job.clone(), &options()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "job \"mock-service\" is in nonexistent namespace \"staging\": the snapshot's Namespaces do not list it"
    );
    assert!(plan_job(&Snapshot::default(), job, &options()).is_ok());
}

/// A priority out of range is refused with the release's words; 0 is the
/// server's default from 1.5.0 (job_endpoint_hooks_test.go
/// `Test_jobCanonicalizer_Mutate`).
#[test]
fn job_endpoint_hooks_test_go_v1_10_5_priority() {
    let with = |p: i64| {
        let mut job = mock_job();
        job.insert("Priority".into(), json!(p));
        job
    };
    let err = admit(with(101), v(1, 10, 5), None).unwrap_err().to_string();
    assert_eq!(
        err,
        "Nomad would reject the job: 1 error occurred:\n\t* job priority must be between [1, 100]"
    );
    let err = admit(with(101), v(1, 4, 0), None).unwrap_err().to_string();
    assert!(
        err.contains("* Job priority must be between [1, 100]"),
        "{err}"
    );
    assert_eq!(
        admit(with(0), v(1, 10, 5), None).unwrap()["Priority"],
        json!(50)
    );
    assert!(admit(with(0), v(1, 4, 0), None).is_err());
}

/// A system job without an update block, stored as a 2.0.5 server stores
/// it (the API's default update block, #26777), planned unchanged: no
/// change. Without the default the groups' update blocks show as deleted.
#[test]
fn an_unchanged_system_job_without_update_plans_no_change_at_2_0_5() {
    let s = 1_000_000_000_i64;
    let system = |update: Option<Value>| {
        let mut job = mock_job();
        job.insert("Type".into(), json!("system"));
        let group = job["TaskGroups"][0].as_object_mut().unwrap();
        group.remove("ReschedulePolicy");
        group.insert("Count".into(), json!(1));
        if let Some(u) = update {
            job.insert("Update".into(), u);
        }
        job
    };
    let default_update = json!({"Stagger": 30 * s, "MaxParallel": 1, "HealthCheck": "checks",
        "MinHealthyTime": 10 * s, "HealthyDeadline": 300 * s, "ProgressDeadline": 600 * s,
        "AutoRevert": false, "Canary": 0, "AutoPromote": false});
    let snapshot = registered_at(system(Some(default_update)), v(2, 0, 5));
    let (_, plan) = plan_job(&snapshot, system(None), &options_at(v(2, 0, 5))).unwrap();
    let group = &plan.diff.task_groups[0];
    assert_eq!(plan.diff.kind, crate::job_plan::DiffType::None, "{group:?}");
}

/// Until #25298 (1.10.0) the API gives every group a Consul block, so a
/// 1.8.0 server stores one (cluster `default`) for a job file without it;
/// planned unchanged, that block is no change.
#[test]
fn an_unchanged_job_with_the_stored_group_consul_block_plans_no_change_at_1_8_0() {
    let mut stored = mock_job();
    stored["TaskGroups"][0]["Consul"] = json!({});
    let snapshot = registered_at(stored, v(1, 8, 0));
    let text = snapshot.planned_job_text.as_deref().unwrap();
    let consul = &serde_json::from_str::<Value>(text).unwrap()["TaskGroups"][0]["Consul"];
    assert_eq!(consul, &json!({"Namespace": "", "Cluster": "default"}));
    let (_, plan) = plan_job(&snapshot, mock_job(), &options_at(v(1, 8, 0))).unwrap();
    let group = &plan.diff.task_groups[0];
    assert_eq!(plan.diff.kind, crate::job_plan::DiffType::None, "{group:?}");
}
