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
/// :7303-7428): port labels unique against the group's networks, static
/// ports unique per host network, values and mappings within 16 bits; from
/// #23956 (1.9.0) a port's `ignore_collision`, only in host mode; from
/// #23538 (1.8.3) CNI arguments; each network's hostname.
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
    let mut cni_keys: BTreeSet<String> = BTreeSet::new();
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
        let Some(n) = n.as_object() else { continue };
        if rules.has(Switch::CniArgs) {
            errs.extend(cni_errors(n, &mut cni_keys));
        }
        let hostname = text(n, "Hostname");
        if !hostname.is_empty() && !hostname.contains("${") && !is_domain_name(&hostname) {
            errs.push("Hostname is not a valid DNS name".into());
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

/// A network's CNI arguments: a key another network set, a `;` in a key or
/// value. Nomad walks a Go map, so one network's faults come in any order;
/// plan-inspect takes its keys sorted.
fn cni_errors(n: &Map<String, Value>, seen: &mut BTreeSet<String>) -> Vec<String> {
    let Some(args) = n
        .get("CNI")
        .and_then(|c| c.get("Args"))
        .and_then(Value::as_object)
    else {
        return Vec::new();
    };
    let mut errs = Vec::new();
    for (k, v) in args {
        if !seen.insert(k.clone()) {
            errs.push(format!("duplicate CNI arg {}", go_quote(k)));
        }
        if k.contains(';') {
            errs.push(format!(
                "invalid ';' character in CNI arg key {}",
                go_quote(k)
            ));
        }
        let v = v.as_str().unwrap_or_default();
        if v.contains(';') {
            errs.push(format!(
                "invalid ';' character in CNI arg value {}",
                go_quote(v)
            ));
        }
    }
    errs
}

/// miekg/dns `IsDomainName` (v1.1.50): the name made fully qualified, no
/// two dots in a row, each label under 64 bytes and the whole within the
/// 255-byte wire limit (a backslash escape, `\x` or `\DDD`, counts one
/// byte).
fn is_domain_name(s: &str) -> bool {
    let mut name = s.to_string();
    if !is_fqdn(&name) {
        name.push('.');
    }
    let b = name.as_bytes();
    let (mut off, mut begin, mut was_dot) = (0usize, 0usize, false);
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                if off + 1 > 256 {
                    return false;
                }
                let ddd = i + 3 < b.len() && b[i + 1..=i + 3].iter().all(u8::is_ascii_digit);
                let skip = if ddd { 3 } else { 1 };
                i += skip;
                begin += skip;
                was_dot = false;
            }
            b'.' => {
                if was_dot {
                    return false;
                }
                was_dot = true;
                let label = i - begin;
                if label >= 64 {
                    return false;
                }
                off += 1 + label;
                if off > 256 {
                    return false;
                }
                begin = i + 1;
            }
            _ => was_dot = false,
        }
        i += 1;
    }
    true
}

/// Whether the name ends in a dot not escaped by a backslash.
fn is_fqdn(s: &str) -> bool {
    let Some(body) = s.strip_suffix('.') else {
        return false;
    };
    let slashes = body.len() - body.trim_end_matches('\\').len();
    slashes % 2 == 0
}
