//! The feasible nodes of one task group in score order, kept across the
//! group's placements: after a placement only the nodes the plan changed
//! are judged again, instead of every node for every placement.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use foldhash::fast::FixedState;

use super::board::{Board, key};

/// Nodes on which the group fits, best score first, ties to the lower
/// node index: the order in which a scan of every node in index order,
/// keeping a strictly better score, finds its choice.
///
/// It may stand on a shared [`Board`]: then the board's entries whose node
/// is open count, and every node set here is closed on the board, its
/// own score (if any) kept here instead.
#[derive(Debug, Default)]
pub struct RankIndex {
    ranked: BTreeSet<(u64, usize)>,
    scores: HashMap<usize, (u64, f64), FixedState>,
    /// How much of the plan's log of changed nodes is reflected here.
    pub synced: usize,
    base: Option<Base>,
}

/// A board and which of its nodes this group judged itself.
#[derive(Debug)]
struct Base {
    board: Arc<Board>,
    /// Nodes whose board entry no longer counts: their score is here.
    closed: HashSet<usize, FixedState>,
    /// No board entry before this one counts.
    cursor: usize,
}

impl RankIndex {
    /// An index that reads `board` for the nodes [`RankIndex::best`]
    /// calls open; nodes set later are read from the index itself.
    pub fn on(board: Arc<Board>) -> RankIndex {
        RankIndex {
            base: Some(Base {
                board,
                closed: HashSet::default(),
                cursor: 0,
            }),
            ..RankIndex::default()
        }
    }

    /// Node `i`'s score without a reschedule penalty, or `None` where the
    /// group does not fit. False for a score that is not a number, which
    /// `>` does not order: the caller then ranks by scanning.
    pub fn set(&mut self, i: usize, score: Option<f64>) -> bool {
        if let Some(b) = self.base.as_mut() {
            b.closed.insert(i);
        }
        if let Some((k, _)) = self.scores.remove(&i) {
            self.ranked.remove(&(k, i));
        }
        match score {
            Some(s) if s.is_nan() => false,
            Some(s) => {
                self.ranked.insert((key(s), i));
                self.scores.insert(i, (key(s), s));
                true
            }
            None => true,
        }
    }

    /// The board the index stands on, if any.
    pub fn board(&self) -> Option<&Arc<Board>> {
        self.base.as_ref().map(|b| &b.board)
    }

    /// The best node that `skip` does not leave out, with its score. A
    /// board entry counts for a node `open` takes (the same answer each
    /// time) and that was not set here.
    pub fn best(
        &mut self,
        open: impl Fn(usize) -> bool,
        skip: impl Fn(usize) -> bool,
    ) -> Option<(usize, f64)> {
        let own = self
            .ranked
            .iter()
            .find(|(_, i)| !skip(*i))
            .map(|&(k, node)| (k, node, self.scores[&node].1));
        let based = self.base.as_mut().and_then(|b| {
            let entries = &b.board.entries;
            let counts = |i: usize| open(i) && !b.closed.contains(&i);
            while b.cursor < entries.len() && !counts(entries[b.cursor].1) {
                b.cursor += 1;
            }
            entries[b.cursor..]
                .iter()
                .find(|e| counts(e.1) && !skip(e.1))
                .copied()
        });
        let best = match (own, based) {
            (Some(a), Some(b)) => Some(if (b.0, b.1) < (a.0, a.1) { b } else { a }),
            (a, b) => a.or(b),
        };
        best.map(|(_, node, score)| (node, score))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_score_comes_first_and_ties_go_to_the_lower_node() {
        let mut r = RankIndex::default();
        for (i, s) in [(0, 0.5), (1, 0.9), (2, -0.0), (3, 0.9), (4, 0.0), (5, -1.0)] {
            assert!(r.set(i, Some(s)));
        }
        assert_eq!(r.best(|_| true, |_| false).map(|c| c.0), Some(1));
        assert_eq!(r.best(|_| true, |i| i == 1).map(|c| c.0), Some(3));
        assert_eq!(r.best(|_| true, |i| i == 1 || i == 3).map(|c| c.0), Some(0));
        // -0.0 and 0.0 tie: the lower node wins, with its own score.
        let c = r.best(|_| true, |i| i < 2 || i == 3).unwrap();
        assert_eq!((c.0, c.1.to_bits()), (2, (-0.0f64).to_bits()));
        assert!(r.set(1, None));
        assert!(r.set(3, Some(0.1)));
        assert_eq!(r.best(|_| true, |_| false).map(|c| c.0), Some(0));
        assert!(!r.set(6, Some(f64::NAN)));
    }
}
