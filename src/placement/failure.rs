//! The failures of one task group in an evaluation.

use super::metric::AllocMetric;
use crate::fit::Shortfall;

/// Nomad's `FailedTGAllocs` entry for a group, with the node that came
/// closest to taking the first failed allocation.
#[derive(Clone, Debug, Default)]
pub struct Failure {
    /// Allocations that failed (`CoalescedFailures` + 1).
    pub count: u64,
    /// The metrics of the first failure.
    pub metric: AllocMetric,
    /// The exhausted node that lacked least, by index, and its shortfall.
    pub nearest: Option<(usize, Shortfall)>,
}

impl Failure {
    /// Keeps node `i` as the nearest miss if it lacks less than the one
    /// kept: an amount beats a dimension that is not one, a smaller amount
    /// a larger one; the earlier node (lower ID) wins a tie.
    pub fn consider(&mut self, i: usize, short: Shortfall) {
        let closer = match &self.nearest {
            None => true,
            Some((_, kept)) => Failure::rank(&short) < Failure::rank(kept),
        };
        if closer {
            self.nearest = Some((i, short));
        }
    }

    /// How far a shortfall is from fitting: its amount, or past every
    /// amount for a dimension that is not one.
    pub fn rank(short: &Shortfall) -> i64 {
        short.lacks.map_or(i64::MAX, |l| l.amount)
    }
}
