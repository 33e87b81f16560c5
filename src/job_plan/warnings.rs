//! The register endpoint's warnings (`structs.Job.Warnings` and the Vault
//! identity warnings of nomad/job_endpoint_hooks.go `jobValidate`, then
//! `memoryOversubscriptionValidate`), as the release words them.

use serde_json::{Map, Value};

use super::block_warnings;
use super::multierror::multierror;
use crate::model::Release;
use crate::version::{Switch, Switches};

/// The warnings of the canonical job, one per entry of Nomad's list.
pub fn job_warnings(job: &Map<String, Value>, release: Release) -> Vec<String> {
    let groups: Vec<&Map<String, Value>> = job
        .get("TaskGroups")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .collect();
    let mut out = Vec::new();
    let (mut any_auto, mut all_auto) = (false, true);
    for g in &groups {
        let inner = group_warnings(g, release);
        if !inner.is_empty() {
            let name = g.get("Name").and_then(Value::as_str).unwrap_or_default();
            out.push(format!(
                "Group {name:?} has warnings: {}",
                multierror(&inner)
            ));
        }
        if let Some(u) = g.get("Update").and_then(Value::as_object) {
            let auto = u
                .get("AutoPromote")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let canary = u.get("Canary").and_then(Value::as_i64).unwrap_or(0);
            any_auto |= auto;
            all_auto &= canary == 0 || auto;
        }
    }
    for g in &groups {
        out.extend(block_warnings::shutdown_delays(g, release));
    }
    if any_auto && !all_auto {
        out.push("auto_promote must be true for all groups to enable automatic promotion".into());
    }
    let spec = job
        .get("Periodic")
        .and_then(|p| p.get("Spec"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    if Switches::of(release).has(Switch::PeriodicCrons) && !spec.is_empty() {
        out.push(
            "cron is deprecated and may be removed in a future release. Use crons instead".into(),
        );
    }
    // `jobValidate` adds the Vault identity warnings after the job's own.
    out.extend(super::identities::identity_checks(job, release).0);
    out
}

/// `memoryOversubscriptionValidate` (v1.3.0 and v2.0.5
/// nomad/job_endpoint_hooks.go): with memory oversubscription off for the
/// job (the cluster's setting, from 1.6.0 under its node pool's own), each
/// task asking for `memory_max` is told it will be ignored.
pub(crate) fn memory_max_warnings(job: &Map<String, Value>, oversubscription: bool) -> Vec<String> {
    if oversubscription {
        return Vec::new();
    }
    let list = |v: Option<&Value>| v.and_then(Value::as_array).cloned().unwrap_or_default();
    let mut out = Vec::new();
    for g in list(job.get("TaskGroups")) {
        let group = g.get("Name").and_then(Value::as_str).unwrap_or_default();
        for t in list(g.get("Tasks")) {
            let max = t.pointer("/Resources/MemoryMaxMB").and_then(Value::as_i64);
            if max.is_some_and(|m| m != 0) {
                let task = t.get("Name").and_then(Value::as_str).unwrap_or_default();
                out.push(format!(
                    "Memory oversubscription is not enabled; Task \"{group}.{task}\" memory_max \
                     value will be ignored. Update the Scheduler Configuration to allow \
                     oversubscription."
                ));
            }
        }
    }
    out
}

fn group_warnings(g: &Map<String, Value>, release: Release) -> Vec<String> {
    let int = |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_i64).unwrap_or(0);
    let set = |k: &str| g.get(k).is_some_and(|v| !v.is_null());
    let mut out = Vec::new();
    let count = int(g, "Count");
    if let Some(u) = g.get("Update").and_then(Value::as_object) {
        let parallel = int(u, "MaxParallel");
        if count > 1 && parallel > count {
            out.push(format!(
                "Update max parallel count is greater than task group count ({parallel} > {count}). \
                 A destructive change would result in the simultaneous replacement of all allocations."
            ));
        }
    }
    let prevent = g
        .get("PreventRescheduleOnLost")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let rules = Switches::of(release);
    if rules.has(Switch::F1) {
        if set("MaxClientDisconnect") {
            out.push(
                "MaxClientDisconnect is deprecated and ignored in favor of Disconnect.LostAfter"
                    .into(),
            );
        }
        if set("StopAfterClientDisconnect") {
            out.push("StopAfterClientDisconnect is deprecated and ignored favor of Disconnect.StopOnClientAfter".into());
        }
        if prevent {
            out.push(
                "PreventRescheduleOnLost is deprecated and ignored in favor of Disconnect.Replace"
                    .into(),
            );
        }
    } else if rules.has(Switch::D4a) {
        if set("MaxClientDisconnect") {
            out.push("MaxClientDisconnect will be deprecated favor of Disconnect.LostAfter".into());
        }
        if set("StopAfterClientDisconnect") {
            out.push("StopAfterClientDisconnect will be deprecated favor of Disconnect.StopOnClientAfter".into());
        }
        if prevent {
            out.push(
                "PreventRescheduleOnLost will be deprecated favor of Disconnect.Replace".into(),
            );
        }
    }
    let first_mbits = g
        .get("Networks")
        .and_then(Value::as_array)
        .and_then(|n| n.first())
        .and_then(|n| n.get("MBits"))
        .and_then(Value::as_i64)
        .unwrap_or(0);
    if first_mbits > 0 {
        out.push("mbits has been deprecated as of Nomad 0.12.0. Please remove mbits from the network block".into());
    }
    out.extend(block_warnings::services(g, release));
    for t in g
        .get("Tasks")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(t) = t.as_object() else { continue };
        let inner = task_warnings(t, release);
        if !inner.is_empty() {
            let name = t.get("Name").and_then(Value::as_str).unwrap_or_default();
            out.push(format!(
                "Task {name:?} has warnings: {}",
                multierror(&inner)
            ));
        }
    }
    out
}

fn task_warnings(t: &Map<String, Value>, release: Release) -> Vec<String> {
    let resources = t.get("Resources");
    let iops = resources
        .and_then(|r| r.get("IOPS"))
        .and_then(Value::as_i64)
        .unwrap_or(0);
    let networks = resources
        .and_then(|r| r.get("Networks"))
        .and_then(Value::as_array)
        .is_some_and(|n| !n.is_empty());
    let mut out = Vec::new();
    if iops != 0 {
        out.push(format!(
            "IOPS has been deprecated as of Nomad 0.9.0. Please remove IOPS from resource {}.",
            block_warnings::block_word(release)
        ));
    }
    if networks {
        out.push(
            "task network resources have been deprecated as of Nomad 0.12.0. Please configure \
             networking via group network block."
                .into(),
        );
    }
    out.extend(block_warnings::templates(t, release));
    out.extend(block_warnings::services(t, release));
    out.extend(block_warnings::identities(t, release));
    out
}

/// `helper.MergeMultierrorWarnings`: the text `nomad job plan` prints.
pub fn merged(warnings: &[String]) -> String {
    let head = match warnings.len() {
        1 => "1 warning:\n".to_string(),
        n => format!("{n} warnings:\n"),
    };
    warnings
        .iter()
        .fold(head, |acc, w| format!("{acc}\n* {}", w.trim()))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::v;

    /// structs_test.go `TestJob_Warnings` (v1.10.5) cases, and the group
    /// deprecations of 1.8 and 1.10.
    #[test]
    fn structs_test_go_v1_10_5_job_warnings() {
        let job = |groups: Value| -> Map<String, Value> {
            serde_json::from_value(json!({"TaskGroups": groups})).unwrap()
        };
        let higher = job(json!([{"Name": "web", "Count": 2, "Update": {"MaxParallel": 10}}]));
        let got = job_warnings(&higher, v(1, 10, 5));
        assert_eq!(got.len(), 1);
        assert!(got[0].starts_with("Group \"web\" has warnings: 1 error occurred:\n\t* Update max parallel count is greater than task group count (10 > 2)."), "{got:?}");
        let ok = job(json!([{"Name": "web", "Count": 10, "Update": {"MaxParallel": 5}}]));
        assert!(job_warnings(&ok, v(1, 10, 5)).is_empty());
        let mixed = job(json!([
            {"Name": "a", "Count": 1, "Update": {"AutoPromote": true, "Canary": 1}},
            {"Name": "b", "Count": 1, "Update": {"AutoPromote": false, "Canary": 1}}]));
        assert_eq!(
            job_warnings(&mixed, v(1, 10, 5)),
            ["auto_promote must be true for all groups to enable automatic promotion"]
        );
        let legacy =
            job(json!([{"Name": "web", "Count": 1, "MaxClientDisconnect": 60_000_000_000_i64}]));
        assert!(
            job_warnings(&legacy, v(1, 10, 5))[0]
                .contains("MaxClientDisconnect is deprecated and ignored")
        );
        assert!(
            job_warnings(&legacy, v(1, 8, 0))[0].contains("MaxClientDisconnect will be deprecated")
        );
        assert!(job_warnings(&legacy, v(1, 7, 7)).is_empty());
    }

    #[test]
    fn warnings_merge_as_nomad_prints_them() {
        assert_eq!(merged(&["a".into()]), "1 warning:\n\n* a");
        assert_eq!(
            merged(&["a".into(), "b\n\n".into()]),
            "2 warnings:\n\n* a\n* b"
        );
    }
}
