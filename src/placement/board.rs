//! One ask's standing on every ready node of the cluster as the snapshot
//! leaves it: the nodes it fits, best plain score first. Jobs of the same
//! shape (same ask, same scorers) read one board instead of judging every
//! node again; each job judges only the nodes its own plan or its own
//! allocations make different (the group's `RankIndex` keeps those).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::misses::Misses;

/// The nodes an ask fits untouched, in the order a scan in node order
/// keeping a strictly better score finds them: best score first, ties to
/// the lower node index.
#[derive(Debug, Default)]
pub struct Board {
    /// (sort key of the score, node index, score).
    pub entries: Vec<(u64, usize, f64)>,
    /// Why the ask fits none of the other ready nodes, on the shape's
    /// first failed placement; `None` past the bound on all boards.
    pub misses: OnceLock<Option<Misses>>,
}

impl Board {
    /// The board of `scores` (node index, plain score where the ask fits),
    /// or `None` for a score that is not a number, which `>` does not
    /// order.
    pub fn of(scores: impl IntoIterator<Item = (usize, f64)>) -> Option<Board> {
        let mut entries = Vec::new();
        for (i, s) in scores {
            if s.is_nan() {
                return None;
            }
            entries.push((key(s), i, s));
        }
        entries.sort_unstable_by_key(|&(k, i, _)| (k, i));
        Some(Board {
            entries,
            misses: OnceLock::new(),
        })
    }
}

/// A key that sorts scores from the highest down: the float's bits in
/// total order, with -0.0 made 0.0, as `>` holds them equal.
pub fn key(score: f64) -> u64 {
    let bits = (score + 0.0).to_bits();
    let ascending = if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    };
    !ascending
}

/// A slot for one shape's board, built by the first job that asks.
type Slot = Arc<OnceLock<Option<Arc<Board>>>>;

/// The boards of a replay, by shape. A shape gets its board the second
/// time a job asks for it (a shape seen once costs nothing more than its
/// scan), and only up to a bound on all boards' entries, so that a
/// cluster of many different asks ranks the rest by scanning in bounded
/// memory.
#[derive(Debug, Default)]
pub struct Boards {
    slots: Mutex<(HashMap<u128, Option<Slot>>, usize)>,
}

/// At most this many board entries (24 bytes each; a node's miss, some
/// 60 bytes, counts as one) in all.
const MAX_ENTRIES: usize = 2_000_000;

impl Boards {
    /// The board of `shape`, built with `build` if no job built it yet;
    /// `None` the first time the shape is asked for, when the bound is
    /// reached, or when the board has no order. `nodes` is how many
    /// entries a new board may need.
    pub fn get(
        &self,
        shape: u128,
        nodes: usize,
        build: impl FnOnce() -> Option<Board>,
    ) -> Option<Arc<Board>> {
        let slot = {
            let mut guard = self.slots.lock().unwrap_or_else(|e| e.into_inner());
            let (slots, entries) = &mut *guard;
            match slots.get_mut(&shape) {
                Some(Some(s)) => s.clone(),
                None => {
                    slots.insert(shape, None);
                    return None;
                }
                Some(_) if *entries + nodes > MAX_ENTRIES => return None,
                Some(empty) => {
                    *entries += nodes;
                    empty.insert(Slot::default()).clone()
                }
            }
        };
        slot.get_or_init(|| build().map(Arc::new)).clone()
    }

    /// Takes room for `n` more entries under the bound, if there is.
    pub fn reserve(&self, n: usize) -> bool {
        let mut guard = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        let entries = &mut guard.1;
        let room = *entries + n <= MAX_ENTRIES;
        if room {
            *entries += n;
        }
        room
    }

    /// How many boards were built with an order.
    #[cfg(test)]
    pub fn built(&self) -> usize {
        let guard = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        let built = |s: &&Option<Slot>| {
            s.as_ref()
                .is_some_and(|s| s.get().is_some_and(Option::is_some))
        };
        guard.0.values().filter(built).count()
    }

    /// How many boards counted a failure from their misses.
    #[cfg(test)]
    pub fn missed(&self) -> usize {
        let guard = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        let missed = |s: &&Option<Slot>| {
            s.as_ref()
                .and_then(|s| s.get())
                .and_then(Option::as_ref)
                .is_some_and(|b| b.misses.get().is_some_and(Option::is_some))
        };
        guard.0.values().filter(missed).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misses_and_boards_share_one_bound() {
        let boards = Boards::default();
        assert!(boards.reserve(MAX_ENTRIES - 10));
        // A shape asked twice wants a board of 20 entries: past the bound.
        let board = || Board::of([(0, 0.5)]);
        assert!(boards.get(7, 20, board).is_none());
        assert!(boards.get(7, 20, board).is_none());
        assert!(boards.reserve(10));
        assert!(!boards.reserve(1));
    }
}
