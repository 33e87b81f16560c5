//! `structs.Service.Validate` (nomad/structs/services.go) and a task's
//! service validation around it (structs.go `validateServices(task, ...)`),
//! nested as `structs.Job.Validate` nests them; the group-wide rules are in
//! `group_service_validate`.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::gateway_validate::gateway_error;
use super::injected_task::is_set;
use super::json_map::{list, text};
use super::multierror::multierror;
use super::service_check::{consul_check_error, nomad_check_error, requires_port};
use super::tproxy_validate::tproxy_error;
use crate::model::{go_plus_quote, go_quote};
use crate::version::{Switch, Switches};

/// Port labels named by a task's services and checks, each with the names
/// of the services that name it, sorted as Nomad lists them.
type Referenced = BTreeMap<String, BTreeSet<String>>;

/// A task's services: their own Connect checks, and a Connect block at all,
/// which only group services may have, then the port labels they name that
/// neither the group's first network nor the task's own networks define;
/// one nested list, as `validateServices(task, group networks)` returns it
/// (nomad/structs/structs.go:7269-7415 at v1.3.0, :8377-8582 at v2.0.5).
pub(crate) fn task_service_error(
    t: &Map<String, Value>,
    g: &Map<String, Value>,
    rules: Switches,
) -> Option<String> {
    let mut errs = Vec::new();
    let mut known: Vec<String> = Vec::new();
    let mut referenced = Referenced::new();
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
                go_plus_quote(&name),
                multierror(&inner)
            ));
        }
        let mode = text(s, "AddressMode");
        if group_only_mode(&mode, rules) {
            errs.push(format!(
                "service {} cannot use address_mode=\"{mode}\", only services defined in a \"group\" block can use this mode",
                go_quote(&name)
            ));
        }
        let key = format!("{name}{}", text(s, "PortLabel"));
        if known.contains(&key) {
            errs.push(format!("service {} is duplicate", go_quote(&name)));
        }
        known.push(key);
        let port = text(s, "PortLabel");
        if !port.is_empty() && (mode != "driver" || port.parse::<i64>().is_err()) {
            referenced.entry(port).or_default().insert(name.clone());
        }
        if is_set(s, "Connect") {
            errs.push(format!(
                "service {} cannot have \"connect\" block, only services defined in a \"group\" block can",
                go_quote(&name)
            ));
        }
        errs.extend(task_check_errors(s, rules, &mut referenced));
    }
    let defined = port_labels(g, t);
    for (port, services) in referenced {
        if !defined.contains(&port) {
            let names: Vec<&str> = services.iter().map(String::as_str).collect();
            errs.push(format!(
                "port label {} referenced by services {} does not exist",
                go_quote(&port),
                names.join(", ")
            ));
        }
    }
    (!errs.is_empty()).then(|| multierror(&errs))
}

/// The labels of the group's first network's ports and of the ports of
/// the task's own (deprecated) networks (`NetworkResource.PortLabels`).
fn port_labels(g: &Map<String, Value>, t: &Map<String, Value>) -> BTreeSet<String> {
    let group = list(g, "Networks").into_iter().take(1);
    let task = t
        .get("Resources")
        .and_then(Value::as_object)
        .map(|r| list(r, "Networks"))
        .unwrap_or_default();
    group
        .chain(task)
        .filter_map(|n| n.as_object().cloned())
        .flat_map(|n| {
            ["ReservedPorts", "DynamicPorts"]
                .into_iter()
                .flat_map(|k| list(&n, k))
                .filter_map(|p| p.as_object().map(|p| text(p, "Label")))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A task service's checks: unique names, no group-only address mode, a
/// port to check that is a label (added to `referenced` under the
/// service's name), or a number with `address_mode = "driver"`.
fn task_check_errors(
    s: &Map<String, Value>,
    rules: Switches,
    referenced: &mut Referenced,
) -> Vec<String> {
    let mut errs = Vec::new();
    let service = go_quote(&text(s, "Name"));
    let mut known: Vec<String> = Vec::new();
    for c in list(s, "Checks").iter().filter_map(Value::as_object) {
        let name = text(c, "Name");
        if known.contains(&name) {
            errs.push(format!("check {} is duplicate", go_quote(&name)));
        }
        known.push(name.clone());
        let mode = text(c, "AddressMode");
        if group_only_mode(&mode, rules) {
            errs.push(format!(
                "check {service} cannot use address_mode=\"{mode}\", only checks defined in a \"group\" service block can use this mode"
            ));
        }
        if !requires_port(c) {
            continue;
        }
        let mut port = text(c, "PortLabel");
        if port.is_empty() {
            port = text(s, "PortLabel");
        }
        if port.is_empty() {
            errs.push(format!("check {} is missing a port", go_quote(&name)));
            continue;
        }
        let Ok(number) = port.parse::<i64>() else {
            referenced.entry(port).or_default().insert(text(s, "Name"));
            continue;
        };
        if mode == "driver" {
            if number <= 0 {
                errs.push(format!(
                    "check {} has invalid numeric port {number}",
                    go_quote(&name)
                ));
            }
        } else {
            errs.push(format!(
                "check {} cannot use a numeric port {number} without setting address_mode=\"driver\"",
                go_quote(&name)
            ));
        }
    }
    errs
}

/// `alloc`, and from #25632 `alloc_ipv6`: group-only address modes.
fn group_only_mode(mode: &str, rules: Switches) -> bool {
    mode == "alloc" || (mode == "alloc_ipv6" && rules.has(Switch::AllocIpv6AddressMode))
}

/// `Service.Validate` in its order: the name (interpolations allowed),
/// address mode and address, `on_update`, the provider's own rules, and
/// (from #18239) the identity's audience.
pub(crate) fn service_errors(s: &Map<String, Value>, rules: Switches) -> Vec<String> {
    let mut errs = Vec::new();
    let name = text(s, "Name");
    if !valid_name(&name) {
        errs.push(format!(
            "Service name must be valid per RFC 1123 and can contain only alphanumeric characters or dashes and must be no longer than 63 characters: {}",
            go_quote(&name)
        ));
    }
    let mode = text(s, "AddressMode");
    match mode.as_str() {
        "" | "auto" => {}
        "host" | "driver" | "alloc" => address_rule(s, &mut errs),
        "alloc_ipv6" if rules.has(Switch::AllocIpv6AddressMode) => address_rule(s, &mut errs),
        other => errs.push(format!(
            "Service address_mode must be \"auto\", \"host\", or \"driver\"; not {}",
            go_quote(other)
        )),
    }
    let on_update = text(s, "OnUpdate");
    if !matches!(
        on_update.as_str(),
        "" | "ignore" | "require_healthy" | "ignore_warnings"
    ) {
        errs.push(format!(
            "Service on_update must be \"require_healthy\", \"ignore_warnings\", or \"ignore\"; not {}",
            go_quote(&on_update)
        ));
    }
    match text(s, "Provider").as_str() {
        "consul" | "" => consul_service_errors(s, rules, &mut errs),
        "nomad" => nomad_service_errors(s, rules, &mut errs),
        other => errs.push(format!(
            "Service provider must be \"consul\", or \"nomad\"; not {}",
            go_quote(other)
        )),
    }
    let identity = s.get("Identity").and_then(Value::as_object);
    if rules.has(Switch::ServiceIdentityAudience)
        && identity.is_some_and(|i| list(i, "Audience").is_empty())
    {
        errs.push("Service identity must provide at least one target aud value".into());
    }
    errs
}

/// A set `address` needs the `auto` address mode.
fn address_rule(s: &Map<String, Value>, errs: &mut Vec<String>) {
    if !text(s, "Address").is_empty() {
        errs.push("Service address_mode must be \"auto\" if address is set".into());
    }
}

/// The DNS-label rule on the name with each `${...}` read as `ENV-VAR`.
fn valid_name(name: &str) -> bool {
    static ENV: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\$\{[a-zA-Z0-9_\-\.]+\}").expect("a valid pattern")
    });
    static LABEL: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"^(?i:[a-z0-9]|[a-z0-9][a-z0-9\-]{0,61}[a-z0-9])$")
            .expect("a valid pattern")
    });
    LABEL.is_match(&ENV.replace_all(name, "ENV-VAR"))
}

/// A check that needs a port when neither it nor its service has one.
fn check_port_error(s: &Map<String, Value>, c: &Map<String, Value>) -> Option<String> {
    (text(s, "PortLabel").is_empty() && text(c, "PortLabel").is_empty() && requires_port(c)).then(
        || {
            format!(
                "Check {} invalid: check requires a port but neither check nor service {} have a port",
                text(c, "Name"),
                go_plus_quote(&text(s, "Name"))
            )
        },
    )
}

/// The Nomad provider's rules: before #13715 no checks at all; after, each
/// check's port and Nomad's check rules; never a Connect block.
fn nomad_service_errors(s: &Map<String, Value>, rules: Switches, errs: &mut Vec<String>) {
    let checks = list(s, "Checks");
    if !rules.has(Switch::NomadServiceChecks) {
        if !checks.is_empty() {
            errs.push("Service with provider nomad cannot include Check blocks".into());
        }
    } else {
        for c in checks.iter().filter_map(Value::as_object) {
            if let Some(e) = check_port_error(s, c) {
                errs.push(e);
            } else {
                errs.extend(nomad_check_error(c, rules));
            }
        }
    }
    if is_set(s, "Connect") {
        errs.push("Service with provider nomad cannot include Connect blocks".into());
    }
}

/// The Consul provider's rules in Nomad's order: each check (its port, a
/// TCP check of a sidecar service, its own rules), the kind (#26170), then
/// the Connect block: a sidecar's transparent proxy (#20244), exactly one
/// of sidecar, native or gateway (a gateway's blocks), a native service's
/// task and (#24329) port.
fn consul_service_errors(s: &Map<String, Value>, rules: Switches, errs: &mut Vec<String>) {
    let connect = s.get("Connect").and_then(Value::as_object);
    let sidecar = connect.is_some_and(|c| is_set(c, "SidecarService"));
    for c in list(s, "Checks").iter().filter_map(Value::as_object) {
        if let Some(e) = check_port_error(s, c) {
            errs.push(e);
        } else if sidecar && text(c, "Type") == "tcp" {
            errs.push(format!(
                "Check {} invalid: tcp checks are not valid for Connect enabled services",
                text(c, "Name")
            ));
        } else if let Some(e) = consul_check_error(c, rules) {
            errs.push(format!("Check {} invalid: {e}", text(c, "Name")));
        }
    }
    let name = text(s, "Name");
    if rules.has(Switch::ConsulServiceKind)
        && !matches!(
            text(s, "Kind").as_str(),
            "" | "api-gateway" | "ingress-gateway" | "mesh-gateway" | "terminating-gateway"
        )
    {
        errs.push(format!(
            "Service {name} kind must be one of consul service kind or empty"
        ));
    }
    let Some(c) = connect else { return };
    let native = c.get("Native").and_then(Value::as_bool) == Some(true);
    let kinds = [sidecar, native, is_set(c, "Gateway")];
    let tproxy = c
        .get("SidecarService")
        .and_then(|sc| sc.pointer("/Proxy/TransparentProxy"))
        .and_then(Value::as_object)
        .filter(|_| rules.has(Switch::ConnectTransparentProxy))
        .and_then(tproxy_error);
    if let Some(e) = tproxy {
        errs.push(e);
    } else if kinds.iter().filter(|k| **k).count() != 1 {
        errs.push(
            "Consul Connect must be exclusively native, make use of a sidecar, or represent a Gateway"
                .into(),
        );
    } else if let Some(gw) = c.get("Gateway").and_then(Value::as_object) {
        errs.extend(gateway_error(gw, rules));
    }
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
