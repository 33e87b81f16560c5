//! A Connect gateway's own checks (`structs.ConsulGateway.Validate` and the
//! blocks under it, nomad/structs/services.go): the proxy, then the ingress,
//! terminating and mesh entries, then that exactly one of them is set. Each
//! stops at its first error, as Nomad's do.

use serde_json::{Map, Value};

use super::injected_task::is_set;
use super::json_map::{list, text};
use crate::version::{Switch, Switches};

/// The first reason the gateway block is refused.
pub(crate) fn gateway_error(gw: &Map<String, Value>, rules: Switches) -> Option<String> {
    let obj = |k: &str| gw.get(k).and_then(Value::as_object);
    obj("Proxy")
        .and_then(proxy_error)
        .or_else(|| obj("Ingress").and_then(|i| ingress_error(i, rules)))
        .or_else(|| obj("Terminating").and_then(terminating_error))
        .or_else(|| {
            let set = ["Ingress", "Terminating", "Mesh"]
                .iter()
                .filter(|k| is_set(gw, k))
                .count();
            (set != 1).then(|| "One Consul Gateway Configuration must be set".to_string())
        })
}

/// Nomad walks the bind addresses in Go's random map order; plan-inspect
/// walks them by name, so the same job always gets the same message.
fn proxy_error(p: &Map<String, Value>) -> Option<String> {
    if !is_set(p, "ConnectTimeout") {
        return Some("Consul Gateway Proxy connection_timeout must be set".into());
    }
    if !matches!(
        text(p, "EnvoyDNSDiscoveryType").as_str(),
        "" | "STRICT_DNS" | "LOGICAL_DNS"
    ) {
        return Some(
            "Consul Gateway Proxy Envoy DNS Discovery type must be STRICT_DNS or LOGICAL_DNS"
                .into(),
        );
    }
    let binds = p
        .get("EnvoyGatewayBindAddresses")
        .and_then(Value::as_object)?;
    let mut names: Vec<&String> = binds.keys().collect();
    names.sort();
    names.into_iter().find_map(|name| {
        let a = binds.get(name)?.as_object()?;
        let port = a.get("Port").and_then(Value::as_i64).unwrap_or(0);
        if text(a, "Address").is_empty() {
            Some("Consul Gateway Bind Address must be set".to_string())
        } else if port <= 0 && port != -1 {
            Some("Consul Gateway Bind Address must set valid Port".to_string())
        } else {
            None
        }
    })
}

fn ingress_error(i: &Map<String, Value>, rules: Switches) -> Option<String> {
    let listeners = list(i, "Listeners");
    if listeners.is_empty() {
        return Some("Consul Ingress Gateway requires at least one listener".into());
    }
    listeners
        .iter()
        .filter_map(Value::as_object)
        .find_map(|l| listener_error(l, rules))
}

fn listener_error(l: &Map<String, Value>, rules: Switches) -> Option<String> {
    if l.get("Port").and_then(Value::as_i64).unwrap_or(0) <= 0 {
        return Some("Consul Ingress Listener requires valid Port".into());
    }
    let protocol = text(l, "Protocol");
    if !matches!(protocol.as_str(), "tcp" | "http" | "http2" | "grpc") {
        return Some(format!(
            "Consul Ingress Listener requires protocol of tcp, http, http2, grpc, got {protocol:?}"
        ));
    }
    let services = list(l, "Services");
    if services.is_empty() {
        return Some("Consul Ingress Listener requires one or more services".into());
    }
    services
        .iter()
        .filter_map(Value::as_object)
        .find_map(|s| ingress_service_error(s, &protocol, rules))
}

/// An HTTP-like listener's service needs hosts unless it is `*` until
/// #15749; after, only `*` with hosts is refused.
fn ingress_service_error(
    s: &Map<String, Value>,
    protocol: &str,
    rules: Switches,
) -> Option<String> {
    let name = text(s, "Name");
    let hosts = !list(s, "Hosts").is_empty();
    if name.is_empty() {
        return Some("Consul Ingress Service requires a name".into());
    }
    if protocol == "tcp" {
        if name == "*" {
            return Some(
                r#"Consul Ingress Service doesn't support wildcard name for "tcp" protocol"#.into(),
            );
        }
        return hosts.then(|| {
            r#"Consul Ingress Service doesn't support associating hosts to a service for the "tcp" protocol"#
                .to_string()
        });
    }
    if rules.has(Switch::IngressHostsOptional) {
        return (name == "*" && hosts).then(|| {
            r#"Consul Ingress Service with a wildcard "*" service name can not also specify hosts"#
                .to_string()
        });
    }
    (name != "*" && !hosts).then(|| {
        format!(
            "Consul Ingress Service requires one or more hosts when using {protocol:?} protocol"
        )
    })
}

fn terminating_error(t: &Map<String, Value>) -> Option<String> {
    let services = list(t, "Services");
    if services.is_empty() {
        return Some("Consul Terminating Gateway requires at least one service".into());
    }
    services.iter().filter_map(Value::as_object).find_map(|s| {
        let set = |k: &str| !text(s, k).is_empty();
        let (ca, cert, key, sni) = (set("CAFile"), set("CertFile"), set("KeyFile"), set("SNI"));
        if !set("Name") {
            Some("Consul Linked Service requires Name")
        } else if (cert || key) && !ca {
            Some("Consul Linked Service TLS requires CAFile")
        } else if cert != key {
            Some("Consul Linked Service TLS Cert and Key must both be set")
        } else if sni && !ca {
            Some("Consul Linked Service TLS SNI requires CAFile")
        } else {
            None
        }
        .map(str::to_string)
    })
}
