//! A node's `Attributes` or `Meta` (Go's `map[string]string`) as one sorted
//! list of names.
//!
//! A real client fingerprints a hundred or so attributes, and thousands of
//! nodes repeat nearly the same keys and values in the same (sorted) order.
//! So each map is read against the one read before it on the same thread:
//! a key or value equal to the one at the same place there is taken from
//! it, and only the others are interned. A tree per node would cost a few
//! kilobytes; the list costs 16 bytes an entry.

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

use serde::Deserializer;
use serde::de::{DeserializeSeed, MapAccess, Visitor};

use super::Name;

/// Entries sorted by key, each key once; shared, so that the thread's copy
/// of the last map read costs nothing.
#[derive(Clone, Debug, Default)]
pub struct StringMap(Arc<[(Name, Name)]>);

impl StringMap {
    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Name> {
        let i = find(&self.0, key).ok()?;
        Some(&self.0[i].1)
    }

    /// Sets `key` to `value`, replacing what it had.
    pub fn insert(&mut self, key: Name, value: Name) {
        let mut entries = self.0.to_vec();
        match find(&entries, &key) {
            Ok(i) => entries[i].1 = value,
            Err(i) => entries.insert(i, (key, value)),
        }
        self.0 = entries.into();
    }
}

fn find(entries: &[(Name, Name)], key: &str) -> Result<usize, usize> {
    entries.binary_search_by(|(k, _)| k.as_str().cmp(key))
}

/// Which map a node field is, so that each is read against its own kind.
#[derive(Clone, Copy)]
enum Field {
    Attributes = 0,
    Meta = 1,
}

thread_local! {
    /// The last map of each field read on this thread.
    static LAST: RefCell<[StringMap; 2]> = RefCell::default();
}

/// `Node.Attributes`; `null` is empty, as Go reads a nil map.
pub(super) fn attributes<'de, D: Deserializer<'de>>(d: D) -> Result<StringMap, D::Error> {
    d.deserialize_option(Nullable(Field::Attributes))
}

/// `Node.Meta`; `null` is empty.
pub(super) fn meta<'de, D: Deserializer<'de>>(d: D) -> Result<StringMap, D::Error> {
    d.deserialize_option(Nullable(Field::Meta))
}

struct Nullable(Field);

impl<'de> Visitor<'de> for Nullable {
    type Value = StringMap;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map")
    }

    fn visit_none<E>(self) -> Result<StringMap, E> {
        Ok(StringMap::default())
    }

    fn visit_unit<E>(self) -> Result<StringMap, E> {
        Ok(StringMap::default())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<StringMap, D::Error> {
        d.deserialize_map(Entries(self.0))
    }
}

struct Entries(Field);

impl<'de> Visitor<'de> for Entries {
    type Value = StringMap;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StringMap, A::Error> {
        let field = self.0 as usize;
        let last = LAST.with_borrow_mut(|l| std::mem::take(&mut l[field]));
        let last = &last.0;
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(last.len()));
        // Where in `last` the next key is expected.
        let mut next = 0;
        while let Some(key) = map.next_key_seed(Known(last.get(next).map(|(k, _)| k)))? {
            let at = match last.get(next) {
                Some((k, _)) if *k == key => Some(next),
                _ => find(last, &key).ok(),
            };
            next = at.map_or(next, |i| i + 1);
            let value = map.next_value_seed(Known(at.map(|i| &last[i].1)))?;
            entries.push((key, value));
        }
        if !entries.is_sorted_by(|a, b| a.0 < b.0) {
            // The last of equal keys wins, as in a Go map.
            entries.reverse();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            entries.dedup_by(|a, b| a.0 == b.0);
        }
        let map = StringMap(entries.into());
        LAST.with_borrow_mut(|l| l[field] = map.clone());
        Ok(map)
    }
}

/// A string read as the name `guess` when it has the same text.
struct Known<'g>(Option<&'g Name>);

impl<'de> DeserializeSeed<'de> for Known<'_> {
    type Value = Name;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Name, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for Known<'_> {
    type Value = Name;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E>(self, s: &str) -> Result<Name, E> {
        Ok(match self.0 {
            Some(guess) if guess == s => guess.clone(),
            _ => Name::from(s),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> StringMap {
        let mut de = serde_json::Deserializer::from_str(text);
        attributes(&mut de).unwrap()
    }

    fn pairs(map: &StringMap) -> Vec<(&str, &str)> {
        map.0
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect()
    }

    #[test]
    fn entries_are_sorted_and_the_last_of_a_key_wins() {
        let map = read(r#"{"b": "1", "a": "2", "b": "3", "c": "4", "a": "5"}"#);
        assert_eq!(pairs(&map), [("a", "5"), ("b", "3"), ("c", "4")]);
        assert_eq!(map.get("b").map(Name::as_str), Some("3"));
        assert_eq!(map.get("d"), None);
        assert!(pairs(&read("null")).is_empty());
    }

    #[test]
    fn a_map_takes_the_names_of_the_one_before_where_they_match() {
        let first = read(r#"{"arch": "amd64", "os": "linux", "zone": "a"}"#);
        let second = read(r#"{"arch": "amd64", "kernel": "6.1", "os": "linux", "zone": "b"}"#);
        assert_eq!(
            pairs(&second),
            [
                ("arch", "amd64"),
                ("kernel", "6.1"),
                ("os", "linux"),
                ("zone", "b")
            ]
        );
        let same = |a: &Name, b: &Name| std::ptr::eq(a.as_str(), b.as_str());
        // Past the new key, the keys still line up with the map before.
        assert!(same(&first.0[1].0, &second.0[2].0));
        assert!(same(&first.0[1].1, &second.0[2].1));
        assert!(same(&first.0[2].0, &second.0[3].0));
    }

    #[test]
    fn insert_keeps_the_order() {
        let mut map = read(r#"{"b": "1"}"#);
        map.insert("a".into(), "2".into());
        map.insert("b".into(), "3".into());
        assert_eq!(pairs(&map), [("a", "2"), ("b", "3")]);
    }
}
