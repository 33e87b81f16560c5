//! Sets of allocations keyed by ID: Nomad's `allocSet`.
//!
//! Nomad keeps these in Go maps and so visits them in random order; a
//! `BTreeMap` visits them by ID, which is one of the orders Nomad could take and
//! makes every pick reproducible.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::Allocation;

/// Allocations by ID, borrowed from the snapshot.
#[derive(Clone, Debug, Default)]
pub struct AllocSet<'a>(BTreeMap<&'a str, &'a Allocation>);

impl<'a> AllocSet<'a> {
    pub fn new() -> AllocSet<'a> {
        AllocSet(BTreeMap::new())
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn insert(&mut self, alloc: &'a Allocation) {
        self.0.insert(&alloc.id, alloc);
    }

    pub fn remove(&mut self, id: &str) -> Option<&'a Allocation> {
        self.0.remove(id)
    }

    pub fn contains(&self, id: &str) -> bool {
        self.0.contains_key(id)
    }

    pub fn get(&self, id: &str) -> Option<&'a Allocation> {
        self.0.get(id).copied()
    }

    /// The allocations in ID order.
    pub fn iter(&self) -> impl Iterator<Item = &'a Allocation> + '_ {
        self.0.values().copied()
    }

    /// The IDs in order.
    pub fn ids(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.0.keys().copied()
    }

    /// `union`: all allocations of `self` and `others`.
    pub fn union(&self, others: &[&AllocSet<'a>]) -> AllocSet<'a> {
        let mut out = self.clone();
        for other in others {
            out.0.extend(other.0.iter().map(|(k, v)| (*k, *v)));
        }
        out
    }

    /// `difference`: the allocations of `self` in none of `others`.
    pub fn difference(&self, others: &[&AllocSet<'a>]) -> AllocSet<'a> {
        self.filter(|a| others.iter().all(|o| !o.contains(&a.id)))
    }

    /// `fromKeys`: the allocations of `self` whose IDs are listed.
    pub fn from_keys<'k>(&self, keys: impl IntoIterator<Item = &'k String>) -> AllocSet<'a> {
        let mut out = AllocSet::new();
        for k in keys {
            if let Some(a) = self.get(k) {
                out.insert(a);
            }
        }
        out
    }

    /// The allocations for which `keep` holds.
    pub fn filter(&self, mut keep: impl FnMut(&Allocation) -> bool) -> AllocSet<'a> {
        AllocSet(
            self.0
                .iter()
                .filter(|(_, a)| keep(a))
                .map(|(k, v)| (*k, *v))
                .collect(),
        )
    }

    /// `nameSet`.
    pub fn name_set(&self) -> BTreeSet<&'a str> {
        self.iter().map(|a| a.name.as_str()).collect()
    }

    /// `nameOrder`: by name index; ties (which Go's unstable sort leaves
    /// arbitrary) by ID.
    pub fn name_order(&self) -> Vec<&'a Allocation> {
        let mut v: Vec<_> = self.iter().collect();
        v.sort_by(|a, b| a.index().cmp(&b.index()).then_with(|| a.id.cmp(&b.id)));
        v
    }

    /// `filterByTerminal`: the non-terminal allocations.
    pub fn non_terminal(&self) -> AllocSet<'a> {
        self.filter(|a| !a.terminal_status())
    }

    /// `filterByDeployment`: the allocations of deployment `id`.
    pub fn of_deployment(&self, id: &str) -> AllocSet<'a> {
        self.filter(|a| a.deployment_id == id)
    }
}

impl<'a> FromIterator<&'a Allocation> for AllocSet<'a> {
    fn from_iter<I: IntoIterator<Item = &'a Allocation>>(iter: I) -> AllocSet<'a> {
        AllocSet(iter.into_iter().map(|a| (a.id.as_str(), a)).collect())
    }
}
