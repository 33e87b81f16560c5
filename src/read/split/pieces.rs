//! The pieces of one round, taken by the threads one at a time.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::{Part, Region, Texts, parse_part};
use crate::read::ReadFilter;
use crate::read::job_texts::JobTexts;

/// The regions of a round, in order, and what each thread made of the
/// ones it took.
pub(super) struct Pieces<'b> {
    /// The next piece to take.
    next: AtomicUsize,
    /// The first piece found not to reach the next: those after it are
    /// dropped, so they are not parsed.
    unproven: AtomicUsize,
    slots: Vec<Mutex<Slot<'b>>>,
}

enum Slot<'b> {
    Waiting(Region<'b>),
    Taken,
    Parsed(Part),
}

impl<'b> Pieces<'b> {
    pub(super) fn new(regions: Vec<Region<'b>>) -> Pieces<'b> {
        Pieces {
            next: AtomicUsize::new(0),
            unproven: AtomicUsize::new(usize::MAX),
            slots: regions
                .into_iter()
                .map(|r| Mutex::new(Slot::Waiting(r)))
                .collect(),
        }
    }

    /// Parses pieces until none is left, looking job texts up in `known`.
    /// A text it does not know is checked and parsed once, whichever of
    /// this thread's pieces meet it.
    pub(super) fn work(&self, known: &JobTexts, filter: &ReadFilter) {
        let mut texts = Texts::Shared {
            known,
            met: HashMap::default(),
        };
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.slots.len() || i > self.unproven.load(Ordering::Relaxed) {
                return;
            }
            let Slot::Waiting(region) = std::mem::replace(&mut *lock(&self.slots[i]), Slot::Taken)
            else {
                return;
            };
            let part = parse_part(region, &mut texts, filter);
            if !part.reached {
                self.unproven.fetch_min(i, Ordering::Relaxed);
            }
            *lock(&self.slots[i]) = Slot::Parsed(part);
        }
    }

    /// The pieces up to the first that does not reach the next, in order.
    pub(super) fn proven(self) -> Vec<Part> {
        let mut parts = Vec::new();
        for slot in self.slots {
            let Slot::Parsed(part) = slot.into_inner().unwrap_or_else(PoisonError::into_inner)
            else {
                break;
            };
            let reached = part.reached;
            parts.push(part);
            if !reached {
                break;
            }
        }
        parts
    }
}

fn lock<'m, 'b>(slot: &'m Mutex<Slot<'b>>) -> MutexGuard<'m, Slot<'b>> {
    slot.lock().unwrap_or_else(PoisonError::into_inner)
}
