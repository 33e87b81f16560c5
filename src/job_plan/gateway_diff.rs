//! `connectGatewayDiff` and the blocks under it (nomad/structs/diff.go):
//! a Connect gateway's proxy (bind addresses as `host:port`, the connect
//! timeout as Go prints a duration), its ingress (TLS, listeners keyed by
//! protocol and port, their services by name with hosts, TLS and header
//! modifiers), its terminating services by name and its mesh mode.

use serde_json::Value;

use super::diff_types::{DiffType, ObjectDiff, sort_objects};
use super::fields::{fields, presence_kind, primitive_object, string_set, strings};
use super::flat::{self, Flat};
use super::nested::{self, get, list};
use super::same::same;
use super::schema::Type;
use crate::time::format_duration;

/// An object of `ty` typed by presence, its fields flattened (plus the
/// `extra` fields of each side), no objects yet.
fn object(
    prev: Option<&Value>,
    next: Option<&Value>,
    ty: Type,
    name: &str,
    contextual: bool,
    extra: impl Fn(&Value, &mut Flat),
) -> Option<ObjectDiff> {
    let kind = presence_kind(prev, next)?;
    let (mut o, mut n) = flat::pair(prev, next, ty, &[]);
    for (f, v) in [(o.as_mut(), prev), (n.as_mut(), next)] {
        if let (Some(f), Some(v)) = (f, v) {
            extra(v, f);
        }
    }
    Some(ObjectDiff {
        kind,
        name: name.into(),
        fields: fields(o.as_ref(), n.as_ref(), contextual),
        objects: Vec::new(),
    })
}

/// `connectGatewayDiff`.
pub(crate) fn gateway(
    prev: Option<&Value>,
    next: Option<&Value>,
    contextual: bool,
) -> Option<ObjectDiff> {
    let mut diff = object(
        prev,
        next,
        Type::AnyScalars,
        "Gateway",
        contextual,
        |_, _| {},
    )?;
    let pair = |k| (get(prev, k), get(next, k));
    let (a, b) = pair("Proxy");
    diff.objects.extend(proxy(a, b, contextual));
    let (a, b) = pair("Ingress");
    diff.objects.extend(ingress(a, b, contextual));
    let (a, b) = pair("Terminating");
    diff.objects.extend(terminating(a, b, contextual));
    let (a, b) = pair("Mesh");
    diff.objects
        .extend(presence_kind(a, b).map(|kind| ObjectDiff {
            kind,
            name: "Mesh".into(),
            fields: Vec::new(),
            objects: Vec::new(),
        }));
    Some(diff)
}

/// `connectGatewayProxyDiff`: the connect timeout is a field only when both
/// sides have a proxy.
fn proxy(prev: Option<&Value>, next: Option<&Value>, contextual: bool) -> Option<ObjectDiff> {
    let both = prev.is_some() && next.is_some();
    let mut diff = object(
        prev,
        next,
        Type::GatewayProxy,
        "Proxy",
        contextual,
        |v, f| {
            if both {
                let timeout = v
                    .get("ConnectTimeout")
                    .and_then(Value::as_i64)
                    .map(format_duration);
                f.insert("ConnectTimeout".into(), timeout.unwrap_or_default());
            }
        },
    )?;
    let (a, b) = (
        get(prev, "EnvoyGatewayBindAddresses"),
        get(next, "EnvoyGatewayBindAddresses"),
    );
    diff.objects.extend(bind_addresses(a, b, contextual));
    diff.objects.extend(nested::config(
        get(prev, "Config"),
        get(next, "Config"),
        contextual,
    ));
    Some(diff)
}

/// `connectGatewayProxyEnvoyBindAddrsDiff`: each address as
/// `net.JoinHostPort` writes it, typed by which side is empty.
fn bind_addresses(
    prev: Option<&Value>,
    next: Option<&Value>,
    contextual: bool,
) -> Option<ObjectDiff> {
    let map = |v: Option<&Value>| -> Flat {
        v.and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(k, a)| {
                let host = a.get("Address").and_then(Value::as_str).unwrap_or_default();
                let port = a.get("Port").and_then(Value::as_i64).unwrap_or(0);
                let host = if host.contains(':') {
                    format!("[{host}]")
                } else {
                    host.to_string()
                };
                (k.clone(), format!("{host}:{port}"))
            })
            .collect()
    };
    let (o, n) = (map(prev), map(next));
    if same(prev.unwrap_or(&Value::Null), next.unwrap_or(&Value::Null)) {
        return None;
    }
    let kind = if o.is_empty() {
        DiffType::Added
    } else if n.is_empty() {
        DiffType::Deleted
    } else {
        DiffType::Edited
    };
    Some(ObjectDiff {
        kind,
        name: "EnvoyGatewayBindAddresses".into(),
        fields: fields(Some(&o), Some(&n), contextual),
        objects: Vec::new(),
    })
}

/// `connectGatewayIngressDiff`: TLS and the listeners.
fn ingress(prev: Option<&Value>, next: Option<&Value>, contextual: bool) -> Option<ObjectDiff> {
    let mut diff = object(
        prev,
        next,
        Type::AnyScalars,
        "Ingress",
        contextual,
        |_, _| {},
    )?;
    diff.objects
        .extend(tls(get(prev, "TLS"), get(next, "TLS"), contextual));
    let key = |l: &Value| {
        let protocol = l
            .get("Protocol")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let port = l.get("Port").and_then(Value::as_i64).unwrap_or(0);
        format!("{protocol}/{port}")
    };
    diff.objects.extend(keyed(
        get(prev, "Listeners"),
        get(next, "Listeners"),
        key,
        |a, b| listener(a, b, contextual),
    ));
    Some(diff)
}

/// The `Name` an ingress or linked service is matched by.
fn name_of(s: &Value) -> String {
    s.get("Name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// Objects of two lists matched by `key` (the last of a key), sorted.
fn keyed<'v>(
    prev: Option<&'v Value>,
    next: Option<&'v Value>,
    key: impl Fn(&Value) -> String,
    diff: impl Fn(Option<&'v Value>, Option<&'v Value>) -> Option<ObjectDiff>,
) -> Vec<ObjectDiff> {
    let by = |v| {
        list(v)
            .into_iter()
            .map(|x| (key(x), x))
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    let (o, n) = (by(prev), by(next));
    let mut out: Vec<ObjectDiff> = o
        .iter()
        .filter_map(|(k, v)| diff(Some(v), n.get(k).copied()))
        .chain(
            n.iter()
                .filter(|(k, _)| !o.contains_key(*k))
                .filter_map(|(_, v)| diff(None, Some(v))),
        )
        .collect();
    sort_objects(&mut out);
    out
}

/// `connectGatewayTLSConfigDiff`: the cipher suites set, the fields, SDS.
fn tls(prev: Option<&Value>, next: Option<&Value>, contextual: bool) -> Option<ObjectDiff> {
    let mut diff = object(prev, next, Type::GatewayTls, "TLS", contextual, |_, _| {})?;
    diff.objects.extend(string_set(
        &strings(get(prev, "CipherSuites")),
        &strings(get(next, "CipherSuites")),
        "CipherSuites",
        contextual,
    ));
    diff.objects.extend(primitive_object(
        get(prev, "SDS"),
        get(next, "SDS"),
        Type::GatewaySds,
        &[],
        "SDS",
        contextual,
    ));
    Some(diff)
}

/// `connectGatewayIngressListenerDiff`: fields and services by name.
fn listener(prev: Option<&Value>, next: Option<&Value>, contextual: bool) -> Option<ObjectDiff> {
    let mut diff = object(
        prev,
        next,
        Type::IngressListener,
        "Listener",
        contextual,
        |_, _| {},
    )?;
    diff.objects.extend(keyed(
        get(prev, "Services"),
        get(next, "Services"),
        name_of,
        |a, b| ingress_service(a, b, contextual),
    ));
    Some(diff)
}

/// `connectGatewayIngressServiceDiff`: the connection limits are fields
/// when set; hosts, TLS and both header modifiers are objects.
fn ingress_service(
    prev: Option<&Value>,
    next: Option<&Value>,
    contextual: bool,
) -> Option<ObjectDiff> {
    let limits = |v: &Value, f: &mut Flat| {
        for k in [
            "MaxConnections",
            "MaxPendingRequests",
            "MaxConcurrentRequests",
        ] {
            if let Some(n) = v.get(k).filter(|n| !n.is_null()).and_then(flat::scalar) {
                f.insert(k.into(), n);
            }
        }
    };
    let mut diff = object(
        prev,
        next,
        Type::IngressService,
        "ConsulIngressService",
        contextual,
        limits,
    )?;
    diff.objects.extend(string_set(
        &strings(get(prev, "Hosts")),
        &strings(get(next, "Hosts")),
        "Hosts",
        contextual,
    ));
    diff.objects
        .extend(tls(get(prev, "TLS"), get(next, "TLS"), contextual));
    for name in ["RequestHeaders", "ResponseHeaders"] {
        let (a, b) = (get(prev, name), get(next, name));
        if let Some(mut headers) = object(a, b, Type::HeaderModifiers, name, contextual, |_, _| {})
        {
            headers.objects.extend(string_set(
                &strings(get(a, "Remove")),
                &strings(get(b, "Remove")),
                "Remove",
                contextual,
            ));
            diff.objects.push(headers);
        }
    }
    Some(diff)
}

/// `connectGatewayTerminatingDiff`: linked services by name.
fn terminating(prev: Option<&Value>, next: Option<&Value>, contextual: bool) -> Option<ObjectDiff> {
    let mut diff = object(
        prev,
        next,
        Type::AnyScalars,
        "Terminating",
        contextual,
        |_, _| {},
    )?;
    diff.objects.extend(keyed(
        get(prev, "Services"),
        get(next, "Services"),
        name_of,
        |a, b| object(a, b, Type::LinkedService, "Service", contextual, |_, _| {}),
    ));
    Some(diff)
}
