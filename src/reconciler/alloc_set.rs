//! Sets of allocations keyed by ID: Nomad's `allocSet`.
//!
//! Nomad keeps these in Go maps and so visits them in random order; visiting
//! them by ID is one of the orders Nomad could take and makes every pick
//! reproducible.
//!
//! A set is a vector of borrowed allocations sorted by ID. Most sets are
//! filtered out of another set in order, so building one costs a push per
//! allocation, and unions and differences are merges: a million allocations
//! go through a dozen sets per group without a tree or a copy of any of them.
//! Each entry carries the first bytes of its ID, so that comparisons seldom
//! leave the vector for the allocation's ID.

use std::cmp::Ordering;
use std::collections::BTreeSet;

use crate::model::{Allocation, Id, Name};

/// Allocations by ID, borrowed from the snapshot.
#[derive(Clone, Debug, Default)]
pub struct AllocSet<'a>(Vec<Entry<'a>>);

/// An allocation with the first 8 bytes of its ID as a big-endian number,
/// zero-padded: ordering by it, then by the whole ID, orders by ID.
#[derive(Clone, Copy, Debug)]
struct Entry<'a> {
    key: u64,
    alloc: &'a Allocation,
}

impl<'a> Entry<'a> {
    fn new(alloc: &'a Allocation) -> Entry<'a> {
        Entry {
            key: alloc.id.head(),
            alloc,
        }
    }

    fn cmp_id(&self, key: u64, id: &Id) -> Ordering {
        self.key.cmp(&key).then_with(|| self.alloc.id.cmp(id))
    }

    fn order(&self, other: &Entry<'_>) -> Ordering {
        if std::ptr::eq(self.alloc, other.alloc) {
            return Ordering::Equal;
        }
        self.cmp_id(other.key, &other.alloc.id)
    }
}

impl<'a> AllocSet<'a> {
    pub fn new() -> AllocSet<'a> {
        AllocSet(Vec::new())
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn position(&self, id: &Id) -> Result<usize, usize> {
        let key = id.head();
        self.0.binary_search_by(|e| e.cmp_id(key, id))
    }

    /// Adds `alloc`, replacing one of the same ID. Inserting in ID order
    /// is a push.
    pub fn insert(&mut self, alloc: &'a Allocation) {
        let entry = Entry::new(alloc);
        if self.0.last().is_none_or(|last| last.order(&entry).is_lt()) {
            self.0.push(entry);
            return;
        }
        match self.position(&alloc.id) {
            Ok(i) => self.0[i] = entry,
            Err(i) => self.0.insert(i, entry),
        }
    }

    pub fn contains(&self, id: &Id) -> bool {
        self.position(id).is_ok()
    }

    pub fn get(&self, id: &Id) -> Option<&'a Allocation> {
        self.position(id).ok().map(|i| self.0[i].alloc)
    }

    /// The allocations in ID order.
    pub fn iter(&self) -> impl Iterator<Item = &'a Allocation> + '_ {
        self.0.iter().map(|e| e.alloc)
    }

    /// The IDs in order.
    pub fn ids(&self) -> impl Iterator<Item = &'a Id> + '_ {
        self.0.iter().map(|e| &e.alloc.id)
    }

    /// `union`: all allocations of `self` and `others`; of two with the same
    /// ID, the later set's is kept.
    pub fn union(&self, others: &[&AllocSet<'a>]) -> AllocSet<'a> {
        others
            .iter()
            .fold(self.clone(), |acc, other| acc.merge(other))
    }

    fn merge(self, other: &AllocSet<'a>) -> AllocSet<'a> {
        if other.is_empty() {
            return self;
        }
        let (a, b) = (&self.0, &other.0);
        let mut out = Vec::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match a[i].order(&b[j]) {
                Ordering::Less => {
                    out.push(a[i]);
                    i += 1;
                }
                Ordering::Greater => {
                    out.push(b[j]);
                    j += 1;
                }
                Ordering::Equal => {
                    out.push(b[j]);
                    i += 1;
                    j += 1;
                }
            }
        }
        out.extend_from_slice(&a[i..]);
        out.extend_from_slice(&b[j..]);
        AllocSet(out)
    }

    /// `difference`: the allocations of `self` in none of `others`.
    pub fn difference(&self, others: &[&AllocSet<'a>]) -> AllocSet<'a> {
        let others: Vec<_> = others.iter().filter(|o| !o.is_empty()).collect();
        if others.is_empty() {
            return self.clone();
        }
        // Both sides are sorted: one cursor per other set walks along.
        let mut cursors = vec![0; others.len()];
        let kept = self.0.iter().filter(|e| {
            others.iter().zip(cursors.iter_mut()).all(|(o, c)| {
                while *c < o.0.len() && o.0[*c].order(e).is_lt() {
                    *c += 1;
                }
                *c == o.0.len() || o.0[*c].order(e).is_ne()
            })
        });
        AllocSet(kept.copied().collect())
    }

    /// `fromKeys`: the allocations of `self` whose IDs are listed.
    pub fn from_keys<'k>(&self, keys: impl IntoIterator<Item = &'k Id>) -> AllocSet<'a> {
        keys.into_iter().filter_map(|k| self.get(k)).collect()
    }

    /// The allocations for which `keep` holds.
    pub fn filter(&self, mut keep: impl FnMut(&Allocation) -> bool) -> AllocSet<'a> {
        AllocSet(self.0.iter().copied().filter(|e| keep(e.alloc)).collect())
    }

    /// Splits the set in one pass, keeping ID order: each allocation goes
    /// to the set numbered by `to`, if any.
    pub fn split<const N: usize>(
        &self,
        mut to: impl FnMut(&'a Allocation) -> Option<usize>,
    ) -> [AllocSet<'a>; N] {
        let mut out = std::array::from_fn(|_| AllocSet::new());
        for e in &self.0 {
            if let Some(i) = to(e.alloc) {
                out[i].0.push(*e);
            }
        }
        out
    }

    /// `nameSet`.
    pub fn name_set(&self) -> BTreeSet<Name> {
        self.iter().map(|a| a.name()).collect()
    }

    /// `nameOrder`.
    pub fn name_order(&self) -> Vec<&'a Allocation> {
        name_order(self.iter(), |a| *a)
    }

    /// `filterByTerminal`: the non-terminal allocations.
    pub fn non_terminal(&self) -> AllocSet<'a> {
        self.filter(|a| !a.terminal_status())
    }

    /// `filterByDeployment`: the allocations of deployment `id`.
    pub fn of_deployment(&self, id: &Id) -> AllocSet<'a> {
        self.filter(|a| a.deployment_id == *id)
    }
}

/// Collects in any order; of two allocations with the same ID, the later
/// one is kept, as a map insert would.
impl<'a> FromIterator<&'a Allocation> for AllocSet<'a> {
    fn from_iter<I: IntoIterator<Item = &'a Allocation>>(iter: I) -> AllocSet<'a> {
        let mut v: Vec<Entry<'a>> = iter.into_iter().map(Entry::new).collect();
        if !v.is_sorted_by(|a, b| a.order(b).is_lt()) {
            v.sort_by(Entry::order);
            v.dedup_by(|later, kept| {
                let same = later.order(kept).is_eq();
                if same {
                    *kept = *later;
                }
                same
            });
        }
        AllocSet(v)
    }
}

/// `nameOrder` of items in ID order, each carrying an allocation: by name
/// index; ties (which Go's unstable sort leaves arbitrary) stay in ID order.
pub(super) fn name_order<T>(
    items: impl IntoIterator<Item = T>,
    alloc: impl Fn(&T) -> &Allocation,
) -> Vec<T> {
    let mut keyed: Vec<(u64, T)> = items.into_iter().map(|t| (alloc(&t).index(), t)).collect();
    keyed.sort_by_key(|(index, _)| *index);
    keyed.into_iter().map(|(_, t)| t).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allocs(ids: &[&str]) -> Vec<Allocation> {
        ids.iter()
            .map(|id| Allocation {
                id: Id::from(*id),
                ..Allocation::default()
            })
            .collect()
    }

    fn ids(set: &AllocSet<'_>) -> Vec<String> {
        set.ids().map(Id::to_string).collect()
    }

    /// IDs sharing their first 8 bytes, or shorter than 8, still sort as
    /// strings do.
    #[test]
    fn orders_by_id_whatever_the_first_bytes() {
        let all = allocs(&[
            "alloc-0010",
            "b",
            "alloc-002",
            "",
            "alloc-001",
            "a\0",
            "a",
            "alloc-00-0000-0000-0000-000000000000",
            "a1100c00-0000-0000-0000-000000000000",
            "a1100c00-0000-0000-0000-00000000000",
            "a1100c00-0000-0000-0000-000000000001",
        ]);
        let set: AllocSet = all.iter().rev().collect();
        let mut want: Vec<String> = all.iter().map(|a| a.id.to_string()).collect();
        want.sort();
        assert_eq!(ids(&set), want);
        let mut inserted = AllocSet::new();
        all.iter().for_each(|a| inserted.insert(a));
        assert_eq!(ids(&inserted), want);
        assert!(set.contains(&Id::from("alloc-002")) && !set.contains(&Id::from("alloc-00")));
    }

    #[test]
    fn set_operations() {
        let all = allocs(&["a1", "a2", "a3", "b1", "b2"]);
        let pick = |ids: &[&str]| -> AllocSet<'_> {
            all.iter()
                .filter(|a| ids.iter().any(|id| a.id == *id))
                .collect()
        };
        let (x, y, z) = (
            pick(&["a1", "a3", "b2"]),
            pick(&["a2", "a3"]),
            pick(&["b2"]),
        );
        assert_eq!(ids(&x.union(&[&y, &z])), ["a1", "a2", "a3", "b2"]);
        assert_eq!(ids(&x.difference(&[&y, &z])), ["a1"]);
        assert_eq!(ids(&x.difference(&[])), ["a1", "a3", "b2"]);
        let keys = [Id::from("b2"), Id::from("a1"), Id::from("zz")];
        assert_eq!(ids(&x.from_keys(&keys)), ["a1", "b2"]);
        let [ones, twos] = x.split(|a| Some(usize::from(!a.id.with_str(|id| id.ends_with('1')))));
        assert_eq!(ids(&ones), ["a1"]);
        assert_eq!(ids(&twos), ["a3", "b2"]);
    }

    /// Of two allocations with one ID, the later is kept, as a map would.
    #[test]
    fn duplicates_keep_the_last() {
        let mut all = allocs(&["x", "y", "x"]);
        all[2].name = "later".into();
        let set: AllocSet = all.iter().collect();
        assert_eq!(ids(&set), ["x", "y"]);
        assert_eq!(
            set.get(&Id::from("x")).map(|a| a.name().to_string()),
            Some("later".to_string())
        );
    }
}
