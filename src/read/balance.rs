//! How large the walking thread's part of a round is against another
//! thread's part, learnt from how fast each parsed the rounds before.
//!
//! The thread that walks the allocation array parses the first part of
//! each round and, in the same time, adds the last round's allocations;
//! after the round it adds the texts the other parts handed back. How much
//! that costs depends on the input: where jobs are few it is little, where
//! one allocation in six brings a job version not seen before it is most of
//! the round, and the other threads idle while the walking thread finishes
//! a fixed share. The share follows the measured pace instead. Where the
//! cuts fall does not change the result (every part is proven), only how
//! long a round takes.

use std::time::Duration;

/// The walking thread's share of a round, as a weight against 1 for each
/// other thread.
#[derive(Clone, Copy, Debug)]
pub(super) struct Balance {
    own: f64,
}

/// The weight before anything is measured: the walking thread also adds
/// the last round, so a little more than an even share (measured best on
/// two cores where texts are few).
const START: f64 = 1.5;

/// The bounds of the weight, so that one odd round (a thread descheduled
/// on a busy machine) cannot starve either side.
const LEAST: f64 = 0.1;
const MOST: f64 = 4.0;

impl Default for Balance {
    fn default() -> Balance {
        Balance { own: START }
    }
}

/// One part's bytes and how long its thread took for them.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pace {
    pub(super) bytes: usize,
    pub(super) time: Duration,
}

impl Balance {
    /// Of `len` bytes shared among `threads` threads, the walking thread's.
    pub(super) fn first(&self, len: usize, threads: usize) -> usize {
        let share = self.own / (self.own + (threads - 1) as f64);
        (len as f64 * share) as usize
    }

    /// Learns from a round: the walking thread's pace and the others'.
    /// The new weight is what would have made the round's times equal,
    /// averaged (geometrically) with the old one against noise.
    pub(super) fn learn(&mut self, own: Pace, others: &[Pace]) {
        let bytes: usize = others.iter().map(|p| p.bytes).sum();
        let time: Duration = others.iter().map(|p| p.time).sum();
        let (Some(own_rate), Some(other_rate)) = (rate(own), rate(Pace { bytes, time })) else {
            return;
        };
        let measured = own_rate / other_rate;
        self.own = (self.own * measured).sqrt().clamp(LEAST, MOST);
    }
}

/// Bytes a second, when enough was measured to say.
fn rate(pace: Pace) -> Option<f64> {
    let seconds = pace.time.as_secs_f64();
    (pace.bytes >= 4096 && seconds > 1e-5).then(|| pace.bytes as f64 / seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pace(bytes: usize, micros: u64) -> Pace {
        Pace {
            bytes,
            time: Duration::from_micros(micros),
        }
    }

    #[test]
    fn the_share_moves_towards_the_faster_side_and_settles() {
        let mut b = Balance::default();
        assert_eq!(b.first(2500, 2), 1500);
        // The walking thread parses at a third of the other's pace.
        for _ in 0..30 {
            b.learn(pace(1_000_000, 3000), &[pace(1_000_000, 1000)]);
        }
        assert!((b.own - 1.0 / 3.0).abs() < 0.01, "{b:?}");
        assert!((999..=1001).contains(&b.first(4000, 2)));
        // Too little measured: unchanged.
        b.learn(pace(10, 3000), &[pace(1_000_000, 1000)]);
        assert!((b.own - 1.0 / 3.0).abs() < 0.01, "{b:?}");
    }

    #[test]
    fn one_odd_round_cannot_starve_a_side() {
        let mut b = Balance::default();
        for _ in 0..100 {
            b.learn(pace(1_000_000, 100), &[pace(1_000_000, 1_000_000)]);
        }
        assert_eq!(b.own, MOST);
        for _ in 0..100 {
            b.learn(pace(1_000_000, 1_000_000), &[pace(1_000_000, 100)]);
        }
        assert_eq!(b.own, LEAST);
    }
}
