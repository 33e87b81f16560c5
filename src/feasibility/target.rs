//! `resolveTarget`: the value a constraint's left or right side names on a node.

use super::device_rules::DeviceRules;
use crate::model::{Node, Release, StringMap};
use crate::version::Switch;

/// How the replayed release reads a node's attributes: the `${...}`
/// targets of constraints, how their orderings compare them and the
/// attributes its implicit checks ask for, one flag per catalogue row.
/// The default is the seed's rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TargetRules {
    /// #17548: `${node.pool}` names the node's pool; before, it is an
    /// unknown target.
    pub node_pool: bool,
    /// #13651: an unknown target resolves to the empty string, not nil.
    pub unknown_empty: bool,
    /// #26303: every `secret` block's provider must be fingerprinted on
    /// the node as `plugins.secrets.<provider>.version`.
    pub secrets_providers: bool,
    /// #14722: orderings compare numbers as numbers, strings lexically.
    pub numeric_order: bool,
    /// #14300: a group's `none` network needs no network on the node.
    pub network_none: bool,
    /// `${device.ids}` and the other device rules.
    pub devices: DeviceRules,
}

impl TargetRules {
    /// The rules of `release`.
    pub fn of(release: Release) -> TargetRules {
        TargetRules {
            node_pool: Switch::NodePoolTarget.in_release(release),
            unknown_empty: Switch::UnknownTargetEmpty.in_release(release),
            secrets_providers: Switch::SecretsProviders.in_release(release),
            numeric_order: Switch::NumericOrder.in_release(release),
            network_none: Switch::NetworkModeNone.in_release(release),
            devices: DeviceRules::of(release),
        }
    }
}

/// A resolved side of a constraint. Go returns a value and a found flag: a
/// missing attribute or meta key is the empty string, not found; an
/// unknown `${...}` is nil, not found, until #13651 made it the empty
/// string. The difference shows with `!=`.
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
/// against `node`, as `rules` say. A node without a pool comes from a dump
/// made before pools: its `${node.pool}` is `default`, the pool Nomad
/// gives it on upgrade.
pub fn resolve<'n>(target: &'n str, node: &'n Node, rules: TargetRules) -> Target<'n> {
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
        "${node.pool}" if rules.node_pool => Target::found(match node.node_pool.as_str() {
            "" => "default",
            p => p,
        }),
        t if t.starts_with("${attr.") => lookup(&node.attributes, key("${attr.")),
        t if t.starts_with("${meta.") => lookup(&node.meta, key("${meta.")),
        _ => Target {
            value: rules.unknown_empty.then_some(""),
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
