//! The pieces of one round, taken by the threads one at a time.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The regions (`R`) of a round, in order, and what the threads parsed of
/// the ones they took (`P`), with whether each reached the next.
pub(super) struct Pieces<R, P> {
    /// The next piece to take.
    next: AtomicUsize,
    /// The first piece found not to reach the next: those after it are
    /// dropped, so they are not parsed.
    unproven: AtomicUsize,
    slots: Vec<Mutex<Slot<R, P>>>,
}

enum Slot<R, P> {
    Waiting(R),
    Taken,
    Parsed(P, bool),
}

impl<R, P> Pieces<R, P> {
    pub(super) fn new(regions: Vec<R>) -> Pieces<R, P> {
        Pieces {
            next: AtomicUsize::new(0),
            unproven: AtomicUsize::new(usize::MAX),
            slots: regions
                .into_iter()
                .map(|r| Mutex::new(Slot::Waiting(r)))
                .collect(),
        }
    }

    /// Takes pieces until none is left, each parsed by `parse`, which says
    /// whether the piece reached the next one.
    pub(super) fn work(&self, mut parse: impl FnMut(R) -> (P, bool)) {
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.slots.len() || i > self.unproven.load(Ordering::Relaxed) {
                return;
            }
            let Slot::Waiting(region) = std::mem::replace(&mut *lock(&self.slots[i]), Slot::Taken)
            else {
                return;
            };
            let (part, reached) = parse(region);
            if !reached {
                self.unproven.fetch_min(i, Ordering::Relaxed);
            }
            *lock(&self.slots[i]) = Slot::Parsed(part, reached);
        }
    }

    /// The pieces up to the first that does not reach the next, in order.
    pub(super) fn proven(self) -> Vec<P> {
        let mut parts = Vec::new();
        for slot in self.slots {
            let Slot::Parsed(part, reached) =
                slot.into_inner().unwrap_or_else(PoisonError::into_inner)
            else {
                break;
            };
            parts.push(part);
            if !reached {
                break;
            }
        }
        parts
    }
}

fn lock<R, P>(slot: &Mutex<Slot<R, P>>) -> MutexGuard<'_, Slot<R, P>> {
    slot.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_after_the_first_that_falls_short_are_dropped_unparsed() {
        let pieces: Pieces<usize, usize> = Pieces::new((0..6).collect());
        let mut parsed = Vec::new();
        pieces.work(|i| {
            parsed.push(i);
            (i * 10, i != 2)
        });
        assert_eq!(parsed, [0, 1, 2]);
        assert_eq!(pieces.proven(), [0, 10, 20]);
    }

    #[test]
    fn every_piece_is_parsed_once_whichever_thread_takes_it() {
        let pieces: Pieces<usize, usize> = Pieces::new((0..64).collect());
        std::thread::scope(|s| {
            for _ in 0..3 {
                s.spawn(|| pieces.work(|i| (i, true)));
            }
        });
        assert_eq!(pieces.proven(), (0..64).collect::<Vec<_>>());
    }
}
