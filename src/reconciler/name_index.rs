//! Choosing allocation names (`job.group[N]`) to place or stop:
//! `allocNameIndex` and `bitmapFrom`.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::alloc_set::AllocSet;
use crate::model::alloc_index_from_name;

/// `structs.AllocName`.
pub fn alloc_name(job: &str, group: &str, idx: u64) -> String {
    format!("{job}.{group}[{idx}]")
}

/// Indexes below this are kept one bit each (2 MiB at most), the rest sparse.
const DENSE_BITS: u64 = 1 << 24;

/// Nomad's byte-aligned `Bitmap`. Its size matters: a search for free
/// indexes is bounded by it. Bits are kept in words as Nomad does, except
/// past 2^24, where set bits are kept sparse so that a hostile index
/// (`web[4294967295]`) costs nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bitmap {
    size: u64,
    words: Vec<u64>,
    sparse: BTreeSet<u64>,
}

impl Bitmap {
    /// `bitmapFrom` of the allocations holding `indexes`: sized to hold
    /// `min_size`, their number and the highest index (plus one when that
    /// is a multiple of 8), rounded up to 8.
    pub fn from_indexes(indexes: impl IntoIterator<Item = u64>, min_size: u64) -> Bitmap {
        Bitmap::from_indexes_counting(indexes, min_size).0
    }

    /// `bitmapFrom` as 1.4.14, 1.5.10, 1.6.3 and 1.7.0 have it: also how
    /// many allocations beyond the first hold each index in use.
    pub fn from_indexes_counting(
        indexes: impl IntoIterator<Item = u64>,
        min_size: u64,
    ) -> (Bitmap, HashMap<u64, u64>) {
        let indexes: Vec<u64> = indexes.into_iter().collect();
        let highest = indexes.iter().copied().max().unwrap_or(0);
        let min_size = min_size.max(indexes.len() as u64);
        let mut size = if highest < min_size {
            min_size
        } else if highest % 8 == 0 {
            highest + 1
        } else {
            highest
        };
        if size == 0 {
            size = 8;
        }
        size = size.div_ceil(8).saturating_mul(8);
        let mut bitmap = Bitmap {
            size,
            words: vec![0; size.min(DENSE_BITS).div_ceil(64) as usize],
            sparse: BTreeSet::new(),
        };
        let mut duplicates = HashMap::new();
        for idx in indexes {
            if bitmap.check(idx) {
                *duplicates.entry(idx).or_insert(0) += 1;
            } else {
                bitmap.insert(idx);
            }
        }
        (bitmap, duplicates)
    }

    pub fn size(&self) -> u64 {
        self.size
    }

    pub fn check(&self, idx: u64) -> bool {
        match self.words.get((idx / 64) as usize) {
            Some(word) => word & (1 << (idx % 64)) != 0,
            None => self.sparse.contains(&idx),
        }
    }

    /// Sets `idx`; Go would panic past the end, we ignore it.
    pub fn set(&mut self, idx: u64) {
        if idx < self.size {
            self.insert(idx);
        }
    }

    fn insert(&mut self, idx: u64) {
        match self.words.get_mut((idx / 64) as usize) {
            Some(word) => *word |= 1 << (idx % 64),
            None => {
                self.sparse.insert(idx);
            }
        }
    }

    pub fn unset(&mut self, idx: u64) {
        match self.words.get_mut((idx / 64) as usize) {
            Some(word) => *word &= !(1 << (idx % 64)),
            None => {
                self.sparse.remove(&idx);
            }
        }
    }

    /// `IndexesInRange`: the indexes in `from..=to` (bounded by the size)
    /// whose bit equals `set`, ascending.
    pub fn indexes_in_range(
        &self,
        set: bool,
        from: u64,
        to: u64,
    ) -> Box<dyn Iterator<Item = u64> + '_> {
        let end = to.min(self.size.saturating_sub(1));
        if from > end || self.size == 0 {
            return Box::new(std::iter::empty());
        }
        if !set {
            return Box::new((from..=end).filter(|&i| !self.check(i)));
        }
        let dense_end = self.words.len() as u64 * 64;
        let dense = (from / 64..dense_end.min(end + 1).div_ceil(64))
            .flat_map(|w| bits_of(w, self.words[w as usize], false))
            .filter(move |&i| i >= from && i <= end);
        Box::new(dense.chain(self.sparse.range(from.max(dense_end)..=end).copied()))
    }

    /// The set indexes, highest first.
    fn descending(&self) -> impl Iterator<Item = u64> + '_ {
        let dense = (0..self.words.len() as u64)
            .rev()
            .flat_map(|w| bits_of(w, self.words[w as usize], true));
        self.sparse.iter().rev().copied().chain(dense)
    }
}

/// The set bits of word number `w`, as indexes, ascending or descending.
fn bits_of(w: u64, mut bits: u64, descending: bool) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let bit = if descending {
            63 - u64::from(bits.leading_zeros())
        } else {
            u64::from(bits.trailing_zeros())
        };
        bits &= !(1 << bit);
        Some(w * 64 + bit)
    })
}

/// `allocNameIndex`: the names in use for one task group.
#[derive(Clone, Debug)]
pub struct NameIndex {
    job: String,
    group: String,
    count: u64,
    bitmap: Bitmap,
    /// From D-1b: how many allocations beyond the first hold each index.
    duplicates: Option<HashMap<u64, u64>>,
}

impl NameIndex {
    /// `in_use` is the set of the group's allocations holding names, each
    /// once whatever sets it came from; with `track_duplicates` (D-1b) the
    /// index also counts names held by two allocations.
    pub fn new(
        job: &str,
        group: &str,
        count: i64,
        in_use: &AllocSet<'_>,
        track_duplicates: bool,
    ) -> NameIndex {
        let count = count.max(0) as u64;
        // Nomad reads each allocation's index against its own job ID and
        // group (`Allocation.Index`), which are this job's and group's.
        let indexes = in_use.iter().map(|a| a.index());
        let (bitmap, duplicates) = if track_duplicates {
            let (bitmap, duplicates) = Bitmap::from_indexes_counting(indexes, count);
            (bitmap, Some(duplicates))
        } else {
            (Bitmap::from_indexes(indexes, count), None)
        };
        NameIndex {
            job: job.to_string(),
            group: group.to_string(),
            count,
            bitmap,
            duplicates,
        }
    }

    fn name(&self, idx: u64) -> String {
        alloc_name(&self.job, &self.group, idx)
    }

    /// The index of the group's allocation `name`.
    fn index_of(&self, name: &str) -> u64 {
        alloc_index_from_name(name, &self.job, &self.group)
    }

    /// Go computes `uint(count) - 1`, which wraps for a zero count; the range
    /// is then bounded by the bitmap alone.
    fn last(&self) -> u64 {
        self.count.wrapping_sub(1)
    }

    /// `Highest`: removes and returns up to `n` of the highest names in use.
    pub fn highest(&mut self, n: u64) -> HashSet<String> {
        let picked: Vec<u64> = self.bitmap.descending().take(n as usize).collect();
        picked
            .into_iter()
            .map(|idx| {
                self.bitmap.unset(idx);
                self.name(idx)
            })
            .collect()
    }

    /// `UnsetIndex`. With duplicates tracked, an index held twice loses its
    /// duplicate entry and stays in use; one held three times or more keeps
    /// even that, as Nomad decrements a copy of the count (v1.6.3
    /// scheduler/reconcile_util.go:725).
    pub fn unset_index(&mut self, idx: u64) {
        match self.duplicates.as_mut() {
            Some(d) if d.contains_key(&idx) => {
                if d[&idx] == 1 {
                    d.remove(&idx);
                }
            }
            _ => self.bitmap.unset(idx),
        }
    }

    /// `IsDuplicate`: whether more than one allocation holds `idx`.
    pub fn is_duplicate(&self, idx: u64) -> bool {
        self.duplicates
            .as_ref()
            .is_some_and(|d| d.get(&idx).is_some_and(|&n| n > 0))
    }

    /// The scheduler's check before a placement is planned (D-1b, v1.6.3
    /// scheduler/generic_sched.go:641): a `name` whose index is held twice
    /// is replaced by the next free name, and its index released once.
    pub fn rename_duplicate(&mut self, name: &str) -> Option<String> {
        let idx = self.index_of(name);
        if !self.is_duplicate(idx) {
            return None;
        }
        let renamed = self.next(1).pop();
        self.unset_index(idx);
        renamed
    }

    /// `Next`: `n` names for new placements, free ones first, then reusing
    /// names from index 0.
    pub fn next(&mut self, n: u64) -> Vec<String> {
        let free: Vec<u64> = self
            .bitmap
            .indexes_in_range(false, 0, self.last())
            .take(n as usize)
            .collect();
        let mut out = Vec::with_capacity(n as usize);
        for idx in free {
            out.push(self.name(idx));
            self.bitmap.set(idx);
        }
        let remainder = n - out.len() as u64;
        for idx in 0..remainder {
            out.push(self.name(idx));
            self.bitmap.set(idx);
        }
        out
    }

    /// `NextCanaries`: `n` canary names, preferring names of allocations being
    /// destructively updated, then free names, then names past the count;
    /// never a name an existing canary has.
    pub fn next_canaries(
        &mut self,
        n: u64,
        existing: &AllocSet<'_>,
        destructive: &AllocSet<'_>,
    ) -> Vec<String> {
        let mut out = Vec::with_capacity(n as usize);
        if n == 0 {
            return out;
        }
        let taken = existing.name_set();
        let preferred = Bitmap::from_indexes(destructive.iter().map(|a| a.index()), self.count);
        let candidates: Vec<u64> = preferred.indexes_in_range(true, 0, self.last()).collect();
        for idx in candidates {
            let name = self.name(idx);
            if !taken.contains(name.as_str()) {
                out.push(name);
                self.bitmap.set(idx);
                if out.len() as u64 == n {
                    return out;
                }
            }
        }
        let free: Vec<u64> = self
            .bitmap
            .indexes_in_range(false, 0, self.last())
            .filter(|&idx| !taken.contains(self.name(idx).as_str()))
            .take((n - out.len() as u64) as usize)
            .collect();
        for idx in free {
            out.push(self.name(idx));
            self.bitmap.set(idx);
        }
        let remainder = n - out.len() as u64;
        for idx in self.count..self.count + remainder {
            out.push(self.name(idx));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_and_sparse_bits_read_as_one_bitmap() {
        let mut b = Bitmap {
            size: DENSE_BITS + 128,
            words: vec![0; (DENSE_BITS / 64) as usize],
            sparse: BTreeSet::new(),
        };
        let set = [0, 63, 64, 130, DENSE_BITS - 1, DENSE_BITS, DENSE_BITS + 70];
        for idx in set {
            b.set(idx);
        }
        b.set(DENSE_BITS + 128);
        assert!(set.iter().all(|&i| b.check(i)) && !b.check(DENSE_BITS + 128));
        let all: Vec<u64> = b.indexes_in_range(true, 0, u64::MAX).collect();
        assert_eq!(all, set);
        let some: Vec<u64> = b.indexes_in_range(true, 64, DENSE_BITS).collect();
        assert_eq!(some, [64, 130, DENSE_BITS - 1, DENSE_BITS]);
        let free: Vec<u64> = b.indexes_in_range(false, 62, 66).collect();
        assert_eq!(free, [62, 65, 66]);
        let mut down: Vec<u64> = b.descending().collect();
        down.reverse();
        assert_eq!(down, set);
        b.unset(64);
        b.unset(DENSE_BITS);
        assert!(!b.check(64) && !b.check(DENSE_BITS));
    }
}
