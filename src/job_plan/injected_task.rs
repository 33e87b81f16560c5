//! The parts of the tasks the Connect mutator injects that sidecars and
//! gateways share: the Envoy task, its Consul constraints and driver, where
//! it goes in the group, and the ports it listens on.

use serde_json::{Map, Value, json};

use super::json_map::{SECOND, list, text};
use crate::model::Release;
use crate::version::{Switch, Switches};

/// The arguments Nomad starts Envoy with, for sidecars and gateways.
pub(crate) fn envoy_args() -> Value {
    json!([
        "-c",
        "${NOMAD_SECRETS_DIR}/envoy_bootstrap.json",
        "-l",
        "${meta.connect.log_level}",
        "--concurrency",
        "${meta.connect.proxy_concurrency}",
        "--disable-hot-restart"
    ])
}

pub(crate) fn is_set(m: &Map<String, Value>, key: &str) -> bool {
    m.get(key).is_some_and(|v| !v.is_null())
}

/// What sidecar and gateway tasks share: name and kind from the prefix and
/// service, the driver, resources, logs and shutdown delay.
pub(crate) fn envoy_task(
    prefix: &str,
    service: &str,
    driver: &str,
    release: Release,
) -> Map<String, Value> {
    let mut logs = json!({"MaxFiles": 2, "MaxFileSizeMB": 2});
    if Switches::of(release).has(Switch::AnnotateLogsDisabled) {
        logs["Disabled"] = json!(false);
    }
    let task = json!({
        "Name": format!("{prefix}-{service}"),
        "Kind": format!("{prefix}:{service}"),
        "Driver": driver,
        "ShutdownDelay": 5 * SECOND,
        "LogConfig": logs,
        "Resources": {"CPU": 250, "MemoryMB": 128},
    });
    match task {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// The Consul version a Connect task needs, on the service's cluster once
/// constraints name it (`${attr.consul.<cluster>.version}`).
pub(crate) fn consul_version(cluster: &str, scoped: bool) -> Value {
    let target = if scoped && !matches!(cluster, "" | "default") {
        format!("${{attr.consul.{cluster}.version}}")
    } else {
        "${attr.consul.version}".into()
    };
    json!({"LTarget": target, "RTarget": ">= 1.8.0", "Operand": "semver"})
}

/// The Consul gRPC listener a Connect task needs. Nomad names the cluster
/// for any cluster but `default`, the empty one included.
pub(crate) fn consul_grpc(cluster: &str, scoped: bool) -> Value {
    let target = if scoped && cluster != "default" {
        format!("${{attr.consul.{cluster}.grpc}}")
    } else {
        "${attr.consul.grpc}".into()
    };
    json!({"LTarget": target, "RTarget": "0", "Operand": ">"})
}

/// The Consul cluster of a service: its own, else the group's, else
/// `default` (`Service.GetConsulClusterName`).
pub(crate) fn cluster_of(g: &Map<String, Value>, s: &Map<String, Value>) -> String {
    let own = text(s, "Cluster");
    if !own.is_empty() {
        return own;
    }
    let group = g
        .get("Consul")
        .and_then(|c| c.get("Cluster"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    if group.is_empty() { "default" } else { group }.to_string()
}

/// `podman` when the group's tasks use podman and none docker (when the
/// release guesses), else `docker`.
pub(crate) fn guess_driver(g: &Map<String, Value>, guesses: bool) -> String {
    let drivers: Vec<String> = list(g, "Tasks")
        .iter()
        .filter_map(|t| t.get("Driver").and_then(Value::as_str))
        .map(str::to_string)
        .collect();
    let has = |d: &str| drivers.iter().any(|x| x == d);
    if guesses && has("podman") && !has("docker") {
        "podman".into()
    } else {
        "docker".into()
    }
}

pub(crate) fn task_of_kind(g: &Map<String, Value>, kind: &str) -> Option<usize> {
    list(g, "Tasks")
        .iter()
        .position(|t| t.get("Kind").and_then(Value::as_str) == Some(kind))
}

pub(crate) fn task_at(g: &mut Map<String, Value>, at: usize) -> Option<&mut Map<String, Value>> {
    g.get_mut("Tasks")
        .and_then(Value::as_array_mut)
        .and_then(|t| t.get_mut(at))
        .and_then(Value::as_object_mut)
}

/// Appends `task` to the group's tasks; its index.
pub(crate) fn push_task(g: &mut Map<String, Value>, task: Map<String, Value>) -> usize {
    let tasks = g.entry("Tasks").or_insert_with(|| json!([]));
    if !tasks.is_array() {
        *tasks = json!([]);
    }
    let list = tasks.as_array_mut().expect("made a list above");
    list.push(Value::Object(task));
    list.len() - 1
}

/// `structs.Task.Canonicalize` on an injected task: the 5s kill timeout and
/// the group's restart policy when it has none.
pub(crate) fn task_defaults(task: &mut Map<String, Value>, restart: Option<Value>) {
    if task.get("KillTimeout").and_then(Value::as_i64).unwrap_or(0) == 0 {
        task.insert("KillTimeout".into(), json!(5 * SECOND));
    }
    if task.get("RestartPolicy").is_none_or(Value::is_null)
        && let Some(r) = restart
    {
        task.insert("RestartPolicy".into(), r);
    }
}

/// Adds a dynamic port `label` mapped to the same port inside the group's
/// network namespace (`To: -1`) to its first network, unless there.
pub(crate) fn inject_port(g: &mut Map<String, Value>, label: &str) {
    let Some(n) = g
        .get_mut("Networks")
        .and_then(Value::as_array_mut)
        .and_then(|n| n.first_mut())
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    let ports = n.entry("DynamicPorts").or_insert(Value::Null);
    if !ports.is_array() {
        *ports = json!([]);
    }
    let ports = ports.as_array_mut().expect("made a list above");
    if ports
        .iter()
        .any(|p| p.get("Label").and_then(Value::as_str) == Some(label))
    {
        return;
    }
    ports.push(json!({"Label": label, "Value": 0, "To": -1}));
}

/// `NetworkResource.Canonicalize`: a port without a host network is on
/// `default`.
pub(crate) fn network_defaults(n: &mut Map<String, Value>) {
    for key in ["ReservedPorts", "DynamicPorts"] {
        let ports = n.get_mut(key).and_then(Value::as_array_mut);
        for p in ports.into_iter().flatten().filter_map(Value::as_object_mut) {
            if text(p, "HostNetwork").is_empty() {
                p.insert("HostNetwork".into(), json!("default"));
            }
        }
    }
}
