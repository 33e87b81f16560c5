//! The position of each kept element by its ID, to find duplicates.
//!
//! A map from ID to position would clone every ID: a million allocations
//! would hold a second copy of their IDs while reading. The table holds only
//! positions and hashes the IDs where they already are.

use std::hash::{BuildHasher, Hash};

use foldhash::fast::FixedState;
use hashbrown::HashTable;

/// Positions in a list of elements, found by the element's ID.
#[derive(Default)]
pub(super) struct IdIndex {
    table: HashTable<usize>,
    hasher: FixedState,
}

impl IdIndex {
    /// The position of the element with `id` in `list`, or, if there is none,
    /// `None` after recording that it is about to be pushed at `list.len()`.
    pub(super) fn find_or_add<T, K: Hash + Eq + ?Sized>(
        &mut self,
        list: &[T],
        id_of: impl Fn(&T) -> &K,
        id: &K,
    ) -> Option<usize> {
        let hasher = &self.hasher;
        let hash = hasher.hash_one(id);
        let found = self.table.find(hash, |&i| id_of(&list[i]) == id).copied();
        if found.is_none() {
            self.table
                .insert_unique(hash, list.len(), |&i| hasher.hash_one(id_of(&list[i])));
        }
        found
    }
}
