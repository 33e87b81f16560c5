//! `Job.Diff` (nomad/structs/diff.go): the job's own fields and objects.

use serde_json::Value;

use super::diff_types::{DiffType, JobDiff, ObjectDiff, sort_objects};
use super::fields::{self, non_null, primitive_object_set, string_set, strings, whole_object};
use super::flat;
use super::group_diff;
use super::job_blocks;
use super::schema::Type;
use crate::version::{Switch, Switches};

/// The fields Nomad leaves out of a job's diff: server-set or diffed
/// elsewhere; `VaultToken` too from #14424.
const JOB_FILTER: &[&str] = &[
    "ID",
    "Status",
    "StatusDescription",
    "Version",
    "Stable",
    "CreateIndex",
    "ModifyIndex",
    "JobModifyIndex",
    "Update",
    "SubmitTime",
    "NomadTokenID",
    "VaultToken",
];

/// `old.Diff(new, contextual)` as the release with `rules` diffs; `old` is
/// none for a new job.
pub fn job_diff(old: Option<&Value>, new: &Value, contextual: bool, rules: Switches) -> JobDiff {
    let old = non_null(old);
    let filter = if rules.has(Switch::DiffSkipsVaultToken) {
        JOB_FILTER
    } else {
        &JOB_FILTER[..JOB_FILTER.len() - 1]
    };
    let (o, n) = flat::pair(old, Some(new), Type::Job, filter);
    let fields = fields::fields(o.as_ref(), n.as_ref(), false);
    let get = |v: Option<&Value>, k: &str| v.and_then(|v| v.get(k)).cloned();
    let (old_of, new_of) = (|k| get(old, k), |k| get(Some(new), k));

    let mut objects = Vec::new();
    let dcs = string_set(
        &strings(old_of("Datacenters").as_ref()),
        &strings(new_of("Datacenters").as_ref()),
        "Datacenters",
        contextual,
    );
    objects.extend(dcs.filter(|d| d.kind != DiffType::None));
    for (key, ty, name) in [
        ("Constraints", Type::Constraint, "Constraint"),
        ("Affinities", Type::Affinity, "Affinity"),
    ] {
        objects.extend(primitive_object_set(
            old_of(key).as_ref(),
            new_of(key).as_ref(),
            ty,
            &["str"],
            name,
            contextual,
        ));
    }
    objects.extend(periodic(
        old_of("Periodic").as_ref(),
        new_of("Periodic").as_ref(),
        contextual,
    ));
    objects.extend(parameterized(
        old_of("ParameterizedJob").as_ref(),
        new_of("ParameterizedJob").as_ref(),
        contextual,
    ));
    objects.extend(job_blocks::multiregion(
        old_of("Multiregion").as_ref(),
        new_of("Multiregion").as_ref(),
        contextual,
    ));
    objects.extend(job_blocks::ui(
        old_of("UI").as_ref(),
        new_of("UI").as_ref(),
        contextual,
    ));
    let task_groups = group_diff::groups(
        old_of("TaskGroups").as_ref(),
        new_of("TaskGroups").as_ref(),
        contextual,
        rules,
    );
    let kind = match old {
        None => DiffType::Added,
        Some(_)
            if fields.iter().any(|f| f.kind != DiffType::None)
                || objects.iter().any(|o| o.kind != DiffType::None)
                || task_groups.iter().any(|g| g.kind != DiffType::None) =>
        {
            DiffType::Edited
        }
        Some(_) => DiffType::None,
    };
    JobDiff {
        kind,
        id: new
            .get("ID")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        fields,
        objects,
        task_groups,
    }
}

/// `periodicDiff`: its fields, and `Specs` as a set when it changed.
fn periodic(old: Option<&Value>, new: Option<&Value>, contextual: bool) -> Option<ObjectDiff> {
    let mut diff = whole_object(old, new, Type::Periodic, &[], "Periodic", contextual)?;
    let specs = |v: Option<&Value>| strings(v.and_then(|v| v.get("Specs")));
    diff.objects.extend(
        string_set(&specs(old), &specs(new), "Specs", contextual)
            .filter(|d| d.kind != DiffType::None),
    );
    Some(diff)
}

/// `parameterizedJobDiff`: its fields and the two meta key sets.
fn parameterized(old: Option<&Value>, new: Option<&Value>, contextual: bool) -> Option<ObjectDiff> {
    let mut diff = whole_object(
        old,
        new,
        Type::Parameterized,
        &[],
        "ParameterizedJob",
        contextual,
    )?;
    let set = |v: Option<&Value>, k| strings(v.and_then(|v| v.get(k)));
    for key in ["MetaOptional", "MetaRequired"] {
        diff.objects
            .extend(string_set(&set(old, key), &set(new, key), key, contextual));
    }
    sort_objects(&mut diff.objects);
    Some(diff)
}
