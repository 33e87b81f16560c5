//! A Connect service's `sidecar_task` block merged over the task the
//! Connect mutator injects (`SidecarTask.MergeIntoTask`,
//! nomad/structs/services.go).

use serde_json::{Map, Value, json};

use super::json_map::text;
use crate::version::{Switch, Switches};

/// `SidecarTask.MergeIntoTask`: the service's `sidecar_task` over the
/// injected task, field by field (its API defaults included, so a
/// `sidecar_task` block sets 100 MHz, 300 MB, ten 10 MB log files and no
/// shutdown delay unless it says otherwise).
pub(crate) fn merge_sidecar_task(
    task: &mut Map<String, Value>,
    st: &Map<String, Value>,
    rules: Switches,
) {
    let given = |k: &str| st.get(k).filter(|v| !v.is_null());
    let word = |k: &str| given(k).and_then(Value::as_str).filter(|s| !s.is_empty());
    if let Some(name) = word("Name") {
        task.insert("Name".into(), json!(name));
    }
    let driver = word("Driver");
    if let Some(d) = driver.filter(|d| *d != text(task, "Driver")) {
        task.insert("Driver".into(), json!(d));
        task.insert(
            "Config".into(),
            given("Config").cloned().unwrap_or(Value::Null),
        );
    } else if let Some(Value::Object(config)) = given("Config") {
        merge_map(task, "Config", config);
    }
    if let Some(user) = word("User") {
        task.insert("User".into(), json!(user));
    }
    for key in ["Env", "Meta"] {
        if let Some(Value::Object(m)) = given(key) {
            merge_map(task, key, m);
        }
    }
    if let Some(Value::Object(r)) = given("Resources") {
        let own = task
            .entry("Resources")
            .or_insert_with(|| json!({}))
            .as_object_mut();
        if let Some(own) = own {
            merge_resources(own, r);
        }
    }
    for key in ["KillTimeout", "ShutdownDelay"] {
        if let Some(d) = given(key) {
            task.insert(key.into(), d.clone());
        }
    }
    if let Some(Value::Object(l)) = given("LogConfig") {
        let logs = task.entry("LogConfig").or_insert(Value::Null);
        match logs.as_object_mut() {
            None => *logs = Value::Object(l.clone()),
            Some(own) => {
                for key in ["MaxFiles", "MaxFileSizeMB"] {
                    if let Some(n) = l.get(key).filter(|n| n.as_i64().is_some_and(|n| n > 0)) {
                        own.insert(key.into(), n.clone());
                    }
                }
            }
        }
    }
    if let Some(signal) = word("KillSignal") {
        task.insert("KillSignal".into(), json!(signal));
    }
    if rules.has(Switch::DiffTaskVolumeMounts)
        && let Some(m) = given("VolumeMounts")
    {
        task.insert("VolumeMounts".into(), m.clone());
    }
    if rules.has(Switch::ConnectSidecarIdentities)
        && let Some(ids) =
            given("Identities").filter(|i| i.as_array().is_some_and(|a| !a.is_empty()))
    {
        task.insert("Identities".into(), ids.clone());
    }
}

/// `Resources.Merge`: the numbers that are not zero, the lists that are
/// not empty.
fn merge_resources(own: &mut Map<String, Value>, r: &Map<String, Value>) {
    for (k, val) in r {
        let set = match val {
            Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0),
            Value::Array(a) => !a.is_empty() && matches!(k.as_str(), "Networks" | "Devices"),
            _ => false,
        };
        if set {
            own.insert(k.clone(), val.clone());
        }
    }
}

fn merge_map(task: &mut Map<String, Value>, key: &str, from: &Map<String, Value>) {
    let slot = task.entry(key).or_insert(Value::Null);
    match slot.as_object_mut() {
        Some(own) => own.extend(from.iter().map(|(k, v)| (k.clone(), v.clone()))),
        None => *slot = Value::Object(from.clone()),
    }
}
