//! api/jobs_test.go `TestJobs_Canonicalize` (v1.10.5, and v2.0.5's one new
//! case): the API client's defaults, on the API's JSON. The v1.10.5 cases
//! are v2.0.5's too, word for word, so each is checked at both tags
//! (v1.3.0's own cases are in `canonical_v1_3_0.rs`), compared as Go
//! compares the API's structs.

use serde_json::{Map, Value, json};

use super::super::canonical::api_canonicalize;
use super::go_equal::assert_go_equal as assert_same;
use crate::model::v;

const S: i64 = 1_000_000_000;
const M: i64 = 60 * S;
const H: i64 = 60 * M;

fn canonical_at(input: &Value, release: crate::model::Release) -> Value {
    let mut job: Map<String, Value> = serde_json::from_value(input.clone()).unwrap();
    api_canonicalize(&mut job, release);
    Value::Object(job)
}

/// The job canonical at v1.10.5, which v2.0.5 gives too.
fn canonical(input: Value) -> Value {
    let got = canonical_at(&input, v(1, 10, 5));
    assert_eq!(canonical_at(&input, v(2, 0, 5)), got, "v2.0.5 differs");
    got
}

fn job_defaults(id: &str, name: &str, kind: &str, parent: &str, namespace: &str) -> Value {
    json!({"ID": id, "Name": name, "Region": "global", "Namespace": namespace, "Type": kind,
           "ParentID": parent, "Priority": 50, "NodePool": "", "AllAtOnce": false,
           "ConsulNamespace": "", "VaultNamespace": "", "NomadTokenID": "", "Status": "",
           "StatusDescription": "", "Stop": false, "Stable": false, "Version": 0,
           "CreateIndex": 0, "ModifyIndex": 0, "JobModifyIndex": 0})
}

/// An update block: stagger, min healthy, healthy and progress deadlines;
/// parallelism and canaries; the health check; auto revert and promote.
fn update(times: [i64; 4], counts: [i64; 2], check: &str, auto: [bool; 2]) -> Value {
    let [stagger, min, healthy, progress] = times;
    let [parallel, canary] = counts;
    json!({"Stagger": stagger, "MaxParallel": parallel, "HealthCheck": check, "MinHealthyTime": min,
           "HealthyDeadline": healthy, "ProgressDeadline": progress, "AutoRevert": auto[0],
           "Canary": canary, "AutoPromote": auto[1]})
}

fn default_update() -> Value {
    update(
        [30 * S, 10 * S, 5 * M, 10 * M],
        [1, 0],
        "checks",
        [false, false],
    )
}

fn restart(delay: i64, attempts: i64, interval: i64, render: bool) -> Value {
    json!({"Delay": delay, "Attempts": attempts, "Interval": interval, "Mode": "fail", "RenderTemplates": render})
}

fn service_reschedule() -> Value {
    json!({"Attempts": 0, "Interval": 0, "DelayFunction": "exponential", "Delay": 30 * S,
           "MaxDelay": H, "Unlimited": true})
}

fn disk() -> Value {
    json!({"Sticky": false, "Migrate": false, "SizeMB": 300})
}

fn migrate() -> Value {
    json!({"MaxParallel": 1, "HealthCheck": "checks", "MinHealthyTime": 10 * S, "HealthyDeadline": 5 * M})
}

fn task(name: &str, restart_policy: Value) -> Value {
    json!({"Name": name, "KillTimeout": 5 * S,
           "LogConfig": {"MaxFiles": 10, "MaxFileSizeMB": 10, "Disabled": false},
           "Resources": {"CPU": 100, "Cores": 0, "MemoryMB": 300},
           "RestartPolicy": restart_policy})
}

fn with(mut base: Value, extra: Value) -> Value {
    let (Some(b), Value::Object(e)) = (base.as_object_mut(), extra) else {
        unreachable!()
    };
    b.extend(e);
    base
}

#[test]
fn jobs_test_go_v1_10_5_canonicalize_empty() {
    let got = canonical(json!({"TaskGroups": [{"Tasks": [{}]}]}));
    let want = with(
        job_defaults("", "", "service", "", "default"),
        json!({"Update": default_update(), "TaskGroups": [{
            "Name": "", "Count": 1, "EphemeralDisk": disk(),
            "RestartPolicy": restart(15 * S, 2, 30 * M, false),
            "ReschedulePolicy": service_reschedule(), "Update": default_update(),
            "Migrate": migrate(), "Tasks": [task("", restart(15 * S, 2, 30 * M, false))]}]}),
    );
    assert_same(&got, &want);
}

#[test]
fn jobs_test_go_v1_10_5_canonicalize_batch() {
    let got = canonical(json!({"Type": "batch", "TaskGroups": [{"Tasks": [{}]}]}));
    let want = with(
        job_defaults("", "", "batch", "", "default"),
        json!({"TaskGroups": [{
            "Name": "", "Count": 1, "EphemeralDisk": disk(),
            "RestartPolicy": restart(15 * S, 3, 24 * H, false),
            "ReschedulePolicy": {"Attempts": 1, "Interval": 24 * H, "DelayFunction": "constant",
                                 "Delay": 5 * S, "MaxDelay": 0, "Unlimited": false},
            "Tasks": [task("", restart(15 * S, 3, 24 * H, false))]}]}),
    );
    assert_same(&got, &want);
    let group = &got["TaskGroups"][0];
    assert!(group.get("Update").is_none() && group.get("Migrate").is_none());
}

#[test]
fn jobs_test_go_v1_10_5_canonicalize_partial() {
    let got = canonical(
        json!({"Name": "foo", "Namespace": "bar", "ID": "bar", "ParentID": "lol",
        "TaskGroups": [{"Name": "bar", "Tasks": [{"Name": "task1"}]}]}),
    );
    let want = with(
        job_defaults("bar", "foo", "service", "lol", "bar"),
        json!({"Update": default_update(), "TaskGroups": [{
            "Name": "bar", "Count": 1, "EphemeralDisk": disk(),
            "RestartPolicy": restart(15 * S, 2, 30 * M, false),
            "ReschedulePolicy": service_reschedule(), "Update": default_update(),
            "Migrate": migrate(), "Tasks": [task("task1", restart(15 * S, 2, 30 * M, false))]}]}),
    );
    assert_same(&got, &want);
}

#[test]
fn jobs_test_go_v1_10_5_canonicalize_periodic() {
    let got = canonical(json!({"ID": "bar", "Periodic": {}}));
    let want = with(
        job_defaults("bar", "bar", "service", "", "default"),
        json!({"Update": default_update(),
               "Periodic": {"Enabled": true, "Spec": "", "Specs": [], "SpecType": "cron",
                            "ProhibitOverlap": false, "TimeZone": "UTC"}}),
    );
    assert_same(&got, &want);
}

#[test]
fn jobs_test_go_v1_10_5_canonicalize_update_merge() {
    let job_update = update([S, 10 * S, 6 * M, 7 * M], [1, 0], "checks", [false, false]);
    let got = canonical(
        json!({"Name": "foo", "ID": "bar", "ParentID": "lol", "Update": job_update,
        "TaskGroups": [
            {"Name": "bar", "Consul": {"Namespace": ""},
             "Update": {"Stagger": 2 * S, "MaxParallel": 2, "HealthCheck": "manual",
                        "MinHealthyTime": S, "AutoRevert": true, "Canary": 1, "AutoPromote": true},
             "Tasks": [{"Name": "task1"}]},
            {"Name": "baz", "Tasks": [{"Name": "task1"}]}]}),
    );
    let group = |name: &str, u: Value, consul: Option<Value>| {
        let mut g = json!({"Name": name, "Count": 1, "EphemeralDisk": disk(),
            "RestartPolicy": restart(15 * S, 2, 30 * M, false), "ReschedulePolicy": service_reschedule(),
            "Update": u, "Migrate": migrate(), "Tasks": [task("task1", restart(15 * S, 2, 30 * M, false))]});
        if let Some(c) = consul {
            g["Consul"] = c;
        }
        g
    };
    let want = with(
        job_defaults("bar", "foo", "service", "lol", "default"),
        json!({"Update": job_update, "TaskGroups": [
            group("bar", update([2 * S, S, 6 * M, 7 * M], [2, 1], "manual", [true, true]),
                  Some(json!({"Namespace": "", "Cluster": "default"}))),
            group("baz", job_update, None)]}),
    );
    assert_same(&got, &want);
}

#[test]
fn jobs_test_go_v1_10_5_canonicalize_restart_merge() {
    let got = canonical(
        json!({"Name": "foo", "ID": "bar", "ParentID": "lol", "TaskGroups": [
        {"Name": "bar", "RestartPolicy": {"Delay": 15 * S, "Attempts": 2, "Interval": 30 * M, "Mode": "fail"},
         "Tasks": [{"Name": "task1", "RestartPolicy": {"Attempts": 5, "Delay": S, "RenderTemplates": true}}]},
        {"Name": "baz", "RestartPolicy": {"Delay": 20 * S, "Attempts": 2, "Interval": 30 * M, "Mode": "fail"},
         "Consul": {"Namespace": ""}, "Tasks": [{"Name": "task1"}]}]}),
    );
    let group = |name: &str, delay: i64, task_restart: Value, consul: Option<Value>| {
        let mut g = json!({"Name": name, "Count": 1, "EphemeralDisk": disk(),
            "RestartPolicy": restart(delay, 2, 30 * M, false), "ReschedulePolicy": service_reschedule(),
            "Update": default_update(), "Migrate": migrate(), "Tasks": [task("task1", task_restart)]});
        if let Some(c) = consul {
            g["Consul"] = c;
        }
        g
    };
    let want = with(
        job_defaults("bar", "foo", "service", "lol", "default"),
        json!({"Update": default_update(), "TaskGroups": [
            group("bar", 15 * S, restart(S, 5, 30 * M, true), None),
            group("baz", 20 * S, restart(20 * S, 2, 30 * M, false),
                  Some(json!({"Namespace": "", "Cluster": "default"})))]}),
    );
    assert_same(&got, &want);
}

#[test]
fn jobs_test_go_v1_10_5_canonicalize_multiregion() {
    let got = canonical(json!({"Name": "foo", "ID": "bar", "ParentID": "lol",
        "Multiregion": {"Regions": [{"Name": "west", "Count": 1}]}}));
    let want = with(
        job_defaults("bar", "foo", "service", "lol", "default"),
        json!({"Update": default_update(), "Multiregion": {
            "Strategy": {"MaxParallel": 0, "OnFailure": ""},
            "Regions": [{"Name": "west", "Count": 1, "Datacenters": [], "Meta": {}}]}}),
    );
    assert_same(&got, &want);
    // The strategy is a block of its own: a missing one is not the default.
    assert!(got["Multiregion"]["Strategy"].is_object());
}

/// The services' pass also applies the server's `Service.Canonicalize`
/// (the task name on the service and its checks, the Consul namespace
/// `default`), which Nomad runs next; they are in the expected job too.
#[test]
fn jobs_test_go_v1_10_5_canonicalize_example_template() {
    let input = json!({"ID": "example_template", "Name": "example_template",
    "Datacenters": ["dc1"], "Type": "service",
    "Update": {"MaxParallel": 1, "AutoPromote": true},
    "TaskGroups": [{"Name": "cache", "Count": 1,
        "RestartPolicy": {"Interval": 5 * M, "Attempts": 10, "Delay": 25 * S, "Mode": "delay"},
        "Update": {"AutoRevert": true}, "EphemeralDisk": {"SizeMB": 300},
        "Tasks": [{"Name": "redis", "Driver": "docker",
            "Config": {"image": "redis:7", "port_map": [{"db": 6379}]},
            "RestartPolicy": {"Attempts": 20},
            "Resources": {"CPU": 500, "MemoryMB": 256,
                "Networks": [{"MBits": 10, "DynamicPorts": [{"Label": "db"}]}]},
            "Services": [{"Name": "redis-cache", "Tags": ["global", "cache"],
                "CanaryTags": ["canary", "global", "cache"], "PortLabel": "db",
                "Checks": [{"Name": "alive", "Type": "tcp", "Interval": 10 * S,
                            "Timeout": 2 * S}]}],
            "Templates": [
                {"EmbeddedTmpl": "---", "DestPath": "local/file.yml"},
                {"EmbeddedTmpl": "FOO=bar\n", "DestPath": "local/file.env", "Envvars": true}
            ]}]}]});
    let template = |dest: &str, body: &str, envvars: bool| {
        json!({"SourcePath": "", "DestPath": dest, "EmbeddedTmpl": body, "ChangeMode": "restart",
               "ChangeSignal": "", "Splay": 5 * S, "Perms": "0644", "LeftDelim": "{{",
               "RightDelim": "}}", "Envvars": envvars, "VaultGrace": 0, "ErrMissingKey": false,
               "Once": false})
    };
    let group_restart = json!({"Interval": 5 * M, "Attempts": 10, "Delay": 25 * S,
                               "Mode": "delay", "RenderTemplates": false});
    let mut task_restart = group_restart.clone();
    task_restart["Attempts"] = 20.into();
    let mut redis = task("redis", task_restart);
    redis = with(
        redis,
        json!({"Driver": "docker", "Config": {"image": "redis:7", "port_map": [{"db": 6379}]},
            "Resources": {"CPU": 500, "Cores": 0, "MemoryMB": 256,
                "Networks": [{"MBits": 10, "DynamicPorts": [{"Label": "db"}]}]},
            "Services": [{"Name": "redis-cache", "Tags": ["global", "cache"],
                "CanaryTags": ["canary", "global", "cache"], "PortLabel": "db",
                "AddressMode": "auto", "OnUpdate": "require_healthy", "Provider": "consul",
                "Cluster": "default", "TaskName": "redis", "Namespace": "default",
                "Checks": [{"Name": "alive", "Type": "tcp", "Interval": 10 * S, "Timeout": 2 * S,
                            "OnUpdate": "require_healthy", "TaskName": "redis"}]}],
            "Templates": [template("local/file.yml", "---", false),
                          template("local/file.env", "FOO=bar\n", true)]}),
    );
    let job_update = update(
        [30 * S, 10 * S, 5 * M, 10 * M],
        [1, 0],
        "checks",
        [false, true],
    );
    let group_update = update(
        [30 * S, 10 * S, 5 * M, 10 * M],
        [1, 0],
        "checks",
        [true, true],
    );
    let want = with(
        job_defaults(
            "example_template",
            "example_template",
            "service",
            "",
            "default",
        ),
        json!({"Datacenters": ["dc1"], "Update": job_update, "TaskGroups": [{
            "Name": "cache", "Count": 1, "RestartPolicy": group_restart,
            "ReschedulePolicy": service_reschedule(), "EphemeralDisk": disk(),
            "Update": group_update, "Migrate": migrate(), "Tasks": [redis]}]}),
    );
    assert_same(&canonical(input), &want);
}

/// #26777 (1.11.0): a system job without an update block gets the default
/// one, and its groups with it; before, neither had one.
#[test]
fn jobs_test_go_v2_0_5_canonicalize_missing_update_for_system_job() {
    let input = json!({"Name": "foo", "ID": "bar", "ParentID": "lol", "Type": "system",
        "TaskGroups": [{"Name": "bar", "Tasks": [{"Name": "task1"}]}]});
    let group = json!({"Name": "bar", "Count": 1, "EphemeralDisk": disk(),
        "RestartPolicy": restart(15 * S, 2, 30 * M, false), "Update": default_update(),
        "Tasks": [task("task1", restart(15 * S, 2, 30 * M, false))]});
    let want = with(
        job_defaults("bar", "foo", "system", "lol", "default"),
        json!({"Update": default_update(), "TaskGroups": [group]}),
    );
    let got = canonical_at(&input, v(2, 0, 5));
    assert_same(&got, &want);
    let g = &got["TaskGroups"][0];
    assert!(g.get("ReschedulePolicy").is_none() && g.get("Migrate").is_none());

    let before = canonical_at(&input, v(1, 10, 5));
    assert!(before.get("Update").is_none());
    assert!(before["TaskGroups"][0].get("Update").is_none());
}

/// The server accepts that default and stores it as a 1.11 agent converts
/// it: the job keeps its stagger and parallelism, the group the whole block.
#[test]
fn a_system_job_is_stored_with_the_default_update_from_1_11_0() {
    let stored = |release| {
        let job = json!({"ID": "sys", "Type": "system", "Datacenters": ["dc1"],
            "TaskGroups": [{"Name": "g", "Tasks": [{"Name": "t", "Driver": "exec",
                "Config": {"command": "/bin/date"}}]}]});
        super::super::admit(serde_json::from_value(job).unwrap(), release, None).unwrap()
    };
    let now = stored(v(1, 11, 0));
    assert_eq!(now["Update"], json!({"Stagger": 30 * S, "MaxParallel": 1}));
    assert_eq!(now["TaskGroups"][0]["Update"]["MaxParallel"], json!(1));
    let before = stored(v(1, 10, 5));
    assert_eq!(before["Update"], json!({"Stagger": 0, "MaxParallel": 0}));
    assert!(before["TaskGroups"][0].get("Update").is_none());
}
