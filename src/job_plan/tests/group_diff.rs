//! nomad/structs/diff_test.go `TestTaskGroupDiff` (v1.10.5, the
//! same text at v2.0.5, so checked at both tags), the common
//! cases: each group is the one group of a job, as a plan diffs it.

use serde_json::{Value, json};

use super::super::job_diff;
use super::{expect, go_job, group_lines};
use crate::model::v;

/// The group diff of `old` and `new`, as lines without the group's own.
fn diff(old: Value, new: Value, contextual: bool) -> Vec<String> {
    let job = |g: Value| go_job(json!({"ID": "j", "TaskGroups": [g]}));
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
    got
}

#[test]
fn diff_test_go_v1_10_5_task_group_diff_primitives() {
    let g = json!({"Name": "foo", "Count": 10, "Meta": {"foo": "bar"}});
    assert_eq!(diff(g.clone(), g, false), expect(r#"None group "foo""#));
    let new = json!({"Name": "foo", "Count": 100, "Meta": {"foo": "baz"}});
    let old = json!({"Name": "foo", "Count": 10, "Meta": {"foo": "bar"}});
    assert_eq!(
        diff(old, new, false),
        expect(
            r#"
            Edited group "foo"
              Edited Count: "10" => "100"
              Edited Meta[foo]: "bar" => "baz"
            "#
        )
    );
}

#[test]
fn diff_test_go_v1_10_5_task_group_diff_map_diff() {
    let old = json!({"Meta": {"foo": "foo", "bar": "bar"}});
    let new = json!({"Meta": {"bar": "bar", "baz": "baz"}});
    assert_eq!(
        diff(old, new, false),
        expect(
            r#"
            Edited group ""
              Added Meta[baz]: "" => "baz"
              Deleted Meta[foo]: "foo" => ""
            "#
        )
    );
}

#[test]
fn diff_test_go_v1_10_5_task_group_diff_affinities_edited() {
    let a = |l: &str| json!({"LTarget": l, "RTarget": l, "Operand": l, "Weight": 20});
    let old = json!({"Affinities": [a("foo"), a("bar")]});
    let new = json!({"Affinities": [a("foo"), a("baz")]});
    assert_eq!(
        diff(old, new, false),
        expect(
            r#"
            Edited group ""
              Added Affinity {
                Added LTarget: "" => "baz"
                Added Operand: "" => "baz"
                Added RTarget: "" => "baz"
                Added Weight: "" => "20"
              }
              Deleted Affinity {
                Deleted LTarget: "bar" => ""
                Deleted Operand: "bar" => ""
                Deleted RTarget: "bar" => ""
                Deleted Weight: "20" => ""
              }
            "#
        )
    );
}

#[test]
fn diff_test_go_v1_10_5_task_group_diff_consul() {
    let consul = |c: Value| json!({"Consul": c});
    let team1 = json!({"Namespace": "team1", "Cluster": "", "Partition": ""});
    assert_eq!(
        diff(json!({}), consul(team1.clone()), false),
        expect(
            r#"
            Edited group ""
              Added Consul {
                Added Namespace: "" => "team1"
              }
            "#
        )
    );
    assert_eq!(
        diff(consul(team1.clone()), json!({}), false),
        expect(
            r#"
            Edited group ""
              Deleted Consul {
                Deleted Namespace: "team1" => ""
              }
            "#
        )
    );
    let updated = json!({"Namespace": "team2", "Cluster": "us-east-1", "Partition": "us-east-1a"});
    assert_eq!(
        diff(consul(team1), consul(updated), false),
        expect(
            r#"
            Edited group ""
              Edited Consul {
                Added Cluster: "" => "us-east-1"
                Edited Namespace: "team1" => "team2"
                Added Partition: "" => "us-east-1a"
              }
            "#
        )
    );
}

#[test]
fn diff_test_go_v1_10_5_task_group_diff_restart_policy_edited() {
    let policy = |a: i64, i: i64, d: i64, mode: &str, render: bool| {
        json!({"RestartPolicy": {"Attempts": a, "Interval": i, "Delay": d, "Mode": mode,
                                 "RenderTemplates": render}})
    };
    let s = 1_000_000_000;
    assert_eq!(
        diff(
            policy(1, s, s, "fail", false),
            policy(2, 2 * s, 2 * s, "delay", true),
            false
        ),
        expect(
            r#"
            Edited group ""
              Edited RestartPolicy {
                Edited Attempts: "1" => "2"
                Edited Delay: "1000000000" => "2000000000"
                Edited Interval: "1000000000" => "2000000000"
                Edited Mode: "fail" => "delay"
                Edited RenderTemplates: "false" => "true"
              }
            "#
        )
    );
    assert_eq!(
        diff(
            policy(1, s, s, "fail", false),
            policy(2, 2 * s, s, "fail", true),
            true
        ),
        expect(
            r#"
            Edited group ""
              Edited RestartPolicy {
                Edited Attempts: "1" => "2"
                None Delay: "1000000000" => "1000000000"
                Edited Interval: "1000000000" => "2000000000"
                None Mode: "fail" => "fail"
                Edited RenderTemplates: "false" => "true"
              }
            "#
        )
    );
}

#[test]
fn diff_test_go_v1_10_5_task_group_diff_ephemeral_disk_edited_with_context() {
    let disk = |m: bool, s: bool, size: i64| json!({"EphemeralDisk": {"Migrate": m, "Sticky": s, "SizeMB": size}});
    assert_eq!(
        diff(disk(false, false, 100), disk(true, true, 90), true),
        expect(
            r#"
            Edited group ""
              Edited EphemeralDisk {
                Edited Migrate: "false" => "true"
                Edited SizeMB: "100" => "90"
                Edited Sticky: "false" => "true"
              }
            "#
        )
    );
}

#[test]
fn diff_test_go_v1_10_5_task_group_diff_tasks_edited() {
    let t = |name: &str, driver: &str, delay: i64| json!({"Name": name, "Driver": driver, "ShutdownDelay": delay});
    let old = json!({"Tasks": [t("foo", "docker", 0), t("bar", "docker", 0), t("baz", "", 1_000_000_000)]});
    let new = json!({"Tasks": [t("bar", "docker", 0), t("bam", "docker", 0), t("baz", "", 2_000_000_000)]});
    assert_eq!(
        diff(old, new, false),
        expect(
            r#"
            Edited group ""
              Added task "bam"
                Added Driver: "" => "docker"
                Added KillTimeout: "" => "0"
                Added Leader: "" => "false"
                Added ShutdownDelay: "" => "0"
              None task "bar"
              Edited task "baz"
                Edited ShutdownDelay: "1000000000" => "2000000000"
              Deleted task "foo"
                Deleted Driver: "docker" => ""
                Deleted KillTimeout: "0" => ""
                Deleted Leader: "false" => ""
                Deleted ShutdownDelay: "0" => ""
            "#
        )
    );
}

#[test]
fn diff_test_go_v1_10_5_task_group_diff_shutdown_delay() {
    let d = |v: Value| json!({"ShutdownDelay": v});
    let cases = [
        (
            d(json!(30_000_000_000_i64)),
            d(json!(5_000_000_000_i64)),
            r#"Edited ShutdownDelay: "30000000000" => "5000000000""#,
        ),
        (
            d(json!(30_000_000_000_i64)),
            json!({}),
            r#"Deleted ShutdownDelay: "30000000000" => """#,
        ),
        (
            json!({}),
            d(json!(30_000_000_000_i64)),
            r#"Added ShutdownDelay: "" => "30000000000""#,
        ),
    ];
    for (old, new, want) in cases {
        let got = diff(old, new, false);
        assert_eq!(got[1].trim(), want);
    }
}

#[test]
fn diff_test_go_v1_10_5_task_group_diff_editing_networks_deletes_and_re_adds() {
    let network = |ports: Value| {
        json!({"Networks": [{"Mode": "", "Device": "", "CIDR": "", "IP": "", "Hostname": "", "MBits": 0,
                             "DNS": {"Servers": ["1.1.1.1"]}, "ReservedPorts": null,
                             "DynamicPorts": ports}]})
    };
    let port = json!([{"Label": "bar", "Value": 0, "To": 8081, "HostNetwork": "public", "IgnoreCollision": false}]);
    assert_eq!(
        diff(network(Value::Null), network(port), false),
        expect(
            r#"
            Edited group ""
              Added Network {
                Added Dynamic Port {
                  Added HostNetwork: "" => "public"
                  Added Label: "" => "bar"
                  Added To: "" => "8081"
                }
                Added DNS {
                  Added Servers: "" => "1.1.1.1"
                }
              }
              Deleted Network {
                Deleted DNS {
                  Deleted Servers: "1.1.1.1" => ""
                }
              }
            "#
        )
    );
}

#[test]
fn diff_test_go_v1_10_5_task_group_diff_update_strategy_edited_with_context() {
    let s = 1_000_000_000_i64;
    let update = |parallel: i64| {
        json!({"Update": {"Stagger": 0, "MaxParallel": parallel, "HealthCheck": "foo",
                          "MinHealthyTime": s, "HealthyDeadline": 30 * s, "ProgressDeadline": 30 * s,
                          "AutoRevert": true, "AutoPromote": true, "Canary": 2}})
    };
    assert_eq!(
        diff(update(5), update(7), true),
        expect(
            r#"
            Edited group ""
              Edited Update {
                None AutoPromote: "true" => "true"
                None AutoRevert: "true" => "true"
                None Canary: "2" => "2"
                None HealthCheck: "foo" => "foo"
                None HealthyDeadline: "30000000000" => "30000000000"
                Edited MaxParallel: "5" => "7"
                None MinHealthyTime: "1000000000" => "1000000000"
                None ProgressDeadline: "30000000000" => "30000000000"
              }
            "#
        )
    );
}

/// F-1 (#25284): from 1.10.0 the legacy disconnect fields are no longer
/// fields of the group diff; 1.9.7 still flattened them by hand.
#[test]
fn legacy_disconnect_fields_leave_the_diff_with_f_1() {
    let g = |max: Value, stop: Value| json!({"Name": "foo", "MaxClientDisconnect": max, "StopAfterClientDisconnect": stop});
    let s = 1_000_000_000_i64;
    let (old, new) = (g(json!(10 * s), Value::Null), g(json!(20 * s), json!(s)));
    let at = |release| {
        let job = |g: Value| go_job(json!({"ID": "j", "TaskGroups": [g]}));
        let d = job_diff(
            Some(&job(old.clone())),
            &job(new.clone()),
            false,
            super::rules_of(release),
        );
        group_lines(&d.task_groups[0])
    };
    assert_eq!(
        at(v(1, 9, 7)),
        expect(
            r#"
            Edited group "foo"
              Edited MaxClientDisconnect: "10000000000" => "20000000000"
              Added StopAfterClientDisconnect: "" => "1000000000"
            "#
        )
    );
    assert_eq!(at(v(1, 10, 0)), expect(r#"Edited group "foo""#));
}
