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

/// Keys sorted, each once, and their values. Both lists are shared: the
/// thread's copy of the last map read costs nothing, and a map with the
/// same keys as that one (as nodes of one kind have) keeps only its values.
#[derive(Clone, Debug, Default)]
pub struct StringMap {
    keys: Arc<[Name]>,
    values: Arc<[Name]>,
}

impl StringMap {
    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Name> {
        let i = find(&self.keys, key).ok()?;
        Some(&self.values[i])
    }

    /// Sets `key` to `value`, replacing what it had.
    pub fn insert(&mut self, key: Name, value: Name) {
        let (mut keys, mut values) = (self.keys.to_vec(), self.values.to_vec());
        match find(&keys, &key) {
            Ok(i) => values[i] = value,
            Err(i) => {
                keys.insert(i, key);
                values.insert(i, value);
            }
        }
        (self.keys, self.values) = (keys.into(), values.into());
    }
}

fn find(keys: &[Name], key: &str) -> Result<usize, usize> {
    keys.binary_search_by(|k| k.as_str().cmp(key))
}

/// The same texts, most often the same copies.
fn same(a: &[Name], b: &[Name]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(a, b)| std::ptr::eq(a.as_str(), b.as_str()) || a == b)
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
        let mut keys = Vec::with_capacity(map.size_hint().unwrap_or(last.keys.len()));
        let mut values = Vec::with_capacity(keys.capacity());
        // Where in `last` the next key is expected.
        let mut next = 0;
        while let Some(key) = map.next_key_seed(Known::interned(last.keys.get(next)))? {
            let at = match last.keys.get(next) {
                Some(k) if *k == key => Some(next),
                _ => find(&last.keys, &key).ok(),
            };
            next = at.map_or(next, |i| i + 1);
            let guess = at.map(|i| &last.values[i]);
            // Nomad names the attributes that differ on every node `unique.`:
            // interned, they would only fill the thread's set.
            let intern = !key.starts_with("unique.");
            values.push(map.next_value_seed(Known { guess, intern })?);
            keys.push(key);
        }
        if !keys.is_sorted_by(|a, b| a < b) {
            // The last of equal keys wins, as in a Go map.
            let mut entries: Vec<(Name, Name)> = keys.into_iter().zip(values).rev().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            entries.dedup_by(|a, b| a.0 == b.0);
            (keys, values) = entries.into_iter().unzip();
        }
        let keys = if same(&keys, &last.keys) {
            last.keys
        } else {
            keys.into()
        };
        let map = StringMap {
            keys,
            values: values.into(),
        };
        LAST.with_borrow_mut(|l| l[field] = map.clone());
        Ok(map)
    }
}

/// A string read as the name `guess` when it has the same text, else
/// interned unless not to be.
struct Known<'g> {
    guess: Option<&'g Name>,
    intern: bool,
}

impl<'g> Known<'g> {
    fn interned(guess: Option<&'g Name>) -> Known<'g> {
        Known {
            guess,
            intern: true,
        }
    }
}

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
        Ok(match self.guess {
            Some(guess) if guess == s => guess.clone(),
            _ if self.intern => Name::from(s),
            _ => Name::own(s),
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
        let values = map.values.iter();
        let pairs = map.keys.iter().zip(values);
        pairs.map(|(k, v)| (k.as_str(), v.as_str())).collect()
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
        let shared = |a: &Name, b: &Name| std::ptr::eq(a.as_str(), b.as_str());
        // Past the new key, the keys still line up with the map before.
        assert!(shared(&first.keys[1], &second.keys[2]));
        assert!(shared(&first.values[1], &second.values[2]));
        assert!(shared(&first.keys[2], &second.keys[3]));
        // The same keys again: the list is shared.
        let third = read(r#"{"arch": "arm64", "kernel": "6.1", "os": "linux", "zone": "c"}"#);
        assert!(Arc::ptr_eq(&second.keys, &third.keys));
        assert_eq!(third.get("arch").map(Name::as_str), Some("arm64"));
    }

    #[test]
    fn values_of_unique_attributes_are_not_interned() {
        let interner = Arc::new(crate::model::Interner::default());
        let maps = crate::model::Interner::install(&interner, || {
            ["v", "w", "v"].map(|v| read(&format!(r#"{{"k": "{v}", "unique.id": "{v}"}}"#)))
        });
        let at = |map: &StringMap, key: &str| map.get(key).unwrap().as_str().as_ptr();
        assert_eq!(at(&maps[0], "k"), at(&maps[2], "k"));
        assert_ne!(at(&maps[0], "unique.id"), at(&maps[2], "unique.id"));
        assert_eq!(maps[2].get("unique.id").map(Name::as_str), Some("v"));
    }

    #[test]
    fn insert_keeps_the_order() {
        let mut map = read(r#"{"b": "1"}"#);
        map.insert("a".into(), "2".into());
        map.insert("b".into(), "3".into());
        assert_eq!(pairs(&map), [("a", "2"), ("b", "3")]);
    }
}
