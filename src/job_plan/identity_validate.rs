//! A task's workload identities as `Task.Validate` checks them
//! (`WorkloadIdentity.Validate`, v2.0.5 nomad/structs/workload_id.go:451):
//! the extra identities from #18123 (1.7.0), the default one and a file
//! path without `file` from #24038 (1.9.0).

use serde_json::{Map, Value};

use super::json_map::{list, text};
use super::multierror::multierror;
use crate::model::go_quote;
use crate::version::{Switch, Switches};

/// The identities' errors, after the CSI plugin's.
pub(crate) fn identity_errors(t: &Map<String, Value>, rules: Switches) -> Vec<String> {
    if !rules.has(Switch::Identities) {
        return Vec::new();
    }
    let checked = rules.has(Switch::DefaultIdentityValidated);
    let mut errs = Vec::new();
    let invalid = |w: &Map<String, Value>, errs: &mut Vec<String>| {
        let inner = faults(w, checked);
        if !inner.is_empty() {
            errs.push(format!(
                "Identity {} is invalid: {}",
                go_quote(&text(w, "Name")),
                multierror(&inner)
            ));
        }
    };
    if checked && let Some(w) = t.get("Identity").and_then(Value::as_object) {
        invalid(w, &mut errs);
    }
    for w in list(t, "Identities") {
        let Some(w) = w.as_object() else { continue };
        if text(w, "Name") == "default" {
            errs.push("Duplicate default identities found".into());
        }
        invalid(w, &mut errs);
    }
    errs
}

fn faults(w: &Map<String, Value>, file_path_checked: bool) -> Vec<String> {
    let name = text(w, "Name");
    let mut errs = Vec::new();
    let valid = (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !valid {
        errs.push(format!(
            "invalid name {}. Must match regex ^[a-zA-Z0-9-_]{{1,128}}$",
            go_quote(&name)
        ));
    }
    for (i, a) in list(w, "Audience").iter().enumerate() {
        if a.as_str() == Some("") {
            errs.push(format!(
                "an empty string is an invalid audience ({})",
                i + 1
            ));
        }
    }
    let signal = text(w, "ChangeSignal");
    match text(w, "ChangeMode").as_str() {
        "" | "noop" | "restart" if !signal.is_empty() => errs.push(format!(
            "can only use change_signal={} with change_mode=\"signal\"",
            go_quote(&signal)
        )),
        "" | "noop" | "restart" => {}
        "signal" if signal.is_empty() => {
            errs.push("change_signal must be specified when using change_mode=\"signal\"".into());
        }
        "signal" => {}
        mode => errs.push(format!("invalid change_mode: {mode}")),
    }
    let ttl = w.get("TTL").and_then(Value::as_i64).unwrap_or(0);
    if ttl > 0 && matches!(name.as_str(), "" | "default") {
        errs.push("ttl for default identity not yet supported".into());
    }
    if ttl < 0 {
        errs.push("ttl must be >= 0".into());
    }
    if file_path_checked
        && !text(w, "Filepath").is_empty()
        && w.get("File").and_then(Value::as_bool) != Some(true)
    {
        errs.push("file parameter must be true in order to specify filepath".into());
    }
    errs
}
