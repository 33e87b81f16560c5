//! The task blocks `nomad/structs/diff.go` diffs with their own rules: the
//! Vault block, templates (matched by destination), the group's volume
//! requests, the task's volume mounts, workload identities, actions, the
//! task schedule and secrets.

use serde_json::Value;

use super::diff_types::{ObjectDiff, sort_objects};
use super::fields::{self, presence_kind, string_set, strings, whole_object};
use super::flat;
use super::nested::{get, list, matched};
use super::schema::Type;

/// `vaultDiff`.
pub(crate) fn vault(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
) -> Option<ObjectDiff> {
    let mut diff = whole_object(old, new, Type::Vault, &[], "Vault", contextual)?;
    // Releases before 1.10 diff the policies as a set; later ones have none.
    let policies = |v| strings(get(v, "Policies"));
    if [old, new].iter().any(|v| get(*v, "Policies").is_some()) {
        diff.objects.extend(string_set(
            &policies(old),
            &policies(new),
            "Policies",
            contextual,
        ));
    }
    Some(diff)
}

/// `templateDiffs`: one template each side is one pair; otherwise matched by
/// destination path.
pub(crate) fn templates(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
) -> Vec<ObjectDiff> {
    let (o, n) = (list(old), list(new));
    if o.len() == 1 && n.len() == 1 {
        return template(Some(o[0]), Some(n[0]), contextual)
            .into_iter()
            .collect();
    }
    matched(old, new, "DestPath", |a, b| template(a, b, contextual))
}

/// `templateDiff`: fields with the `Uid`/`Gid` pointers when set, the wait
/// block (named `Template`, as Nomad names it) and the change script with
/// its arguments as a set (`changeScriptDiff`, from 1.4.0 as the block).
fn template(old: Option<&Value>, new: Option<&Value>, contextual: bool) -> Option<ObjectDiff> {
    let kind = presence_kind(old, new)?;
    let (mut o, mut n) = flat::pair(old, new, Type::Template, &[]);
    for (flat, v) in [(o.as_mut(), old), (n.as_mut(), new)] {
        if let Some(flat) = flat {
            for id in ["Uid", "Gid"] {
                if let Some(s) = get(v, id).and_then(flat::scalar) {
                    flat.insert(id.into(), s);
                }
            }
        }
    }
    let mut diff = ObjectDiff {
        kind,
        name: "Template".into(),
        fields: fields::fields(o.as_ref(), n.as_ref(), contextual),
        objects: Vec::new(),
    };
    if let Some(wait) = presence_kind(get(old, "Wait"), get(new, "Wait")) {
        let flat = |v: Option<&Value>| v.map(|w| flat::all(Some(w)));
        let (a, b) = (get(old, "Wait"), get(new, "Wait"));
        diff.objects.push(ObjectDiff {
            kind: wait,
            name: "Template".into(),
            fields: fields::fields(flat(a).as_ref(), flat(b).as_ref(), contextual),
            objects: Vec::new(),
        });
    }
    let (a, b) = (get(old, "ChangeScript"), get(new, "ChangeScript"));
    if let Some(mut script) =
        whole_object(a, b, Type::ChangeScript, &[], "ChangeScript", contextual)
    {
        let args = |v| strings(get(v, "Args"));
        script
            .objects
            .extend(string_set(&args(a), &args(b), "Args", contextual));
        diff.objects.push(script);
    }
    Some(diff)
}

/// `volumeDiffs`: the group's volume requests by name.
pub(crate) fn volumes(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
) -> Vec<ObjectDiff> {
    let map = |v: Option<&Value>| v.and_then(Value::as_object).cloned().unwrap_or_default();
    let (o, n) = (map(old), map(new));
    let mut out = Vec::new();
    for (k, v) in &o {
        out.extend(volume(Some(v), n.get(k), contextual));
    }
    for (k, v) in &n {
        if !o.contains_key(k) {
            out.extend(volume(None, Some(v), contextual));
        }
    }
    out
}

fn volume(old: Option<&Value>, new: Option<&Value>, contextual: bool) -> Option<ObjectDiff> {
    let mut diff = whole_object(old, new, Type::Volume, &[], "Volume", contextual)?;
    let (a, b) = (get(old, "MountOptions"), get(new, "MountOptions"));
    if let Some(kind) = presence_kind(a, b) {
        let (fa, fb) = (
            a.map(|v| strip(v, "MountFlags")),
            b.map(|v| strip(v, "MountFlags")),
        );
        let mut mount = ObjectDiff {
            kind,
            name: "MountOptions".into(),
            fields: fields::fields(
                fa.as_ref().map(|v| flat::all(Some(v))).as_ref(),
                fb.as_ref().map(|v| flat::all(Some(v))).as_ref(),
                contextual,
            ),
            objects: Vec::new(),
        };
        mount.objects.extend(string_set(
            &strings(get(a, "MountFlags")),
            &strings(get(b, "MountFlags")),
            "MountFlags",
            contextual,
        ));
        diff.objects.push(mount);
    }
    Some(diff)
}

fn strip(v: &Value, key: &str) -> Value {
    let mut v = v.clone();
    if let Some(m) = v.as_object_mut() {
        m.remove(key);
    }
    v
}

/// `volumeMountsDiffs`: mounts paired by position.
pub(crate) fn volume_mounts(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
) -> Vec<ObjectDiff> {
    let (o, n) = (list(old), list(new));
    let mut out: Vec<ObjectDiff> = (0..o.len().max(n.len()))
        .filter_map(|i| {
            whole_object(
                o.get(i).copied(),
                n.get(i).copied(),
                Type::VolumeMount,
                &[],
                "VolumeMount",
                contextual,
            )
        })
        .collect();
    sort_objects(&mut out);
    out
}

/// `idDiff`: a workload identity's fields and its audience set.
pub(crate) fn identity(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
) -> Option<ObjectDiff> {
    let mut diff = whole_object(old, new, Type::Identity, &[], "Identity", contextual)?;
    diff.objects.extend(string_set(
        &strings(get(old, "Audience")),
        &strings(get(new, "Audience")),
        "Audience",
        contextual,
    ));
    Some(diff)
}

/// `idSliceDiffs`: identities matched by name.
pub(crate) fn identities(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
) -> Vec<ObjectDiff> {
    matched(old, new, "Name", |a, b| identity(a, b, contextual))
}

/// `actionDiffs`: actions paired by position, each with its fields and
/// its argument set.
pub(crate) fn actions(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
) -> Vec<ObjectDiff> {
    let (o, n) = (list(old), list(new));
    let mut out: Vec<ObjectDiff> = (0..o.len().max(n.len()))
        .filter_map(|i| {
            let (a, b) = (o.get(i).copied(), n.get(i).copied());
            let mut diff = whole_object(a, b, Type::Action, &[], "Action", contextual)?;
            diff.objects.extend(string_set(
                &strings(get(a, "Args")),
                &strings(get(b, "Args")),
                "Args",
                contextual,
            ));
            Some(diff)
        })
        .collect();
    sort_objects(&mut out);
    out
}

/// `scheduleDiff`: the task schedule's cron block as a `Schedule` object
/// typed by its fields.
pub(crate) fn schedule(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
) -> Option<ObjectDiff> {
    fields::primitive_object(
        get(old, "Cron"),
        get(new, "Cron"),
        Type::ScheduleCron,
        &[],
        "Schedule",
        contextual,
    )
}

/// `secretsDiffs`: secrets matched by name, each flattened whole (a
/// secret's `null` members are nil maps, which flatten to nothing).
pub(crate) fn secrets(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
) -> Vec<ObjectDiff> {
    matched(old, new, "Name", |a, b| {
        let kind = presence_kind(a, b)?;
        Some(ObjectDiff {
            kind,
            name: "Secret".into(),
            fields: fields::fields(
                Some(&flat::all(a.map(without_nulls).as_ref())),
                Some(&flat::all(b.map(without_nulls).as_ref())),
                contextual,
            ),
            objects: Vec::new(),
        })
    })
}

/// An object without its `null` members.
fn without_nulls(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, x)| !x.is_null())
                .map(|(k, x)| (k.clone(), x.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}
