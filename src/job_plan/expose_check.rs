//! The register endpoint's expose-check hook
//! (nomad/job_endpoint_hook_expose_check.go): an `expose = true` HTTP or
//! gRPC check of a group service with a sidecar gets an expose path on the
//! proxy and, when it names no port, a dynamic port of its own; the
//! validator refuses expose where no sidecar or bridge network carries it.

use serde_json::{Map, Value, json};

use super::check_hash::check_hash;
use super::connect_validate::{mode, network_mode_error};
use super::injected_task::is_set;
use super::json_map::{ensure, list, text};
use super::same::same;
use crate::model::Release;
use crate::version::{Switch, Switches};

/// The mutator: adds the expose paths (and check ports) of every group.
pub(crate) fn expose_checks(job: &mut Map<String, Value>, release: Release) -> Result<(), String> {
    let Some(groups) = job.get_mut("TaskGroups").and_then(Value::as_array_mut) else {
        return Ok(());
    };
    for g in groups.iter_mut().filter_map(Value::as_object_mut) {
        let mut services = list(g, "Services");
        for s in services.iter_mut().filter_map(Value::as_object_mut) {
            if !has_sidecar(s) {
                continue;
            }
            let mut checks = list(s, "Checks");
            for (i, c) in checks.iter_mut().enumerate() {
                let Some(c) = c.as_object_mut() else { continue };
                if c.get("Expose").and_then(Value::as_bool) != Some(true) || !exposable(c) {
                    continue;
                }
                let path = expose_path(g, s, c, i, release)?;
                let proxy = ensure(ensure(ensure(s, "Connect"), "SidecarService"), "Proxy");
                let expose = ensure(proxy, "Expose");
                let paths = expose.entry("Paths").or_insert(Value::Null);
                if !paths.is_array() {
                    *paths = json!([]);
                }
                if let Some(paths) = paths.as_array_mut()
                    && !paths.iter().any(|p| same(p, &path))
                {
                    paths.push(path);
                }
            }
            s.insert("Checks".into(), Value::Array(checks));
        }
        g.insert("Services".into(), Value::Array(services));
    }
    Ok(())
}

fn has_sidecar(s: &Map<String, Value>) -> bool {
    s.get("Connect")
        .and_then(Value::as_object)
        .is_some_and(|c| is_set(c, "SidecarService"))
}

/// An HTTP or gRPC check whose path starts with `/`.
fn exposable(c: &Map<String, Value>) -> bool {
    matches!(text(c, "Type").to_lowercase().as_str(), "http" | "grpc")
        && text(c, "Path").starts_with('/')
}

/// The expose path of check `i` of service `s`: the check's port (a new
/// dynamic port `svc_<service>_ck_<hash>` when it names none) in front of
/// the service's port, which must be a static port or a number.
fn expose_path(
    g: &mut Map<String, Value>,
    s: &Map<String, Value>,
    c: &mut Map<String, Value>,
    i: usize,
    release: Release,
) -> Result<Value, String> {
    if let Some(e) = network_error(g, Switches::of(release)) {
        return Err(e);
    }
    let (group, service, check) = (text(g, "Name"), text(s, "Name"), text(c, "Name"));
    if text(c, "PortLabel").is_empty() {
        let hash = check_hash(c, &format!("{service}_{i}"), release);
        let label = format!("svc_{service}_ck_{}", &hash[..6]);
        let port = json!({"Label": label, "Value": 0, "To": -1, "HostNetwork": "default"});
        if let Some(n) = g
            .get_mut("Networks")
            .and_then(Value::as_array_mut)
            .and_then(|n| n.first_mut())
            .and_then(Value::as_object_mut)
        {
            let dynamic = n.entry("DynamicPorts").or_insert(Value::Null);
            if !dynamic.is_array() {
                *dynamic = json!([]);
            }
            if let Some(d) = dynamic.as_array_mut() {
                d.push(port);
            }
        }
        c.insert("PortLabel".into(), json!(label));
    }
    let label = text(s, "PortLabel");
    let mapped = port_value(g, &label).filter(|p| *p > 0);
    let port = mapped
        .or_else(|| label.parse::<i64>().ok().filter(|p| *p > 0))
        .ok_or_else(|| {
            format!(
                "unable to determine local service port for service check {group}->{service}->{check}"
            )
        })?;
    Ok(json!({
        "Path": text(c, "Path"),
        "Protocol": text(c, "Protocol"),
        "LocalPathPort": port,
        "ListenerPort": text(c, "PortLabel"),
    }))
}

/// The value of the group's port `label`, reserved ports of a network
/// before its dynamic ones (`Networks.Port`); a dynamic port's is 0.
fn port_value(g: &Map<String, Value>, label: &str) -> Option<i64> {
    list(g, "Networks").iter().find_map(|n| {
        ["ReservedPorts", "DynamicPorts"].iter().find_map(|k| {
            n.get(*k)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .find(|p| p.get("Label").and_then(Value::as_str) == Some(label))
                .map(|p| p.get("Value").and_then(Value::as_i64).unwrap_or(0))
        })
    })
}

/// The validator's first error: a group exposing checks needs one bridge
/// (or, from #26449, `cni/*`) network, and only group services with a
/// sidecar may expose checks.
pub(crate) fn expose_error(job: &Map<String, Value>, rules: Switches) -> Option<String> {
    list(job, "TaskGroups")
        .iter()
        .filter_map(Value::as_object)
        .find_map(|g| network_error(g, rules).or_else(|| use_error(g)))
}

fn exposes(s: &Value) -> impl Iterator<Item = Value> {
    s.get("Checks")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|c| c.get("Expose").and_then(Value::as_bool) == Some(true))
}

fn network_error(g: &Map<String, Value>, rules: Switches) -> Option<String> {
    if !list(g, "Services")
        .iter()
        .any(|s| exposes(s).next().is_some())
    {
        return None;
    }
    if rules.has(Switch::ConnectCni) {
        return network_mode_error(g, "connect expose check", false);
    }
    let group = text(g, "Name");
    let networks = list(g, "Networks");
    if networks.len() != 1 {
        return Some(format!(
            "group {group:?} must specify one bridge network for exposing service check(s)"
        ));
    }
    (mode(&networks[0]) != "bridge")
        .then(|| format!("group {group:?} must use bridge network for exposing service check(s)"))
}

fn use_error(g: &Map<String, Value>) -> Option<String> {
    let group = text(g, "Name");
    let name = |v: &Value| {
        v.get("Name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    for s in list(g, "Services") {
        let sidecar = s.as_object().is_some_and(has_sidecar);
        if let Some(c) = exposes(&s).next().filter(|_| !sidecar) {
            return Some(format!(
                "exposed service check {group}->{}->{} requires use of sidecar_proxy",
                name(&s),
                name(&c)
            ));
        }
    }
    for t in list(g, "Tasks") {
        for s in t
            .get("Services")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(c) = exposes(s).next() {
                return Some(format!(
                    "exposed service check {group}[{}]->{}->{} is not a task-group service",
                    name(&t),
                    name(s),
                    name(&c)
                ));
            }
        }
    }
    None
}
