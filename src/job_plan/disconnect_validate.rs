//! The checks of a group's disconnect settings, its run-time limit and its
//! migrate block: the legacy fields (`max_client_disconnect`,
//! `stop_after_client_disconnect`, `prevent_reschedule_on_lost`) until F-1
//! ignores them, the `disconnect` block from D-4a
//! (`DisconnectStrategy.Validate`, v2.0.5 nomad/structs/group.go:66), the
//! `max_run_duration` of #27803 and `MigrateStrategy.Validate` (v2.0.5
//! nomad/structs/structs.go:6836).

use serde_json::{Map, Value};

use super::json_map::text;
use crate::model::go_quote;
use crate::time::format_duration as go_duration;
use crate::version::{Switch, Switches};

fn duration(m: &Map<String, Value>, key: &str) -> Option<i64> {
    m.get(key).and_then(Value::as_i64)
}

fn set(m: &Map<String, Value>, key: &str) -> bool {
    m.get(key).is_some_and(|v| !v.is_null())
}

/// What `Job.Validate` checks of each group before the group's own
/// validation (v1.9.7 nomad/structs/structs.go:4640-4670, v2.0.5
/// :4837-4850): the shutdown delay, the legacy
/// `stop_after_client_disconnect` (until F-1), the count of a system group,
/// and from D-3 to F-1 `prevent_reschedule_on_lost` with reschedule
/// attempts.
pub(crate) fn job_group_errors(g: &Map<String, Value>, kind: &str, rules: Switches) -> Vec<String> {
    let mut errs = Vec::new();
    if duration(g, "ShutdownDelay").is_some_and(|d| d < 0) {
        errs.push("ShutdownDelay must be a positive value".to_string());
    }
    let legacy = !rules.has(Switch::F1);
    match duration(g, "StopAfterClientDisconnect") {
        Some(d) if legacy && d > 0 && !matches!(kind, "batch" | "service") => errs
            .push("stop_after_client_disconnect can only be set in batch and service jobs".into()),
        Some(d) if legacy && d < 0 => {
            errs.push("stop_after_client_disconnect must be a positive value".into());
        }
        _ => {}
    }
    let count = g.get("Count").and_then(Value::as_i64).unwrap_or(0);
    if kind == "system" && count > 1 {
        errs.push(format!(
            "Job task group {} has count {count}. Count cannot exceed 1 with system scheduler",
            text(g, "Name")
        ));
    }
    // At 1.7.2 Nomad reads the attempts of a nil policy (a system group's)
    // and panics; #19656 (1.7.3) checks it first. Both are read as 1.7.3.
    let attempts = g
        .get("ReschedulePolicy")
        .and_then(|r| r.get("Attempts"))
        .and_then(Value::as_i64)
        .unwrap_or(0);
    let prevent = g.get("PreventRescheduleOnLost").and_then(Value::as_bool) == Some(true);
    if legacy && rules.has(Switch::D3) && set(g, "MaxClientDisconnect") && attempts > 0 && prevent {
        errs.push(
            "max_client_disconnect and prevent_reschedule_on_lost cannot be enabled when rechedule.attempts > 0"
                .into(),
        );
    }
    errs
}

/// The group's disconnect checks, after its tasks are counted
/// (v1.9.7 structs.go:7486-7519, v2.0.5 :7127-7146). `Err` holds the
/// group's errors when Nomad stops validating the group there: from D-4a
/// to F-1, a legacy field beside its `disconnect` counterpart returns at
/// once.
pub(crate) fn group_disconnect_errors(
    g: &Map<String, Value>,
    kind: &str,
    rules: Switches,
) -> Result<Vec<String>, Vec<String>> {
    let mut errs = Vec::new();
    let legacy = !rules.has(Switch::F1);
    let max_client = duration(g, "MaxClientDisconnect");
    if legacy && set(g, "MaxClientDisconnect") && set(g, "StopAfterClientDisconnect") {
        errs.push("Task group cannot be configured with both max_client_disconnect and stop_after_client_disconnect".to_string());
    }
    if legacy && max_client.is_some_and(|d| d < 0) {
        errs.push("max_client_disconnect cannot be negative".into());
    }
    let disconnect = g
        .get("Disconnect")
        .and_then(Value::as_object)
        .filter(|_| rules.has(Switch::D4a));
    if let Some(d) = disconnect {
        if legacy {
            let conflict = if set(g, "MaxClientDisconnect")
                && duration(d, "LostAfter").unwrap_or(0) > 0
            {
                Some("using both lost_after and max_client_disconnect is not allowed")
            } else if set(g, "StopAfterClientDisconnect") && set(d, "StopOnClientAfter") {
                Some(
                    "using both stop_after_client_disconnect and stop_on_client_after is not allowed",
                )
            } else if g.get("PreventRescheduleOnLost").and_then(Value::as_bool) == Some(true)
                && set(d, "Replace")
            {
                Some("using both prevent_reschedule_on_lost and replace is not allowed")
            } else {
                None
            };
            if let Some(conflict) = conflict {
                errs.push(conflict.into());
                return Err(errs);
            }
        }
        errs.extend(disconnect_errors(d, kind));
    }
    if rules.has(Switch::MaxRunDuration) && set(g, "MaxRunDuration") {
        if duration(g, "MaxRunDuration").unwrap_or(0) <= 0 {
            errs.push("MaxRunDuration must be greater than zero".into());
        }
        if !matches!(kind, "batch" | "sysbatch") {
            errs.push(format!("Job type {kind:?} does not allow max_run_duration"));
        }
    }
    Ok(errs)
}

/// `DisconnectStrategy.Validate`: stop and lost durations, the job types
/// that may stop on the client, the reconcile option.
fn disconnect_errors(d: &Map<String, Value>, kind: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let stop = duration(d, "StopOnClientAfter");
    if set(d, "StopOnClientAfter") {
        if stop.unwrap_or(0) < 0 {
            errs.push("stop_after cannot be a negative duration".to_string());
        }
        if !matches!(kind, "service" | "batch") {
            errs.push("stop_after can only be used with service or batch job types".into());
        }
    }
    let lost = duration(d, "LostAfter").unwrap_or(0);
    if lost < 0 {
        errs.push("lost_after cannot be a negative duration".into());
    }
    if set(d, "StopOnClientAfter") && lost != 0 {
        errs.push("Disconnect cannot be configured with both lost_after and stop_after".into());
    }
    let reconcile = text(d, "Reconcile");
    if !matches!(
        reconcile.as_str(),
        "" | "best_score" | "longest_running" | "keep_original" | "keep_replacement"
    ) {
        errs.push(format!("reconcile option is invalid: {reconcile}"));
    }
    errs
}

/// The migrate block: `MigrateStrategy.Validate` in a service job, refused
/// in any other.
pub(crate) fn migrate_errors(g: &Map<String, Value>, kind: &str) -> Vec<String> {
    let Some(m) = g.get("Migrate").and_then(Value::as_object) else {
        return Vec::new();
    };
    if kind != "service" {
        return vec![format!("Job type {kind:?} does not allow migrate block")];
    }
    let mut errs = Vec::new();
    let parallel = m.get("MaxParallel").and_then(Value::as_i64).unwrap_or(0);
    if parallel < 0 {
        errs.push(format!("MaxParallel must be >= 0 but found {parallel}"));
    }
    match text(m, "HealthCheck").as_str() {
        "checks" | "task_states" => {}
        "" if parallel > 0 => errs.push("Missing HealthCheck".into()),
        "" => {}
        other => errs.push(format!("Invalid HealthCheck: {}", go_quote(other))),
    }
    let min = duration(m, "MinHealthyTime").unwrap_or(0);
    let deadline = duration(m, "HealthyDeadline").unwrap_or(0);
    if min < 0 {
        errs.push(format!(
            "MinHealthyTime is {} and must be >= 0",
            go_duration(min)
        ));
    }
    if deadline < 0 {
        errs.push(format!(
            "HealthyDeadline is {} and must be >= 0",
            go_duration(deadline)
        ));
    }
    if min > deadline {
        errs.push("MinHealthyTime must be less than HealthyDeadline".into());
    }
    errs
}
