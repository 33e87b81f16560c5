//! `resolveTarget`: the value a constraint's left or right side names on a node.

use crate::model::{Node, StringMap};

/// A resolved side of a constraint. Go returns an `interface{}` and a found
/// flag: a missing attribute or meta key is the empty string, not found; an
/// unknown `${...}` is nil, not found. The difference shows with `!=`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target<'n> {
    /// `None` is Go's nil.
    pub value: Option<&'n str>,
    pub found: bool,
}

impl<'n> Target<'n> {
    fn found(value: &'n str) -> Target<'n> {
        Target {
            value: Some(value),
            found: true,
        }
    }

    /// The string value when the side was found.
    pub fn text(&self) -> Option<&'n str> {
        self.value.filter(|_| self.found)
    }
}

/// Resolves `target` (a literal, or `${node.*}`, `${attr.*}`, `${meta.*}`)
/// against `node`.
pub fn resolve<'n>(target: &'n str, node: &'n Node) -> Target<'n> {
    if !target.starts_with("${") {
        return Target::found(target);
    }
    let key = |prefix: &str| {
        let rest = &target[prefix.len()..];
        rest.strip_suffix('}').unwrap_or(rest)
    };
    let lookup = |map: &'n StringMap, k: &str| match map.get(k) {
        Some(v) => Target::found(v),
        None => Target {
            value: Some(""),
            found: false,
        },
    };
    match target {
        "${node.unique.id}" => Target::found(&node.id),
        "${node.datacenter}" => Target::found(&node.datacenter),
        "${node.unique.name}" => Target::found(&node.name),
        "${node.class}" => Target::found(&node.node_class),
        t if t.starts_with("${attr.") => lookup(&node.attributes, key("${attr.")),
        t if t.starts_with("${meta.") => lookup(&node.meta, key("${meta.")),
        _ => Target {
            value: None,
            found: false,
        },
    }
}

/// `constraintTargetEscapes`: a target on a `unique.` field differs on every
/// node, so its result cannot be shared by a computed node class.
pub fn escapes(target: &str) -> bool {
    ["${node.unique.", "${attr.unique.", "${meta.unique."]
        .iter()
        .any(|p| target.starts_with(p))
}
