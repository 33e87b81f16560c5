//! `TaskGroup.Diff` and `taskGroupDiffs` (nomad/structs/diff.go).

use std::collections::BTreeMap;

use serde_json::Value;

use super::diff_types::{ObjectDiff, TaskGroupDiff};
use super::fields::{self, non_null, primitive_object, primitive_object_set};
use super::flat;
use super::nested;
use super::schema::Type;
use super::service_diff;
use super::task_block_diff;
use super::task_diff;
use crate::version::{Switch, Switches};

/// The groups of two jobs matched by name, sorted by name.
pub(crate) fn groups(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
    rules: Switches,
) -> Vec<TaskGroupDiff> {
    fields::matched_by_name(old, new, |o, n| group(o, n, contextual, rules))
}

fn group(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
    rules: Switches,
) -> TaskGroupDiff {
    let kind = fields::pair_kind(old, new);
    let name = new
        .or(old)
        .and_then(|g| g.get("Name"))
        .and_then(Value::as_str);
    let (mut o, mut n) = flat::pair(old, new, Type::TaskGroup, &["Name"]);
    // The pointers Nomad flattens by hand, only when both groups exist: the
    // legacy disconnect fields until F-1 dropped them.
    let pointers: &[&str] = if rules.has(Switch::F1) {
        &["ShutdownDelay"]
    } else {
        &[
            "ShutdownDelay",
            "StopAfterClientDisconnect",
            "MaxClientDisconnect",
        ]
    };
    if let (Some(of), Some(nf)) = (o.as_mut(), n.as_mut()) {
        for (flat, g) in [(of, old), (nf, new)] {
            for &key in pointers {
                let value = g.and_then(|g| g.get(key)).filter(|v| !v.is_null());
                flat.insert(key.into(), value.and_then(flat::scalar).unwrap_or_default());
            }
        }
    }
    let fields = fields::fields(o.as_ref(), n.as_ref(), false);
    let get = |g: Option<&Value>, k: &str| g.and_then(|g| non_null(g.get(k))).cloned();
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
    for (key, ty, filter, name) in [
        (
            "RestartPolicy",
            Type::RestartPolicy,
            &[][..],
            "RestartPolicy",
        ),
        ("Migrate", Type::Migrate, &[], "Migrate"),
        (
            "ReschedulePolicy",
            Type::ReschedulePolicy,
            &[],
            "ReschedulePolicy",
        ),
        ("EphemeralDisk", Type::EphemeralDisk, &[], "EphemeralDisk"),
        ("Consul", Type::Consul, &[], "Consul"),
        ("Update", Type::Update, &["Stagger"], "Update"),
    ] {
        if key == "Migrate" && !rules.has(Switch::DiffGroupMigrate) {
            continue;
        }
        let (a, b) = pair(key);
        objects.extend(primitive_object(
            a.as_ref(),
            b.as_ref(),
            ty,
            filter,
            name,
            contextual,
        ));
    }
    let (a, b) = pair("Disconnect");
    objects.extend(nested::disconnect(a.as_ref(), b.as_ref(), contextual));
    let (a, b) = pair("Networks");
    objects.extend(nested::networks(a.as_ref(), b.as_ref(), contextual, rules));
    let (a, b) = pair("Scaling");
    objects.extend(nested::scaling(a.as_ref(), b.as_ref(), contextual));
    let (a, b) = pair("Services");
    objects.extend(service_diff::services(
        a.as_ref(),
        b.as_ref(),
        contextual,
        rules,
    ));
    let (a, b) = pair("Volumes");
    objects.extend(task_block_diff::volumes(a.as_ref(), b.as_ref(), contextual));
    let (a, b) = pair("Tasks");
    let tasks = task_diff::tasks(a.as_ref(), b.as_ref(), contextual, rules);
    TaskGroupDiff {
        kind,
        name: name.unwrap_or_default().to_string(),
        updates: BTreeMap::new(),
        fields,
        objects,
        tasks,
    }
}
