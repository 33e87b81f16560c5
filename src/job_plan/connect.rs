//! The register endpoint's Connect mutator (`jobConnectHook.Mutate`,
//! nomad/job_endpoint_hook_connect.go): the server injects the Envoy task a
//! Connect service needs (a sidecar proxy, or a gateway), the port it
//! listens on, and the task kind of a native service. Without it a job file
//! would plan the stored `connect-proxy-<service>` task as deleted.

use serde_json::{Map, Value, json};

use super::connect_env::{JobEnv, interpolate_name};
use super::connect_gateway::gateway;
use super::injected_task::{
    cluster_of, consul_grpc, consul_version, envoy_args, envoy_task, guess_driver, inject_port,
    is_set, network_defaults, push_task, task_at, task_defaults, task_of_kind,
};
use super::json_map::{list, text};
use super::sidecar_merge::merge_sidecar_task;
use crate::model::Release;
use crate::version::{Switch, Switches};

/// The prefix of a sidecar proxy's task name, kind and port label.
pub(crate) const PROXY: &str = "connect-proxy";

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
