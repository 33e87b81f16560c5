//! A 128-bit hash of a value's whole content, for keys that stand for the
//! value itself: parts shared by value, and the inputs a check or a
//! ranking reads.
//!
//! The value's `Hash` writes its content as bytes (derived, it writes each
//! field in order, a text with its end mark, a list with its length and an
//! enum with its variant, so those bytes spell the value), collected into
//! one buffer per thread and hashed once with xxHash's XXH3-128: hashing
//! each piece as it is written costs more than collecting it. Two distinct
//! values are taken for one only if their hashes are equal, with a chance
//! of at most `n² / 2¹²⁹` for `n` values not built to collide.

use std::cell::RefCell;
use std::hash::{Hash, Hasher};

use xxhash_rust::xxh3::{xxh3_64, xxh3_128};

/// The hash of the bytes `value`'s `Hash` writes.
pub(crate) fn value_hash(value: &impl Hash) -> u128 {
    thread_local! {
        static WRITTEN: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    }
    WRITTEN.with(|w| {
        let mut bytes = w.borrow_mut();
        bytes.clear();
        value.hash(&mut Written(&mut bytes));
        xxh3_128(&bytes)
    })
}

/// A `Hasher` that keeps what is written.
struct Written<'b>(&'b mut Vec<u8>);

impl Hasher for Written<'_> {
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    fn finish(&self) -> u64 {
        xxh3_64(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_written_differently_hash_differently() {
        // A text's end mark and a list's length keep pieces apart.
        assert_ne!(value_hash(&("ab", "c")), value_hash(&("a", "bc")));
        assert_ne!(
            value_hash(&vec![vec![1u8], vec![]]),
            value_hash(&vec![vec![], vec![1u8]])
        );
        assert_ne!(value_hash(&Some(0u64)), value_hash(&None::<u64>));
        assert_eq!(value_hash(&("ab", 1u32)), value_hash(&("ab", 1u32)));
    }
}
