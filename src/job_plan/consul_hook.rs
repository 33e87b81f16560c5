//! The register endpoint's Consul hook (`jobConsulHook`, from #18521,
//! nomad/job_endpoint_hook_consul.go and its community-edition validator
//! job_endpoint_hook_consul_ce.go): the `default` cluster filled in, an
//! admin partition turned into a constraint, and Enterprise-only Consul
//! settings refused.

use serde_json::{Map, Value, json};

use super::json_map::{list, objects, text};
use crate::model::Release;
use crate::version::{Switch, Switches};

/// The cluster a block or service without one is on (the servers' default
/// Consul configuration, `structs.ConsulDefaultCluster`).
const DEFAULT: &str = "default";

/// The mutator. The partition constraint is appended, not merged: a job
/// file taken from `nomad job inspect` already has it and gets a second one,
/// as on the server (v1.7.3 nomad/job_endpoint_hook_consul.go:43, :60).
pub(crate) fn consul_hook(job: &mut Map<String, Value>, release: Release) {
    let rules = Switches::of(release);
    if !rules.has(Switch::ConsulClusterHook) {
        return;
    }
    let partitions = rules.has(Switch::ConsulPartition);
    for g in objects(job, "TaskGroups") {
        block(g, partitions);
        for s in objects(g, "Services") {
            service(s);
        }
        for t in objects(g, "Tasks") {
            block(t, partitions);
            for s in objects(t, "Services") {
                service(s);
            }
        }
    }
}

/// A group's or task's `consul` block: its cluster, and its partition as a
/// constraint of the group or task.
fn block(owner: &mut Map<String, Value>, partitions: bool) {
    let Some(consul) = owner.get_mut("Consul").and_then(Value::as_object_mut) else {
        return;
    };
    if text(consul, "Cluster").is_empty() {
        consul.insert("Cluster".into(), json!(DEFAULT));
    }
    let (cluster, partition) = (text(consul, "Cluster"), text(consul, "Partition"));
    if !partitions || partition.is_empty() {
        return;
    }
    let target = if cluster == DEFAULT {
        "${attr.consul.partition}".to_string()
    } else {
        format!("${{attr.consul.{cluster}.partition}}")
    };
    let c = json!({"LTarget": target, "RTarget": partition, "Operand": "="});
    let list = owner.entry("Constraints").or_insert(Value::Null);
    if !list.is_array() {
        *list = json!([]);
    }
    if let Some(list) = list.as_array_mut() {
        list.push(c);
    }
}

fn service(s: &mut Map<String, Value>) {
    let consul = matches!(text(s, "Provider").as_str(), "" | "consul");
    if consul && text(s, "Cluster").is_empty() {
        s.insert("Cluster".into(), json!(DEFAULT));
    }
}

/// The community edition's validator: only the default cluster, and a
/// task's partition must be its group's.
pub(crate) fn consul_error(job: &Map<String, Value>, release: Release) -> Option<String> {
    let rules = Switches::of(release);
    if !rules.has(Switch::ConsulClusterHook) {
        return None;
    }
    let partitions = rules.has(Switch::ConsulPartition);
    let enterprise = || Some("non-default Consul cluster requires Nomad Enterprise".to_string());
    let off_default = |m: &Map<String, Value>| text(m, "Cluster") != DEFAULT;
    let consul_services = |m: &Map<String, Value>| -> Vec<Map<String, Value>> {
        list(m, "Services")
            .into_iter()
            .filter_map(|s| s.as_object().cloned())
            .filter(|s| text(s, "Provider") == "consul")
            .collect()
    };
    for g in list(job, "TaskGroups").iter().filter_map(Value::as_object) {
        let group_consul = g.get("Consul").and_then(Value::as_object);
        if group_consul.is_some_and(off_default) {
            return enterprise();
        }
        let group_partition = group_consul
            .map(|c| text(c, "Partition"))
            .unwrap_or_default();
        if consul_services(g).iter().any(off_default) {
            return enterprise();
        }
        for t in list(g, "Tasks").iter().filter_map(Value::as_object) {
            if consul_services(t).iter().any(off_default) {
                return enterprise();
            }
            let Some(consul) = t.get("Consul").and_then(Value::as_object) else {
                continue;
            };
            let partition = text(consul, "Partition");
            let both = !partition.is_empty() && !group_partition.is_empty();
            if partitions && both && partition != group_partition {
                return Some(format!(
                    "task.consul.partition {partition:?} must match group.consul.partition {group_partition:?} if both are set"
                ));
            }
            if off_default(consul) {
                return enterprise();
            }
        }
    }
    None
}
