//! Short strings a snapshot repeats thousands of times (namespaces, job IDs,
//! group and task names, node IDs, statuses), kept once per distinct text.
//!
//! A million allocations name a few dozen jobs and statuses and some
//! thousands of nodes: as `String`s those would be a heap block each, a
//! third of what an allocation costs. A [`Name`] is a thin shared pointer to
//! the text (8 bytes, none for the empty text), and while the reader has an
//! [`Interner`] installed equal texts read by any of its threads share one
//! copy.

use std::borrow::Borrow;
use std::cell::RefCell;
use std::fmt;
use std::hash::{BuildHasher, Hash, Hasher};
use std::ops::Deref;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use arcstr::ArcStr;
use foldhash::fast::FixedState;
use hashbrown::HashTable;
use serde::de::{Deserialize, Deserializer, Visitor};
use serde::{Serialize, Serializer};

use super::parts::{self, Parts};

/// An immutable, cheaply cloned string; compares, orders and hashes as its text.
///
/// An [`ArcStr`] is a thin pointer to one block holding the count, the
/// length and the text: 8 bytes where a fat `Arc<str>` takes 16, and one
/// memory access to the text where an `Arc<Box<str>>` takes two, which the
/// interner's lookups pay on every name read.
#[derive(Clone, Default)]
pub struct Name(Option<ArcStr>);

impl Name {
    pub fn as_str(&self) -> &str {
        self.0.as_deref().unwrap_or("")
    }

    /// A name of its own for `text`, never interned: for a text no other
    /// name is likely to share.
    pub(crate) fn own(text: &str) -> Name {
        if text.is_empty() {
            Name(None)
        } else {
            Name::new(text)
        }
    }

    /// A name of its own for `text`, not empty.
    fn new(text: &str) -> Name {
        Name(Some(ArcStr::from(text)))
    }
}

/// The texts read so far by the threads of one read: one copy of each,
/// whatever the number of threads, in sets locked apart by hash.
///
/// A thread reading takes a cache of its own (the last text of each hash
/// slot) and gives it back when done: most names an allocation reads are
/// one of a few, found there without a lock. The rest (IDs of nodes, jobs
/// and deployments, read a few dozen times each) are looked up in the
/// shared sets. Each thread's own set held them once per thread reading at
/// once: 10 MB more at 8 threads than at 2 on the many-jobs 200k snapshot.
pub struct Interner {
    idle: Mutex<Vec<Installed>>,
    seen: Arc<Seen>,
    /// The job parts read by all the threads ([`super::Shared`]): met
    /// seldom, and most often on another thread than their equals.
    parts: Arc<Mutex<Parts>>,
}

impl Default for Interner {
    fn default() -> Interner {
        Interner {
            idle: Mutex::default(),
            seen: Arc::new(Seen {
                shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            }),
            parts: Arc::default(),
        }
    }
}

/// Every text interned, in [`SHARDS`] sets by hash so that threads seldom
/// wait on one another's lock; each set keyed by the hash the cache
/// computed, so that a text is hashed once.
struct Seen {
    shards: Box<[Mutex<HashTable<Name>>]>,
}

const SHARDS: usize = 64;

/// The hash a text is interned by.
fn hash_of(text: &str) -> u64 {
    FixedState::default().hash_one(text)
}

/// A thread's cache of recent texts, taken by one thread at a time.
struct Installed {
    seen: Arc<Seen>,
    /// The last text of each hash slot: this table (64 KB) stays in the
    /// L2 cache, where the sets do not, and holds the node IDs of a
    /// cluster of a few thousand nodes.
    recent: Box<[(u64, Name); RECENT]>,
}

/// Slots in [`Installed::recent`].
const RECENT: usize = 4096;

impl Installed {
    fn new(seen: &Arc<Seen>) -> Installed {
        Installed {
            seen: Arc::clone(seen),
            recent: Box::new(std::array::from_fn(|_| (0, Name::default()))),
        }
    }

    fn intern(&mut self, text: &str) -> Name {
        let hash = hash_of(text);
        let slot = &mut self.recent[hash as usize % RECENT];
        if slot.0 == hash && slot.1 == text {
            return slot.1.clone();
        }
        // Bits a set uses for neither its slots (the low ones) nor its tags
        // (the top seven), so that a set's texts spread over both.
        let shard = &self.seen.shards[(hash >> 32) as usize % SHARDS];
        let mut set = shard.lock().unwrap_or_else(PoisonError::into_inner);
        let name = match set.find(hash, |known| known == text) {
            Some(known) => known.clone(),
            None => {
                let new = Name::new(text);
                set.insert_unique(hash, new.clone(), |n| hash_of(n));
                new
            }
        };
        drop(set);
        *slot = (hash, name.clone());
        name
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Installed>> = const { RefCell::new(None) };
}

impl Interner {
    /// Runs `f` with a set of `interner`'s texts installed on this thread:
    /// equal names read in it share one copy.
    pub fn install<R>(interner: &Arc<Interner>, f: impl FnOnce() -> R) -> R {
        let set = interner
            .idle()
            .pop()
            .unwrap_or_else(|| Installed::new(&interner.seen));
        let previous_parts = parts::swap(Some(Arc::clone(&interner.parts)));
        let previous = CURRENT.with(|c| c.replace(Some(set)));
        let result = f();
        let set = CURRENT.with(|c| std::mem::replace(&mut *c.borrow_mut(), previous));
        parts::swap(previous_parts);
        interner.idle().extend(set);
        result
    }

    fn idle(&self) -> MutexGuard<'_, Vec<Installed>> {
        self.idle.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl From<&str> for Name {
    /// Through the installed interner, if any.
    fn from(text: &str) -> Name {
        if text.is_empty() {
            return Name(None);
        }
        let shared = CURRENT.with(|c| c.borrow_mut().as_mut().map(|i| i.intern(text)));
        shared.unwrap_or_else(|| Name::new(text))
    }
}

impl From<String> for Name {
    fn from(text: String) -> Name {
        Name::from(text.as_str())
    }
}

impl From<&String> for Name {
    fn from(text: &String) -> Name {
        Name::from(text.as_str())
    }
}

impl From<&Name> for String {
    fn from(name: &Name) -> String {
        name.as_str().to_string()
    }
}

impl From<Name> for String {
    fn from(name: Name) -> String {
        name.as_str().to_string()
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Name {}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == other.as_str()
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Name) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Name {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Name, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Name;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Name, E> {
                Ok(Name::from(s))
            }
        }
        d.deserialize_str(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_one_pointer() {
        assert_eq!(size_of::<Name>(), size_of::<usize>());
    }

    #[test]
    fn equal_texts_share_one_copy_only_under_an_interner() {
        let interner = Arc::new(Interner::default());
        let (a, b) = Interner::install(&interner, || (Name::from("web"), Name::from("web")));
        assert!(ArcStr::ptr_eq(a.0.as_ref().unwrap(), b.0.as_ref().unwrap()));
        let c = Name::from("web");
        assert!(!ArcStr::ptr_eq(
            a.0.as_ref().unwrap(),
            c.0.as_ref().unwrap()
        ));
        assert_eq!(a, c);
        assert!(Name::from("").0.is_none());
    }

    /// Many more texts than recent slots, read again in another order and on
    /// another thread: each is the copy first made of it.
    #[test]
    fn texts_evicted_from_the_recent_slots_are_still_shared() {
        let interner = Arc::new(Interner::default());
        let texts: Vec<String> = (0..4 * RECENT).map(|i| format!("node-{i}")).collect();
        let (first, second): (Vec<Name>, Vec<Name>) = Interner::install(&interner, || {
            let read = || texts.iter().map(Name::from).collect();
            (read(), read())
        });
        for (a, b) in first.iter().zip(&second) {
            assert!(
                ArcStr::ptr_eq(a.0.as_ref().unwrap(), b.0.as_ref().unwrap()),
                "{a}"
            );
        }
        let again: Vec<Name> = std::thread::scope(|s| {
            s.spawn(|| {
                Interner::install(&interner, || texts.iter().rev().map(Name::from).collect())
            })
            .join()
            .unwrap()
        });
        for (a, b) in first.iter().zip(again.iter().rev()) {
            assert!(
                ArcStr::ptr_eq(a.0.as_ref().unwrap(), b.0.as_ref().unwrap()),
                "{a}"
            );
        }
    }

    #[test]
    fn threads_reading_at_once_share_one_copy_of_a_text() {
        let interner = Arc::new(Interner::default());
        let both = std::sync::Barrier::new(2);
        let read = |text: &'static str| {
            let interner = &interner;
            let both = &both;
            move || {
                Interner::install(interner, || {
                    let names = [Name::from("web"), Name::from(text)];
                    both.wait();
                    names
                })
            }
        };
        let ([a, ours_a], [b, ours_b]) = std::thread::scope(|s| {
            let a = s.spawn(read("node-1"));
            let b = s.spawn(read("node-2"));
            (a.join().unwrap(), b.join().unwrap())
        });
        let same =
            |x: &Name, y: &Name| ArcStr::ptr_eq(x.0.as_ref().unwrap(), y.0.as_ref().unwrap());
        assert!(same(&a, &b), "one copy for both threads");
        // A text one thread read is found by another, later or at once.
        let later = Interner::install(&interner, || [Name::from("node-1"), Name::from("node-2")]);
        assert!(same(&later[0], &ours_a) && same(&later[1], &ours_b));
    }

    #[test]
    fn reads_compares_and_orders_as_its_text() {
        let n: Name = serde_json::from_str(r#""b\"c""#).unwrap();
        assert_eq!(n, "b\"c");
        let mut sorted = vec![Name::from("c"), n.clone(), Name::from("a")];
        sorted.sort();
        assert_eq!(sorted, ["a", "b\"c", "c"]);
        assert_eq!(format!("{n:?} {n}"), r#""b\"c" b"c"#);
        assert_eq!(serde_json::to_string(&n).unwrap(), r#""b\"c""#);
        let e = serde_json::from_str::<Name>("3").unwrap_err().to_string();
        assert_eq!(
            e,
            "invalid type: integer `3`, expected a string at line 1 column 1"
        );
    }
}
