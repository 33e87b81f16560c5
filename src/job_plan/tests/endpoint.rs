//! nomad/job_endpoint_test.go `TestJobEndpoint_Plan_*` (v1.10.5): a job
//! registered, then planned, on a cluster without nodes.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::super::{admit, plan_job};
use crate::model::{Snapshot, v};
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
    Options {
        now: Some("2025-06-01T00:00:00Z".parse().unwrap()),
        nomad_version: Some(VersionRequest::Release(v(1, 10, 5))),
        ..Options::default()
    }
}

/// A snapshot without nodes, holding `job` as `Job.Register` stored it at
/// index 1000.
fn registered(job: Map<String, Value>) -> Snapshot {
    let mut stored = admit(job, v(1, 10, 5)).unwrap();
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

#[test]
fn job_endpoint_test_go_v1_10_5_plan_with_diff() {
    let snapshot = registered(mock_job());
    let (report, plan) = plan_job(&snapshot, mock_job(), &options()).unwrap();
    assert_eq!(plan.job_modify_index, 1000, "bad cas");
    assert_eq!(plan.diff.kind, crate::job_plan::DiffType::None);
    let group = &plan.diff.task_groups[0];
    assert_eq!(group.updates.get("create"), Some(&10), "the annotations");
    assert_eq!(
        report.jobs[0].version, 0,
        "an unchanged spec is not registered again"
    );
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
    let mut job = mock_job();
    job["TaskGroups"][0]["Tasks"][0]["Resources"]["MemoryMB"] = json!(999_999_999);
    job["TaskGroups"][0]["Scaling"] =
        json!({"Min": 1, "Max": 100, "Type": "horizontal", "Enabled": true});
    let (report, plan) = plan_job(&Snapshot::default(), job, &options()).unwrap();
    assert_eq!(plan.job_modify_index, 0);
    assert_eq!(plan.diff.kind, crate::job_plan::DiffType::Added);
    let objects: Vec<&str> = plan.diff.task_groups[0]
        .objects
        .iter()
        .map(|o| o.name.as_str())
        .collect();
    assert!(objects.contains(&"Scaling"), "{objects:?}");
    assert_eq!(report.jobs[0].plan.place.len(), 10);
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
    let err = admit(with(101), v(1, 10, 5)).unwrap_err().to_string();
    assert_eq!(
        err,
        "Nomad would reject the job: 1 error occurred:\n\t* job priority must be between [1, 100]"
    );
    let err = admit(with(101), v(1, 4, 0)).unwrap_err().to_string();
    assert!(
        err.contains("* Job priority must be between [1, 100]"),
        "{err}"
    );
    assert_eq!(admit(with(0), v(1, 10, 5)).unwrap()["Priority"], json!(50));
    assert!(admit(with(0), v(1, 4, 0)).is_err());
}
