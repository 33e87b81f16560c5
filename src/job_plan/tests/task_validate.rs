//! The head of `Task.Validate`: nomad/structs/structs_test.go
//! `TestTask_Validate` and `TestTask_Validate_LogConfig` (v1.3.0, v2.0.5).

use serde_json::{Map, Value, json};

use super::super::task_validate::{legacy_log_storage_error, task_head_errors};
use super::rules_of;
use crate::model::{Release, v};

fn obj(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

fn head(t: Value, disk: i64, r: Release) -> Vec<String> {
    let g = obj(json!({"EphemeralDisk": {"SizeMB": disk}}));
    task_head_errors(&obj(t), &g, "service", rules_of(r))
}

#[test]
fn structs_test_go_v1_3_0_v2_0_5_task_validate() {
    let logs = json!({"MaxFiles": 10, "MaxFileSizeMB": 10});
    for r in [v(1, 3, 0), v(2, 0, 5)] {
        assert_eq!(
            head(json!({"LogConfig": logs}), 300, r),
            [
                "Missing task name",
                "Missing task driver",
                "Missing task resources"
            ]
        );
        assert!(
            head(json!({"Name": "web/foo"}), 300, r)
                .contains(&"Task name cannot include slashes".to_string())
        );
        let ok = json!({"Name": "web", "Driver": "docker",
            "Resources": {"CPU": 100, "MemoryMB": 100}, "LogConfig": logs});
        assert!(head(ok, 200, r).is_empty(), "{r}");
        let timeouts = json!({"Name": "web", "Driver": "docker", "Resources": {"CPU": 100, "MemoryMB": 100},
            "LogConfig": logs, "KillTimeout": -1, "ShutdownDelay": -1});
        assert_eq!(
            head(timeouts, 200, r),
            [
                "KillTimeout must be a positive value",
                "ShutdownDelay must be a positive value"
            ]
        );
    }
    // #27001 (1.11.0): the name `alloc` is refused.
    let alloc = json!({"Name": "alloc", "Driver": "exec", "Resources": {"CPU": 100, "MemoryMB": 100}, "LogConfig": logs});
    assert_eq!(
        head(alloc.clone(), 300, v(2, 0, 5)),
        ["Task cannot be named \"alloc\""]
    );
    assert!(head(alloc, 300, v(1, 10, 5)).is_empty());
}

/// `TestTask_Validate_LogConfig`: logs that do not fit the disk are
/// refused, within the log config's list from #17344 (1.6.0), after the
/// task's services before.
#[test]
fn structs_test_go_v1_3_0_v2_0_5_task_validate_log_config() {
    let t = json!({"Name": "web", "Driver": "exec", "Resources": {"CPU": 100, "MemoryMB": 100},
        "LogConfig": {"MaxFiles": 10, "MaxFileSizeMB": 10}});
    let words = "log storage (100 MB) must be less than requested disk capacity (1 MB)";
    assert_eq!(
        head(t.clone(), 1, v(2, 0, 5)),
        [format!("1 error occurred:\n\t* {words}\n\n")]
    );
    let g = obj(json!({"EphemeralDisk": {"SizeMB": 1}}));
    assert_eq!(
        legacy_log_storage_error(&obj(t.clone()), &g, rules_of(v(2, 0, 5))),
        None
    );
    assert!(head(t.clone(), 1, v(1, 5, 17)).is_empty());
    assert_eq!(
        legacy_log_storage_error(&obj(t), &g, rules_of(v(1, 5, 17))).as_deref(),
        Some(words)
    );
    let bad = json!({"Name": "web", "Driver": "exec", "Resources": {"CPU": 100, "MemoryMB": 100},
        "LogConfig": {"MaxFiles": 0, "MaxFileSizeMB": 0}});
    assert_eq!(
        head(bad, 300, v(1, 3, 0)),
        [
            "2 errors occurred:\n\t* minimum number of files is 1; got 0\n\t* minimum file size is 1MB; got 0\n\n"
        ]
    );
}
