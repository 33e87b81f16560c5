//! The position of each kept element by its ID, to find duplicates.
//!
//! A map from ID to position would clone every ID: a million allocations
//! would hold a second copy of their IDs while reading. The table holds
//! positions and 32 bits of each ID's hash, so that adding a new ID, and
//! growing the table, never reads the list: only an ID whose hash bits match
//! is compared where it is.

use std::hash::{BuildHasher, Hash};

use foldhash::fast::FixedState;
use hashbrown::HashTable;

/// Positions in a list of elements, found by the element's ID.
#[derive(Default)]
pub(super) struct IdIndex {
    /// (hash bits, position) of every element.
    table: HashTable<(u32, u32)>,
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
        let full = self.hasher.hash_one(id);
        let bits = (full ^ (full >> 32)) as u32;
        let found = self
            .table
            .find(spread(bits), |&(b, i)| {
                b == bits && id_of(&list[i as usize]) == id
            })
            .map(|&(_, i)| i as usize);
        if found.is_none() {
            let position = u32::try_from(list.len()).expect("fewer than 2^32 elements");
            self.table
                .insert_unique(spread(bits), (bits, position), |&(b, _)| spread(b));
        }
        found
    }
}

/// The table's hash from the kept bits: the same bits in the high half,
/// which the table reads for its control bytes, and in the low half, which
/// pick the bucket.
fn spread(bits: u32) -> u64 {
    u64::from(bits) << 32 | u64::from(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_id_once_added_and_only_then() {
        let mut index = IdIndex::default();
        let mut list: Vec<String> = Vec::new();
        for n in 0..5000 {
            let id = format!("id-{n}");
            assert_eq!(index.find_or_add(&list, String::as_str, id.as_str()), None);
            list.push(id);
        }
        for (n, id) in list.iter().enumerate() {
            assert_eq!(
                index.find_or_add(&list, String::as_str, id.as_str()),
                Some(n)
            );
        }
        assert_eq!(index.find_or_add(&list, String::as_str, "id-5000"), None);
    }
}
