//! The table of parts [`super::Shared`] reads share: one per read, held by
//! its interner and installed with it on each of the read's threads
//! ([`super::Interner::install`]), each part by its type and the hash of
//! its text or of its value.

use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use foldhash::fast::FixedState;

/// The parts read so far by the threads of a read: one table per type and
/// kind of hash, so that a slot holds the 128-bit hash and the part alone
/// (32 bytes; a many-jobs read keeps some 200,000).
#[derive(Default)]
pub(crate) struct Parts(HashMap<(TypeId, By), Table, FixedState>);

type Table = HashMap<u128, Arc<dyn Any + Send + Sync>, FixedState>;

/// What a part's hash is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum By {
    Text,
    Value,
}

thread_local! {
    static PARTS: RefCell<Option<Arc<Mutex<Parts>>>> = const { RefCell::new(None) };
}

/// Installs `parts` on this thread, giving back those installed before.
pub(super) fn swap(parts: Option<Arc<Mutex<Parts>>>) -> Option<Arc<Mutex<Parts>>> {
    PARTS.with(|p| p.replace(parts))
}

/// Whether a table is installed on this thread.
pub(super) fn installed() -> bool {
    PARTS.with(|p| p.borrow().is_some())
}

/// The `T` kept for the text or value whose hash is `key`.
pub(super) fn get<T: Any + Send + Sync>(by: By, key: u128) -> Option<Arc<T>> {
    PARTS.with(|p| {
        let p = p.borrow();
        let p = p.as_ref()?.lock().unwrap_or_else(PoisonError::into_inner);
        let found = p.0.get(&(TypeId::of::<T>(), by))?.get(&key)?;
        Arc::clone(found).downcast::<T>().ok()
    })
}

/// Keeps `value` for the text or value whose hash is `key`.
pub(super) fn keep<T: Any + Send + Sync>(by: By, key: u128, value: &Arc<T>) {
    PARTS.with(|p| {
        if let Some(p) = p.borrow().as_ref() {
            let value: Arc<dyn Any + Send + Sync> = Arc::clone(value) as _;
            let mut p = p.lock().unwrap_or_else(PoisonError::into_inner);
            p.0.entry((TypeId::of::<T>(), by))
                .or_default()
                .insert(key, value);
        }
    });
}
