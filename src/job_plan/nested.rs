//! The nested blocks `nomad/structs/diff.go` diffs with their own rules:
//! resources, networks and ports, services and checks, templates, volumes,
//! scaling, the driver config and the disconnect block.

use std::collections::BTreeMap;

use serde_json::Value;

use super::diff_types::{DiffType, ObjectDiff, sort_objects};
use super::fields::{self, non_null, presence_kind, primitive_object, strings, whole_object};
use super::flat;
use super::schema::Type;
use crate::version::{Switch, Switches};

pub(crate) fn get<'v>(v: Option<&'v Value>, k: &str) -> Option<&'v Value> {
    v.and_then(|v| non_null(v.get(k)))
}

pub(crate) fn list(v: Option<&Value>) -> Vec<&Value> {
    v.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|v| !v.is_null())
        .collect()
}

/// A map or config flattened whole (`flatmap.Flatten(_, nil, false)`).
pub(crate) fn flattened(
    old: Option<&Value>,
    new: Option<&Value>,
    name: &str,
    contextual: bool,
) -> Option<ObjectDiff> {
    let empty = |v: Option<&Value>| v.and_then(Value::as_object).is_none_or(|m| m.is_empty());
    let kind = match presence_kind(old, new)? {
        _ if empty(old) => DiffType::Added,
        _ if empty(new) => DiffType::Deleted,
        _ => DiffType::Edited,
    };
    Some(ObjectDiff {
        kind,
        name: name.to_string(),
        fields: fields::fields(Some(&flat::all(old)), Some(&flat::all(new)), contextual),
        objects: Vec::new(),
    })
}

/// `configDiff`: the driver config, every value at any depth.
pub(crate) fn config(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
) -> Option<ObjectDiff> {
    flattened(old, new, "Config", contextual)
}

/// `disconectStrategyDiffs`: every field, pointers too (nil as `nil`).
pub(crate) fn disconnect(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
) -> Option<ObjectDiff> {
    let kind = presence_kind(old, new)?;
    let flat = |v: Option<&Value>| v.map(|v| flat::all(Some(v)));
    Some(ObjectDiff {
        kind,
        name: "Disconnect".into(),
        fields: fields::fields(flat(old).as_ref(), flat(new).as_ref(), contextual),
        objects: Vec::new(),
    })
}

/// `Resources.Diff`: its fields, networks and devices.
pub(crate) fn resources(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
    rules: Switches,
) -> Option<ObjectDiff> {
    let mut diff = whole_object(old, new, Type::Resources, &[], "Resources", contextual)?;
    diff.objects.extend(networks(
        get(old, "Networks"),
        get(new, "Networks"),
        contextual,
        rules,
    ));
    diff.objects.extend(devices(
        get(old, "Devices"),
        get(new, "Devices"),
        contextual,
    ));
    diff.objects
        .extend(numa(get(old, "NUMA"), get(new, "NUMA"), contextual));
    Some(diff)
}

/// `networkResourceDiffs`: networks matched by their whole content, so an
/// edited network is one deleted and one added.
pub(crate) fn networks(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
    rules: Switches,
) -> Vec<ObjectDiff> {
    let (o, n) = (by_text(old), by_text(new));
    let mut out: Vec<ObjectDiff> = o
        .iter()
        .filter(|(k, _)| !n.contains_key(*k))
        .filter_map(|(_, v)| network(Some(v), None, contextual, rules))
        .chain(
            n.iter()
                .filter(|(k, _)| !o.contains_key(*k))
                .filter_map(|(_, v)| network(None, Some(v), contextual, rules)),
        )
        .collect();
    sort_objects(&mut out);
    out
}

/// A list's elements by their whole text (Nomad hashes the structure).
fn by_text(v: Option<&Value>) -> BTreeMap<String, &Value> {
    list(v)
        .into_iter()
        .map(|n| (super::same::key(n), n))
        .collect()
}

/// A list's elements by the string field `key` (the last of a value).
fn by_field<'v>(v: Option<&'v Value>, key: &str) -> BTreeMap<String, &'v Value> {
    list(v)
        .into_iter()
        .map(|x| {
            (
                x.get(key)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                x,
            )
        })
        .collect()
}

/// `NetworkResource.Diff`: `MBits` is left out from #23489.
fn network(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
    rules: Switches,
) -> Option<ObjectDiff> {
    let filter: &[&str] = if rules.has(Switch::DiffSkipsMbits) {
        &["Device", "CIDR", "IP", "MBits"]
    } else {
        &["Device", "CIDR", "IP"]
    };
    let mut diff = whole_object(old, new, Type::Network, filter, "Network", contextual)?;
    diff.objects.extend(ports(
        get(old, "ReservedPorts"),
        get(new, "ReservedPorts"),
        false,
        contextual,
    ));
    diff.objects.extend(ports(
        get(old, "DynamicPorts"),
        get(new, "DynamicPorts"),
        true,
        contextual,
    ));
    if let Some(dns) = dns(get(old, "DNS"), get(new, "DNS"), contextual) {
        diff.objects.push(dns);
    }
    // `CNIConfig.Diff`: the arguments map, typed by its fields.
    let args = |v| get(get(v, "CNI"), "Args");
    diff.objects.extend(primitive_object(
        args(old),
        args(new),
        Type::AnyScalars,
        &[],
        "CNIConfig",
        contextual,
    ));
    Some(diff)
}

/// `NUMA.Diff`: its fields, typed by presence.
fn numa(old: Option<&Value>, new: Option<&Value>, contextual: bool) -> Option<ObjectDiff> {
    whole_object(old, new, Type::Numa, &[], "NUMA", contextual)
}

/// `portDiffs`: ports matched by label.
fn ports(
    old: Option<&Value>,
    new: Option<&Value>,
    dynamic: bool,
    contextual: bool,
) -> Vec<ObjectDiff> {
    let (o, n) = (by_field(old, "Label"), by_field(new, "Label"));
    let (filter, name): (&[&str], _) = if dynamic {
        (&["Value", "IgnoreCollision"], "Dynamic Port")
    } else {
        (&[], "Static Port")
    };
    let mut out: Vec<ObjectDiff> = Vec::new();
    for (label, p) in &o {
        out.extend(primitive_object(
            Some(p),
            n.get(label).copied(),
            Type::Port,
            filter,
            name,
            contextual,
        ));
    }
    for (label, p) in &n {
        if !o.contains_key(label) {
            out.extend(primitive_object(
                None,
                Some(p),
                Type::Port,
                filter,
                name,
                contextual,
            ));
        }
    }
    sort_objects(&mut out);
    out
}

/// `DNSConfig.Diff`: each list joined with commas.
fn dns(old: Option<&Value>, new: Option<&Value>, contextual: bool) -> Option<ObjectDiff> {
    let kind = presence_kind(old, new)?;
    let flat = |v: Option<&Value>| {
        v.map(|v| {
            ["Servers", "Searches", "Options"]
                .into_iter()
                .map(|k| (k.to_string(), strings(v.get(k)).join(",")))
                .filter(|(_, s)| !s.is_empty())
                .collect::<flat::Flat>()
        })
    };
    Some(ObjectDiff {
        kind,
        name: "DNS".into(),
        fields: fields::fields(flat(old).as_ref(), flat(new).as_ref(), contextual),
        objects: Vec::new(),
    })
}

/// `requestedDevicesDiffs`: devices matched by name.
fn devices(old: Option<&Value>, new: Option<&Value>, contextual: bool) -> Vec<ObjectDiff> {
    matched(old, new, "Name", |o, n| {
        whole_object(o, n, Type::Device, &[], "Device", contextual)
    })
}

/// Objects of two lists matched by the string field `key`, each pair diffed
/// by `diff`, sorted.
pub(crate) fn matched<'v>(
    old: Option<&'v Value>,
    new: Option<&'v Value>,
    key: &str,
    diff: impl Fn(Option<&'v Value>, Option<&'v Value>) -> Option<ObjectDiff>,
) -> Vec<ObjectDiff> {
    let (o, n) = (by_field(old, key), by_field(new, key));
    let mut out: Vec<ObjectDiff> = o
        .iter()
        .filter_map(|(k, v)| diff(Some(v), n.get(k).copied()))
        .chain(
            n.iter()
                .filter(|(k, _)| !o.contains_key(*k))
                .filter_map(|(_, v)| diff(None, Some(v))),
        )
        .collect();
    sort_objects(&mut out);
    out
}

/// `scalingDiff`: the policy's own fields (not contextual), and its
/// `Policy` document flattened.
pub(crate) fn scaling(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
) -> Option<ObjectDiff> {
    let filter = ["Type", "Target[Job]", "Target[Group]", "Target[Namespace]"];
    let kind = presence_kind(old, new)?;
    let (o, n) = flat::pair(old, new, Type::Scaling, &filter);
    let (o, n) = (
        o.map(|f| drop_keys(f, &filter)),
        n.map(|f| drop_keys(f, &filter)),
    );
    let mut diff = ObjectDiff {
        kind,
        name: "Scaling".into(),
        fields: fields::fields(o.as_ref(), n.as_ref(), false),
        objects: Vec::new(),
    };
    diff.objects.extend(flattened(
        get(old, "Policy"),
        get(new, "Policy"),
        "Policy",
        contextual,
    ));
    Some(diff)
}

fn drop_keys(mut flat: flat::Flat, keys: &[&str]) -> flat::Flat {
    for k in keys {
        flat.remove(*k);
    }
    flat
}
