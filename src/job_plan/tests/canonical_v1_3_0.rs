//! api/jobs_test.go `TestJobs_Canonicalize` at v1.3.0: its own eight
//! cases, compared as `reflect.DeepEqual` compares the API's structs.

use serde_json::{Map, Value, json};

use super::super::canonical::api_canonicalize;
use super::go_equal::{assert_go_equal, differs};
use crate::model::v;

const S: i64 = 1_000_000_000;
const M: i64 = 60 * S;
const H: i64 = 60 * M;

fn canonical(input: Value) -> Value {
    let mut job: Map<String, Value> = serde_json::from_value(input).unwrap();
    api_canonicalize(&mut job, v(1, 3, 0));
    Value::Object(job)
}

fn job(id: &str, name: &str, kind: &str, parent: &str, namespace: &str, extra: Value) -> Value {
    let mut j = json!({"ID": id, "Name": name, "Region": "global", "Namespace": namespace,
        "Type": kind, "ParentID": parent, "Priority": 50, "AllAtOnce": false,
        "ConsulToken": "", "ConsulNamespace": "", "VaultToken": "", "VaultNamespace": "",
        "NomadTokenID": "", "Status": "", "StatusDescription": "", "Stop": false,
        "Stable": false, "Version": 0, "CreateIndex": 0, "ModifyIndex": 0, "JobModifyIndex": 0});
    j.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    j
}

/// An update block: stagger, min healthy, healthy and progress deadlines;
/// parallelism and canaries; the health check; auto revert and promote.
fn update(times: [i64; 4], counts: [i64; 2], check: &str, auto: [bool; 2]) -> Value {
    let [stagger, min, healthy, progress] = times;
    let [parallel, canary] = counts;
    json!({"Stagger": stagger, "MaxParallel": parallel, "HealthCheck": check,
        "MinHealthyTime": min, "HealthyDeadline": healthy, "ProgressDeadline": progress,
        "AutoRevert": auto[0], "Canary": canary, "AutoPromote": auto[1]})
}

fn default_update() -> Value {
    update(
        [30 * S, 10 * S, 5 * M, 10 * M],
        [1, 0],
        "checks",
        [false, false],
    )
}

/// A restart policy as v1.3.0 has it (no `RenderTemplates`).
fn restart(delay: i64, attempts: i64, interval: i64, mode: &str) -> Value {
    json!({"Delay": delay, "Attempts": attempts, "Interval": interval, "Mode": mode})
}

fn service_restart() -> Value {
    restart(15 * S, 2, 30 * M, "fail")
}

fn service_reschedule() -> Value {
    json!({"Attempts": 0, "Interval": 0, "DelayFunction": "exponential", "Delay": 30 * S,
        "MaxDelay": H, "Unlimited": true})
}

fn disk() -> Value {
    json!({"Sticky": false, "Migrate": false, "SizeMB": 300})
}

fn migrate() -> Value {
    json!({"MaxParallel": 1, "HealthCheck": "checks", "MinHealthyTime": 10 * S,
        "HealthyDeadline": 5 * M})
}

/// A task with v1.3.0's defaults (its log config has no `Disabled`).
fn task(name: &str, restart_policy: Value) -> Value {
    json!({"Name": name, "KillTimeout": 5 * S,
        "LogConfig": {"MaxFiles": 10, "MaxFileSizeMB": 10},
        "Resources": {"CPU": 100, "Cores": 0, "MemoryMB": 300},
        "RestartPolicy": restart_policy})
}

/// A service job's group with the defaults and every group's Consul block.
fn group(name: &str, restart_policy: Value, update_block: Value, tasks: Value) -> Value {
    json!({"Name": name, "Count": 1, "EphemeralDisk": disk(), "RestartPolicy": restart_policy,
        "ReschedulePolicy": service_reschedule(), "Consul": {"Namespace": ""},
        "Update": update_block, "Migrate": migrate(), "Tasks": tasks})
}

#[test]
fn jobs_test_go_v1_3_0_canonicalize_empty() {
    let got = canonical(json!({"TaskGroups": [{"Tasks": [{}]}]}));
    let want = job(
        "",
        "",
        "service",
        "",
        "default",
        json!({"Update": default_update(),
        "TaskGroups": [group("", service_restart(), default_update(),
            json!([task("", service_restart())]))]}),
    );
    assert_go_equal(&got, &want);
}

#[test]
fn jobs_test_go_v1_3_0_canonicalize_batch() {
    let got = canonical(json!({"Type": "batch", "TaskGroups": [{"Tasks": [{}]}]}));
    let batch_restart = restart(15 * S, 3, 24 * H, "fail");
    let want = job(
        "",
        "",
        "batch",
        "",
        "default",
        json!({"TaskGroups": [{
        "Name": "", "Count": 1, "EphemeralDisk": disk(), "RestartPolicy": batch_restart,
        "ReschedulePolicy": {"Attempts": 1, "Interval": 24 * H, "DelayFunction": "constant",
            "Delay": 5 * S, "MaxDelay": 0, "Unlimited": false},
        "Consul": {"Namespace": ""},
        "Tasks": [task("", batch_restart)]}]}),
    );
    assert_go_equal(&got, &want);
}

#[test]
fn jobs_test_go_v1_3_0_canonicalize_partial() {
    let got = canonical(json!({"Name": "foo", "Namespace": "bar", "ID": "bar",
        "ParentID": "lol", "TaskGroups": [{"Name": "bar", "Tasks": [{"Name": "task1"}]}]}));
    let want = job(
        "bar",
        "foo",
        "service",
        "lol",
        "bar",
        json!({"Update": default_update(),
        "TaskGroups": [group("bar", service_restart(), default_update(),
            json!([task("task1", service_restart())]))]}),
    );
    assert_go_equal(&got, &want);
}

/// The services' pass also applies the server's `Service.Canonicalize`
/// (the Consul namespace `default`), which Nomad runs next; it is in the
/// expected job too.
#[test]
fn jobs_test_go_v1_3_0_canonicalize_example_template() {
    let group_restart = restart(25 * S, 10, 5 * M, "delay");
    let input = json!({"ID": "example_template", "Name": "example_template",
        "Datacenters": ["dc1"], "Type": "service",
        "Update": {"MaxParallel": 1, "AutoPromote": true},
        "TaskGroups": [{"Name": "cache", "Count": 1, "RestartPolicy": group_restart,
            "Update": {"AutoRevert": true}, "EphemeralDisk": {"SizeMB": 300},
            "Tasks": [{"Name": "redis", "Driver": "docker",
                "Config": {"image": "redis:3.2", "port_map": [{"db": 6379}]},
                "RestartPolicy": {"Attempts": 20},
                "Resources": {"CPU": 500, "MemoryMB": 256,
                    "Networks": [{"MBits": 10, "DynamicPorts": [{"Label": "db"}]}]},
                "Services": [{"Name": "redis-cache", "Tags": ["global", "cache"],
                    "CanaryTags": ["canary", "global", "cache"], "PortLabel": "db",
                    "Checks": [{"Name": "alive", "Type": "tcp", "Interval": 10 * S,
                        "Timeout": 2 * S}]}],
                "Templates": [
                    {"EmbeddedTmpl": "---", "DestPath": "local/file.yml"},
                    {"EmbeddedTmpl": "FOO=bar\n", "DestPath": "local/file.env",
                        "Envvars": true}]}]}]});
    let template = |dest: &str, body: &str, envvars: bool| {
        json!({"SourcePath": "", "DestPath": dest, "EmbeddedTmpl": body,
            "ChangeMode": "restart", "ChangeSignal": "", "Splay": 5 * S, "Perms": "0644",
            "LeftDelim": "{{", "RightDelim": "}}", "Envvars": envvars, "VaultGrace": 0})
    };
    let redis = json!({"Name": "redis", "Driver": "docker",
        "Config": {"image": "redis:3.2", "port_map": [{"db": 6379}]},
        "RestartPolicy": restart(25 * S, 20, 5 * M, "delay"),
        "Resources": {"CPU": 500, "Cores": 0, "MemoryMB": 256,
            "Networks": [{"MBits": 10, "DynamicPorts": [{"Label": "db"}]}]},
        "Services": [{"Name": "redis-cache", "Tags": ["global", "cache"],
            "CanaryTags": ["canary", "global", "cache"], "PortLabel": "db",
            "AddressMode": "auto", "OnUpdate": "require_healthy", "Provider": "consul",
            "Namespace": "default",
            "Checks": [{"Name": "alive", "Type": "tcp", "Interval": 10 * S, "Timeout": 2 * S,
                "OnUpdate": "require_healthy"}]}],
        "KillTimeout": 5 * S, "LogConfig": {"MaxFiles": 10, "MaxFileSizeMB": 10},
        "Templates": [template("local/file.yml", "---", false),
            template("local/file.env", "FOO=bar\n", true)]});
    let times = [30 * S, 10 * S, 5 * M, 10 * M];
    let want = job(
        "example_template",
        "example_template",
        "service",
        "",
        "default",
        json!({"Datacenters": ["dc1"],
            "Update": update(times, [1, 0], "checks", [false, true]),
            "TaskGroups": [group("cache", group_restart,
                update(times, [1, 0], "checks", [true, true]), json!([redis]))]}),
    );
    assert_go_equal(&canonical(input), &want);
}

#[test]
fn jobs_test_go_v1_3_0_canonicalize_periodic() {
    let got = canonical(json!({"ID": "bar", "Periodic": {}}));
    let want = job(
        "bar",
        "bar",
        "service",
        "",
        "default",
        json!({"Update": default_update(),
        "Periodic": {"Enabled": true, "Spec": "", "SpecType": "cron",
            "ProhibitOverlap": false, "TimeZone": "UTC"}}),
    );
    assert_go_equal(&got, &want);
}

#[test]
fn jobs_test_go_v1_3_0_canonicalize_update_merge() {
    let job_update = update([S, 10 * S, 6 * M, 7 * M], [1, 0], "checks", [false, false]);
    let got = canonical(json!({"Name": "foo", "ID": "bar", "ParentID": "lol",
        "Update": job_update, "TaskGroups": [
            {"Name": "bar", "Consul": {"Namespace": ""},
             "Update": {"Stagger": 2 * S, "MaxParallel": 2, "HealthCheck": "manual",
                "MinHealthyTime": S, "AutoRevert": true, "Canary": 1, "AutoPromote": true},
             "Tasks": [{"Name": "task1"}]},
            {"Name": "baz", "Tasks": [{"Name": "task1"}]}]}));
    let tasks = || json!([task("task1", service_restart())]);
    let want = job(
        "bar",
        "foo",
        "service",
        "lol",
        "default",
        json!({"Update": job_update,
        "TaskGroups": [
            group("bar", service_restart(),
                update([2 * S, S, 6 * M, 7 * M], [2, 1], "manual", [true, true]), tasks()),
            group("baz", service_restart(), job_update, tasks())]}),
    );
    assert_go_equal(&got, &want);
}

#[test]
fn jobs_test_go_v1_3_0_canonicalize_restart_merge() {
    let got = canonical(
        json!({"Name": "foo", "ID": "bar", "ParentID": "lol", "TaskGroups": [
        {"Name": "bar", "RestartPolicy": restart(15 * S, 2, 30 * M, "fail"),
         "Tasks": [{"Name": "task1", "RestartPolicy": {"Attempts": 5, "Delay": S}}]},
        {"Name": "baz", "RestartPolicy": restart(20 * S, 2, 30 * M, "fail"),
         "Consul": {"Namespace": ""}, "Tasks": [{"Name": "task1"}]}]}),
    );
    let want = job(
        "bar",
        "foo",
        "service",
        "lol",
        "default",
        json!({
        "Update": default_update(), "TaskGroups": [
            group("bar", service_restart(), default_update(),
                json!([task("task1", restart(S, 5, 30 * M, "fail"))])),
            group("baz", restart(20 * S, 2, 30 * M, "fail"), default_update(),
                json!([task("task1", restart(20 * S, 2, 30 * M, "fail"))]))]}),
    );
    assert_go_equal(&got, &want);
}

#[test]
fn jobs_test_go_v1_3_0_canonicalize_multiregion() {
    let got = canonical(json!({"Name": "foo", "ID": "bar", "ParentID": "lol",
        "Multiregion": {"Regions": [{"Name": "west", "Count": 1}]}}));
    let want = job(
        "bar",
        "foo",
        "service",
        "lol",
        "default",
        json!({
        "Update": default_update(), "Multiregion": {
            "Strategy": {"MaxParallel": 0, "OnFailure": ""},
            "Regions": [{"Name": "west", "Count": 1, "Datacenters": [], "Meta": {}}]}}),
    );
    assert_go_equal(&got, &want);
}

/// The comparison tells what the lenient one does not: a pointer set to
/// its zero value against a nil one, and an empty slice against a nil one.
#[test]
fn a_zero_pointer_is_not_a_nil_one_in_the_v1_3_0_comparison() {
    let base = json!({"Stop": false, "Meta": {}, "Tasks": [{"Name": ""}]});
    assert_go_equal(&base, &json!({"Stop": false, "Meta": {}, "Tasks": [{}]}));
    assert!(differs(&base, &json!({"Meta": {}, "Tasks": [{}]}), "", "job").is_some());
    assert!(differs(&base, &json!({"Stop": false, "Tasks": [{}]}), "", "job").is_some());
    assert!(
        differs(
            &base,
            &json!({"Stop": false, "Meta": null, "Tasks": [{}]}),
            "",
            "job"
        )
        .is_some()
    );
}
