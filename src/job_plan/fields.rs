//! The building blocks of `nomad/structs/diff.go`: field diffs, primitive
//! objects, sets of primitive objects and sets of strings.

use std::collections::BTreeMap;

use serde_json::Value;

use super::diff_types::{DiffType, FieldDiff, ObjectDiff, sort_fields, sort_objects};
use super::flat::{self, Flat};
use super::schema::Type;

/// `fieldDiff`: none when equal unless `contextual`.
pub(crate) fn field(old: &str, new: &str, name: &str, contextual: bool) -> Option<FieldDiff> {
    let (kind, o, n) = if old == new {
        if !contextual {
            return None;
        }
        (DiffType::None, old, new)
    } else if old.is_empty() {
        (DiffType::Added, "", new)
    } else if new.is_empty() {
        (DiffType::Deleted, old, "")
    } else {
        (DiffType::Edited, old, new)
    };
    Some(FieldDiff {
        kind,
        name: name.to_string(),
        old: o.to_string(),
        new: n.to_string(),
        annotations: Vec::new(),
    })
}

/// `fieldDiffs`: every key of either side, sorted.
pub(crate) fn fields(old: Option<&Flat>, new: Option<&Flat>, contextual: bool) -> Vec<FieldDiff> {
    let empty = Flat::new();
    let (o, n) = (old.unwrap_or(&empty), new.unwrap_or(&empty));
    let mut keys: Vec<&String> = o.keys().chain(n.keys()).collect();
    keys.sort();
    keys.dedup();
    let get = |m: &Flat, k: &str| m.get(k).cloned().unwrap_or_default();
    let mut out: Vec<FieldDiff> = keys
        .into_iter()
        .filter_map(|k| field(&get(o, k), &get(n, k), k, contextual))
        .collect();
    sort_fields(&mut out);
    out
}

/// The type of an object from its fields, as `primitiveObjectDiff` decides
/// it: none when nothing changed.
pub(crate) fn kind_of(fields: &[FieldDiff]) -> Option<DiffType> {
    let has = |t| fields.iter().any(|f| f.kind == t);
    let (added, deleted) = (has(DiffType::Added), has(DiffType::Deleted));
    if has(DiffType::Edited) || added && deleted {
        Some(DiffType::Edited)
    } else if added {
        Some(DiffType::Added)
    } else if deleted {
        Some(DiffType::Deleted)
    } else {
        None
    }
}

/// `primitiveObjectDiff`: the primitive fields of two objects of type `ty`.
pub(crate) fn primitive_object(
    old: Option<&Value>,
    new: Option<&Value>,
    ty: Type,
    filter: &[&str],
    name: &str,
    contextual: bool,
) -> Option<ObjectDiff> {
    let (o, n) = flat::pair(non_null(old), non_null(new), ty, filter);
    let fields = fields(o.as_ref(), n.as_ref(), contextual);
    Some(ObjectDiff {
        kind: kind_of(&fields)?,
        name: name.to_string(),
        fields,
        objects: Vec::new(),
    })
}

/// `primitiveObjectSetDiff`: objects matched by their content (Nomad's
/// structure hash), so an edit is a deletion and an addition.
pub(crate) fn primitive_object_set(
    old: Option<&Value>,
    new: Option<&Value>,
    ty: Type,
    filter: &[&str],
    name: &str,
    contextual: bool,
) -> Vec<ObjectDiff> {
    primitive_object_set_by(old, new, None, ty, filter, name, contextual)
}

/// `primitiveObjectSetDiff` of a type with a `DiffID` (an artifact's
/// `RelativeDest`): objects whose `id` field is set are matched by it, so
/// an edit is one edited object; the others by content.
pub(crate) fn primitive_object_set_by(
    old: Option<&Value>,
    new: Option<&Value>,
    id: Option<&str>,
    ty: Type,
    filter: &[&str],
    name: &str,
    contextual: bool,
) -> Vec<ObjectDiff> {
    let (o, n) = (keyed(old, id), keyed(new, id));
    let mut out: Vec<ObjectDiff> = Vec::new();
    for (k, v) in &o {
        out.extend(primitive_object(
            Some(v),
            n.get(k).copied(),
            ty,
            filter,
            name,
            contextual,
        ));
    }
    for (k, v) in &n {
        if !o.contains_key(k) {
            out.extend(primitive_object(
                None,
                Some(v),
                ty,
                filter,
                name,
                contextual,
            ));
        }
    }
    sort_objects(&mut out);
    out
}

/// The elements of a list by their `id` field when it is set, else by
/// their canonical text.
fn keyed<'v>(list: Option<&'v Value>, id: Option<&str>) -> BTreeMap<String, &'v Value> {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|v| !v.is_null())
        .map(|v| {
            let by_id = id
                .and_then(|k| v.get(k))
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(|s| format!("id:{s}"));
            (by_id.unwrap_or_else(|| super::same::key(v)), v)
        })
        .collect()
}

/// A JSON `null` is a nil pointer: absent.
pub(crate) fn non_null(v: Option<&Value>) -> Option<&Value> {
    v.filter(|v| !v.is_null())
}

/// The strings of a JSON list of strings (`null` and absent: none).
pub(crate) fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|s| s.as_str().map(str::to_string))
        .collect()
}

/// `stringSetDiff`.
pub(crate) fn string_set(
    old: &[String],
    new: &[String],
    name: &str,
    contextual: bool,
) -> Option<ObjectDiff> {
    let o: std::collections::BTreeSet<&String> = old.iter().collect();
    let n: std::collections::BTreeSet<&String> = new.iter().collect();
    if o == n && !contextual {
        return None;
    }
    let mut fields = Vec::new();
    let (mut added, mut removed) = (false, false);
    for k in &o {
        if !n.contains(k) {
            fields.extend(field(k, "", name, contextual));
            removed = true;
        } else if contextual {
            fields.extend(field(k, k, name, contextual));
        }
    }
    for k in &n {
        if !o.contains(k) {
            fields.extend(field("", k, name, contextual));
            added = true;
        }
    }
    sort_fields(&mut fields);
    let kind = match (added, removed) {
        (true, true) => DiffType::Edited,
        (true, false) => DiffType::Added,
        (false, true) => DiffType::Deleted,
        (false, false) if fields.is_empty() => return None,
        (false, false) => DiffType::None,
    };
    Some(ObjectDiff {
        kind,
        name: name.to_string(),
        fields,
        objects: Vec::new(),
    })
}

/// An object whose type follows from whether either side is absent, as the
/// diff functions with a nil check before flattening decide it; none when
/// both are equal.
pub(crate) fn presence_kind(old: Option<&Value>, new: Option<&Value>) -> Option<DiffType> {
    match (non_null(old), non_null(new)) {
        (None, None) => None,
        (Some(o), Some(n)) if super::same::same(o, n) => None,
        (None, Some(_)) => Some(DiffType::Added),
        (Some(_), None) => Some(DiffType::Deleted),
        _ => Some(DiffType::Edited),
    }
}

/// An object diffed field by field once either side changed, with the type
/// its presence gives (Nomad's pattern for pointer blocks).
pub(crate) fn whole_object(
    old: Option<&Value>,
    new: Option<&Value>,
    ty: Type,
    filter: &[&str],
    name: &str,
    contextual: bool,
) -> Option<ObjectDiff> {
    let kind = presence_kind(old, new)?;
    let (o, n) = flat::pair(non_null(old), non_null(new), ty, filter);
    Some(ObjectDiff {
        kind,
        name: name.to_string(),
        fields: fields(o.as_ref(), n.as_ref(), contextual),
        objects: Vec::new(),
    })
}

/// The elements of a list of named objects by `Name` (the last of a name).
/// The members of two named lists matched by `Name`, each pair diffed by
/// `diff`, in name order (how Nomad pairs task groups and tasks).
pub(crate) fn matched_by_name<'v, T>(
    old: Option<&'v Value>,
    new: Option<&'v Value>,
    diff: impl Fn(Option<&'v Value>, Option<&'v Value>) -> T,
) -> Vec<T> {
    let (o, n) = (by_name(old), by_name(new));
    let mut names: Vec<&str> = o.keys().chain(n.keys()).copied().collect();
    names.sort_unstable();
    names.dedup();
    names
        .into_iter()
        .map(|name| diff(o.get(name).copied(), n.get(name).copied()))
        .collect()
}

/// Added, deleted, unchanged or edited, from the two sides of a named object.
pub(crate) fn pair_kind(old: Option<&Value>, new: Option<&Value>) -> DiffType {
    match (old, new) {
        (None, _) => DiffType::Added,
        (_, None) => DiffType::Deleted,
        (Some(o), Some(n)) if super::same::same(o, n) => DiffType::None,
        _ => DiffType::Edited,
    }
}

pub(crate) fn by_name(list: Option<&Value>) -> BTreeMap<&str, &Value> {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|v| !v.is_null())
        .map(|v| (v.get("Name").and_then(Value::as_str).unwrap_or_default(), v))
        .collect()
}
