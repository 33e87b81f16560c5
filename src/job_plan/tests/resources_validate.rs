//! `Resources.Validate`: nomad/structs/structs_test.go
//! `TestTask_Validate_Resources` (v1.3.0, v2.0.5) and the releases between
//! that changed it, and the kill timeout against the progress deadline
//! (`TestTaskGroup_Validate`, v2.0.5).

use serde_json::{Map, Value, json};

use super::super::resources_validate::resources_error;
use super::super::task_validate::task_head_errors;
use super::rules_of;
use crate::model::{Release, v};

fn obj(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

fn check(r: Value, release: Release) -> Option<String> {
    resources_error(&obj(r), rules_of(release))
}

/// The one-error list Nomad prints for `err`.
fn one(err: &str) -> Option<String> {
    Some(format!("1 error occurred:\n\t* {err}\n\n"))
}

#[test]
fn structs_test_go_v1_3_0_v2_0_5_task_validate_resources() {
    for r in [v(1, 3, 0), v(2, 0, 5)] {
        assert_eq!(
            check(json!({"CPU": 1, "MemoryMB": 10}), r),
            None,
            "minimum {r}"
        );
        assert_eq!(
            check(json!({"CPU": 100, "MemoryMB": 300}), r),
            None,
            "default {r}"
        );
        let full = json!({"CPU": 1000, "MemoryMB": 1000, "MemoryMaxMB": 2000,
            "Networks": [{"Mode": "host", "MBits": 1000}]});
        assert_eq!(check(full, r), None, "full {r}");
        assert_eq!(
            check(json!({"CPU": 0, "MemoryMB": 200}), r),
            one("1 error occurred:\n\t* minimum CPU value is 1; got 0\n\n")
        );
        assert_eq!(
            check(json!({"CPU": 100, "MemoryMB": 1}), r),
            one("1 error occurred:\n\t* minimum MemoryMB value is 10; got 1\n\n")
        );
        assert_eq!(
            check(json!({"CPU": 100, "MemoryMB": 200, "MemoryMaxMB": 10}), r),
            one("MemoryMaxMB value (10) should be larger than MemoryMB value (200)")
        );
        assert_eq!(
            check(json!({"CPU": 100, "Cores": 2, "MemoryMB": 200}), r),
            one("Task can only ask for 'cpu' or 'cores' resource, not both.")
        );
        // Cores stand in for the CPU minimum.
        assert_eq!(check(json!({"Cores": 2, "MemoryMB": 200}), r), None);
    }
    // #19670 (1.7.3): no memory limit.
    let unlimited = json!({"CPU": 100, "MemoryMB": 200, "MemoryMaxMB": -1});
    assert_eq!(check(unlimited.clone(), v(2, 0, 5)), None);
    assert_eq!(check(unlimited.clone(), v(1, 7, 3)), None);
    assert_eq!(
        check(unlimited, v(1, 7, 2)),
        one("MemoryMaxMB value (-1) should be larger than MemoryMB value (200)")
    );
    // #28297 (2.0.5): negative cores; before, a negative count is no CPU
    // ask and passes the minimum as cores do.
    let negative = json!({"Cores": -1, "MemoryMB": 200});
    assert_eq!(
        check(negative.clone(), v(2, 0, 5)),
        one("cores value (-1) cannot be negative")
    );
    assert_eq!(check(negative, v(2, 0, 4)), None);
}

#[test]
fn structs_test_go_v2_0_5_task_validate_resources_numa() {
    let devices = json!([{"Name": "evilcorp/gpu", "Count": 2}, {"Name": "fpga", "Count": 1},
        {"Name": "net/nic/model1", "Count": 1}]);
    let numa = json!({"CPU": 100, "MemoryMB": 200, "Devices": devices,
        "NUMA": {"Affinity": "require", "Devices": ["evilcorp/gpu", "bad/bad", "fpga"]}});
    assert_eq!(
        check(numa.clone(), v(2, 0, 5)),
        one("numa device \"bad/bad\" not requested as task resource")
    );
    // #23837 (1.9.0): not checked before.
    assert_eq!(check(numa, v(1, 8, 4)), None);
    let affinity = json!({"CPU": 100, "MemoryMB": 200, "NUMA": {"Affinity": "bad"}});
    assert_eq!(
        check(affinity, v(1, 9, 0)),
        one("numa affinity must be one of none, prefer, or require")
    );
}

/// #23696 (1.8.3, 1.9.0): the secrets size.
#[test]
fn secrets_size_within_memory_from_1_8_3() {
    let big = json!({"CPU": 100, "MemoryMB": 200, "SecretsMB": 300});
    assert_eq!(
        check(big.clone(), v(1, 8, 3)),
        one("SecretsMB value (300) cannot be larger than MemoryMB value (200)")
    );
    assert_eq!(check(big, v(1, 8, 2)), None);
    assert_eq!(
        check(
            json!({"CPU": 100, "MemoryMB": 200, "SecretsMB": -1}),
            v(2, 0, 5)
        ),
        one("SecretsMB value (-1) cannot be negative")
    );
}

/// `RequestedDevice.Validate` (structs_test.go `TestResource_Validate`'s
/// device cases, v1.3.0 and v2.0.5 alike): the name, a task-level operand,
/// a constraint's own faults.
#[test]
fn structs_test_go_v1_3_0_v2_0_5_requested_device_validate() {
    let r = json!({"CPU": 100, "MemoryMB": 200, "Devices": [
        {"Name": "gpu"},
        {"Constraints": [{"Operand": "distinct_hosts"},
                         {"LTarget": "${device.model}", "Operand": "="}],
         "Affinities": [{"LTarget": "${device.model}", "Operand": "=", "RTarget": "x",
                         "Weight": 0}]}]});
    for release in [v(1, 3, 0), v(2, 0, 5)] {
        assert_eq!(
            check(r.clone(), release),
            one(
                "device 2 failed validation: 4 errors occurred:\n\t* device name must be given as \
                 one of the following: type, vendor/type, or vendor/type/name\n\t* Constraint 1 \
                 validation failed: using unsupported operand \"distinct_hosts\"\n\t* Constraint \
                 2 validation failed: 1 error occurred:\n\t* Operator \"=\" requires an \
                 RTarget\n\n\n\t* Affinity 1 validation failed: 1 error occurred:\n\t* Affinity \
                 weight cannot be zero\n\n\n\n"
            )
        );
    }
}

/// From #17344 (1.6.0) a service task's kill timeout may not pass its
/// group's progress deadline (0 turns the check off); other job types and
/// earlier releases do not check it.
#[test]
fn structs_test_go_v2_0_5_task_group_validate_kill_timeout() {
    const MIN: i64 = 60_000_000_000;
    let t = obj(
        json!({"Name": "web", "Driver": "exec", "KillTimeout": 35 * MIN,
        "Resources": {"CPU": 100, "MemoryMB": 300},
        "LogConfig": {"MaxFiles": 1, "MaxFileSizeMB": 1}}),
    );
    let g = |progress: i64| {
        obj(json!({"EphemeralDisk": {"SizeMB": 300},
            "Update": {"ProgressDeadline": progress}}))
    };
    let rules = rules_of(v(2, 0, 5));
    assert_eq!(
        task_head_errors(&t, &g(10 * MIN), "service", rules),
        ["KillTimout (35m0s) longer than the group's ProgressDeadline (10m0s)"]
    );
    assert!(task_head_errors(&t, &g(0), "service", rules).is_empty());
    assert!(task_head_errors(&t, &g(10 * MIN), "system", rules).is_empty());
    assert!(task_head_errors(&t, &g(10 * MIN), "service", rules_of(v(1, 5, 17))).is_empty());
}
