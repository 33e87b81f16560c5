//! A group's networks as `TaskGroup.validateNetworks` checks them.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::json_map::{list, text};
use crate::model::go_quote;
use crate::version::{Switch, Switches};

fn int(m: &Map<String, Value>, key: &str) -> i64 {
    m.get(key).and_then(Value::as_i64).unwrap_or(0)
}

/// `TaskGroup.validateNetworks` (v1.3.0 structs.go:6494-6587, v2.0.5
/// :7303-7428) without its CNI argument and hostname checks: port labels
/// unique against the group's networks, static ports unique per host
/// network, values and mappings within 16 bits; from #23956 (1.9.0) a
/// port's `ignore_collision`, only in host mode.
pub(crate) fn network_errors(
    g: &Map<String, Value>,
    tasks: &[&Map<String, Value>],
    rules: Switches,
) -> Vec<String> {
    let ignores = |p: &Map<String, Value>| {
        rules.has(Switch::IgnoreCollision)
            && p.get("IgnoreCollision").and_then(Value::as_bool) == Some(true)
    };
    let mut errs = Vec::new();
    let mut labels: BTreeSet<String> = BTreeSet::new();
    let mut statics: BTreeMap<(String, i64), String> = BTreeMap::new();
    let ports = |n: &Value| -> Vec<Map<String, Value>> {
        let Some(n) = n.as_object() else {
            return Vec::new();
        };
        ["ReservedPorts", "DynamicPorts"]
            .into_iter()
            .flat_map(|k| list(n, k))
            .filter_map(|p| p.as_object().cloned())
            .collect()
    };
    let mut static_port = |p: &Map<String, Value>, owner: String, errs: &mut Vec<String>| {
        let (label, value) = (text(p, "Label"), int(p, "Value"));
        if value == 0 {
            return;
        }
        let mut host = text(p, "HostNetwork");
        if host.is_empty() {
            host = "default".into();
        }
        if let Some(other) = statics.get(&(host.clone(), value)) {
            if !ignores(p) {
                errs.push(format!("Static port {value} already reserved by {other}"));
            }
        } else if value > i64::from(u16::MAX) {
            errs.push(format!(
                "Port {label} ({value}) cannot be greater than {}",
                u16::MAX
            ));
        } else {
            statics.insert((host, value), owner);
        }
    };
    for n in list(g, "Networks") {
        for p in ports(&n) {
            let label = text(&p, "Label");
            if !labels.insert(label.clone()) {
                errs.push(format!(
                    "Port label {label} already in use by taskgroup network"
                ));
            }
            static_port(&p, format!("taskgroup network:{label}"), &mut errs);
            let to = int(&p, "To");
            if to < -1 {
                errs.push(format!(
                    "Port {} cannot be mapped to negative value {to}",
                    go_quote(&label)
                ));
            } else if to > i64::from(u16::MAX) {
                errs.push(format!(
                    "Port {} cannot be mapped to a port ({to}) greater than {}",
                    go_quote(&label),
                    u16::MAX
                ));
            }
            let mode = n.get("Mode").and_then(Value::as_str).unwrap_or_default();
            if ignores(&p) && !matches!(mode, "" | "host") {
                errs.push(format!(
                    "Port {} collision may not be ignored on non-host network mode {}",
                    go_quote(&label),
                    go_quote(mode)
                ));
            }
        }
    }
    for t in tasks {
        let networks = t
            .get("Resources")
            .and_then(Value::as_object)
            .map(|r| list(r, "Networks"))
            .unwrap_or_default();
        for p in networks.iter().flat_map(ports) {
            let label = text(&p, "Label");
            if labels.contains(&label) {
                errs.push(format!(
                    "Port label {label} already in use by taskgroup network"
                ));
            }
            static_port(&p, format!("{}:{label}", text(t, "Name")), &mut errs);
        }
    }
    errs
}
