//! nomad/structs/structs_test.go `TestTaskGroup_Validate` (v1.3.0, v2.0.5),
//! `TestUpdateStrategy_Validate`, `TestScalingPolicy_Validate` and the
//! group errors' nesting before and after #19886 (1.8.0).

use serde_json::{Map, Value, json};

use super::super::admit;
use super::super::group_validate::group_errors;
use super::super::reschedule_validate::reschedule_errors;
use super::endpoint::mock_job;
use super::rules_of;
use crate::model::{Release, v};

const S: i64 = 1_000_000_000;

fn errors(g: Value, kind: &str, r: Release) -> Vec<String> {
    group_errors(g.as_object().unwrap(), kind, false, rules_of(r))
}

/// Whether each wanted text is in some error, as Nomad's `requireErrors`.
fn require_errors(errs: &[String], wanted: &[&str]) {
    let all = errs.join("\n");
    for w in wanted {
        assert!(all.contains(w), "{w:?} not in {all}");
    }
}

fn restart() -> Value {
    json!({"Interval": 300 * S, "Delay": 10 * S, "Attempts": 10, "Mode": "delay"})
}

#[test]
fn structs_test_go_v1_3_0_v2_0_5_task_group_validate() {
    // Nomad's group leaves the delay function out, so its reschedule
    // policy is refused too: one nested list at 1.3.0, flat at 2.0.5.
    let reschedule = [
        "Invalid delay function \"\", must be one of [\"constant\" \"exponential\" \"fibonacci\"]",
        "Max Delay cannot be less than 5s (got 5s)",
        "Max Delay cannot be less than Delay 5s (got 0s)",
    ];
    let nested = format!("3 errors occurred:\n\t* {}\n\n", reschedule.join("\n\t* "));
    for (r, policy) in [
        (v(1, 3, 0), vec![nested.as_str()]),
        (v(2, 0, 5), reschedule.to_vec()),
    ] {
        let g = json!({"Count": -1, "RestartPolicy": restart(),
            "ReschedulePolicy": {"Interval": 300 * S, "Attempts": 5, "Delay": 5 * S}});
        let mut want = vec![
            "Missing task group name",
            "Task group count can't be negative",
            "Missing tasks for task group",
        ];
        want.extend(policy);
        want.push("Task Group  should have an ephemeral disk object");
        assert_eq!(errors(g, "service", r), want);
        let reserved = |label: &str| json!({"Label": label, "Value": 123});
        let task = |name: &str, ports: Value| json!({"Name": name, "Resources": {"Networks": [{"ReservedPorts": ports}]}});
        let across = json!({"Tasks": [task("task-a", json!([reserved("foo")])),
                                      task("task-b", json!([reserved("foo")]))]});
        require_errors(
            &errors(across, "service", r),
            &["Static port 123 already reserved by task-a:foo"],
        );
        let within = json!({"Tasks": [task("task-a", json!([reserved("foo"), reserved("bar")]))]});
        require_errors(
            &errors(within, "service", r),
            &["Static port 123 already reserved by task-a:foo"],
        );
        let leaders = json!({"Name": "web", "Count": 1,
            "Tasks": [{"Name": "web", "Leader": true}, {"Name": "web", "Leader": true}, {}],
            "RestartPolicy": restart()});
        require_errors(
            &errors(leaders, "service", r),
            &[
                "should have an ephemeral disk object",
                "2 redefines 'web' from task 1",
                "Task 3 missing name",
                "Only one task may be marked as leader",
                "Task web validation failed",
            ],
        );
        let batch_update = json!({"Name": "web", "Count": 1, "Tasks": [{"Name": "web"}],
            "Update": {"Stagger": 30 * S, "MaxParallel": 1, "HealthCheck": "checks",
                       "MinHealthyTime": 10 * S, "HealthyDeadline": 300 * S,
                       "ProgressDeadline": 600 * S}});
        require_errors(
            &errors(batch_update, "batch", r),
            &["Job type \"batch\" does not allow update block"],
        );
        let labels = json!({"Networks": [{"DynamicPorts": [{"Label": "http", "To": 80}]}],
            "Tasks": [{"Resources": {"Networks": [{"DynamicPorts": [{"Label": "http", "To": 80}]}]}}]});
        assert_eq!(
            errors(labels, "service", r)[5],
            "Task group network validation failed: 1 error occurred:\n\t* Port label http \
             already in use by taskgroup network\n\n"
        );
    }
}

#[test]
fn structs_test_go_v2_0_5_update_strategy_validate() {
    let u = json!({"MaxParallel": -1, "HealthCheck": "foo", "MinHealthyTime": -10,
                   "HealthyDeadline": -15, "ProgressDeadline": -25, "AutoRevert": false,
                   "Canary": -1});
    let g = json!({"Name": "web", "Count": 1, "Tasks": [{"Name": "web", "Driver": "exec", "Resources": {"CPU": 100, "MemoryMB": 300}, "LogConfig": {"MaxFiles": 1, "MaxFileSizeMB": 1}}],
                   "RestartPolicy": restart(), "ReschedulePolicy": {}, "EphemeralDisk": {"SizeMB": 300}, "Update": u});
    assert_eq!(
        errors(g, "service", v(2, 0, 5)),
        [
            "Invalid health check given: \"foo\"",
            "Max parallel can not be less than zero: -1 < 0",
            "Canary count can not be less than zero: -1 < 0",
            "Minimum healthy time may not be less than zero: -10ns",
            "Healthy deadline must be greater than zero: -15ns",
            "Progress deadline must be zero or greater: -25ns",
            "Minimum healthy time must be less than healthy deadline: -10ns > -15ns",
            "Healthy deadline must be less than progress deadline: -15ns > -25ns",
            "Stagger must be greater than zero: 0s",
        ]
    );
}

#[test]
fn structs_test_go_v2_0_5_scaling_policy_validate() {
    let scaled = |count: i64, policy: Value| {
        let g = json!({"Name": "web", "Count": count, "Tasks": [{"Name": "web", "Driver": "exec", "Resources": {"CPU": 100, "MemoryMB": 300}, "LogConfig": {"MaxFiles": 1, "MaxFileSizeMB": 1}}],
                       "RestartPolicy": restart(), "ReschedulePolicy": {}, "EphemeralDisk": {"SizeMB": 300},
                       "Scaling": policy});
        errors(g, "service", v(2, 0, 5))
    };
    let one = |e: &str| {
        vec![format!(
            "Task group scaling policy validation failed: 1 error occurred:\n\t* Scaling policy invalid: {e}\n\n"
        )]
    };
    let full = json!({"Policy": {"key": "value"}, "Type": "horizontal", "Min": 5, "Max": 5,
                      "Enabled": true});
    assert!(scaled(5, full).is_empty());
    assert_eq!(
        scaled(1, json!({"Type": "not valid", "Min": 1, "Max": 1})),
        one("scaling policy type \"not valid\" is not valid")
    );
    assert_eq!(
        scaled(0, json!({"Type": "horizontal", "Min": -1, "Max": 5})),
        one("minimum count must be specified and non-negative")
    );
    assert_eq!(
        scaled(0, json!({"Min": 0, "Max": 10}))
            .len()
            .min(scaled(10, json!({"Min": 10, "Max": 10})).len()),
        0
    );
    assert_eq!(
        scaled(5, json!({"Type": "horizontal", "Min": 5})),
        [
            "Task group scaling policy validation failed: 2 errors occurred:\n\t* Scaling policy \
             invalid: maximum count must be specified and non-negative\n\t* Scaling policy \
             invalid: task group count must not be greater than maximum count in scaling \
             policy\n\n"
        ]
    );
    assert_eq!(
        scaled(0, json!({"Type": "horizontal", "Min": 10, "Max": 0})),
        [
            "Task group scaling policy validation failed: 2 errors occurred:\n\t* Scaling policy \
             invalid: maximum count must not be less than minimum count\n\t* Scaling policy \
             invalid: task group count must not be less than minimum count in scaling policy\n\n"
        ]
    );
    // A missing minimum is the group's count.
    assert!(scaled(3, json!({"Max": 4})).is_empty());
}

/// #19886: a restart policy's errors are one nested bullet of the group's
/// until 1.8.0, then the group's own.
#[test]
fn structs_go_v1_7_7_v1_8_0_group_policy_errors_flatten() {
    let mut job: Map<String, Value> = mock_job();
    job["TaskGroups"][0]["RestartPolicy"]["Attempts"] = json!(11);
    job["TaskGroups"][0]["EphemeralDisk"]["SizeMB"] = json!(5);
    job["TaskGroups"][0]["Tasks"][0]["LogConfig"] = json!({"MaxFiles": 1, "MaxFileSizeMB": 1});
    let head = "Nomad would reject the job: 1 error occurred:\n\t* Task group web validation \
                failed: 2 errors occurred:\n\t* ";
    let restart = "Nomad can't restart the TaskGroup 11 times in an interval of 10m0s with a \
                   delay of 1m0s";
    let disk = "minimum DiskMB value is 10; got 5";
    assert_eq!(
        admit(job.clone(), v(1, 7, 7), None)
            .unwrap_err()
            .to_string(),
        format!("{head}1 error occurred:\n\t* {restart}\n\n\n\t* {disk}")
    );
    assert_eq!(
        admit(job, v(1, 8, 0), None).unwrap_err().to_string(),
        format!("{head}{restart}\n\t* {disk}")
    );
}

#[test]
fn structs_test_go_v2_0_5_reschedule_policy_validate() {
    const M: i64 = 60 * S;
    let check = |policy: Value, want: &[&str]| {
        assert_eq!(
            reschedule_errors(policy.as_object().unwrap()),
            want,
            "{policy}"
        );
    };
    check(json!({"Attempts": 0, "Interval": 0}), &[]);
    check(json!({"Attempts": -1, "Interval": 5 * M}), &[]);
    check(
        json!({"Attempts": 1, "Interval": 5 * M, "Delay": 10 * S, "DelayFunction": "constant"}),
        &[],
    );
    check(
        json!({"Attempts": 5, "Interval": 60 * M, "Delay": 30 * S, "MaxDelay": 5 * M,
               "DelayFunction": "exponential"}),
        &[],
    );
    check(
        json!({"Attempts": 5, "Interval": 15 * M, "Delay": 10 * S, "MaxDelay": 5 * M,
               "DelayFunction": "fibonacci"}),
        &[],
    );
    check(
        json!({"Attempts": 1, "Interval": S, "DelayFunction": "blah"}),
        &[
            "Delay cannot be less than 5s (got 0s)",
            "Invalid delay function \"blah\", must be one of [\"constant\" \"exponential\" \"fibonacci\"]",
            "Max Delay cannot be less than 5s (got 0s)",
            "Interval cannot be less than 15s (got 1s)",
        ],
    );
    check(
        json!({"Attempts": 1, "Interval": 8 * S, "DelayFunction": "exponential",
               "Delay": 15 * S, "MaxDelay": 5 * S}),
        &[
            "Max Delay cannot be less than Delay 15s (got 5s)",
            "Interval cannot be less than 15s (got 8s)",
        ],
    );
    check(
        json!({"Attempts": 1, "Interval": S, "DelayFunction": "constant"}),
        &[
            "Delay cannot be less than 5s (got 0s)",
            "Interval cannot be less than 15s (got 1s)",
        ],
    );
    check(
        json!({"Attempts": 10, "Interval": 60 * M, "Delay": 20 * M, "DelayFunction": "constant"}),
        &[
            "Nomad can only make 3 attempts in 1h0m0s with initial delay 20m0s and delay function \"constant\"",
            "Set the interval to at least 3h20m0s to accommodate 10 attempts",
        ],
    );
    check(
        json!({"Attempts": 10, "Interval": 30 * M, "Delay": 5 * M, "MaxDelay": 40 * M,
               "DelayFunction": "exponential"}),
        &[
            "Nomad can only make 3 attempts in 30m0s with initial delay 5m0s, delay function \"exponential\", and delay ceiling 40m0s",
            "Set the interval to at least 4h40m0s to accommodate 10 attempts",
        ],
    );
    check(
        json!({"Attempts": 10, "Interval": 60 * M, "Delay": 20 * M, "MaxDelay": 80 * M,
               "DelayFunction": "fibonacci"}),
        &[
            "Nomad can only make 4 attempts in 1h0m0s with initial delay 20m0s, delay function \"fibonacci\", and delay ceiling 1h20m0s",
            "Set the interval to at least 8h0m0s to accommodate 10 attempts",
        ],
    );
    check(
        json!({"Attempts": 1, "Unlimited": true, "DelayFunction": "exponential",
               "Delay": 5 * M, "MaxDelay": 60 * M}),
        &[
            "Interval must be a non zero value if Attempts > 0",
            "Reschedule Policy with Attempts = 1, Interval = 0s, and Unlimited = true is ambiguous",
            "If Attempts >0, Unlimited cannot also be set to true",
        ],
    );
    check(
        json!({"Attempts": 1, "Interval": S, "Unlimited": true, "DelayFunction": "exponential"}),
        &[
            "Reschedule Policy with Attempts = 1, Interval = 1s, and Unlimited = true is ambiguous",
            "If Attempts >0, Unlimited cannot also be set to true",
            "Delay cannot be less than 5s (got 0s)",
            "Max Delay cannot be less than 5s (got 0s)",
        ],
    );
    check(
        json!({"Unlimited": true, "DelayFunction": "exponential", "Delay": 5 * S,
               "MaxDelay": 60 * M}),
        &[],
    );
}

/// `TestTaskGroupNetwork_Validate` (v2.0.5): `ignore_collision` lets two
/// static ports share a value in host mode only; before #23956 (1.9.0) the
/// field is not Nomad's and the repeat is refused.
#[test]
fn structs_test_go_v2_0_5_task_group_network_validate_ignore_collision() {
    let group = |mode: &str| {
        let port = |label: &str| json!({"Label": label, "Value": 10, "IgnoreCollision": true});
        json!({"Name": "web", "Networks": [{"Mode": mode,
            "ReservedPorts": [port("one"), port("two")]}]})
    };
    let networks = |mode: &str, r: Release| {
        errors(group(mode), "service", r)
            .into_iter()
            .filter(|e| e.starts_with("Task group network"))
            .collect::<Vec<_>>()
    };
    assert_eq!(networks("host", v(2, 0, 5)), Vec::<String>::new());
    let refused = networks("not-host", v(2, 0, 5)).join("\n");
    assert!(
        refused.contains(
            "Port \"one\" collision may not be ignored on non-host network mode \"not-host\""
        ),
        "{refused}"
    );
    let before = networks("host", v(1, 8, 4)).join("\n");
    assert!(
        before.contains("Static port 10 already reserved by taskgroup network:one"),
        "{before}"
    );
}

/// `TestTaskGroupNetwork_Validate`'s hostname (v1.3.0, v2.0.5) and CNI
/// argument cases (v2.0.5; #23538, 1.8.3 and 1.9.0).
#[test]
fn structs_test_go_v1_3_0_v2_0_5_task_group_network_validate_hostname_and_cni() {
    use super::super::network_validate::network_errors;
    let check = |networks: Value, r: Release| {
        let g = json!({"Networks": networks});
        network_errors(g.as_object().unwrap(), &[], rules_of(r))
    };
    for r in [v(1, 3, 0), v(2, 0, 5)] {
        let named = |h: &str| json!([{"Mode": "bridge", "Hostname": h}]);
        assert!(check(named("foobar"), r).is_empty());
        assert!(check(named("${NOMAD_ALLOC_ID}..x"), r).is_empty());
        assert!(check(named("web.example.com."), r).is_empty());
        for bad in [
            "............",
            "a..b",
            &"x".repeat(64),
            &"abcdefgh.".repeat(29),
        ] {
            assert_eq!(
                check(named(bad), r),
                ["Hostname is not a valid DNS name"],
                "{bad}"
            );
        }
        assert!(check(named(&"x".repeat(63)), r).is_empty());
    }
    let cni = |args: Vec<Value>| {
        Value::Array(
            args.into_iter()
                .map(|a| json!({"CNI": {"Args": a}}))
                .collect(),
        )
    };
    let duplicate = cni(vec![
        json!({"static": "first_value"}),
        json!({"static": "new_value"}),
    ]);
    assert_eq!(
        check(duplicate.clone(), v(2, 0, 5)),
        ["duplicate CNI arg \"static\""]
    );
    assert!(check(duplicate, v(1, 8, 2)).is_empty());
    let valid = cni(vec![
        json!({"static": "first_value"}),
        json!({"new_key": "new_value"}),
        json!({"newest_key": "new_value", "second_key": "second_value"}),
    ]);
    assert!(check(valid, v(1, 8, 3)).is_empty());
    assert_eq!(
        check(cni(vec![json!({"static;": "first_value;"})]), v(1, 9, 0)),
        [
            "invalid ';' character in CNI arg key \"static;\"",
            "invalid ';' character in CNI arg value \"first_value;\""
        ]
    );
}
