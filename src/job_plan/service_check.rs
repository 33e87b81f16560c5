//! A service check's own rules (nomad/structs/services.go: v1.3.0
//! `ServiceCheck.validate`; from 1.4.0, #13715, `validateCommon` with
//! `validateConsul` or `validateNomad`). Each returns its first error only,
//! as Nomad's do.

use serde_json::{Map, Value};

use super::go_url::{UrlRead, url_read};
use super::json_map::text;
use super::multierror::multierror;
use crate::model::go_quote;
use crate::time::{SECOND, format_duration};
use crate::version::{Switch, Switches};

/// The Consul provider's error for a check, without the `Check <name>
/// invalid:` prefix its caller adds.
pub(crate) fn consul_check_error(c: &Map<String, Value>, rules: Switches) -> Option<String> {
    let kind = text(c, "Type").to_lowercase();
    let new = rules.has(Switch::NomadServiceChecks);
    common_error(c, &["grpc", "tcp", "http", "script"], rules)
        .or_else(|| consul_only_error(c, &kind, rules))
        .or_else(|| if new { None } else { restart_error(c) })
}

/// The Nomad provider's error for a check (1.4.0 and later), unprefixed as
/// Nomad leaves it.
pub(crate) fn nomad_check_error(c: &Map<String, Value>, rules: Switches) -> Option<String> {
    if let Some(e) = common_error(c, &["tcp", "http"], rules) {
        return Some(e);
    }
    let restart = c.get("CheckRestart").and_then(Value::as_object);
    let consul_only =
        |what: &str| Some(format!("{what} may only be set for Consul service checks"));
    if flag(c, "Expose") {
        return consul_only("expose");
    }
    if text(c, "OnUpdate") == "ignore_warnings" {
        return Some(
            "on_update may only be set to ignore_warnings for Consul service checks".into(),
        );
    }
    if restart.is_some_and(|r| flag(r, "IgnoreWarnings")) {
        return Some(
            "ignore_warnings on check_restart only supported for Consul service checks".into(),
        );
    }
    if text(c, "AddressMode") == "driver" {
        return consul_only("address_mode = driver");
    }
    let method = text(c, "Method");
    if text(c, "Type") == "http" && !method.is_empty() && !is_method_http(&method) {
        return Some(format!(
            "method type {} not supported in Nomad http check",
            go_quote(&method)
        ));
    }
    if int(c, "SuccessBeforePassing") != 0 {
        return consul_only("success_before_passing");
    }
    if int(c, "FailuresBeforeCritical") != 0 {
        return consul_only("failures_before_critical");
    }
    if rules.has(Switch::CheckFailuresBeforeWarning) && int(c, "FailuresBeforeWarning") != 0 {
        return consul_only("failures_before_warning");
    }
    if rules.has(Switch::NomadCheckTlsServerName) && !text(c, "TLSServerName").is_empty() {
        return consul_only("tls_server_name");
    }
    if rules.has(Switch::NomadCheckTlsSkipVerify) && flag(c, "TLSSkipVerify") {
        return consul_only("tls_skip_verify");
    }
    None
}

/// Whether the check needs a port (`ServiceCheck.RequiresPort`).
pub(crate) fn requires_port(c: &Map<String, Value>) -> bool {
    matches!(text(c, "Type").as_str(), "grpc" | "http" | "tcp")
}

/// Go's `http.Method*` names, in any case (`helper.IsMethodHTTP`,
/// helper/funcs.go:443-457 at v2.0.5).
pub(crate) fn is_method_http(method: &str) -> bool {
    const METHODS: [&str; 9] = [
        "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "CONNECT", "OPTIONS", "TRACE",
    ];
    METHODS.contains(&method.to_uppercase().as_str())
}

/// The shared rules in Nomad's order: type and its specifics, interval,
/// timeout, initial status, address mode, on_update; from 1.4.0 then the
/// `check_restart` rules (before, they come after the Consul-only ones).
fn common_error(c: &Map<String, Value>, allowed: &[&str], rules: Switches) -> Option<String> {
    let new = rules.has(Switch::NomadServiceChecks);
    let kind = text(c, "Type").to_lowercase();
    if !allowed.contains(&kind.as_str()) {
        return Some(if new {
            format!(
                "invalid check type ({}), must be one of {}",
                go_quote(&kind),
                allowed.join(", ")
            )
        } else {
            format!(
                "invalid type ({}), must be one of \"http\", \"tcp\", or \"script\" type",
                go_quote(&text(c, "Type"))
            )
        });
    }
    let a = if new { "" } else { "a " };
    match kind.as_str() {
        "http" => {
            let path = text(c, "Path");
            if path.is_empty() {
                let valid = if new { "" } else { "valid " };
                return Some(format!("http type must have {a}{valid}http path"));
            }
            match url_read(&path) {
                UrlRead::Refused => return Some(format!("http type must have {a}valid http path")),
                UrlRead::Absolute => {
                    return Some(format!("http type must have {a}relative http path"));
                }
                UrlRead::Relative => {}
            }
        }
        "script" if text(c, "Command").is_empty() => {
            return Some("script type must have a valid script path".into());
        }
        _ => {}
    }
    let interval = int(c, "Interval");
    if interval == 0 {
        return Some("missing required value interval. Interval cannot be less than 1s".into());
    } else if interval < SECOND {
        return Some(format!(
            "interval ({}) cannot be lower than 1s",
            format_duration(interval)
        ));
    }
    let timeout = int(c, "Timeout");
    if timeout == 0 {
        return Some("missing required value timeout. Timeout cannot be less than 1s".into());
    } else if timeout < SECOND {
        return Some(format!(
            "timeout ({}) is lower than required minimum timeout 1s",
            format_duration(timeout)
        ));
    }
    let status = text(c, "InitialStatus");
    if !matches!(status.as_str(), "" | "passing" | "warning" | "critical") {
        return Some(format!(
            "invalid initial check state ({status}), must be one of \"passing\", \"warning\", \"critical\" or empty"
        ));
    }
    let mode = text(c, "AddressMode");
    match mode.as_str() {
        "" | "host" | "driver" | "alloc" => {}
        "alloc_ipv6" if rules.has(Switch::AllocIpv6AddressMode) => {}
        "auto" => {
            return Some("invalid address_mode \"auto\" - auto only valid for services".into());
        }
        other => return Some(format!("invalid address_mode {}", go_quote(other))),
    }
    let on_update = text(c, "OnUpdate");
    if !matches!(
        on_update.as_str(),
        "" | "ignore" | "require_healthy" | "ignore_warnings"
    ) {
        return Some(format!(
            "on_update must be \"require_healthy\", \"ignore_warnings\", or \"ignore\"; got {}",
            go_quote(&on_update)
        ));
    }
    if new { restart_error(c) } else { None }
}

/// `check_restart` against `on_update`, then `CheckRestart.Validate`.
fn restart_error(c: &Map<String, Value>) -> Option<String> {
    let r = c.get("CheckRestart").and_then(Value::as_object)?;
    let on_update = text(c, "OnUpdate");
    if on_update == "ignore" {
        return Some("on_update value \"ignore\" is not compatible with check_restart".into());
    }
    if on_update == "ignore_warnings" && !flag(r, "IgnoreWarnings") {
        return Some(
            "on_update value \"ignore_warnings\" not supported with check_restart ignore_warnings value \"false\""
                .into(),
        );
    }
    let mut errs = Vec::new();
    let limit = int(r, "Limit");
    if limit < 0 {
        errs.push(format!(
            "limit must be greater than or equal to 0 but found {limit}"
        ));
    }
    let grace = int(r, "Grace");
    if grace < 0 {
        errs.push(format!(
            "grace period must be greater than or equal to 0 but found {grace}"
        ));
    }
    (!errs.is_empty()).then(|| multierror(&errs))
}

/// The Consul-only rules: `expose` on HTTP and gRPC checks, the pass/fail
/// thresholds (`failures_before_warning` from #19336), notes (#22397).
fn consul_only_error(c: &Map<String, Value>, kind: &str, rules: Switches) -> Option<String> {
    if flag(c, "Expose") && !matches!(kind, "grpc" | "http") {
        return Some("expose may only be set on HTTP or gRPC checks".into());
    }
    let raw_type = text(c, "Type");
    let pass_fail = matches!(raw_type.as_str(), "tcp" | "http" | "grpc");
    let mut thresholds = vec!["SuccessBeforePassing", "FailuresBeforeCritical"];
    if rules.has(Switch::CheckFailuresBeforeWarning) {
        thresholds.push("FailuresBeforeWarning");
    }
    for key in thresholds {
        let name = match key {
            "SuccessBeforePassing" => "success_before_passing",
            "FailuresBeforeCritical" => "failures_before_critical",
            _ => "failures_before_warning",
        };
        let n = int(c, key);
        if n < 0 {
            return Some(format!("{name} must be non-negative"));
        } else if n > 0 && !pass_fail {
            return Some(format!(
                "{name} not supported for check of type {}",
                go_quote(&raw_type)
            ));
        }
    }
    if rules.has(Switch::CheckNotesLength) && text(c, "Notes").len() > 255 {
        return Some("notes must not be longer than 255 characters".into());
    }
    None
}

fn flag(m: &Map<String, Value>, key: &str) -> bool {
    m.get(key).and_then(Value::as_bool) == Some(true)
}

fn int(m: &Map<String, Value>, key: &str) -> i64 {
    m.get(key).and_then(Value::as_i64).unwrap_or(0)
}
