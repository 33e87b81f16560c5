//! `serviceDiffs` and `serviceCheckDiffs` (nomad/structs/diff.go): a
//! group's or task's services, matched as Nomad matches them, their checks,
//! Connect blocks, identities and weights.

use serde_json::Value;

use super::connect_diff::connect;
use super::diff_types::{ObjectDiff, sort_fields, sort_objects};
use super::fields::{presence_kind, string_set, strings, whole_object};
use super::nested::{flattened, get, list, matched};
use super::schema::Type;
use super::task_block_diff::identity;
use crate::version::{Switch, Switches};

/// `serviceDiffs`: one service each side is one pair; otherwise each old
/// service takes the free new one with the best score above 2 (same index
/// 1, same port label 2, same name 3).
pub(crate) fn services(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
    rules: Switches,
) -> Vec<ObjectDiff> {
    let (o, n) = (list(old), list(new));
    if o.len() == 1 && n.len() == 1 {
        return service(Some(o[0]), Some(n[0]), contextual, rules)
            .into_iter()
            .collect();
    }
    let text = |v: &Value, k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let mut taken = vec![false; n.len()];
    let mut out = Vec::new();
    for (i, s) in o.iter().enumerate() {
        let mut best: Option<(usize, u32)> = None;
        for (j, c) in n.iter().enumerate() {
            if taken[j] {
                continue;
            }
            let score = u32::from(i == j)
                + 2 * u32::from(text(s, "PortLabel") == text(c, "PortLabel"))
                + 3 * u32::from(text(s, "Name") == text(c, "Name"));
            if score > 2 && best.is_none_or(|(_, b)| score > b) {
                best = Some((j, score));
            }
        }
        match best {
            Some((j, _)) => {
                taken[j] = true;
                out.extend(service(Some(s), Some(n[j]), contextual, rules));
            }
            None => out.extend(service(Some(s), None, contextual, rules)),
        }
    }
    for (j, c) in n.iter().enumerate() {
        if !taken[j] {
            out.extend(service(None, Some(c), contextual, rules));
        }
    }
    sort_objects(&mut out);
    out
}

/// `serviceDiff`: fields, tag sets, checks, Connect, the workload identity
/// and the weights. A field or block the release's `Service` struct lacks
/// is left out, also from the comparison: Nomad's decoder drops it before
/// the diff sees the job.
fn service(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
    rules: Switches,
) -> Option<ObjectDiff> {
    let absent = [
        (Switch::ConsulCluster, "Cluster"),
        (Switch::ConsulServiceKind, "Kind"),
        (Switch::ServiceIdentityAudience, "Identity"),
        (Switch::ServiceWeights, "Weights"),
    ]
    .into_iter()
    .filter(|&(s, _)| !rules.has(s))
    .map(|(_, f)| f)
    .collect::<Vec<_>>();
    let known = |v: Option<&Value>| {
        v.cloned().map(|mut v| {
            if let Some(m) = v.as_object_mut() {
                m.retain(|k, _| !absent.contains(&k.as_str()));
            }
            v
        })
    };
    let (old, new) = (known(old), known(new));
    let (old, new) = (old.as_ref(), new.as_ref());
    let mut diff = whole_object(old, new, Type::Service, &absent, "Service", contextual)?;
    for key in ["CanaryTags", "Tags"] {
        diff.objects.extend(string_set(
            &strings(get(old, key)),
            &strings(get(new, key)),
            key,
            contextual,
        ));
    }
    diff.objects.extend(matched(
        get(old, "Checks"),
        get(new, "Checks"),
        "Name",
        |o, n| check(o, n, contextual),
    ));
    diff.objects.extend(connect(
        get(old, "Connect"),
        get(new, "Connect"),
        contextual,
        rules,
    ));
    diff.objects.extend(identity(
        get(old, "Identity"),
        get(new, "Identity"),
        contextual,
    ));
    diff.objects.extend(weights(
        get(old, "Weights"),
        get(new, "Weights"),
        contextual,
    ));
    Some(diff)
}

/// `weightsDiff`: only weights above zero are fields.
fn weights(old: Option<&Value>, new: Option<&Value>, contextual: bool) -> Option<ObjectDiff> {
    let kind = presence_kind(old, new)?;
    let flat = |v: Option<&Value>| {
        v.map(|w| {
            ["Passing", "Warning"]
                .into_iter()
                .filter_map(|k| {
                    let n = w.get(k).and_then(Value::as_i64).filter(|n| *n > 0)?;
                    Some((k.to_string(), n.to_string()))
                })
                .collect::<super::flat::Flat>()
        })
    };
    Some(ObjectDiff {
        kind,
        name: "Weights".into(),
        fields: super::fields::fields(flat(old).as_ref(), flat(new).as_ref(), contextual),
        objects: Vec::new(),
    })
}

/// `serviceCheckDiff`: fields, headers, check restart.
fn check(old: Option<&Value>, new: Option<&Value>, contextual: bool) -> Option<ObjectDiff> {
    let mut diff = whole_object(old, new, Type::Check, &[], "Check", contextual)?;
    if let Some(mut header) =
        flattened(get(old, "Header"), get(new, "Header"), "Header", contextual)
    {
        sort_fields(&mut header.fields);
        diff.objects.push(header);
    }
    diff.objects.extend(whole_object(
        get(old, "CheckRestart"),
        get(new, "CheckRestart"),
        Type::CheckRestart,
        &[],
        "CheckRestart",
        contextual,
    ));
    Some(diff)
}
