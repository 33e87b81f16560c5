//! nomad/job_endpoint_hooks_test.go `Test_jobImpliedConstraints_Mutate`
//! (v1.10.5): the constraints the register endpoint adds, and
//! nomad/job_endpoint_test.go's `ImplicitConstraints` cases.

use serde_json::{Map, Value, json};

use super::super::admission::implied_constraints;
use crate::model::v;

fn mutate(job: Value) -> Value {
    let mut job: Map<String, Value> = serde_json::from_value(job).unwrap();
    implied_constraints(&mut job, v(1, 10, 5));
    Value::Object(job)
}

fn c(l: &str, r: &str, op: &str) -> Value {
    json!({"LTarget": l, "RTarget": r, "Operand": op})
}

fn vault() -> Value {
    c("${attr.vault.version}", ">= 0.6.1", "semver")
}

fn consul() -> Value {
    c("${attr.consul.version}", ">= 1.8.0", "semver")
}

fn one_group(group: Value) -> Value {
    json!({"Name": "example", "TaskGroups": [group]})
}

/// The constraints of the first group (none when absent).
fn group_constraints(job: &Value) -> Value {
    job["TaskGroups"][0]
        .get("Constraints")
        .cloned()
        .unwrap_or(json!([]))
}

#[test]
fn job_endpoint_hooks_test_go_v1_10_5_implied_constraints_no_needed_constraints() {
    let job = one_group(json!({"Name": "example-group-1"}));
    assert_eq!(mutate(job.clone()), job);
}

#[test]
fn job_endpoint_hooks_test_go_v1_10_5_implied_constraints_vault() {
    let tasks = |vaults: &[Value]| {
        let tasks: Vec<Value> = vaults
            .iter()
            .enumerate()
            .map(|(i, v)| json!({"Name": format!("group1-task{}", i + 1), "Vault": v}))
            .collect();
        one_group(json!({"Name": "group1", "Tasks": tasks}))
    };
    // task with vault; group with multiple tasks with vault
    assert_eq!(
        group_constraints(&mutate(tasks(&[json!({})]))),
        json!([vault()])
    );
    assert_eq!(
        group_constraints(&mutate(tasks(&[json!({}), json!({}), json!({})]))),
        json!([vault()])
    );
    // group with multiple vault clusters
    let infra = json!({"Cluster": "infra"});
    assert_eq!(
        group_constraints(&mutate(tasks(&[infra.clone(), infra, json!({})]))),
        json!([
            c("${attr.vault.infra.version}", ">= 1.11.0", "semver"),
            vault()
        ])
    );
    // existing vault version constraint; vault with other constraints
    let mut existing = tasks(&[json!({})]);
    existing["TaskGroups"][0]["Constraints"] =
        json!([c("${attr.vault.version}", ">= 1.0.0", "semver")]);
    assert_eq!(
        group_constraints(&mutate(existing)),
        json!([c("${attr.vault.version}", ">= 1.0.0", "semver")])
    );
    let mut other = tasks(&[json!({})]);
    other["TaskGroups"][0]["Constraints"] = json!([c("${node.class}", "high-memory", "=")]);
    assert_eq!(
        group_constraints(&mutate(other)),
        json!([c("${node.class}", "high-memory", "="), vault()])
    );
}

#[test]
fn job_endpoint_hooks_test_go_v1_10_5_implied_constraints_multiple_groups_only_one_with_vault() {
    let job = json!({"Name": "example", "TaskGroups": [
        {"Name": "group1", "Tasks": [{"Name": "group1-task1"}]},
        {"Name": "group2", "Tasks": [{"Name": "group2-task1", "Vault": {}}]},
        {"Name": "group3", "Tasks": [{"Name": "group3-task1"}]}]});
    let out = mutate(job);
    assert!(out["TaskGroups"][0].get("Constraints").is_none());
    assert_eq!(out["TaskGroups"][1]["Constraints"], json!([vault()]));
    assert!(out["TaskGroups"][2].get("Constraints").is_none());
}

#[test]
fn job_endpoint_hooks_test_go_v1_10_5_implied_constraints_signals() {
    // task with vault signal change
    let job = one_group(json!({"Name": "example-group-1", "Tasks": [
        {"Name": "group1-task1", "Vault": {"ChangeSignal": "SIGINT", "ChangeMode": "signal"}}]}));
    assert_eq!(
        group_constraints(&mutate(job)),
        json!([vault(), c("${attr.os.signals}", "SIGINT", "set_contains")])
    );
    // task with kill signal
    let job = one_group(json!({"Name": "example-group-1", "Tasks": [
        {"Name": "group1-task1", "KillSignal": "SIGINT"}]}));
    assert_eq!(
        group_constraints(&mutate(job)),
        json!([c("${attr.os.signals}", "SIGINT", "set_contains")])
    );
    // multiple tasks with template signal change
    let job = one_group(json!({"Name": "example-group-1", "Tasks": [
        {"Name": "group1-task1", "Templates": [{"ChangeMode": "signal", "ChangeSignal": "SIGINT"}]},
        {"Name": "group1-task2", "Templates": [{"ChangeMode": "signal", "ChangeSignal": "SIGHUP"}]}]}));
    assert_eq!(
        group_constraints(&mutate(job)),
        json!([c("${attr.os.signals}", "SIGHUP,SIGINT", "set_contains")])
    );
}

#[test]
fn job_endpoint_hooks_test_go_v1_10_5_implied_constraints_service_discovery() {
    let nomad = c("${attr.nomad.service_discovery}", "true", "=");
    let service = |provider: &str| json!({"Name": "example-group-service-1", "Provider": provider});
    let group = |services: Value, constraints: Option<Value>| {
        let mut g = json!({"Name": "example-group-1", "Services": services});
        if let Some(list) = constraints {
            g["Constraints"] = list;
        }
        one_group(g)
    };
    let high_memory = c("${node.class}", "high-memory", "=");
    let cases = [
        // task group nomad discovery; ... constraint found; ... other constraints
        (
            group(json!([service("nomad")]), None),
            json!([nomad.clone()]),
        ),
        (
            group(json!([service("nomad")]), Some(json!([nomad.clone()]))),
            json!([nomad.clone()]),
        ),
        (
            group(
                json!([service("nomad")]),
                Some(json!([high_memory.clone()])),
            ),
            json!([high_memory.clone(), nomad.clone()]),
        ),
        // task group Consul discovery; ... constraint found; ... other constraints
        (group(json!([service("consul")]), None), json!([consul()])),
        (
            group(json!([service("consul")]), Some(json!([consul()]))),
            json!([consul()]),
        ),
        (
            group(
                json!([service("consul")]),
                Some(json!([high_memory.clone()])),
            ),
            json!([high_memory, consul()]),
        ),
        // task group Consul discovery with multiple clusters
        (
            group(
                json!([service("consul"), {"Name": "example-group-service-2", "Provider": "consul", "Cluster": "infra"}]),
                None,
            ),
            json!([
                consul(),
                c("${attr.consul.infra.version}", ">= 1.8.0", "semver")
            ]),
        ),
        // task group with empty provider
        (
            group(json!([{"Name": "example-group-service-1"}]), None),
            json!([consul()]),
        ),
    ];
    for (n, (job, want)) in cases.into_iter().enumerate() {
        assert_eq!(group_constraints(&mutate(job)), want, "case {}", n + 1);
    }
}

#[test]
fn job_endpoint_hooks_test_go_v1_10_5_implied_constraints_task_level_service() {
    let job = one_group(json!({"Name": "example-group-1", "Tasks": [
        {"Name": "example-task-1", "Services": [{"Name": "example-task-service-1"}]}]}));
    let out = mutate(job);
    assert!(out["TaskGroups"][0].get("Constraints").is_none());
    assert_eq!(
        out["TaskGroups"][0]["Tasks"][0]["Constraints"],
        json!([consul()])
    );
}

#[test]
fn job_endpoint_hooks_test_go_v1_10_5_implied_constraints_bridge_network() {
    let job = one_group(json!({"Name": "group-with-bridge", "Networks": [{"Mode": "bridge"}]}));
    let cni = |p: &str| {
        c(
            &format!("${{attr.plugins.cni.version.{p}}}"),
            ">= 0.4.0",
            "semver",
        )
    };
    assert_eq!(
        group_constraints(&mutate(job)),
        json!([
            cni("bridge"),
            cni("firewall"),
            cni("host-local"),
            cni("loopback"),
            cni("portmap")
        ])
    );
}

#[test]
fn job_endpoint_hooks_test_go_v1_10_5_implied_constraints_numa() {
    let job = one_group(json!({"Name": "group1", "Tasks": [
        {"Resources": {"CPU": 100, "MemoryMB": 300, "NUMA": {"Affinity": "require"}}}]}));
    assert_eq!(
        group_constraints(&mutate(job.clone())),
        json!([
            c("${attr.nomad.version}", ">= 1.6.3-dev", "semver"),
            c("${attr.kernel.name}", "linux", "=")
        ])
    );
    // NUMA "none" asks for nothing; before 1.7.0 there is no NUMA.
    let mut none = job.clone();
    none["TaskGroups"][0]["Tasks"][0]["Resources"]["NUMA"]["Affinity"] = "none".into();
    assert_eq!(group_constraints(&mutate(none)), json!([]));
    let mut old: Map<String, Value> = serde_json::from_value(job).unwrap();
    implied_constraints(&mut old, v(1, 6, 5));
    assert_eq!(group_constraints(&Value::Object(old)), json!([]));
}

#[test]
fn job_endpoint_hooks_test_go_v1_10_5_implied_constraints_tproxy() {
    let job = one_group(json!({"Name": "group-with-tproxy",
        "Services": [{"Connect": {"SidecarService": {"Proxy": {"TransparentProxy": {}}}}}],
        "Networks": [{"Mode": "bridge"}]}));
    let cni = |p: &str| {
        c(
            &format!("${{attr.plugins.cni.version.{p}}}"),
            ">= 0.4.0",
            "semver",
        )
    };
    assert_eq!(
        group_constraints(&mutate(job)),
        json!([
            consul(),
            cni("bridge"),
            cni("firewall"),
            cni("host-local"),
            cni("loopback"),
            cni("portmap"),
            c(
                "${attr.plugins.cni.version.consul-cni}",
                ">= 1.4.2",
                "semver"
            ),
            c("${attr.nomad.version}", ">= 1.8.0-dev", "semver")
        ])
    );
}

#[test]
fn job_endpoint_hooks_test_go_v1_10_5_implied_constraints_task_schedule() {
    let job = one_group(json!({"Name": "group-with-schedule",
        "Tasks": [{"Name": "task-with-schedule", "Schedule": {"Cron": null}}]}));
    assert_eq!(
        group_constraints(&mutate(job)),
        json!([c("${attr.nomad.version}", ">= 1.8.0-dev", "semver")])
    );
}

/// The community edition refuses NUMA (1.7.0 on) and task schedules (1.8.0
/// on) after the job's own validation (v1.10.5 nomad/job_endpoint.go:81-92,
/// job_endpoint_hook_numa_ce.go, job_endpoint_hook_sched_ce.go).
#[test]
fn the_community_edition_refuses_numa_and_task_schedules() {
    use super::super::admission::validate;
    let job = |task: Value| -> Map<String, Value> {
        serde_json::from_value(json!({"ID": "j", "Name": "j", "Namespace": "default",
            "Region": "global", "Type": "batch", "Priority": 50, "Datacenters": ["dc1"],
            "TaskGroups": [{"Name": "g", "Count": 1, "Tasks": [task],
                "RestartPolicy": {"Attempts": 3, "Interval": 86_400_000_000_000_i64,
                                  "Delay": 15_000_000_000_i64, "Mode": "fail"},
                "ReschedulePolicy": {"Attempts": 1, "Interval": 86_400_000_000_000_i64,
                                     "Delay": 5_000_000_000_i64, "DelayFunction": "constant"},
                "EphemeralDisk": {"SizeMB": 300}}]}))
        .unwrap()
    };
    let numa = job(json!({"Name": "t", "Driver": "exec",
        "LogConfig": {"MaxFiles": 1, "MaxFileSizeMB": 1},
        "Resources": {"CPU": 100, "MemoryMB": 300, "NUMA": {"Affinity": "require"}}}));
    assert_eq!(
        validate(&numa, v(1, 10, 5)),
        ["numa scheduling requires Nomad Enterprise"]
    );
    assert!(validate(&numa, v(1, 6, 5)).is_empty());
    let sched = job(
        json!({"Name": "t", "Driver": "exec", "Schedule": {"Cron": null},
        "Resources": {"CPU": 100, "MemoryMB": 300}, "LogConfig": {"MaxFiles": 1, "MaxFileSizeMB": 1}}),
    );
    assert_eq!(
        validate(&sched, v(1, 10, 5)),
        ["task schedules requires Nomad Enterprise"]
    );
    assert!(validate(&sched, v(1, 7, 7)).is_empty());
}

/// `TestJob_Validate`'s UI and version tag descriptions (v2.0.5
/// structs_test.go): over 1000 bytes refused, from #18292 (1.8.0) and
/// #24055 (1.9.0).
#[test]
fn structs_test_go_v2_0_5_job_validate_descriptions() {
    use super::super::admission::validate;
    let job = |ui: usize, tag: usize| -> Map<String, Value> {
        serde_json::from_value(json!({"ID": "j", "Name": "j", "Namespace": "default",
            "Region": "global", "Type": "batch", "Priority": 50, "Datacenters": ["dc1"],
            "UI": {"Description": "é".repeat(ui / 2)},
            "VersionTag": {"Name": "v1", "Description": "x".repeat(tag)},
            "TaskGroups": [{"Name": "g", "Count": 1, "Tasks": [{"Name": "t", "Driver": "exec",
                "Resources": {"CPU": 100, "MemoryMB": 300},
                "LogConfig": {"MaxFiles": 1, "MaxFileSizeMB": 1}}],
                "RestartPolicy": {"Attempts": 3, "Interval": 86_400_000_000_000_i64,
                                  "Delay": 15_000_000_000_i64, "Mode": "fail"},
                "ReschedulePolicy": {"Attempts": 1, "Interval": 86_400_000_000_000_i64,
                                     "Delay": 5_000_000_000_i64, "DelayFunction": "constant"},
                "EphemeralDisk": {"SizeMB": 300}}]}))
        .unwrap()
    };
    assert!(validate(&job(1000, 1000), v(2, 0, 5)).is_empty());
    assert_eq!(
        validate(&job(1002, 1001), v(2, 0, 5)),
        [
            "UI description must be under 1000 characters, currently 1002",
            "Tagged version description must be under 1000 characters, currently 1001"
        ]
    );
    assert_eq!(
        validate(&job(1002, 1001), v(1, 8, 0)),
        ["UI description must be under 1000 characters, currently 1002"]
    );
    assert!(validate(&job(1002, 1001), v(1, 7, 7)).is_empty());
}
