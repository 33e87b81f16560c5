//! Whether an allocation can keep running, be updated in place, or must be
//! replaced: Nomad's `tasksUpdated` and `genericAllocUpdateFn`.
//!
//! Functions return the first difference found as a reason instead of a bool,
//! so plan-inspect can explain a destructive update.

mod check;

use std::sync::Arc;

use super::rules::Rules;
use crate::model::{
    Allocation, CniConfig, Consul, ConsulConnect, ConsulGateway, Equality, GoValue, Job, JobType,
    Json, NetworkResource, Node, RequestedDevice, Resources, RestartPolicy, Service,
    SidecarService, SidecarTask, TaskGroup, VolumeRequest, deep_equal, deep_equal_as,
    maps_equal_as, objects_equal, set_equal,
};
use crate::version::Switch;
pub use check::UpdateCheck;

/// How an existing allocation meets a new job version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UpdateKind {
    /// Nothing to do: same job version, or a terminal allocation.
    Ignore,
    /// The allocation must be stopped and replaced, for this reason.
    Destructive(Arc<Difference>),
    /// The allocation can be updated where it runs.
    InPlace,
}

/// `genericAllocUpdateFn` up to its placement-stack check, which the
/// replay adds (`replay.rs`, `placement::Placer::check_in_place`): an update
/// that passes every check here is in place unless the stack then refuses
/// its node.
///
/// `node` is the allocation's node from the snapshot (`None` = garbage-collected).
/// An allocation without an embedded job, where Nomad would crash, is compared
/// against an empty job (modify index 0, no task groups), so unless the new job
/// also has index 0 it is replaced.
pub fn alloc_update_kind(
    existing: &Allocation,
    new_job: &Job,
    new_group: &TaskGroup,
    node: Option<&Node>,
    rules: &Rules,
) -> UpdateKind {
    update_kind(
        existing,
        new_job,
        || node,
        |old_job| tasks_updated(new_job, old_job, &new_group.name, rules).map(Arc::new),
        rules,
    )
}

/// `genericAllocUpdateFn` with `tasksUpdated(newJob, oldJob, group)` given.
fn update_kind<'n>(
    existing: &Allocation,
    new_job: &Job,
    node: impl FnOnce() -> Option<&'n Node>,
    tasks_updated: impl FnOnce(&Job) -> Option<Arc<Difference>>,
    rules: &Rules,
) -> UpdateKind {
    let no_job;
    let old_job = match existing.job.as_deref() {
        Some(job) => job,
        None => {
            no_job = Job::default();
            &no_job
        }
    };
    if old_job.job_modify_index == new_job.job_modify_index {
        return UpdateKind::Ignore;
    }
    if let Some(reason) = tasks_updated(old_job) {
        return UpdateKind::Destructive(reason);
    }
    // Terminal batch allocations are kept by the reconciler; updating them
    // in place would only add noise to the plan.
    if existing.terminal_status() {
        return UpdateKind::Ignore;
    }
    let Some(node) = node() else {
        let reason = format!("node {} no longer exists", existing.node_id);
        return UpdateKind::Destructive(Arc::new(reason.as_str().into()));
    };
    // Datacenters match exactly until wildcards do (`IsInAnyDC`).
    let in_dc = if rules.has(Switch::DatacenterGlob) {
        new_job
            .datacenters
            .iter()
            .any(|dc| glob_match(dc, &node.datacenter))
    } else {
        new_job.datacenters.iter().any(|dc| *dc == node.datacenter)
    };
    if !in_dc {
        let reason = format!(
            "node {} is no longer in the job's datacenters (it is in {:?})",
            node.id, node.datacenter
        );
        return UpdateKind::Destructive(Arc::new(reason.as_str().into()));
    }
    if rules.has(Switch::NodePool)
        && new_job.node_pool != "all"
        && node.node_pool != new_job.node_pool
    {
        let reason = format!(
            "node {} is no longer in the job's node pool (it is in {:?})",
            node.id, node.node_pool
        );
        return UpdateKind::Destructive(Arc::new(reason.as_str().into()));
    }
    UpdateKind::InPlace
}

/// Whether Nomad updates `existing` in place without the placement-stack
/// check (H-2, 2.0.3 on): it does when the allocation's `max_run_duration`
/// reads as changed. As written (v2.0.3 scheduler/util.go:849-857) the new
/// value is read from a copy whose job was cleared, which has none, so it
/// reads as changed whenever the allocation's own job version sets a
/// positive one for a batch or sysbatch group: every in-place update of
/// such an allocation skips the check, whatever the new job says.
pub fn skips_feasibility(existing: &Allocation, rules: &Rules) -> bool {
    rules.has(Switch::H2)
        && existing.job.as_deref().is_some_and(|job| {
            matches!(job.job_type, JobType::Batch | JobType::Sysbatch)
                && job
                    .lookup_task_group(&existing.task_group)
                    .and_then(|tg| tg.max_run_duration)
                    .is_some_and(|d| d > 0)
        })
}

/// `glob.Glob` (github.com/ryanuber/go-glob): `*` matches any run of
/// characters, nothing else is special. Each part is found after the one
/// before it, and the last must end what remains.
pub fn glob_match(pattern: &str, subject: &str) -> bool {
    if pattern == "*" {
        return true;
    }
    let parts: Vec<&str> = pattern.split('*').collect();
    let Some((last, init)) = parts.split_last().filter(|(_, init)| !init.is_empty()) else {
        return pattern == subject;
    };
    let mut rest = subject;
    for (i, part) in init.iter().enumerate() {
        match rest.find(part) {
            Some(0) => {}
            Some(_) if i > 0 || pattern.starts_with('*') => {}
            _ => return false,
        }
        let at = rest.find(part).unwrap_or(0);
        rest = &rest[at + part.len()..];
    }
    pattern.ends_with('*') || rest.ends_with(last)
}

/// The first difference `tasksUpdated` found between two job versions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Nomad's name for it (`comparison.label`, scheduler/util.go), from
    /// 1.5.2 on, when Nomad names its differences; `None` before, and for
    /// what Nomad does not compare (a group missing from a job version).
    pub label: Option<&'static str>,
    /// What changed, in plan-inspect's words.
    pub reason: String,
}

impl std::ops::Deref for Difference {
    type Target = str;

    fn deref(&self) -> &str {
        &self.reason
    }
}

impl From<&str> for Difference {
    /// A difference Nomad does not name.
    fn from(reason: &str) -> Difference {
        Difference {
            label: None,
            reason: reason.to_string(),
        }
    }
}

/// Why an allocation of `group` needs a destructive update from `old_job` to
/// `new_job`: the first difference found, as `tasksUpdated(newJob, oldJob, group)`
/// checks them, or `None` if it can be updated in place.
///
/// Nomad dereferences the group on both sides without a check; a group missing
/// from either job is reported as a destructive change here. A task without
/// resources, another nil dereference in Nomad, counts as zero resources.
pub fn tasks_updated(
    new_job: &Job,
    old_job: &Job,
    group: &str,
    rules: &Rules,
) -> Option<Difference> {
    let (a, b) = (new_job, old_job);
    let (Some(ga), Some(gb)) = (a.lookup_task_group(group), b.lookup_task_group(group)) else {
        return Some(
            format!("task group {group:?} is not in both job versions")
                .as_str()
                .into(),
        );
    };
    let labelled = rules.has(Switch::TypedEqual);
    let found = |label: &'static str, reason: String| {
        Some(Difference {
            label: labelled.then_some(label),
            reason,
        })
    };
    let changed = |label: &'static str, what: &str| found(label, format!("{what} changed"));
    let eq = rules.update_equality();

    if ga.tasks.len() != gb.tasks.len() {
        return changed("number of tasks", "number of tasks");
    }
    if !ga.ephemeral_disk.equal_as(&gb.ephemeral_disk, eq) {
        return changed("ephemeral disk", "ephemeral disk");
    }
    if let Some(label) = network_updated(&ga.networks, &gb.networks, rules) {
        return changed(label, "task group networks");
    }
    if !rules.has(Switch::PlacementPrefsInPlace) {
        if affinities_updated(a, ga, b, gb, eq) {
            return changed("affinities", "affinities");
        }
        if spreads_updated(a, ga, b, gb, eq) {
            return changed("spreads", "spreads");
        }
    }
    if let Some(what) = consul_updated(ga.consul.as_deref(), gb.consul.as_deref(), rules) {
        return changed(what, what);
    }
    if let Some((label, reason)) = connect_service_updated(&ga.services, &gb.services, rules) {
        return found(label, reason);
    }
    if rules.has(Switch::B1v) && !volumes_equal(&ga.volumes, &gb.volumes, eq) {
        return changed("volume request", "volume requests");
    }
    if rules.has(Switch::RenderTemplates)
        && render_templates_updated(ga.restart_policy.as_ref(), gb.restart_policy.as_ref())
    {
        return changed(
            "group restart render_templates",
            "group restart render_templates",
        );
    }

    let no_resources = Resources::default();
    for ta in &ga.tasks {
        let Some(tb) = gb.lookup_task(&ta.name) else {
            return found("task deleted", format!("task {:?} is new", ta.name));
        };
        let (ra, rb) = (
            ta.resources.as_ref().unwrap_or(&no_resources),
            tb.resources.as_ref().unwrap_or(&no_resources),
        );
        let consul = rules
            .has(Switch::ConsulCluster)
            .then(|| consul_updated(ta.consul.as_deref(), tb.consul.as_deref(), rules))
            .flatten();
        let networks = network_updated(&ra.networks, &rb.networks, rules);
        // Evaluated together for brevity; the first difference in Nomad's
        // order wins. Each is (Nomad's label, what changed, whether it did).
        let checks = [
            ("task driver", "driver", ta.driver != tb.driver),
            ("task user", "user", ta.user != tb.user),
            (
                "task config",
                "config",
                !ta.config.map_equal_as(&tb.config, eq),
            ),
            ("task env", "env", !ta.env.map_equal_as(&tb.env, eq)),
            (
                "task artifacts",
                "artifacts",
                !artifacts_equal(&ta.artifacts, &tb.artifacts, eq),
            ),
            ("task vault", "vault", !ta.vault.equal_as(&tb.vault, eq)),
            (
                "task secrets",
                "secrets",
                rules.has(Switch::TaskSecrets) && !secrets_equal(&ta.secrets, &tb.secrets),
            ),
            (
                consul.unwrap_or("consul"),
                consul.unwrap_or("consul"),
                consul.is_some(),
            ),
            (
                "task templates",
                "templates",
                !ta.templates.equal_as(&tb.templates, eq),
            ),
            (
                "task csi config",
                "csi plugin",
                rules.has(Switch::A6) && !ta.csi_plugin_config.equal_as(&tb.csi_plugin_config, eq),
            ),
            (
                "task volume mount",
                "volume mounts",
                rules.has(Switch::B1v)
                    && !volume_mounts_equal(&ta.volume_mounts, &tb.volume_mounts, rules),
            ),
            (
                "task meta",
                "meta",
                a.combined_task_meta(group, &ta.name) != b.combined_task_meta(group, &tb.name),
            ),
            (
                networks.unwrap_or("network"),
                "networks",
                networks.is_some(),
            ),
            ("task cpu", "CPU", ra.cpu != rb.cpu),
            ("task cores", "cores", ra.cores != rb.cores),
            ("task memory", "memory", ra.memory_mb != rb.memory_mb),
            (
                "task memory max",
                "memory max",
                ra.memory_max_mb != rb.memory_max_mb,
            ),
            (
                "task devices",
                "devices",
                !RequestedDevice::devices_equal(&ra.devices, &rb.devices),
            ),
            (
                "numa",
                "numa",
                rules.has(Switch::Numa) && ra.numa != rb.numa,
            ),
            (
                "task secrets",
                "secrets size",
                rules.has(Switch::SecretsSize) && ra.secrets_mb != rb.secrets_mb,
            ),
            (
                "task identity",
                "identity",
                rules.has(Switch::TaskIdentity) && !ta.identity.equal_as(&tb.identity, eq),
            ),
            (
                "task identity",
                "identities",
                rules.has(Switch::Identities) && !ta.identities.equal_as(&tb.identities, eq),
            ),
            (
                if rules.log_switch_reads_enabled() {
                    "task log enabled"
                } else {
                    "task log disabled"
                },
                "log collection",
                logs_switched(ta, tb, rules),
            ),
            (
                "task restart render_templates",
                "restart render_templates",
                rules.has(Switch::RenderTemplates)
                    && render_templates_updated(
                        ta.restart_policy.as_ref(),
                        tb.restart_policy.as_ref(),
                    ),
            ),
        ];
        if let Some((label, what, _)) = checks.iter().find(|(_, _, differs)| *differs) {
            return found(label, format!("task {:?}: {what} changed", ta.name));
        }
    }
    None
}

/// Two groups' `Volumes` maps (`reflect.DeepEqual`, from 1.5.2
/// `VolumeRequest.Equal` per key).
fn volumes_equal(
    a: &std::collections::BTreeMap<String, VolumeRequest>,
    b: &std::collections::BTreeMap<String, VolumeRequest>,
    eq: Equality,
) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|((ka, va), (kb, vb))| {
            ka == kb
                && (&va.name, &va.volume_type, &va.source, va.read_only)
                    == (&vb.name, &vb.volume_type, &vb.source, vb.read_only)
                && objects_equal(members(&va.other), members(&vb.other), eq)
        })
}

/// The members of a flattened object.
fn members(v: &GoValue) -> &[(crate::model::Name, Json)] {
    v.json().as_object().unwrap_or(&[])
}

/// `renderTemplatesUpdated`: a nil policy renders no templates.
fn render_templates_updated(a: Option<&RestartPolicy>, b: Option<&RestartPolicy>) -> bool {
    let render = |p: Option<&RestartPolicy>| p.is_some_and(|p| p.render_templates);
    render(a) != render(b)
}

/// Whether a task's log collection was switched on or off: 1.5.4 compares
/// `LogConfig.Enabled`, later releases `LogConfig.Disabled`.
fn logs_switched(a: &crate::model::Task, b: &crate::model::Task, rules: &Rules) -> bool {
    if !rules.has(Switch::LogsDisabled) {
        return false;
    }
    let logs = |t: &crate::model::Task| t.log_config.clone().unwrap_or_default();
    let (la, lb) = (logs(a), logs(b));
    if rules.log_switch_reads_enabled() {
        la.enabled != lb.enabled
    } else {
        la.disabled != lb.disabled
    }
}

/// Two `[]*TaskArtifact`, structs whose `GetterOptions` and
/// `GetterHeaders` are maps, compared under `eq`.
fn artifacts_equal(a: &GoValue, b: &GoValue, eq: Equality) -> bool {
    const MAPS: [&str; 2] = ["GetterOptions", "GetterHeaders"];
    let (Json::Array(xs), Json::Array(ys)) = (a.json(), b.json()) else {
        return a.equal_as(b, eq);
    };
    let split = |v: &Json| v.without(MAPS);
    xs.len() == ys.len()
        && xs.iter().zip(ys).all(|(x, y)| {
            let ((rx, mx), (ry, my)) = (split(x), split(y));
            deep_equal_as(&rx, &ry, eq) && mx.iter().zip(&my).all(|(p, q)| maps_equal_as(p, q, eq))
        })
}

/// `Secret.Equal` over two task `secret` lists (1.11.0): nil and empty
/// lists are equal, and so are the nil and empty `Config` and `Env` maps of
/// a secret.
fn secrets_equal(a: &GoValue, b: &GoValue) -> bool {
    artifacts_like_equal(a, b, ["Config", "Env"])
}

/// Lists of structs holding the maps `maps`, under typed equality.
fn artifacts_like_equal<const N: usize>(a: &GoValue, b: &GoValue, maps: [&str; N]) -> bool {
    let (xs, ys) = (a.elements(), b.elements());
    let split = |v: &Json| v.without(maps);
    xs.len() == ys.len()
        && xs.iter().zip(ys).all(|(x, y)| {
            let ((rx, mx), (ry, my)) = (split(x), split(y));
            deep_equal_as(&rx, &ry, Equality::Typed)
                && mx
                    .iter()
                    .zip(&my)
                    .all(|(p, q)| maps_equal_as(p, q, Equality::Typed))
        })
}

/// `connectServiceUpdated`: only services with a Connect block on the new side
/// are checked, each against the first same-named service on the old side.
/// Other service changes are applied in place by re-registering in Consul.
///
/// Returns Nomad's label and the reason.
fn connect_service_updated(
    services_a: &[Service],
    services_b: &[Service],
    rules: &Rules,
) -> Option<(&'static str, String)> {
    for sa in services_a.iter().filter(|s| s.connect.is_some()) {
        let Some(sb) = services_b.iter().find(|s| s.name == sa.name) else {
            continue;
        };
        let changed = |label, what| {
            Some((
                label,
                format!("connect service {:?}: {what} changed", sa.name),
            ))
        };
        if let Some((label, what)) = connect_updated(sa.connect.as_deref(), sb.connect.as_deref()) {
            return changed(label, what);
        }
        // The Connect plumbing is derived from the port label.
        if sa.port_label != sb.port_label {
            return changed("connect service port label", "port label");
        }
        if rules.has(Switch::ConsulCluster) && sa.cluster != sb.cluster {
            return changed("connect service cluster", "cluster");
        }
    }
    None
}

/// `connectUpdated`: the parts of a Connect block that cannot be changed by
/// re-registering in Consul. Returns Nomad's label and what changed. Nomad
/// labels a Connect block the old version lacks "connect removed": its
/// first argument is the new version's.
fn connect_updated(
    a: Option<&ConsulConnect>,
    b: Option<&ConsulConnect>,
) -> Option<(&'static str, &'static str)> {
    let (a, b) = match (a, b) {
        (Some(a), Some(b)) => (a, b),
        (None, None) => return None,
        (None, Some(_)) => return Some(("connect added", "connect block")),
        (Some(_), None) => return Some(("connect removed", "connect block")),
    };
    if a.native != b.native {
        return Some(("connect native", "native"));
    }
    if !ConsulGateway::equals(a.gateway.as_ref(), b.gateway.as_ref()) {
        return Some(("connect gateway", "gateway"));
    }
    if !SidecarTask::equals(a.sidecar_task.as_ref(), b.sidecar_task.as_ref()) {
        return Some(("connect sidecar task", "sidecar task"));
    }
    connect_sidecar_service_updated(a.sidecar_service.as_ref(), b.sidecar_service.as_ref())
        .map(|label| (label, "sidecar service"))
}

/// `connectSidecarServiceUpdated`: presence and port only; tags and proxy
/// settings are applied in place. Returns Nomad's label.
fn connect_sidecar_service_updated(
    a: Option<&SidecarService>,
    b: Option<&SidecarService>,
) -> Option<&'static str> {
    match (a, b) {
        (Some(a), Some(b)) => (a.port != b.port).then_some("connect port"),
        (None, None) => None,
        (None, Some(_)) => Some("connect service add"),
        (Some(_), None) => Some("connect service delete"),
    }
}

/// `networkUpdated`: networks compare pairwise in order, ignoring the values
/// of dynamic ports (they are assigned at placement).
/// From 1.8.3 the CNI arguments count too. Returns Nomad's label for the
/// first difference.
fn network_updated(
    a: &[NetworkResource],
    b: &[NetworkResource],
    rules: &Rules,
) -> Option<&'static str> {
    if a.len() != b.len() {
        return Some("network lengths");
    }
    let eq = rules.update_equality();
    a.iter().zip(b).find_map(|(na, nb)| {
        let checks = [
            ("network mode", na.mode != nb.mode),
            ("network mbits", na.mbits != nb.mbits),
            ("network hostname", na.hostname != nb.hostname),
            ("network dns", !na.dns.equal_as(&nb.dns, eq)),
            (
                "network cni",
                rules.has(Switch::NetworkCni) && !cni_equal(&na.cni, &nb.cni),
            ),
            (
                "network port map",
                network_port_map(na) != network_port_map(nb),
            ),
        ];
        checks.into_iter().find(|(_, d)| *d).map(|(label, _)| label)
    })
}

/// `CNIConfig.Equal`: both absent, or arguments equal as maps.
fn cni_equal(a: &Option<CniConfig>, b: &Option<CniConfig>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.args.map_equal_as(&b.args, Equality::Typed),
        (a, b) => a.is_none() && b.is_none(),
    }
}

/// `consulUpdated`: which part of a Consul block changed. The namespace
/// counts even when one side has no block; the cluster (1.7.0) and the
/// admin partition (1.7.3) only when both have one.
fn consul_updated(a: Option<&Consul>, b: Option<&Consul>, rules: &Rules) -> Option<&'static str> {
    fn namespace(c: Option<&Consul>) -> &str {
        c.map_or("", |c| c.namespace.as_str())
    }
    if namespace(a) != namespace(b) {
        return Some("consul namespace");
    }
    let (a, b) = a.zip(b)?;
    if rules.has(Switch::ConsulCluster) && a.cluster != b.cluster {
        return Some("consul cluster");
    }
    if rules.has(Switch::ConsulPartition) && a.partition != b.partition {
        return Some("consul partition");
    }
    None
}

/// The task's volume mounts compared in order; releases before 1.8.0 have
/// no SELinux label on a mount, so it is left out of their comparison.
fn volume_mounts_equal(a: &GoValue, b: &GoValue, rules: &Rules) -> bool {
    let eq = rules.update_equality();
    if rules.has(Switch::SelinuxLabel) {
        return a.equal_as(b, eq);
    }
    let unlabelled = |v: &GoValue| -> Json {
        match v.json() {
            Json::Array(mounts) => Json::Array(
                mounts
                    .iter()
                    .map(|m| m.without(["SELinuxLabel"]).0)
                    .collect(),
            ),
            other => other.clone(),
        }
    };
    deep_equal_as(&unlabelled(a), &unlabelled(b), eq)
}

/// `networkPortMap`: (label, value, to, host network) of reserved then dynamic
/// ports, with dynamic values replaced by -1.
fn network_port_map(n: &NetworkResource) -> Vec<(&str, i64, i64, &str)> {
    let reserved = n.reserved_ports.iter().map(|p| (p.value, p));
    let dynamic = n.dynamic_ports.iter().map(|p| (-1, p));
    reserved
        .chain(dynamic)
        .map(|(value, p)| (p.label.as_str(), value, p.to, p.host_network.as_str()))
        .collect()
}

/// `affinitiesUpdated`: job, group and task affinities concatenated in that
/// order, so moving an affinity between job and group is not a change.
/// `DeepEqual` also sees their order; from 1.5.2 `Affinities.Equal`
/// compares them as a set: equal lengths and each of the new version's
/// found among the old (v1.5.2 nomad/structs/structs.go:9287).
fn affinities_updated(a: &Job, ga: &TaskGroup, b: &Job, gb: &TaskGroup, eq: Equality) -> bool {
    let all = |job: &'_ Job, tg: &'_ TaskGroup| -> Vec<Json> {
        let tasks = tg.tasks.iter().map(|t| &t.affinities);
        [&job.affinities, &tg.affinities]
            .into_iter()
            .chain(tasks)
            .flat_map(GoValue::elements)
            .cloned()
            .collect()
    };
    let (xs, ys) = (all(a, ga), all(b, gb));
    match eq {
        Equality::Deep => !deep_equal(&Json::Array(xs.into()), &Json::Array(ys.into())),
        Equality::Typed => !set_equal(&xs, &ys, |x, y| deep_equal_as(x, y, eq)),
    }
}

/// `spreadsUpdated`: job then group spreads, concatenated. Go's `DeepEqual`
/// also sees `Spread`'s unexported memoized string, which snapshots do not
/// carry; it is ignored here.
fn spreads_updated(a: &Job, ga: &TaskGroup, b: &Job, gb: &TaskGroup, eq: Equality) -> bool {
    let all = |job: &'_ Job, tg: &'_ TaskGroup| -> Box<[Json]> {
        [&job.spreads, &tg.spreads]
            .into_iter()
            .flat_map(GoValue::elements)
            .cloned()
            .collect()
    };
    !deep_equal_as(&Json::Array(all(a, ga)), &Json::Array(all(b, gb)), eq)
}

#[cfg(test)]
mod tests;
