//! `TaskGroup.Validate` (nomad/structs/structs.go; v1.3.0 :6303-6491,
//! v2.0.5 :7111-7300) in its order, for the checks a job from
//! `nomad job run -output` commonly fails; docs/job-plan.md lists what is
//! not replayed.

use serde_json::{Map, Value};

use super::actions_secrets_validate::secret_errors;
use super::disconnect_validate::{group_disconnect_errors, migrate_errors};
use super::group_service_validate::{group_service_error, script_check_error};
use super::identity_validate::identity_errors;
use super::json_map::text;
use super::multierror::multierror;
use super::network_validate::network_errors;
use super::placement_validate::{
    affinity_errors, constraint_errors, spread_errors, task_constraint_errors,
};
use super::reschedule_validate::reschedule_errors;
use super::service_validate::task_service_error;
use super::task_blocks_validate::task_block_errors;
use super::task_validate::{legacy_log_storage_error, task_head_errors};
use super::vault_csi_validate::csi_plugin_errors;
use super::volume_validate::{legacy_mount_errors, mount_errors, volume_errors};
use crate::model::go_quote;
use crate::time::format_duration as go_duration;
use crate::version::{Switch, Switches};

/// The group's errors, each a bullet of `Task group <name> validation
/// failed`.
/// `global_multiregion`: the job is multiregion and in region `global`,
/// where a group of count 0 may be below its scaling minimum.
pub(crate) fn group_errors(
    g: &Map<String, Value>,
    kind: &str,
    global_multiregion: bool,
    rules: Switches,
) -> Vec<String> {
    let mut errs = Vec::new();
    let name = text(g, "Name");
    if name.is_empty() {
        errs.push("Missing task group name".to_string());
    } else if name.contains('\0') {
        errs.push("Task group name contains null character".into());
    }
    if int(g, "Count") < 0 {
        errs.push("Task group count can't be negative".into());
    }
    let tasks: Vec<&Map<String, Value>> = g
        .get("Tasks")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .collect();
    if tasks.is_empty() {
        errs.push("Missing tasks for task group".into());
    }
    match group_disconnect_errors(g, kind, rules) {
        Ok(more) => errs.extend(more),
        Err(more) => {
            errs.extend(more);
            return errs;
        }
    }
    errs.extend(constraint_errors(g, rules));
    errs.extend(affinity_errors(g, kind, rules));
    // A policy's own list is one bullet until #19886, then its errors join
    // the group's.
    let nested = |inner: Vec<String>, errs: &mut Vec<String>| {
        if rules.has(Switch::GroupErrorsFlattened) {
            errs.extend(inner);
        } else if !inner.is_empty() {
            errs.push(multierror(&inner));
        }
    };
    match g.get("RestartPolicy").and_then(Value::as_object) {
        Some(r) => nested(restart_errors(r), &mut errs),
        None => errs.push(format!("Task Group {name} should have a restart policy")),
    }
    errs.extend(spread_errors(g, kind, rules));
    let sysbatch_refused = kind == "sysbatch" && rules.has(Switch::SysbatchNoReschedule);
    let reschedule = g.get("ReschedulePolicy").and_then(Value::as_object);
    if kind == "system" || sysbatch_refused {
        if reschedule.is_some() {
            errs.push(if rules.has(Switch::SysbatchNoReschedule) {
                "System or sysbatch jobs should not have a reschedule policy".into()
            } else {
                "System jobs should not have a reschedule policy".into()
            });
        }
    } else {
        match reschedule {
            Some(r) => nested(reschedule_errors(r), &mut errs),
            None => errs.push(format!("Task Group {name} should have a reschedule policy")),
        }
    }
    match g.get("EphemeralDisk").and_then(Value::as_object) {
        Some(d) if int(d, "SizeMB") < 10 => errs.push(format!(
            "minimum DiskMB value is 10; got {}",
            int(d, "SizeMB")
        )),
        Some(_) => {}
        None => errs.push(format!(
            "Task Group {name} should have an ephemeral disk object"
        )),
    }
    if let Some(u) = g.get("Update").and_then(Value::as_object) {
        if !matches!(kind, "service" | "system") {
            errs.push(format!("Job type {kind:?} does not allow update block"));
        }
        nested(update_errors(u), &mut errs);
    }
    nested(migrate_errors(g, kind), &mut errs);
    let mut names: Vec<String> = Vec::new();
    for (i, t) in tasks.iter().enumerate() {
        let name = text(t, "Name");
        if name.is_empty() {
            errs.push(format!("Task {} missing name", i + 1));
        } else if let Some(j) = names.iter().position(|n| *n == name) {
            errs.push(format!(
                "Task {} redefines '{name}' from task {}",
                i + 1,
                j + 1
            ));
        }
        names.push(name);
    }
    let leaders = tasks
        .iter()
        .filter(|t| t.get("Leader").and_then(Value::as_bool) == Some(true))
        .count();
    if leaders > 1 {
        errs.push("Only one task may be marked as leader".into());
    }
    errs.extend(volume_errors(g, kind, rules));
    let networks = network_errors(g, &tasks, rules);
    if !networks.is_empty() {
        errs.push(format!(
            "Task group network validation failed: {}",
            multierror(&networks)
        ));
    }
    errs.extend(group_service_error(g, rules));
    errs.extend(script_check_error(g));
    let scaling = scaling_errors(g, global_multiregion);
    if !scaling.is_empty() {
        errs.push(format!(
            "Task group scaling policy validation failed: {}",
            multierror(&scaling)
        ));
    }
    for t in &tasks {
        errs.extend(legacy_mount_errors(t, g, rules));
        let mut inner = Vec::new();
        inner.extend(task_head_errors(t, g, kind, rules));
        inner.extend(task_constraint_errors(t, rules));
        inner.extend(affinity_errors(t, kind, rules));
        inner.extend(task_service_error(t, g, rules));
        inner.extend(legacy_log_storage_error(t, g, rules));
        inner.extend(task_block_errors(t, g, rules));
        inner.extend(mount_errors(t, g, rules));
        inner.extend(csi_plugin_errors(t, rules));
        inner.extend(identity_errors(t, rules));
        inner.extend(secret_errors(t, rules));
        if !inner.is_empty() {
            errs.push(format!(
                "Task {} validation failed: {}",
                text(t, "Name"),
                multierror(&inner)
            ));
        }
    }
    errs
}

fn int(m: &Map<String, Value>, key: &str) -> i64 {
    m.get(key).and_then(Value::as_i64).unwrap_or(0)
}

/// `RestartPolicy.Validate` (v2.0.5 structs.go:6565-6586): the mode, an
/// ambiguous zero attempts, the 5s minimum interval, the attempts' delays
/// within the interval (Go's wrapping product).
fn restart_errors(r: &Map<String, Value>) -> Vec<String> {
    let mut errs = Vec::new();
    let mode = text(r, "Mode");
    if !matches!(mode.as_str(), "delay" | "fail") {
        errs.push(format!("Unsupported restart mode: {}", go_quote(&mode)));
    }
    let (attempts, interval, delay) = (int(r, "Attempts"), int(r, "Interval"), int(r, "Delay"));
    if attempts == 0 && mode != "fail" {
        errs.push(format!(
            "Restart policy {} with {attempts} attempts is ambiguous",
            go_quote(&mode)
        ));
    }
    if interval < 5_000_000_000 {
        errs.push(format!(
            "Interval can not be less than 5s (got {})",
            go_duration(interval)
        ));
    }
    if attempts.wrapping_mul(delay) > interval {
        errs.push(format!(
            "Nomad can't restart the TaskGroup {attempts} times in an interval of {} with a delay of {}",
            go_duration(interval),
            go_duration(delay)
        ));
    }
    errs
}

/// `UpdateStrategy.Validate` (v2.0.5 structs.go:5464-5505).
fn update_errors(u: &Map<String, Value>) -> Vec<String> {
    let mut errs = Vec::new();
    let check = text(u, "HealthCheck");
    if !matches!(check.as_str(), "checks" | "task_states" | "manual") {
        errs.push(format!("Invalid health check given: {}", go_quote(&check)));
    }
    let (parallel, canary) = (int(u, "MaxParallel"), int(u, "Canary"));
    if parallel < 0 {
        errs.push(format!(
            "Max parallel can not be less than zero: {parallel} < 0"
        ));
    }
    if canary < 0 {
        errs.push(format!(
            "Canary count can not be less than zero: {canary} < 0"
        ));
    }
    if canary == 0 && u.get("AutoPromote").and_then(Value::as_bool) == Some(true) {
        errs.push("Auto Promote requires a Canary count greater than zero".into());
    }
    let min = int(u, "MinHealthyTime");
    let healthy = int(u, "HealthyDeadline");
    let progress = int(u, "ProgressDeadline");
    let d = go_duration;
    if min < 0 {
        errs.push(format!(
            "Minimum healthy time may not be less than zero: {}",
            d(min)
        ));
    }
    if healthy <= 0 {
        errs.push(format!(
            "Healthy deadline must be greater than zero: {}",
            d(healthy)
        ));
    }
    if progress < 0 {
        errs.push(format!(
            "Progress deadline must be zero or greater: {}",
            d(progress)
        ));
    }
    if min >= healthy {
        errs.push(format!(
            "Minimum healthy time must be less than healthy deadline: {} > {}",
            d(min),
            d(healthy)
        ));
    }
    if progress != 0 && healthy >= progress {
        errs.push(format!(
            "Healthy deadline must be less than progress deadline: {} > {}",
            d(healthy),
            d(progress)
        ));
    }
    let stagger = int(u, "Stagger");
    if stagger <= 0 {
        errs.push(format!("Stagger must be greater than zero: {}", d(stagger)));
    }
    errs
}

/// `TaskGroup.validateScalingPolicy` (v2.0.5 structs.go:7583-7613) on the
/// policy as the agent converts it (a missing `max` is -1, a missing `min`
/// the group's count, the type `horizontal`).
fn scaling_errors(g: &Map<String, Value>, global_multiregion: bool) -> Vec<String> {
    let Some(p) = g.get("Scaling").and_then(Value::as_object) else {
        return Vec::new();
    };
    let count = int(g, "Count");
    let number = |k: &str, missing: i64| p.get(k).and_then(Value::as_i64).unwrap_or(missing);
    let (min, max) = (number("Min", count), number("Max", -1));
    let mut kind = text(p, "Type");
    if kind.is_empty() {
        kind = "horizontal".into();
    }
    let mut errs = Vec::new();
    if kind != "horizontal" {
        errs.push(format!("scaling policy type \"{kind}\" is not valid"));
    }
    if max < 0 {
        errs.push("maximum count must be specified and non-negative".into());
    } else if max < min {
        errs.push("maximum count must not be less than minimum count".into());
    }
    if min < 0 {
        errs.push("minimum count must be specified and non-negative".into());
    }
    let mut errs: Vec<String> = errs
        .into_iter()
        .map(|e| format!("Scaling policy invalid: {e}"))
        .collect();
    if max < count {
        errs.push(
            "Scaling policy invalid: task group count must not be greater than maximum count in scaling policy"
                .into(),
        );
    }
    if count < min && !(global_multiregion && count == 0) {
        errs.push(
            "Scaling policy invalid: task group count must not be less than minimum count in scaling policy"
                .into(),
        );
    }
    errs
}
