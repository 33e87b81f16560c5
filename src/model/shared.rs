//! One copy of the parts that a job's versions repeat.
//!
//! A cluster of many small jobs keeps several versions of each, every one
//! parsed from its own text, and consecutive versions mostly differ in a
//! field or two: the other task groups, tasks and opaque blocks (a task's
//! config, env, templates) are the same texts again. While a job is read
//! with [`from_slice_shared`] under an installed [`super::Interner`], each
//! such part is captured as its text, known by a 128-bit hash of it
//! (xxHash's XXH3-128, with its fixed seed), and parsed only the first time
//! that text is met by any thread of the read; later texts get the first
//! one's copy.
//! Most of what differs between versions is what the model does not keep
//! (a service's tags and checks): a task group or task whose text is new is
//! also known by a hash of its value as parsed ([`super::value_hash`]; its
//! `Hash` is derived on every type a part holds, so it writes the whole
//! value), and shares the copy of an equal value read before.
//!
//! **Soundness.** A part's value depends on its text alone (the same bytes
//! decode the same way wherever they stand), so equal texts may share one
//! value, and equal values may share one copy. Neither texts nor values'
//! bytes are kept to be compared: two distinct ones are taken for one only if
//! their hashes are equal, which for `n` of them not built to collide
//! happens with a chance of at most `n² / 2¹²⁹` (10⁻²⁸ for 100,000 parts),
//! the bound the reader's job texts rest on too (`read::job_texts`).
//! Anything the capture cannot read (a deserializer that buffers) fails the
//! shared read, and the caller reads the text again without sharing.

use std::cell::Cell;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use serde::de::{Deserialize, DeserializeOwned, Deserializer, Error};
use xxhash_rust::xxh3::xxh3_128;

use super::parts::{self, By};
use super::value_hash::value_hash;
use super::{GoValue, Json, TextUse, from_slice, from_str, with_text};

/// A value that equal texts read into share: cloned by its count, changed
/// in place only when no one else holds it (copied first otherwise).
#[derive(Clone, Default)]
pub struct Shared<T>(Arc<T>);

impl<T> Shared<T> {
    /// Whether both hold the one copy.
    pub fn ptr_eq(a: &Shared<T>, b: &Shared<T>) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        Arc::make_mut(&mut self.0)
    }
}

impl<T> From<T> for Shared<T> {
    fn from(value: T) -> Shared<T> {
        Shared(Arc::new(value))
    }
}

impl<T: Hash> Hash for Shared<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<T: fmt::Debug> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<'de, T: Part> Deserialize<'de> for Shared<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Shared<T>, D::Error> {
        if !sharing() {
            return T::deserialize(d).map(Shared::from);
        }
        let found = with_text(d, Find::<T>::by_value())?;
        Ok(Shared(found.unwrap_or_default()))
    }
}

/// A [`GoValue`] field whose text, met before, shares that value.
pub(crate) fn shared_value<'de, D: Deserializer<'de>>(d: D) -> Result<GoValue, D::Error> {
    if !sharing() {
        return GoValue::deserialize(d);
    }
    let found = with_text(d, Find::<Json>::by_text())?;
    Ok(found.map(GoValue::from_shared).unwrap_or_default())
}

/// `T` from the JSON text `bytes` under Go's `null` rule, its parts shared
/// with equal ones read before under the installed interner, if any. An
/// error may be the capture's: read the text again with [`from_slice`] for
/// the error to report.
pub(crate) fn from_slice_shared<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> serde_json::Result<T> {
    shared(|| from_slice(bytes))
}

/// [`from_slice_shared`] of a text known to be UTF-8.
pub(crate) fn from_str_shared<'a, T: Deserialize<'a>>(text: &'a str) -> serde_json::Result<T> {
    shared(|| from_str(text))
}

/// `read` with its parts shared.
fn shared<T>(read: impl FnOnce() -> T) -> T {
    let before = SHARING.with(|s| s.replace(true));
    let result = read();
    SHARING.with(|s| s.set(before));
    result
}

/// A type whose values equal texts may share.
pub(crate) trait Part: Default + Hash + DeserializeOwned + Send + Sync + 'static {}

impl<T: Default + Hash + DeserializeOwned + Send + Sync + 'static> Part for T {}

thread_local! {
    /// Whether a shared read runs on this thread.
    static SHARING: Cell<bool> = const { Cell::new(false) };
}

fn sharing() -> bool {
    SHARING.with(Cell::get) && parts::installed()
}

/// Finds a part's text among those met, or parses it and, `by_value`,
/// finds its value among those met; keeps what it did not find.
struct Find<T> {
    by_value: bool,
    part: PhantomData<T>,
}

impl<T> Find<T> {
    fn by_text() -> Find<T> {
        Find {
            by_value: false,
            part: PhantomData,
        }
    }

    fn by_value() -> Find<T> {
        Find {
            by_value: true,
            part: PhantomData,
        }
    }
}

impl<T: Part> TextUse for Find<T> {
    type Out = Arc<T>;

    fn take<E: Error>(self, text: &str) -> Result<Arc<T>, E> {
        let key = xxh3_128(text.as_bytes());
        if let Some(known) = parts::get::<T>(By::Text, key) {
            return Ok(known);
        }
        let mut value = Arc::new(from_str::<T>(text).map_err(E::custom)?);
        if self.by_value {
            let hash = value_hash(&*value);
            match parts::get::<T>(By::Value, hash) {
                Some(known) => value = known,
                None => parts::keep(By::Value, hash, &value),
            }
        }
        parts::keep(By::Text, key, &value);
        Ok(value)
    }
}
