//! `DistinctPropertyIterator` and its `propertySet`s: at most `RTarget`
//! (default 1) allocations of the job, or of the group, per value of a node
//! property, counting existing allocations and the plan so far.

use std::collections::BTreeMap;

use super::constraint::DISTINCT_PROPERTY;
use super::target::{TargetRules, resolve};
use crate::model::{Constraint, Node};

/// One allocation as a property set counts it: its node and task group.
#[derive(Clone, Copy, Debug)]
pub struct Placed<'a> {
    pub node: Option<&'a Node>,
    pub task_group: &'a str,
}

/// One `distinct_property` constraint with the job's existing use.
#[derive(Clone, Debug)]
pub struct PropertySet {
    target: String,
    /// Only allocations of this group count; `None` at the job level.
    group: Option<String>,
    allowed: Result<u64, String>,
    existing: BTreeMap<String, u64>,
    targets: TargetRules,
}

fn property<'n>(node: Option<&'n Node>, target: &'n str, rules: TargetRules) -> Option<&'n str> {
    let node = node?;
    if target.is_empty() {
        return None;
    }
    resolve(target, node, rules).text()
}

impl PropertySet {
    /// The sets of `constraints` (job level when `group` is `None`), counting
    /// the job's `existing` non-terminal allocations.
    pub fn all<'a>(
        constraints: &[Constraint],
        group: Option<&str>,
        existing: &[Placed<'a>],
        targets: TargetRules,
    ) -> Vec<PropertySet> {
        constraints
            .iter()
            .filter(|c| c.operand == DISTINCT_PROPERTY)
            .map(|c| {
                let allowed = if c.r_target.is_empty() {
                    Ok(1)
                } else {
                    c.r_target.parse::<u64>().map_err(|_| {
                        format!("failed to convert RTarget {:?} to uint64", c.r_target)
                    })
                };
                let mut set = PropertySet {
                    target: c.l_target.to_string(),
                    group: group.map(str::to_string),
                    allowed,
                    existing: BTreeMap::new(),
                    targets,
                };
                set.existing = set.count(existing);
                set
            })
            .collect()
    }

    fn counts(&self, a: &Placed<'_>) -> bool {
        self.group.as_deref().is_none_or(|g| g == a.task_group)
    }

    fn count(&self, allocs: &[Placed<'_>]) -> BTreeMap<String, u64> {
        let mut out = BTreeMap::new();
        for a in allocs.iter().filter(|a| self.counts(a)) {
            if let Some(v) = property(a.node, &self.target, self.targets) {
                *out.entry(v.to_string()).or_insert(0) += 1;
            }
        }
        out
    }

    /// A broken `RTarget`: the constraint filters every node.
    pub fn invalid(&self) -> Option<&str> {
        self.allowed.as_ref().err().map(String::as_str)
    }

    /// `SatisfiesDistinctProperties` given the plan's stops and placements so
    /// far; the reason when the node is filtered.
    pub fn satisfied(
        &self,
        node: &Node,
        stopping: &[Placed<'_>],
        proposed: &[Placed<'_>],
    ) -> Result<(), String> {
        let allowed = self.allowed.clone()?;
        let Some(value) = property(Some(node), &self.target, self.targets) else {
            return Err(format!("missing property {:?}", self.target));
        };
        let proposed_use = self.count(proposed);
        let mut cleared = self.count(stopping);
        // A value placed again in the plan clears one stop less.
        for v in proposed_use.keys() {
            if let Some(c) = cleared.get_mut(v).filter(|c| **c > 1) {
                *c -= 1;
            }
        }
        let used = self.existing.get(value).copied().unwrap_or(0)
            + proposed_use.get(value).copied().unwrap_or(0);
        let used = used.saturating_sub(cleared.get(value).copied().unwrap_or(0));
        if used < allowed {
            Ok(())
        } else {
            Err(format!(
                "distinct_property: {}={value} used by {used} allocs",
                self.target
            ))
        }
    }
}
