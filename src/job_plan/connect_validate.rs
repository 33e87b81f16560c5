//! The register endpoint's Connect validator (`jobConnectHook.Validate`,
//! nomad/job_endpoint_hook_connect.go): what the mutated job's Connect
//! services need of their group. Nomad stops at the first group error, so
//! this answers one message or none.

use serde_json::{Map, Value};

use super::injected_task::is_set;
use super::json_map::{list, text};
use crate::version::{Switch, Switches};

/// The first reason the Connect validator refuses the job.
pub(crate) fn connect_error(job: &Map<String, Value>, rules: Switches) -> Option<String> {
    list(job, "TaskGroups")
        .iter()
        .filter_map(Value::as_object)
        .find_map(|g| group_error(g, rules))
}

fn group_error(g: &Map<String, Value>, rules: Switches) -> Option<String> {
    for s in list(g, "Services").iter().filter_map(Value::as_object) {
        let Some(c) = s.get("Connect").and_then(Value::as_object) else {
            continue;
        };
        let err = if is_set(c, "SidecarService") {
            sidecar_error(g, s, rules)
        } else if c.get("Native").and_then(Value::as_bool) == Some(true) {
            native_error(g, s)
        } else if is_set(c, "Gateway") {
            gateway_error(g, rules)
        } else {
            None
        };
        if err.is_some() {
            return err;
        }
    }
    upstreams_error(g, rules)
}

/// A sidecar needs one bridge (or, from #26449, `cni/*`) network, and a
/// lowercase service and group name (Consul assumes it).
fn sidecar_error(
    g: &Map<String, Value>,
    s: &Map<String, Value>,
    rules: Switches,
) -> Option<String> {
    let group = text(g, "Name");
    let networks = list(g, "Networks");
    if rules.has(Switch::ConnectCni) {
        if let Some(e) = network_mode_error(g, "connect sidecar", false) {
            return Some(e);
        }
    } else if networks.len() != 1 {
        return Some(format!(
            "Consul Connect sidecars require exactly 1 network, found {} in group {group:?}",
            networks.len()
        ));
    } else if mode(&networks[0]) != "bridge" {
        return Some(format!(
            "Consul Connect sidecar requires bridge network, found {:?} in group {group:?}",
            mode(&networks[0])
        ));
    }
    let service = text(s, "Name");
    if service != service.to_lowercase() {
        return Some(format!(
            "Consul Connect service name {service:?} in group {group:?} must not contain uppercase characters"
        ));
    }
    if group != group.to_lowercase() {
        return Some(format!(
            "Consul Connect group {group:?} with service {service:?} must not contain uppercase characters"
        ));
    }
    None
}

/// A native service must name one of the group's tasks, or the group must
/// have exactly one (the mutator's own lookup, run again for groups it
/// skipped).
fn native_error(g: &Map<String, Value>, s: &Map<String, Value>) -> Option<String> {
    let (group, service, wanted) = (text(g, "Name"), text(s, "Name"), text(s, "TaskName"));
    let tasks = list(g, "Tasks");
    if wanted.is_empty() {
        return (tasks.len() != 1).then(|| {
            format!(
                "task for Consul Connect Native service {group}->{service} is ambiguous and must be set"
            )
        });
    }
    let found = tasks
        .iter()
        .any(|t| t.get("Name").and_then(Value::as_str) == Some(wanted.as_str()));
    (!found).then(|| {
        format!(
            "task {wanted} named by Consul Connect Native service {group}->{service} does not exist"
        )
    })
}

/// A gateway needs one bridge or host (or, from #26449, `cni/*`) network.
fn gateway_error(g: &Map<String, Value>, rules: Switches) -> Option<String> {
    if rules.has(Switch::ConnectCni) {
        return network_mode_error(g, "connect gateway", true);
    }
    let networks = list(g, "Networks");
    if networks.len() != 1 {
        return Some(format!(
            "Consul Connect gateways require exactly 1 network, found {} in group {:?}",
            networks.len(),
            text(g, "Name")
        ));
    }
    (!matches!(mode(&networks[0]), "bridge" | "host")).then(|| {
        r#"Consul Connect Gateway service requires Task Group with network mode of type "bridge" or "host""#
            .to_string()
    })
}

/// The network check of #26449 (v1.11.0 job_endpoint_hook_connect.go:635),
/// shared by sidecars, gateways and exposed checks, which name themselves
/// in `prefix`.
pub(crate) fn network_mode_error(
    g: &Map<String, Value>,
    prefix: &str,
    allow_host: bool,
) -> Option<String> {
    let group = text(g, "Name");
    let networks = list(g, "Networks");
    if networks.len() != 1 {
        return Some(format!(
            "{prefix}: must have exactly one network for Consul Connect: group {group:?} has {} networks",
            networks.len()
        ));
    }
    let mode = mode(&networks[0]);
    if mode == "bridge" || (allow_host && mode == "host") || mode.starts_with("cni/") {
        return None;
    }
    let allowed = if allow_host {
        r#""bridge", "host", or "cni/*""#
    } else {
        r#""bridge" or "cni/*""#
    };
    Some(format!(
        "{prefix}: invalid network mode for Consul Connect: group {group:?} uses network mode {mode:?}; must be {allowed}"
    ))
}

pub(crate) fn mode(network: &Value) -> &str {
    network
        .get("Mode")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// The group services' upstreams must listen on distinct addresses; a
/// transparent proxy (#20244) must be the group's only Connect service and
/// agree with the group's networks.
fn upstreams_error(g: &Map<String, Value>, rules: Switches) -> Option<String> {
    let group = text(g, "Name");
    let mut listeners: Vec<(String, String)> = Vec::new();
    let (mut connect_blocks, mut tproxy) = (0, false);
    for s in list(g, "Services").iter().filter_map(Value::as_object) {
        let Some(c) = s.get("Connect").filter(|c| !c.is_null()) else {
            continue;
        };
        connect_blocks += 1;
        let Some(proxy) = c
            .pointer("/SidecarService/Proxy")
            .and_then(Value::as_object)
        else {
            continue;
        };
        let service = text(s, "Name");
        for up in list(proxy, "Upstreams").iter().filter_map(Value::as_object) {
            let at = listener(up, rules);
            if let Some((_, other)) = listeners.iter().find(|(l, _)| *l == at) {
                return Some(format!(
                    "Consul Connect services {service:?} and {other:?} in group {group:?} using same address for upstreams ({at})"
                ));
            }
            listeners.push((at, service.clone()));
        }
        if !rules.has(Switch::ConnectTransparentProxy) {
            continue;
        }
        let Some(tp) = proxy.get("TransparentProxy").and_then(Value::as_object) else {
            continue;
        };
        tproxy = true;
        if let Some(e) = tproxy_error(g, tp) {
            return Some(e);
        }
    }
    (tproxy && connect_blocks > 1).then(|| {
        "Consul Connect transparent proxy requires there is only one connect block".to_string()
    })
}

/// Where an upstream listens, as the validator of the release writes it.
fn listener(up: &Map<String, Value>, rules: Switches) -> String {
    let socket = text(up, "LocalBindSocketPath");
    if rules.has(Switch::ConnectUpstreamSocket) && !socket.is_empty() {
        return socket;
    }
    let address = text(up, "LocalBindAddress");
    let port = up.get("LocalBindPort").and_then(Value::as_i64).unwrap_or(0);
    if rules.has(Switch::ConnectUpstreamHostPort) && address.contains(':') {
        format!("[{address}]:{port}")
    } else {
        format!("{address}:{port}")
    }
}

fn tproxy_error(g: &Map<String, Value>, tp: &Map<String, Value>) -> Option<String> {
    let no_dns = tp.get("NoDNS").and_then(Value::as_bool) == Some(true);
    let dns = list(g, "Networks").iter().any(|n| {
        ["Servers", "Searches", "Options"].iter().any(|k| {
            n.get("DNS")
                .and_then(|d| d.get(*k))
                .and_then(Value::as_array)
                .is_some_and(|l| !l.is_empty())
        })
    });
    if dns && !no_dns {
        return Some(
            "Consul Connect transparent proxy cannot be used with network.dns unless no_dns=true"
                .into(),
        );
    }
    list(tp, "ExcludeInboundPorts")
        .iter()
        .filter_map(Value::as_str)
        .find(|label| !port_label_ok(g, label))
        .map(|label| {
            format!(
                "Consul Connect transparent proxy port {label:?} must be numeric or one of network.port labels"
            )
        })
}

/// A number that fits 16 bits, or the label of a reserved port: Nomad's
/// check reads only `ReservedPorts`, so a dynamic port's label is refused
/// (v1.8.0 job_endpoint_hook_connect.go:617).
fn port_label_ok(g: &Map<String, Value>, label: &str) -> bool {
    if !label.is_empty()
        && label.bytes().all(|b| b.is_ascii_digit())
        && label.parse::<u16>().is_ok()
    {
        return true;
    }
    list(g, "Networks").iter().any(|n| {
        n.get("ReservedPorts")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .any(|p| p.get("Label").and_then(Value::as_str) == Some(label))
    })
}
