//! How much a node's preemptions cost it in the ranking: the score the
//! generic stack's `PreemptionScoringIterator` appends for a node that
//! fits only by evicting (`scheduler/rank.go:797-868` at 1.3.0,
//! `scheduler/feasible/rank.go:1050-1112` at 2.0.5, unchanged between).

/// The node's name for the score (`ScoreMetaData.Scores`).
pub const PREEMPTION: &str = "preemption";

/// `netPriority`: the highest priority evicted, plus the sum of all the
/// evicted priorities over that highest, so that many low-priority victims
/// weigh more than one.
pub fn net_priority(priorities: &[i64]) -> f64 {
    let max = priorities.iter().copied().max().unwrap_or(0).max(0) as f64;
    let sum: i64 = priorities.iter().sum();
    // Nomad divides by the maximum unguarded: all victims at priority 0
    // give NaN, as Go's floats do.
    max + sum as f64 / max
}

/// `preemptionScore`: a logistic curve of the net priority, near 1 for
/// cheap preemptions, 0.5 at a net priority of 2048, near 0 above.
pub fn preemption_score(net_priority: f64) -> f64 {
    const RATE: f64 = 0.0048;
    const ORIGIN: f64 = 2048.0;
    1.0 / (1.0 + (RATE * (net_priority - ORIGIN)).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_victim_counts_its_priority_plus_one() {
        assert_eq!(net_priority(&[50]), 51.0);
        assert_eq!(net_priority(&[20, 20, 40]), 40.0 + 80.0 / 40.0);
    }

    #[test]
    fn the_score_is_one_half_at_the_origin_and_falls_with_priority() {
        assert_eq!(preemption_score(2048.0), 0.5);
        let low = preemption_score(net_priority(&[10]));
        let high = preemption_score(net_priority(&[90]));
        assert!(low > high && high > 0.5 && low < 1.0, "{low} {high}");
        // 1 / (1 + e^(0.0048 * (51 - 2048)))
        let expected = 1.0 / (1.0 + (0.0048f64 * -1997.0).exp());
        assert_eq!(preemption_score(net_priority(&[50])), expected);
    }

    #[test]
    fn victims_only_at_priority_zero_divide_by_zero_as_go_does() {
        assert!(net_priority(&[0]).is_nan());
    }
}
