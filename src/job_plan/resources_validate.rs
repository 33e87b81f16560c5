//! `Resources.Validate` (v1.3.0 nomad/structs/structs.go:2315, v2.0.5
//! :2420) on a task's resources as the agent converts them: the API's
//! `disk` never reaches the server (v2.0.5
//! command/agent/job_endpoint.go `ApiResourcesToStructs`), so Nomad's
//! refusal of task-level disk is not reachable from a job file.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::json_map::{list, text};
use super::multierror::multierror;
use super::placement_validate::device_errors;
use crate::version::{Switch, Switches};

fn int(m: &Map<String, Value>, key: &str) -> i64 {
    m.get(key).and_then(Value::as_i64).unwrap_or(0)
}

/// The resources' faults as one nested list, or none.
pub(crate) fn resources_error(r: &Map<String, Value>, rules: Switches) -> Option<String> {
    let (cpu, cores, memory) = (int(r, "CPU"), int(r, "Cores"), int(r, "MemoryMB"));
    let mut errs = Vec::new();
    if cores > 0 && cpu > 0 {
        errs.push("Task can only ask for 'cpu' or 'cores' resource, not both.".to_string());
    }
    if cores < 0 && rules.has(Switch::NegativeCores) {
        errs.push(format!("cores value ({cores}) cannot be negative"));
    }
    let mut minimum = Vec::new();
    if cpu < 1 && cores == 0 {
        minimum.push(format!("minimum CPU value is 1; got {cpu}"));
    }
    if memory < 10 {
        minimum.push(format!("minimum MemoryMB value is 10; got {memory}"));
    }
    if !minimum.is_empty() {
        errs.push(multierror(&minimum));
    }
    let mut names = BTreeSet::new();
    for (i, d) in list(r, "Devices").iter().enumerate() {
        let Some(d) = d.as_object() else { continue };
        let inner = device_errors(d, rules);
        if !inner.is_empty() {
            errs.push(format!(
                "device {} failed validation: {}",
                i + 1,
                multierror(&inner)
            ));
        }
        names.insert(text(d, "Name"));
    }
    if rules.has(Switch::NumaValidate) {
        errs.extend(numa_errors(r, &names));
    }
    let max = int(r, "MemoryMaxMB");
    let unlimited = max == -1 && rules.has(Switch::MemoryMaxNoLimit);
    if max != 0 && !unlimited && max < memory {
        errs.push(format!(
            "MemoryMaxMB value ({max}) should be larger than MemoryMB value ({memory})"
        ));
    }
    if rules.has(Switch::SecretsSize) {
        let secrets = int(r, "SecretsMB");
        if secrets > memory {
            errs.push(format!(
                "SecretsMB value ({secrets}) cannot be larger than MemoryMB value ({memory})"
            ));
        }
        if secrets < 0 {
            errs.push(format!("SecretsMB value ({secrets}) cannot be negative"));
        }
    }
    (!errs.is_empty()).then(|| multierror(&errs))
}

/// From #23837 (1.9.0): each device a `numa` block names must be one the
/// task asks for, and its affinity one Nomad knows (an empty one is the
/// `none` `api.NUMAResource.Canonicalize` fills).
fn numa_errors(r: &Map<String, Value>, devices: &BTreeSet<String>) -> Vec<String> {
    let Some(numa) = r.get("NUMA").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut errs: Vec<String> = list(numa, "Devices")
        .iter()
        .filter_map(Value::as_str)
        .filter(|d| !devices.contains(*d))
        .map(|d| {
            format!(
                "numa device {} not requested as task resource",
                crate::model::go_quote(d)
            )
        })
        .collect();
    if !matches!(
        text(numa, "Affinity").as_str(),
        "" | "none" | "prefer" | "require"
    ) {
        errs.push("numa affinity must be one of none, prefer, or require".into());
    }
    errs
}
