//! A service check's hash (`structs.ServiceCheck.Hash`,
//! nomad/structs/services.go), whose first six hex digits name the port
//! the expose-check mutator adds: the same check gets the same port label
//! as on the server, so a stored job shows no false change.

use serde_json::{Map, Value};
use sha2::Digest;

use super::json_map::text;
use crate::model::Release;
use crate::time::format_duration;
use crate::version::{Switch, Switches};

/// The hex hash of `check` for `service_id`, as the release writes it: the
/// check's fields in Nomad's order, each as its text with nothing between
/// (the fields a release does not know are never set in its job).
pub(crate) fn check_hash(check: &Map<String, Value>, service_id: &str, release: Release) -> String {
    let num = |k: &str| check.get(k).and_then(Value::as_i64).unwrap_or(0);
    let flag = |k: &str| check.get(k).and_then(Value::as_bool) == Some(true);
    let rules = Switches::of(release);
    let mut input = String::new();
    let args: String = check
        .get("Args")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    input.push_str(service_id);
    for k in ["Name", "Type", "Command"] {
        input.push_str(&text(check, k));
    }
    input.push_str(&args);
    for k in ["Path", "Protocol", "PortLabel"] {
        input.push_str(&text(check, k));
    }
    input.push_str(&format_duration(num("Interval")));
    input.push_str(&format_duration(num("Timeout")));
    for k in ["Method", "Body", "OnUpdate"] {
        input.push_str(&text(check, k));
    }
    if rules.has(Switch::CheckNotesLength) {
        input.push_str(&text(check, "Notes"));
    }
    if flag("TLSSkipVerify") {
        input.push_str("true");
    }
    if rules.has(Switch::NomadCheckTlsServerName) {
        input.push_str(&text(check, "TLSServerName"));
    }
    input.push_str(&headers(check));
    input.push_str(&text(check, "AddressMode"));
    input.push_str(&text(check, "GRPCService"));
    if flag("GRPCUseTLS") {
        input.push_str("true");
    }
    let mut counts = vec![
        ("success", "SuccessBeforePassing"),
        ("failures", "FailuresBeforeCritical"),
    ];
    if rules.has(Switch::CheckFailuresBeforeWarning) {
        counts.push(("failures-before-warning", "FailuresBeforeWarning"));
    }
    for (name, k) in counts {
        if num(k) != 0 {
            input.push_str(&format!("{name}:{}", num(k)));
        }
    }
    if rules.has(Switch::CheckHashSha256) {
        hex(&sha2::Sha256::digest(input.as_bytes()))
    } else {
        sha1_smol::Sha1::from(input.as_bytes()).digest().to_string()
    }
}

/// Each header name followed by its values, sorted, joined.
fn headers(check: &Map<String, Value>) -> String {
    let Some(h) = check.get("Header").and_then(Value::as_object) else {
        return String::new();
    };
    let mut lines: Vec<String> = h
        .iter()
        .map(|(k, vals)| {
            let joined: String = vals
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            format!("{k}{joined}")
        })
        .collect();
    lines.sort();
    lines.concat()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
