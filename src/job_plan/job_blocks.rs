//! The job's own blocks `nomad/structs/diff.go` diffs with their own rules:
//! `multiregionDiff` and `uiDiff`.

use serde_json::{Value, json};

use super::diff_types::{DiffType, ObjectDiff, sort_fields, sort_objects};
use super::fields::{self, kind_of, presence_kind, primitive_object, string_set, strings};
use super::flat;
use super::nested::{get, list};
use super::same::same;
use super::schema::Type;

/// `multiregionDiff`: the strategy (an added block's against the zero
/// strategy that `Multiregion.Canonicalize` gives the empty old side) and
/// the regions matched by name.
pub(crate) fn multiregion(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
) -> Option<ObjectDiff> {
    let kind = presence_kind(old, new)?;
    let zero = json!({});
    let old_strategy = match get(old, "Strategy") {
        None if kind == DiffType::Added => Some(&zero),
        s => s,
    };
    let mut objects: Vec<ObjectDiff> = primitive_object(
        old_strategy,
        get(new, "Strategy"),
        Type::MultiregionStrategy,
        &[],
        "Strategy",
        contextual,
    )
    .into_iter()
    .collect();
    objects.extend(super::nested::matched(
        get(old, "Regions"),
        get(new, "Regions"),
        "Name",
        |a, b| region(a, b, contextual),
    ));
    sort_objects(&mut objects);
    Some(ObjectDiff {
        kind,
        name: "Multiregion".into(),
        fields: Vec::new(),
        objects,
    })
}

/// `multiregionRegionDiff`: typed by its fields alone, so a region whose
/// only change is its datacenters is left out.
fn region(old: Option<&Value>, new: Option<&Value>, contextual: bool) -> Option<ObjectDiff> {
    presence_kind(old, new)?;
    let (o, n) = flat::pair(old, new, Type::MultiregionRegion, &[]);
    let fields = fields::fields(o.as_ref(), n.as_ref(), contextual);
    let kind = kind_of(&fields)?;
    let dcs = |v| strings(get(v, "Datacenters"));
    let objects = string_set(&dcs(old), &dcs(new), "Datacenters", contextual)
        .filter(|d| d.kind != DiffType::None)
        .into_iter()
        .collect();
    Some(ObjectDiff {
        kind,
        name: "Region".into(),
        fields,
        objects,
    })
}

/// `uiDiff`: the description and the links, paired by position.
pub(crate) fn ui(old: Option<&Value>, new: Option<&Value>, contextual: bool) -> Option<ObjectDiff> {
    let kind = presence_kind(old, new)?;
    let (o, n) = flat::pair(old, new, Type::Ui, &[]);
    let mut fields = fields::fields(o.as_ref(), n.as_ref(), contextual);
    sort_fields(&mut fields);
    let (ol, nl) = (list(get(old, "Links")), list(get(new, "Links")));
    let zero = json!({});
    let mut objects: Vec<ObjectDiff> = (0..ol.len().max(nl.len()))
        .filter_map(|i| {
            let (a, b) = (ol.get(i).copied(), nl.get(i).copied());
            let (x, y) = (a.unwrap_or(&zero), b.unwrap_or(&zero));
            if same(x, y) {
                return None;
            }
            let (fa, fb) = flat::pair(Some(x), Some(y), Type::UiLink, &[]);
            let kind = match (a, b) {
                (Some(_), None) => DiffType::Deleted,
                (None, Some(_)) => DiffType::Added,
                _ => DiffType::Edited,
            };
            Some(ObjectDiff {
                kind,
                name: "Link".into(),
                fields: fields::fields(fa.as_ref(), fb.as_ref(), contextual),
                objects: Vec::new(),
            })
        })
        .collect();
    sort_objects(&mut objects);
    Some(ObjectDiff {
        kind,
        name: "UI".into(),
        fields,
        objects,
    })
}
