//! `Task.Diff` and `taskDiffs` (nomad/structs/diff.go).

use serde_json::Value;

use super::diff_types::{ObjectDiff, TaskDiff};
use super::fields::{self, non_null, primitive_object, primitive_object_set};
use super::flat;
use super::nested;
use super::schema::Type;
use super::service_diff;
use super::task_block_diff;
use crate::version::{Switch, Switches};

/// The tasks of two groups matched by name, sorted by name.
pub(crate) fn tasks(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
    rules: Switches,
) -> Vec<TaskDiff> {
    fields::matched_by_name(old, new, |o, n| task(o, n, contextual, rules))
}

fn task(old: Option<&Value>, new: Option<&Value>, contextual: bool, rules: Switches) -> TaskDiff {
    let kind = fields::pair_kind(old, new);
    let name = new
        .or(old)
        .and_then(|t| t.get("Name"))
        .and_then(Value::as_str);
    let (o, n) = flat::pair(old, new, Type::Task, &["Name", "Config"]);
    let fields = fields::fields(o.as_ref(), n.as_ref(), false);
    let get = |t: Option<&Value>, k: &str| t.and_then(|t| non_null(t.get(k))).cloned();
    let pair = |k: &str| (get(old, k), get(new, k));

    let mut objects: Vec<ObjectDiff> = Vec::new();
    for (key, ty, name) in [
        ("Constraints", Type::Constraint, "Constraint"),
        ("Affinities", Type::Affinity, "Affinity"),
    ] {
        let (a, b) = pair(key);
        objects.extend(primitive_object_set(
            a.as_ref(),
            b.as_ref(),
            ty,
            &["str"],
            name,
            contextual,
        ));
    }
    let (a, b) = pair("Config");
    objects.extend(nested::config(a.as_ref(), b.as_ref(), contextual));
    let (a, b) = pair("Resources");
    objects.extend(nested::resources(a.as_ref(), b.as_ref(), contextual, rules));
    for (key, ty, name) in [
        ("LogConfig", Type::LogConfig, "LogConfig"),
        ("DispatchPayload", Type::DispatchPayload, "DispatchPayload"),
    ] {
        let (a, b) = pair(key);
        objects.extend(primitive_object(
            a.as_ref(),
            b.as_ref(),
            ty,
            &[],
            name,
            contextual,
        ));
    }
    let (a, b) = pair("Artifacts");
    objects.extend(fields::primitive_object_set_by(
        a.as_ref(),
        b.as_ref(),
        Some("RelativeDest"),
        Type::Artifact,
        &[],
        "Artifact",
        contextual,
    ));
    let (a, b) = pair("Services");
    objects.extend(service_diff::services(
        a.as_ref(),
        b.as_ref(),
        contextual,
        rules,
    ));
    let (a, b) = pair("Vault");
    objects.extend(task_block_diff::vault(a.as_ref(), b.as_ref(), contextual));
    let (a, b) = pair("Secrets");
    objects.extend(task_block_diff::secrets(a.as_ref(), b.as_ref(), contextual));
    let (a, b) = pair("Consul");
    objects.extend(primitive_object(
        a.as_ref(),
        b.as_ref(),
        Type::Consul,
        &[],
        "Consul",
        contextual,
    ));
    let (a, b) = pair("Templates");
    objects.extend(task_block_diff::templates(
        a.as_ref(),
        b.as_ref(),
        contextual,
    ));
    let (a, b) = pair("Identity");
    objects.extend(task_block_diff::identity(
        a.as_ref(),
        b.as_ref(),
        contextual,
    ));
    let (a, b) = pair("Identities");
    objects.extend(task_block_diff::identities(
        a.as_ref(),
        b.as_ref(),
        contextual,
    ));
    let (a, b) = pair("Actions");
    objects.extend(task_block_diff::actions(a.as_ref(), b.as_ref(), contextual));
    if rules.has(Switch::DiffTaskVolumeMounts) {
        let (a, b) = pair("VolumeMounts");
        objects.extend(task_block_diff::volume_mounts(
            a.as_ref(),
            b.as_ref(),
            contextual,
        ));
    }
    let (a, b) = pair("Schedule");
    objects.extend(task_block_diff::schedule(
        a.as_ref(),
        b.as_ref(),
        contextual,
    ));
    TaskDiff {
        kind,
        name: name.unwrap_or_default().to_string(),
        annotations: Vec::new(),
        fields,
        objects,
    }
}
