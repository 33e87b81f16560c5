//! The register endpoint's admission on a canonical job: the implied
//! constraints (`jobImpliedConstraints`, nomad/job_endpoint_hooks.go) and the
//! validation Nomad answers a bad job with (`structs.Job.Validate`, the
//! common checks), for the release replayed.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use super::disconnect_validate::job_group_errors;
use super::group_validate::group_errors;
use super::multierror::multierror;
use super::placement_validate::{affinity_errors, constraint_errors, spread_errors};
use crate::model::Release;
use crate::version::{Switch, Switches};

/// Adds the constraints the release's server adds: Vault, NUMA, signals,
/// Nomad and Consul service discovery, bridge networking, transparent proxy
/// and task schedules.
pub fn implied_constraints(job: &mut Map<String, Value>, release: Release) {
    let Some(groups) = job.get_mut("TaskGroups").and_then(Value::as_array_mut) else {
        return;
    };
    let rules = Switches::of(release);
    for g in groups.iter_mut().filter_map(Value::as_object_mut) {
        group_constraints(g, rules);
    }
}

fn group_constraints(g: &mut Map<String, Value>, rules: Switches) {
    let tasks: Vec<Value> = g
        .get("Tasks")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let services = |v: &Value| -> Vec<Value> {
        v.get("Services")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let group_services = services(&Value::Object(g.clone()));
    let all_services: Vec<Value> = group_services
        .iter()
        .cloned()
        .chain(tasks.iter().flat_map(services))
        .collect();

    // One Vault constraint per cluster, in task name order.
    let mut vault_tasks: Vec<(&str, &Value)> = tasks
        .iter()
        .filter_map(|t| {
            let vault = t.get("Vault").filter(|v| !v.is_null())?;
            Some((
                t.get("Name").and_then(Value::as_str).unwrap_or_default(),
                vault,
            ))
        })
        .collect();
    vault_tasks.sort_by_key(|(name, _)| *name);
    for (_, vault) in vault_tasks {
        let cluster = vault
            .get("Cluster")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let c = if rules.has(Switch::ClusterConstraints) && !matches!(cluster, "" | "default") {
            constraint(
                &format!("${{attr.vault.{cluster}.version}}"),
                ">= 1.11.0",
                "semver",
            )
        } else {
            constraint("${attr.vault.version}", ">= 0.6.1", "semver")
        };
        add(g, c, Match::Left);
    }
    // NUMA-aware tasks need a 1.7 client on Linux (#18818,
    // v1.7.0 nomad/job_endpoint_hooks.go `numaVersionConstraint`).
    let numa = tasks.iter().any(|t| {
        t.pointer("/Resources/NUMA/Affinity")
            .and_then(Value::as_str)
            .is_some_and(|a| a != "none")
    });
    if numa && rules.has(Switch::NumaCores) {
        add(
            g,
            constraint("${attr.nomad.version}", ">= 1.6.3-dev", "semver"),
            Match::Full,
        );
        add(
            g,
            constraint("${attr.kernel.name}", "linux", "="),
            Match::Full,
        );
    }
    let signals: BTreeSet<String> = tasks.iter().flat_map(task_signals).collect();
    if !signals.is_empty() {
        let joined = signals.into_iter().collect::<Vec<_>>().join(",");
        add(
            g,
            constraint("${attr.os.signals}", &joined, "set_contains"),
            Match::Full,
        );
    }
    let provider = |s: &Value| {
        s.get("Provider")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let nomad: Vec<&Value> = all_services
        .iter()
        .filter(|s| provider(s) == "nomad")
        .collect();
    if !nomad.is_empty() {
        add(
            g,
            constraint("${attr.nomad.service_discovery}", "true", "="),
            Match::Full,
        );
        let checks = nomad.iter().any(|s| {
            s.get("Checks")
                .and_then(Value::as_array)
                .is_some_and(|c| !c.is_empty())
        });
        if checks && rules.has(Switch::NomadChecksConstraint) {
            add(
                g,
                constraint("${attr.nomad.version}", ">= 1.4.0", "semver"),
                Match::Full,
            );
        }
    }
    let consul = |s: &&Value| matches!(provider(s).as_str(), "" | "consul");
    // The Consul constraint of a service: its cluster's from #18528.
    let consul_version = |s: &Value| {
        let cluster = s.get("Cluster").and_then(Value::as_str).unwrap_or_default();
        if rules.has(Switch::ClusterConstraints) && !matches!(cluster, "" | "default") {
            constraint(
                &format!("${{attr.consul.{cluster}.version}}"),
                ">= 1.8.0",
                "semver",
            )
        } else {
            constraint("${attr.consul.version}", ">= 1.8.0", "semver")
        }
    };
    if rules.has(Switch::TaskServiceConstraints) {
        // Group services on the group, task services on their task.
        for s in group_services.iter().filter(consul) {
            add(g, consul_version(s), Match::Left);
        }
        if let Some(list) = g.get_mut("Tasks").and_then(Value::as_array_mut) {
            for t in list.iter_mut().filter_map(Value::as_object_mut) {
                for s in services(&Value::Object(t.clone())).iter().filter(consul) {
                    add(t, consul_version(s), Match::Left);
                }
            }
        }
    } else if rules.has(Switch::ClusterConstraints) {
        // #18528 looks at task services only inside its loop over the group's.
        if !group_services.is_empty() {
            for s in all_services.iter().filter(consul) {
                add(g, consul_version(s), Match::Left);
            }
        }
    } else if all_services.iter().any(|s| consul(&s)) {
        add(g, consul_version(&Value::Null), Match::Left);
    }
    let bridge = g
        .get("Networks")
        .and_then(Value::as_array)
        .is_some_and(|n| {
            n.iter()
                .any(|n| n.get("Mode").and_then(Value::as_str) == Some("bridge"))
        });
    if bridge && rules.has(Switch::CniBridgeConstraints) {
        for plugin in ["bridge", "firewall", "host-local", "loopback", "portmap"] {
            let target = format!("${{attr.plugins.cni.version.{plugin}}}");
            add(g, constraint(&target, ">= 0.4.0", "semver"), Match::Left);
        }
    }
    // A group service's transparent proxy needs the consul-cni plugin and a
    // 1.8 client (#20244); a task schedule a 1.8 client (v1.8.0
    // nomad/job_endpoint_hooks.go:355-362).
    let tproxy = group_services.iter().any(|s| {
        s.pointer("/Connect/SidecarService/Proxy/TransparentProxy")
            .is_some_and(|t| !t.is_null())
    });
    if tproxy && rules.has(Switch::ConnectTransparentProxy) {
        let cni = constraint(
            "${attr.plugins.cni.version.consul-cni}",
            ">= 1.4.2",
            "semver",
        );
        add(g, cni, Match::Left);
        let nomad = constraint("${attr.nomad.version}", ">= 1.8.0-dev", "semver");
        add(g, nomad, Match::Left);
    }
    let schedule = tasks
        .iter()
        .any(|t| t.get("Schedule").is_some_and(|s| !s.is_null()));
    if schedule && rules.has(Switch::TaskSchedules) {
        let nomad = constraint("${attr.nomad.version}", ">= 1.8.0-dev", "semver");
        add(g, nomad, Match::Left);
    }
}

/// The signals a task needs: its kill signal, a Vault or template change
/// signal.
fn task_signals(t: &Value) -> Vec<String> {
    let s = |v: Option<&Value>, k: &str| {
        v.and_then(|v| v.get(k))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let mut out = Vec::new();
    let vault = t.get("Vault").filter(|v| !v.is_null());
    if vault.is_some() && s(vault, "ChangeMode") == "signal" {
        out.push(s(vault, "ChangeSignal"));
    }
    let kill = s(Some(t), "KillSignal");
    if !kill.is_empty() {
        out.push(kill);
    }
    for tmpl in t
        .get("Templates")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if s(Some(tmpl), "ChangeMode") == "signal" {
            out.push(s(Some(tmpl), "ChangeSignal"));
        }
    }
    out
}

fn constraint(l: &str, r: &str, op: &str) -> Value {
    json!({"LTarget": l, "RTarget": r, "Operand": op})
}

/// How an existing constraint stands for the implied one.
enum Match {
    /// The same constraint.
    Full,
    /// Any constraint on the same attribute.
    Left,
}

fn add(on: &mut Map<String, Value>, c: Value, how: Match) {
    let list = on.entry("Constraints").or_insert(Value::Null);
    if list.is_null() {
        *list = json!([]);
    }
    let Some(list) = list.as_array_mut() else {
        return;
    };
    let found = list.iter().any(|e| match how {
        Match::Full => ["LTarget", "RTarget", "Operand"]
            .iter()
            .all(|k| e.get(*k) == c.get(*k)),
        Match::Left => e.get("LTarget") == c.get("LTarget"),
    });
    if !found {
        list.push(c);
    }
}

/// The servers' default `job_max_count` (`structs.JobDefaultMaxCount`).
const JOB_MAX_COUNT: i64 = 50_000;

/// Nomad's reasons to reject the job, as `structs.Job.Validate` words them
/// (the checks an API job most often fails); empty when it is accepted.
pub fn validate(job: &Map<String, Value>, release: Release) -> Vec<String> {
    let text = |m: &Map<String, Value>, k: &str| {
        m.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let mut errs = Vec::new();
    if text(job, "Region").is_empty() && job.get("Multiregion").is_none_or(Value::is_null) {
        errs.push("Missing job region".to_string());
    }
    let id = text(job, "ID");
    if id.is_empty() {
        errs.push("Missing job ID".into());
    } else if id.contains(' ') {
        errs.push("Job ID contains a space".into());
    }
    if text(job, "Name").is_empty() {
        errs.push("Missing job name".into());
    }
    if text(job, "Namespace").is_empty() {
        errs.push("Job must be in a namespace".into());
    }
    let kind = text(job, "Type");
    match kind.as_str() {
        "service" | "batch" | "system" | "sysbatch" | "_core" => {}
        "" => errs.push("Missing job type".into()),
        other => errs.push(format!("Invalid job type: {other:?}")),
    }
    let rules = Switches::of(release);
    let priority = job.get("Priority").and_then(Value::as_i64).unwrap_or(0);
    let priority_ok = (1..=100).contains(&priority);
    // Until #16084 the job's own validation checks the priority; from then
    // on the register endpoint does, after it (with the server's maximum,
    // 100 by default).
    let endpoint_priority = rules.has(Switch::JobPriorityRange);
    if !priority_ok && !endpoint_priority {
        errs.push("Job priority must be between [1, 100]".into());
    }
    let dcs = job
        .get("Datacenters")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if dcs.is_empty() && job.get("Multiregion").is_none_or(Value::is_null) {
        errs.push("Missing job datacenters".into());
    } else {
        for _ in dcs.iter().filter(|d| d.as_str().is_none_or(str::is_empty)) {
            errs.push("Job datacenter must be non-empty string".into());
        }
    }
    let groups: Vec<&Map<String, Value>> = job
        .get("TaskGroups")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .collect();
    if groups.is_empty() {
        errs.push("Missing job task groups".into());
    }
    errs.extend(constraint_errors(job, rules));
    errs.extend(affinity_errors(job, &kind, rules));
    errs.extend(spread_errors(job, &kind, rules));
    errs.extend(description_errors(job, rules));
    let mut seen: Vec<String> = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        let name = text(g, "Name");
        if name.is_empty() {
            errs.push(format!("Job task group {} missing name", i + 1));
        } else if let Some(j) = seen.iter().position(|n| *n == name) {
            errs.push(format!(
                "Job task group {} redefines '{name}' from group {}",
                i + 1,
                j + 1
            ));
        }
        seen.push(name);
        errs.extend(job_group_errors(g, &kind, rules));
    }
    let global_multiregion =
        job.get("Multiregion").is_some_and(|m| !m.is_null()) && text(job, "Region") == "global";
    for g in &groups {
        let inner = group_errors(g, &kind, global_multiregion, rules);
        if !inner.is_empty() {
            errs.push(format!(
                "Task group {} validation failed: {}",
                text(g, "Name"),
                multierror(&inner)
            ));
        }
    }
    if let Some(p) = job.get("Periodic").and_then(Value::as_object)
        && p.get("Enabled").and_then(Value::as_bool) == Some(true)
    {
        if !matches!(kind.as_str(), "batch" | "sysbatch") {
            errs.push("Periodic can only be used with \"batch\" or \"sysbatch\" scheduler".into());
        }
        let inner = super::periodic::validate(p, release);
        if !inner.is_empty() {
            errs.push(multierror(&inner));
        }
    }
    // `jobValidate` after the job's own checks (v2.0.5
    // nomad/job_endpoint_hooks.go:490): core type, payload, priority, the
    // identities, the servers' job_max_count (its default from #26858).
    if kind == "_core" {
        errs.push("job type cannot be core".into());
    }
    if job
        .get("Payload")
        .and_then(Value::as_str)
        .is_some_and(|p| !p.is_empty())
    {
        errs.push("job can't be submitted with a payload, only dispatched".into());
    }
    if !priority_ok && endpoint_priority {
        errs.push("job priority must be between [1, 100]".into());
    }
    errs.extend(super::identities::identity_checks(job, release).1);
    let total: i64 = groups
        .iter()
        .filter_map(|g| g.get("Count").and_then(Value::as_i64))
        .sum();
    if rules.has(Switch::JobMaxCount) && total > JOB_MAX_COUNT {
        errs.push(format!(
            "total count was greater than configured job_max_count: {total} > {JOB_MAX_COUNT}"
        ));
    }
    // The community edition's validators refuse Enterprise features
    // (v1.7.0 nomad/job_endpoint_hook_numa_ce.go, v1.8.0
    // job_endpoint_hook_sched_ce.go), after `jobValidate`.
    let tasks = || {
        groups
            .iter()
            .filter_map(|g| g.get("Tasks").and_then(Value::as_array))
            .flatten()
    };
    let numa = tasks().any(|t| {
        t.pointer("/Resources/NUMA/Affinity")
            .and_then(Value::as_str)
            .is_some_and(|a| a != "none")
    });
    if numa && rules.has(Switch::NumaCores) {
        errs.push("numa scheduling requires Nomad Enterprise".into());
    }
    let schedule = tasks().any(|t| t.get("Schedule").is_some_and(|s| !s.is_null()));
    if schedule && rules.has(Switch::TaskSchedules) {
        errs.push("task schedules requires Nomad Enterprise".into());
    }
    errs
}

/// The UI block's description (#18292, 1.8.0) and the version tag's
/// (#24055, 1.9.0) are at most 1000 bytes (v2.0.5
/// nomad/structs/structs.go:4811-4821).
fn description_errors(job: &Map<String, Value>, rules: Switches) -> Vec<String> {
    let length = |block: &str| {
        job.get(block)
            .and_then(|b| b.get("Description"))
            .and_then(Value::as_str)
            .map_or(0, str::len)
    };
    let mut errs = Vec::new();
    let ui = length("UI");
    if ui > 1000 && rules.has(Switch::UiDescription) {
        errs.push(format!(
            "UI description must be under 1000 characters, currently {ui}"
        ));
    }
    let tag = length("VersionTag");
    if tag > 1000 && rules.has(Switch::VersionTagDescription) {
        errs.push(format!(
            "Tagged version description must be under 1000 characters, currently {tag}"
        ));
    }
    errs
}
