//! The Connect checks of `structs.Service.Validate` and of the group and
//! task service validation around it (nomad/structs/services.go,
//! structs.go `validateServices`), nested as `structs.Job.Validate` nests
//! them. The other service checks (name, address mode, check kinds) are not
//! replayed yet.

use serde_json::{Map, Value};

use super::gateway_validate::gateway_error;
use super::injected_task::is_set;
use super::json_map::{list, text};
use super::multierror::multierror;
use crate::version::{Switch, Switches};

/// `Task group service validation failed: ...` for the group's services,
/// or nothing.
pub(crate) fn group_service_error(g: &Map<String, Value>, rules: Switches) -> Option<String> {
    let errs: Vec<String> = list(g, "Services")
        .iter()
        .filter_map(Value::as_object)
        .enumerate()
        .filter_map(|(i, s)| {
            let inner = service_errors(s, rules);
            (!inner.is_empty()).then(|| {
                format!(
                    "Service[{i}] {} validation failed: {}",
                    text(s, "Name"),
                    multierror(&inner)
                )
            })
        })
        .collect();
    (!errs.is_empty()).then(|| {
        format!(
            "Task group service validation failed: {}",
            multierror(&errs)
        )
    })
}

/// A task's services: their own Connect checks, and a Connect block at all,
/// which only group services may have; one nested list, as
/// `validateServices(task)` returns it.
pub(crate) fn task_service_error(t: &Map<String, Value>, rules: Switches) -> Option<String> {
    let mut errs = Vec::new();
    for (i, s) in list(t, "Services")
        .iter()
        .filter_map(Value::as_object)
        .enumerate()
    {
        let name = text(s, "Name");
        let inner = service_errors(s, rules);
        if !inner.is_empty() {
            errs.push(format!(
                "service[{i}] {} validation failed: {}",
                go_plus_q(&name),
                multierror(&inner)
            ));
        }
        if is_set(s, "Connect") {
            errs.push(format!(
                "service {name:?} cannot have \"connect\" block, only services defined in a \"group\" block can"
            ));
        }
    }
    (!errs.is_empty()).then(|| multierror(&errs))
}

/// The Connect part of `Service.Validate`, in its order: a TCP check of a
/// sidecar service, the Connect block's own check (one kind; a gateway's
/// blocks), a native service's task and (from 1.9.2, #24329) port; a Nomad
/// service may have no Connect block.
fn service_errors(s: &Map<String, Value>, rules: Switches) -> Vec<String> {
    let mut errs = Vec::new();
    let connect = s.get("Connect").and_then(Value::as_object);
    match text(s, "Provider").as_str() {
        "consul" | "" => {
            let sidecar = connect.is_some_and(|c| is_set(c, "SidecarService"));
            for c in list(s, "Checks").iter().filter_map(Value::as_object) {
                if sidecar && text(c, "Type") == "tcp" {
                    errs.push(format!(
                        "Check {} invalid: tcp checks are not valid for Connect enabled services",
                        text(c, "Name")
                    ));
                }
            }
            let Some(c) = connect else { return errs };
            let native = c.get("Native").and_then(Value::as_bool) == Some(true);
            let kinds = [is_set(c, "SidecarService"), native, is_set(c, "Gateway")];
            if kinds.iter().filter(|k| **k).count() != 1 {
                errs.push(
                    "Consul Connect must be exclusively native, make use of a sidecar, or represent a Gateway"
                        .into(),
                );
            } else if let Some(gw) = c.get("Gateway").and_then(Value::as_object) {
                errs.extend(gateway_error(gw, rules));
            }
            let name = text(s, "Name");
            if native && text(s, "TaskName").is_empty() {
                errs.push(format!(
                    "Service {name} is Connect Native and requires setting the task"
                ));
            }
            if native && text(s, "PortLabel").is_empty() && rules.has(Switch::ConnectNativePort) {
                errs.push(format!(
                    "Service {name} is Connect Native and requires setting the port"
                ));
            }
        }
        "nomad" if connect.is_some() => {
            errs.push("Service with provider nomad cannot include Connect blocks".into());
        }
        _ => {}
    }
    errs
}

/// Go's `%+q`: quoted, every non-ASCII character escaped.
fn go_plus_q(s: &str) -> String {
    let mut out = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) <= 0xFFFF => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}
