//! The buckets of `filterByTainted`, and a container with one value per
//! bucket: adding a bucket is one edit of [`Bucket`].

use std::ops::{Index, IndexMut};

use serde::ser::{Serialize, SerializeMap, Serializer};

/// The sets `filterByTainted` sorts a group's allocations into, in the order
/// Nomad returns them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bucket {
    Untainted,
    Migrate,
    Lost,
    Disconnecting,
    Reconnecting,
    Ignore,
    /// Unknown past its disconnect expiry (Nomad 1.7.2 on; lost before).
    Expiring,
}

impl Bucket {
    /// Every bucket, in Nomad's order.
    pub const ALL: [Bucket; 7] = [
        Bucket::Untainted,
        Bucket::Migrate,
        Bucket::Lost,
        Bucket::Disconnecting,
        Bucket::Reconnecting,
        Bucket::Ignore,
        Bucket::Expiring,
    ];

    /// The bucket's name, as the JSON keys and the tables write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Bucket::Untainted => "untainted",
            Bucket::Migrate => "migrate",
            Bucket::Lost => "lost",
            Bucket::Disconnecting => "disconnecting",
            Bucket::Reconnecting => "reconnecting",
            Bucket::Ignore => "ignore",
            Bucket::Expiring => "expiring",
        }
    }

    /// Everything but untainted: allocations that need attention.
    pub fn is_tainted(self) -> bool {
        self != Bucket::Untainted
    }
}

impl Serialize for Bucket {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// One `T` per bucket, indexed by [`Bucket`], iterated and serialised (as a
/// map keyed by bucket name) in Nomad's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ByBucket<T>([T; Bucket::ALL.len()]);

impl<T> ByBucket<T> {
    /// The value of each bucket made by `f`.
    pub fn from_fn(mut f: impl FnMut(Bucket) -> T) -> ByBucket<T> {
        ByBucket(Bucket::ALL.map(&mut f))
    }

    /// Every bucket with its value, in Nomad's order.
    pub fn iter(&self) -> impl Iterator<Item = (Bucket, &T)> {
        Bucket::ALL.into_iter().zip(&self.0)
    }

    /// `f` of every bucket's value.
    pub fn map<U>(&self, mut f: impl FnMut(&T) -> U) -> ByBucket<U> {
        ByBucket::from_fn(|b| f(&self[b]))
    }
}

impl<T> From<[T; Bucket::ALL.len()]> for ByBucket<T> {
    /// The values in the order of [`Bucket::ALL`].
    fn from(values: [T; Bucket::ALL.len()]) -> ByBucket<T> {
        ByBucket(values)
    }
}

impl<T> Index<Bucket> for ByBucket<T> {
    type Output = T;
    fn index(&self, b: Bucket) -> &T {
        &self.0[b as usize]
    }
}

impl<T> IndexMut<Bucket> for ByBucket<T> {
    fn index_mut(&mut self, b: Bucket) -> &mut T {
        &mut self.0[b as usize]
    }
}

impl<T: Serialize> Serialize for ByBucket<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(Bucket::ALL.len()))?;
        for (b, v) in self.iter() {
            map.serialize_entry(b.as_str(), v)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Indexing finds each bucket's own value: the array follows `ALL`.
    #[test]
    fn each_bucket_has_its_own_slot() {
        let by = ByBucket::from_fn(Bucket::as_str);
        for b in Bucket::ALL {
            assert_eq!(by[b], b.as_str());
        }
        let order: Vec<Bucket> = by.iter().map(|(b, _)| b).collect();
        assert_eq!(order, Bucket::ALL);
    }

    #[test]
    fn serialises_to_the_named_keys_in_nomads_order() {
        let mut by: ByBucket<u8> = ByBucket::default();
        by[Bucket::Lost] = 3;
        assert_eq!(
            serde_json::to_string(&by).unwrap(),
            r#"{"untainted":0,"migrate":0,"lost":3,"disconnecting":0,"reconnecting":0,"ignore":0,"expiring":0}"#
        );
        assert_eq!(
            serde_json::to_string(&Bucket::Reconnecting).unwrap(),
            r#""reconnecting""#
        );
    }
}
