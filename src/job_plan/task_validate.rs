//! The head of `Task.Validate` (nomad/structs/structs.go; v1.3.0 :7108,
//! v2.0.5 :8191): the task's name, driver, kill timeout (from #17344,
//! 1.6.0, against a service group's progress deadline) and shutdown delay,
//! its resources (`Resources.Validate`), and its log config
//! (`LogConfig.Validate`).

use serde_json::{Map, Value};

use super::json_map::text;
use super::multierror::multierror;
use super::resources_validate::resources_error;
use crate::time::format_duration as go_duration;
use crate::version::{Switch, Switches};

fn int(m: &Map<String, Value>, key: &str) -> i64 {
    m.get(key).and_then(Value::as_i64).unwrap_or(0)
}

/// The task's errors before its constraints, in Nomad's order.
pub(crate) fn task_head_errors(
    t: &Map<String, Value>,
    g: &Map<String, Value>,
    kind: &str,
    rules: Switches,
) -> Vec<String> {
    let mut errs = Vec::new();
    let name = text(t, "Name");
    if name.is_empty() {
        errs.push("Missing task name".to_string());
    }
    if name == "alloc" && rules.has(Switch::TaskNamedAlloc) {
        errs.push("Task cannot be named \"alloc\"".into());
    }
    if name.contains(['/', '\\']) {
        errs.push("Task name cannot include slashes".into());
    } else if name.contains('\0') {
        errs.push("Task name cannot include null characters".into());
    }
    if text(t, "Driver").is_empty() {
        errs.push("Missing task driver".into());
    }
    let kill = int(t, "KillTimeout");
    if kill < 0 {
        errs.push("KillTimeout must be a positive value".into());
    } else if kind == "service" && rules.has(Switch::TaskValidateRefactor) {
        let progress = g
            .get("Update")
            .and_then(Value::as_object)
            .map_or(0, |u| int(u, "ProgressDeadline"));
        if progress > 0 && kill > progress {
            errs.push(format!(
                "KillTimout ({}) longer than the group's ProgressDeadline ({})",
                go_duration(kill),
                go_duration(progress)
            ));
        }
    }
    if int(t, "ShutdownDelay") < 0 {
        errs.push("ShutdownDelay must be a positive value".into());
    }
    match t.get("Resources").and_then(Value::as_object) {
        None => errs.push("Missing task resources".into()),
        Some(r) => errs.extend(resources_error(r, rules)),
    }
    match t.get("LogConfig").and_then(Value::as_object) {
        None => errs.push("Missing Log Config".into()),
        Some(l) => {
            let mut inner = Vec::new();
            let (files, size) = (int(l, "MaxFiles"), int(l, "MaxFileSizeMB"));
            if files < 1 {
                inner.push(format!("minimum number of files is 1; got {files}"));
            }
            if size < 1 {
                inner.push(format!("minimum file size is 1MB; got {size}"));
            }
            if rules.has(Switch::TaskValidateRefactor) {
                inner.extend(log_storage_error(t, g));
            }
            if !inner.is_empty() {
                errs.push(multierror(&inner));
            }
        }
    }
    errs
}

/// Before #17344 (1.6.0) the logs' room on the group's disk is checked
/// after the task's services, as its own error.
pub(crate) fn legacy_log_storage_error(
    t: &Map<String, Value>,
    g: &Map<String, Value>,
    rules: Switches,
) -> Option<String> {
    (!rules.has(Switch::TaskValidateRefactor))
        .then(|| log_storage_error(t, g))
        .flatten()
}

/// The task's log files must fit within the group's ephemeral disk.
fn log_storage_error(t: &Map<String, Value>, g: &Map<String, Value>) -> Option<String> {
    let l = t.get("LogConfig").and_then(Value::as_object)?;
    let disk = g.get("EphemeralDisk").and_then(Value::as_object)?;
    let usage = int(l, "MaxFiles").wrapping_mul(int(l, "MaxFileSizeMB"));
    let size = int(disk, "SizeMB");
    (size <= usage).then(|| {
        format!("log storage ({usage} MB) must be less than requested disk capacity ({size} MB)")
    })
}
