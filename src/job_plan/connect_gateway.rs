//! The Connect mutator's gateways: the proxy settings Nomad chooses for
//! the group's network mode, the ports a terminating or mesh gateway
//! needs, and the injected Envoy gateway task (nomad/job_endpoint_hook_connect.go
//! `gatewayProxy`, `newConnectGatewayTask`).

use serde_json::{Map, Value, json};

use super::injected_task::{
    cluster_of, consul_grpc, consul_version, envoy_args, envoy_task, guess_driver, inject_port,
    is_set, push_task, task_defaults, task_of_kind,
};
use super::json_map::{SECOND, list, object, text};
use super::sidecar_merge::merge_sidecar_task;
use crate::model::Release;
use crate::version::{Switch, Switches};

/// The three gateway kinds, in the order Nomad picks a task prefix.
const KINDS: [(&str, &str); 3] = [
    ("Mesh", "connect-mesh"),
    ("Ingress", "connect-ingress"),
    ("Terminating", "connect-terminating"),
];

/// Completes gateway service `s` of group `g` and injects its task unless
/// the group has one for it.
pub(crate) fn gateway(
    g: &mut Map<String, Value>,
    s: &mut Map<String, Value>,
    release: Release,
    rules: Switches,
) -> Result<(), String> {
    let name = text(s, "Name");
    let mode = g
        .get("Networks")
        .and_then(|n| n.get(0))
        .and_then(|n| n.get("Mode"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let Some(gw) = object(s, "Connect").and_then(|c| object(c, "Gateway")) else {
        return Ok(());
    };
    api_defaults(gw);
    let bridge = mode == "bridge" || (rules.has(Switch::ConnectCni) && mode.starts_with("cni/"));
    let proxy = proxy(gw, bridge);
    gw.insert("Proxy".into(), proxy);
    let has = |k: &str| is_set(gw, k);
    let (terminating, mesh) = (has("Terminating"), has("Mesh"));
    let prefix = KINDS
        .iter()
        .find(|(k, _)| has(k))
        .map_or("connect-terminating", |(_, p)| p);
    let tls = gw
        .get("Ingress")
        .and_then(|i| i.get("TLS"))
        .filter(|t| !t.is_null())
        .is_some_and(custom_tls);
    let customized = has("Ingress") && tls;
    if terminating && text(s, "PortLabel").is_empty() {
        let label = format!("connect-terminating-{name}");
        s.insert("PortLabel".into(), json!(label));
        inject_port(g, &label);
    }
    if mesh {
        if text(s, "PortLabel").is_empty() {
            return Err("service.port must be set for mesh gateway service".into());
        }
        inject_port(g, &format!("connect-mesh-{name}-lan"));
    }
    let exists = KINDS
        .iter()
        .any(|(_, p)| task_of_kind(g, &format!("{p}:{name}")).is_some());
    if exists {
        return Ok(());
    }
    let driver = guess_driver(g, rules.has(Switch::ConnectGatewayPodman));
    let cluster = cluster_of(g, s);
    let scoped = rules.has(Switch::ConnectClusterConstraints);
    let mut task = envoy_task(prefix, &name, &driver, release);
    let mut config = json!({"image": "${meta.connect.gateway_image}", "args": envoy_args()});
    if mode == "host" {
        config["network_mode"] = json!("host");
    }
    task.insert("Config".into(), config);
    let mut constraints = vec![
        consul_version(&cluster, scoped),
        consul_grpc(&cluster, scoped),
    ];
    if customized && rules.has(Switch::ConnectGatewayTls) {
        let target = if scoped && cluster != "default" {
            format!("${{attr.consul.{cluster}.version}}")
        } else {
            "${attr.consul.version}".into()
        };
        constraints.push(json!({"LTarget": target, "RTarget": ">= 1.11.2", "Operand": "semver"}));
    }
    task.insert("Constraints".into(), Value::Array(constraints));
    let at = push_task(g, task);
    let restart = g.get("RestartPolicy").cloned();
    let sidecar_task = s
        .get("Connect")
        .and_then(|c| c.get("SidecarTask"))
        .and_then(Value::as_object)
        .cloned();
    if let Some(task) = super::injected_task::task_at(g, at) {
        if let Some(st) = sidecar_task {
            merge_sidecar_task(task, &st, rules);
        }
        task_defaults(task, restart);
    }
    Ok(())
}

/// What `api.ConsulGateway.Canonicalize` fills: a given proxy's 5s connect
/// timeout and a listener's `tcp` protocol.
fn api_defaults(gw: &mut Map<String, Value>) {
    if let Some(p) = object(gw, "Proxy")
        && p.get("ConnectTimeout").is_none_or(Value::is_null)
    {
        p.insert("ConnectTimeout".into(), json!(5 * SECOND));
    }
    let listeners = object(gw, "Ingress")
        .and_then(|i| i.get_mut("Listeners"))
        .and_then(Value::as_array_mut);
    for l in listeners
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
    {
        if text(l, "Protocol").is_empty() {
            l.insert("Protocol".into(), json!("tcp"));
        }
    }
}

/// Whether an ingress TLS block sets versions or cipher suites.
fn custom_tls(tls: &Value) -> bool {
    let word = |k: &str| {
        tls.get(k)
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty())
    };
    let suites = tls
        .get("CipherSuites")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty());
    word("TLSMinVersion") || word("TLSMaxVersion") || suites
}

/// The gateway's proxy block: kept as given when it sets any binding,
/// else rebuilt from its timeout, DNS discovery type and config (timeout 5s
/// when unset), with the bind addresses a bridge network needs.
pub(super) fn proxy(gw: &Map<String, Value>, bridge: bool) -> Value {
    let given = gw.get("Proxy").and_then(Value::as_object);
    if let Some(p) = given {
        let flag = |k: &str| p.get(k).and_then(Value::as_bool) == Some(true);
        let addresses = p
            .get("EnvoyGatewayBindAddresses")
            .and_then(Value::as_object)
            .is_some_and(|m| !m.is_empty());
        if flag("EnvoyGatewayNoDefaultBind") || flag("EnvoyGatewayBindTaggedAddresses") || addresses
        {
            return Value::Object(p.clone());
        }
    }
    let mut out = Map::new();
    let copied = ["ConnectTimeout", "EnvoyDNSDiscoveryType", "Config"];
    for key in copied {
        if let Some(v) = given.and_then(|p| p.get(key)).filter(|v| !v.is_null()) {
            out.insert(key.into(), v.clone());
        }
    }
    if out.get("ConnectTimeout").is_none() {
        out.insert("ConnectTimeout".into(), json!(5 * SECOND));
    }
    let any = |addresses: &[&str]| -> Map<String, Value> {
        addresses
            .iter()
            .map(|a| (a.to_string(), json!({"Address": "0.0.0.0", "Port": -1})))
            .collect()
    };
    let addresses = if !bridge {
        None
    } else if is_set(gw, "Ingress") {
        Some(ingress_addresses(gw.get("Ingress")))
    } else if is_set(gw, "Terminating") {
        Some(any(&["default"]))
    } else if is_set(gw, "Mesh") {
        Some(any(&["wan", "lan"]))
    } else {
        None
    };
    let bound = addresses.is_some();
    out.insert("EnvoyGatewayNoDefaultBind".into(), json!(bound));
    out.insert("EnvoyGatewayBindTaggedAddresses".into(), json!(false));
    out.insert(
        "EnvoyGatewayBindAddresses".into(),
        addresses.map_or(Value::Null, Value::Object),
    );
    Value::Object(out)
}

/// Each ingress service bound on all addresses at its listener's port.
fn ingress_addresses(ingress: Option<&Value>) -> Map<String, Value> {
    let mut out = Map::new();
    let listeners = ingress
        .and_then(Value::as_object)
        .map(|i| list(i, "Listeners"))
        .unwrap_or_default();
    for l in &listeners {
        let port = l.get("Port").cloned().unwrap_or(json!(0));
        let services = l.get("Services").and_then(Value::as_array);
        for s in services.into_iter().flatten() {
            let name = s.get("Name").and_then(Value::as_str).unwrap_or_default();
            out.insert(name.into(), json!({"Address": "0.0.0.0", "Port": port}));
        }
    }
    out
}
