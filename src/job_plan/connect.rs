//! The register endpoint's Connect mutator (`jobConnectHook.Mutate`,
//! nomad/job_endpoint_hook_connect.go): the server injects the Envoy task a
//! Connect service needs (a sidecar proxy, or a gateway), the port it
//! listens on, and the task kind of a native service. Without it a job file
//! would plan the stored `connect-proxy-<service>` task as deleted.

use serde_json::{Map, Value, json};

use super::connect_env::{JobEnv, interpolate_name};
use super::connect_gateway::gateway;
use super::json_map::{SECOND, list, text};
use super::sidecar_merge::merge_sidecar_task;
use crate::model::{Release, v};
use crate::version::{Switch, Switches};

/// The prefix of a sidecar proxy's task name, kind and port label.
pub(crate) const PROXY: &str = "connect-proxy";

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

/// Runs the mutator over every group with a network (a group without one
/// is left for validation to refuse). An error is the mutator's own: a
/// native service whose task cannot be found, a mesh gateway without a port.
pub(crate) fn connect(job: &mut Map<String, Value>, release: Release) -> Result<(), String> {
    let rules = Switches::of(release);
    let env = JobEnv::of(job);
    let Some(groups) = job.get_mut("TaskGroups").and_then(Value::as_array_mut) else {
        return Ok(());
    };
    for g in groups.iter_mut().filter_map(Value::as_object_mut) {
        if list(g, "Networks").is_empty() {
            continue;
        }
        let vars = env.for_group(g);
        let mut services = list(g, "Services");
        for s in services.iter_mut().filter_map(Value::as_object_mut) {
            let Some(c) = s.get("Connect").and_then(Value::as_object).cloned() else {
                continue;
            };
            if is_set(&c, "SidecarService") {
                interpolate_name(s, &vars);
                sidecar(g, s, &c, release, rules);
            } else if c.get("Native").and_then(Value::as_bool) == Some(true) {
                native(g, s)?;
            } else if is_set(&c, "Gateway") {
                interpolate_name(s, &vars);
                gateway(g, s, release, rules)?;
            }
        }
        g.insert("Services".into(), Value::Array(services));
        if let Some(n) = g
            .get_mut("Networks")
            .and_then(Value::as_array_mut)
            .and_then(|n| n.first_mut())
            .and_then(Value::as_object_mut)
        {
            network_defaults(n);
        }
    }
    Ok(())
}

pub(crate) fn is_set(m: &Map<String, Value>, key: &str) -> bool {
    m.get(key).is_some_and(|v| !v.is_null())
}

/// Adds (or finds) the sidecar proxy task of service `s` and its port.
fn sidecar(
    g: &mut Map<String, Value>,
    s: &Map<String, Value>,
    c: &Map<String, Value>,
    release: Release,
    rules: Switches,
) {
    let name = text(s, "Name");
    let kind = format!("{PROXY}:{name}");
    let at = match task_of_kind(g, &kind) {
        Some(i) => i,
        None => {
            let driver = guess_driver(g, rules.has(Switch::ConnectSidecarPodman));
            let cluster = cluster_of(g, s);
            let scoped = rules.has(Switch::ConnectClusterConstraints);
            let mut task = sidecar_task(&name, &driver, &cluster, scoped, release);
            rename_if_taken(g, &mut task);
            push_task(g, task)
        }
    };
    let restart = g.get("RestartPolicy").cloned();
    if let Some(task) = task_at(g, at) {
        if let Some(st) = c.get("SidecarTask").and_then(Value::as_object) {
            merge_sidecar_task(task, st, rules);
        }
        task_defaults(task, restart);
    }
    let port = c
        .get("SidecarService")
        .and_then(|ss| ss.get("Port"))
        .and_then(Value::as_str)
        .filter(|p| !p.is_empty())
        .map_or_else(|| format!("{PROXY}-{name}"), str::to_string);
    inject_port(g, &port);
}

/// The sidecar task as the server builds it: Envoy in the guessed driver,
/// 250 MHz and 128 MB, two 2 MB log files, a 5s shutdown delay, a prestart
/// sidecar, needing a Consul with gRPC.
fn sidecar_task(
    service: &str,
    driver: &str,
    cluster: &str,
    scoped: bool,
    release: Release,
) -> Map<String, Value> {
    let mut task = envoy_task(PROXY, service, driver, release);
    task.insert(
        "Config".into(),
        json!({"image": "${meta.connect.sidecar_image}", "args": envoy_args()}),
    );
    task.insert(
        "Lifecycle".into(),
        json!({"Hook": "prestart", "Sidecar": true}),
    );
    let version = consul_version(cluster, scoped);
    let grpc = consul_grpc(cluster, scoped);
    task.insert("Constraints".into(), json!([version, grpc]));
    task
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
    if release >= v(1, 5, 5) {
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

/// Nomad appends six random hex digits to a sidecar whose name a task of
/// the group already has; plan-inspect appends `-000000`, so the plan is
/// reproducible (the stored name differs from it).
fn rename_if_taken(g: &Map<String, Value>, task: &mut Map<String, Value>) {
    let name = text(task, "Name");
    let taken = list(g, "Tasks")
        .iter()
        .any(|t| t.get("Name").and_then(Value::as_str) == Some(name.as_str()));
    if taken {
        task.insert("Name".into(), json!(format!("{name}-000000")));
    }
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

/// A native service's task gets the kind `connect-native:<service>`; the
/// service names it when it named none.
fn native(g: &mut Map<String, Value>, s: &mut Map<String, Value>) -> Result<(), String> {
    let (service, wanted) = (text(s, "Name"), text(s, "TaskName"));
    let group = text(g, "Name");
    let tasks = list(g, "Tasks");
    let at = if wanted.is_empty() {
        if tasks.len() != 1 {
            return Err(format!(
                "task for Consul Connect Native service {group}->{service} is ambiguous and must be set"
            ));
        }
        0
    } else {
        tasks
            .iter()
            .position(|t| t.get("Name").and_then(Value::as_str) == Some(wanted.as_str()))
            .ok_or_else(|| {
                format!(
                    "task {wanted} named by Consul Connect Native service {group}->{service} does not exist"
                )
            })?
    };
    if let Some(task) = task_at(g, at) {
        task.insert("Kind".into(), json!(format!("connect-native:{service}")));
        let name = text(task, "Name");
        s.insert("TaskName".into(), json!(name));
    }
    Ok(())
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
