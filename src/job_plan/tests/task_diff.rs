//! nomad/structs/diff_test.go `TestTaskDiff` (v1.10.5, the
//! same text at v2.0.5, so checked at both tags), the common cases:
//! each task is the one task of a group of a job, as a plan diffs it.

use serde_json::{Value, json};

use super::super::job_diff;
use super::{expect, go_job, group_lines};
use crate::model::v;

/// The task's diff as lines (the group's own line and its tasks' header
/// left out).
fn diff(old: Value, new: Value, contextual: bool) -> Vec<String> {
    let job = |t: Value| go_job(json!({"ID": "j", "TaskGroups": [{"Name": "g", "Tasks": [t]}]}));
    let at = |release| {
        let d = job_diff(
            Some(&job(old.clone())),
            &job(new.clone()),
            contextual,
            super::rules_of(release),
        );
        group_lines(&d.task_groups[0])
    };
    let got = at(v(1, 10, 5));
    assert_eq!(at(v(2, 0, 5)), got, "v2.0.5 differs");
    got.into_iter()
        .skip(2)
        .map(|l| l.trim_start_matches("    ").to_string())
        .collect()
}

fn primitive(driver: &str, user: &str, value: &str, kill: i64, leader: bool) -> Value {
    json!({"Name": "foo", "Driver": driver, "User": user, "Env": {"FOO": value},
           "Meta": {"foo": value}, "KillTimeout": kill, "Leader": leader})
}

#[test]
fn diff_test_go_v1_10_5_task_diff_primitive_only_that_is_the_same() {
    let t = primitive("exec", "foo", "bar", 1_000_000_000, true);
    assert_eq!(diff(t.clone(), t, false), Vec::<String>::new());
}

#[test]
fn diff_test_go_v1_10_5_task_diff_primitive_only_that_has_diffs() {
    let old = primitive("exec", "foo", "bar", 1_000_000_000, true);
    let new = primitive("docker", "bar", "baz", 2_000_000_000, false);
    assert_eq!(
        diff(old, new, false),
        expect(
            r#"
            Edited Driver: "exec" => "docker"
            Edited Env[FOO]: "bar" => "baz"
            Edited KillTimeout: "1000000000" => "2000000000"
            Edited Leader: "true" => "false"
            Edited Meta[foo]: "bar" => "baz"
            Edited User: "foo" => "bar"
            "#
        )
    );
}

#[test]
fn diff_test_go_v1_10_5_task_diff_map_diff() {
    let old = json!({"Meta": {"foo": "foo", "bar": "bar"}, "Env": {"foo": "foo", "bar": "bar"}});
    let new = json!({"Meta": {"bar": "bar", "baz": "baz"}, "Env": {"bar": "bar", "baz": "baz"}});
    assert_eq!(
        diff(old, new, false),
        expect(
            r#"
            Added Env[baz]: "" => "baz"
            Deleted Env[foo]: "foo" => ""
            Added Meta[baz]: "" => "baz"
            Deleted Meta[foo]: "foo" => ""
            "#
        )
    );
}

#[test]
fn diff_test_go_v1_10_5_task_diff_log_config_edited_with_context() {
    let logs = |size: i64, disabled: bool| json!({"LogConfig": {"MaxFiles": 1, "MaxFileSizeMB": size, "Disabled": disabled}});
    assert_eq!(
        diff(logs(10, false), logs(20, true), true),
        expect(
            r#"
            Edited LogConfig {
              Edited Disabled: "false" => "true"
              Edited MaxFileSizeMB: "10" => "20"
              None MaxFiles: "1" => "1"
            }
            "#
        )
    );
}

fn config(foo: i64, bam: &[&str], baz: Value, boom: &str) -> Value {
    json!({"Config": {"foo": foo, "bar": "baz", "bam": bam, "baz": baz, "boom": [boom]}})
}

#[test]
fn diff_test_go_v1_10_5_task_diff_config_edited() {
    let old = config(1, &["a", "b"], json!({"a": 1, "b": 2}), "boom_port");
    let new = config(2, &["a", "c", "d"], json!({"b": 3, "c": 4}), "boom_port2");
    assert_eq!(
        diff(old, new, false),
        expect(
            r#"
            Edited Config {
              Edited bam[1]: "b" => "c"
              Added bam[2]: "" => "d"
              Deleted baz[a]: "1" => ""
              Edited baz[b]: "2" => "3"
              Added baz[c]: "" => "4"
              Edited boom[0]: "boom_port" => "boom_port2"
              Edited foo: "1" => "2"
            }
            "#
        )
    );
}

#[test]
fn diff_test_go_v1_10_5_task_diff_config_edited_with_context() {
    let old = config(1, &["a", "b"], json!({"a": 1, "b": 2}), "boom_port");
    let new = config(2, &["a", "c", "d"], json!({"a": 1, "b": 2}), "boom_port");
    assert_eq!(
        diff(old, new, true),
        expect(
            r#"
            Edited Config {
              None bam[0]: "a" => "a"
              Edited bam[1]: "b" => "c"
              Added bam[2]: "" => "d"
              None bar: "baz" => "baz"
              None baz[a]: "1" => "1"
              None baz[b]: "2" => "2"
              None boom[0]: "boom_port" => "boom_port"
              Edited foo: "1" => "2"
            }
            "#
        )
    );
}

/// Resources as Go's encoder writes them: every field.
fn resources(max: i64) -> Value {
    json!({"Resources": {"CPU": 100, "Cores": 0, "MemoryMB": 100, "MemoryMaxMB": max, "DiskMB": 100,
                         "IOPS": 0, "SecretsMB": 0, "Networks": null, "Devices": null, "NUMA": null}})
}

#[test]
fn diff_test_go_v1_10_5_task_diff_resources_edited_memory_max() {
    assert_eq!(
        diff(resources(200), resources(300), false),
        expect(
            r#"
            Edited Resources {
              Edited MemoryMaxMB: "200" => "300"
            }
            "#
        )
    );
    assert_eq!(
        diff(resources(200), resources(300), true),
        expect(
            r#"
            Edited Resources {
              None CPU: "100" => "100"
              None Cores: "0" => "0"
              None DiskMB: "100" => "100"
              None IOPS: "0" => "0"
              None MemoryMB: "100" => "100"
              Edited MemoryMaxMB: "200" => "300"
              None SecretsMB: "0" => "0"
            }
            "#
        )
    );
}

/// A field of the release that one side leaves out (a job file written
/// before the field existed) reads as its zero value: no change of its own.
#[test]
fn a_zero_field_one_side_leaves_out_is_no_change() {
    let artifact = |extra: Value, driver: &str| {
        let mut a = json!({"GetterSource": "http://x/y.tgz", "RelativeDest": "local/"});
        a.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        json!({"Name": "t", "Driver": driver, "Artifacts": [a],
               "VolumeMounts": [{"Volume": "v", "Destination": "/d", "ReadOnly": false}],
               "Vault": {"Role": "r"}})
    };
    let mut old_obj = artifact(json!({"GetterInsecure": false, "Chown": false}), "exec");
    old_obj["VolumeMounts"][0]["SELinuxLabel"] = json!("");
    old_obj["Vault"]["AllowTokenExpiration"] = json!(false);
    assert_eq!(
        diff(old_obj, artifact(json!({}), "docker"), false),
        expect(r#"Edited Driver: "exec" => "docker""#)
    );
}
