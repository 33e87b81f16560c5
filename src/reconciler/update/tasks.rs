//! `tasksUpdated`: whether two versions of a task group differ in anything
//! an in-place update cannot apply, and the first such difference.

use super::connect::{connect_service_updated, consul_updated};
use super::difference::Difference;
use super::network::network_updated;
use crate::model::{
    Equality, GoValue, Job, Json, RequestedDevice, Resources, RestartPolicy, TaskGroup,
    VolumeRequest, deep_equal, deep_equal_as, maps_equal_as, objects_equal, set_equal,
};
use crate::reconciler::rules::Rules;
use crate::version::Switch;

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
