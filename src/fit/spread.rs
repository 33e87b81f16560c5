//! The "allocation-spread" score (`scheduler/spread.go` at 1.3.0 and 1.6.0,
//! `scheduler/feasible/spread.go` from 1.11.0), over counts the caller takes
//! from the property sets.

use std::collections::BTreeMap;

use super::rules::FitRules;

/// The target value standing for "every other value" (`implicitTarget`).
pub const IMPLICIT_TARGET: &str = "*";

/// One `spread` block with targets: the desired count of each value.
#[derive(Clone, Debug, PartialEq)]
pub struct Targets {
    pub weight: i64,
    pub desired: BTreeMap<String, f64>,
}

impl Targets {
    /// `computeSpreadInfo`: each target's percent of the group's count; what
    /// the targets leave goes to the implicit target.
    pub fn new(weight: i64, targets: &[(&str, i64)], count: i64) -> Targets {
        let mut desired = BTreeMap::new();
        let mut sum = 0.0;
        for (value, percent) in targets {
            let d = *percent as f64 / 100.0 * count as f64;
            desired.insert(value.to_string(), d);
            sum += d;
        }
        if sum > 0.0 && sum < count as f64 {
            desired.insert(IMPLICIT_TARGET.to_string(), count as f64 - sum);
        }
        Targets { weight, desired }
    }
}

/// The spread scoring of one placement, across the nodes it ranks: from
/// 1.6.0 a value the targets want none of scores the lowest boost seen so
/// far ([`FitRules::spread_lowest_boost`]), which makes the score depend on
/// the order the nodes are ranked in.
#[derive(Clone, Debug)]
pub struct SpreadScorer {
    lowest_boost: f64,
    zero_desired_lowest: bool,
    sum_weights: i64,
}

/// What one spread block sees on a node.
#[derive(Clone, Debug, PartialEq)]
pub enum Seen<'a> {
    /// The node lacks the attribute, or its allocations could not be read.
    Error,
    /// A block with targets: the node's value and how many allocations of
    /// the group have it, this placement included.
    Targeted {
        targets: &'a Targets,
        value: &'a str,
        used: u64,
    },
    /// A block without targets: allocations per value (existing and
    /// proposed together) and the node's value, if it has one.
    Even {
        counts: &'a BTreeMap<String, u64>,
        value: Option<&'a str>,
    },
}

impl SpreadScorer {
    /// A scorer for a group whose spread blocks weigh `sum_weights` in all.
    pub fn new(sum_weights: i64, rules: &FitRules) -> SpreadScorer {
        SpreadScorer {
            lowest_boost: -1.0,
            zero_desired_lowest: rules.spread_lowest_boost,
            sum_weights,
        }
    }

    /// The node's spread score over its blocks; none when it sums to 0.
    pub fn score(&mut self, blocks: &[Seen<'_>]) -> Option<f64> {
        let mut total = 0.0;
        for block in blocks {
            total += match block {
                Seen::Error => -1.0,
                Seen::Even { counts, value } => even_spread_boost(counts, *value),
                Seen::Targeted {
                    targets,
                    value,
                    used,
                } => self.targeted(targets, value, *used),
            };
        }
        (total != 0.0).then_some(total)
    }

    fn targeted(&mut self, targets: &Targets, value: &str, used: u64) -> f64 {
        let desired = targets
            .desired
            .get(value)
            .or_else(|| targets.desired.get(IMPLICIT_TARGET));
        let Some(&desired) = desired else {
            return -1.0;
        };
        if desired == 0.0 && self.zero_desired_lowest {
            return self.lowest_boost;
        }
        let weight = targets.weight as f64 / self.sum_weights as f64;
        let boost = (desired - used as f64) / desired * weight;
        if self.zero_desired_lowest && boost < self.lowest_boost {
            self.lowest_boost = boost;
        }
        boost
    }
}

/// `evenSpreadScoreBoost`: how far the node's value lags the least used
/// value, or leads it when the node's value is the least used. Nomad's
/// minimum takes a count of 0 as "none yet" and so skips it unless it comes
/// last in Go's map order; here zero counts are always skipped.
pub fn even_spread_boost(counts: &BTreeMap<String, u64>, value: Option<&str>) -> f64 {
    if counts.is_empty() {
        return 0.0;
    }
    let Some(value) = value else {
        return -1.0;
    };
    let current = counts.get(value).copied().unwrap_or(0) as i64;
    let min = counts
        .values()
        .copied()
        .filter(|c| *c != 0)
        .min()
        .unwrap_or(0) as i64;
    let max = counts.values().copied().max().unwrap_or(0) as i64;
    if current != min {
        return if min == 0 {
            -1.0
        } else {
            (min - current) as f64 / min as f64
        };
    }
    if min == max {
        -1.0
    } else if min == 0 {
        1.0
    } else {
        (max - min) as f64 / min as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::version::v;

    /// `TestSpreadIterator_SingleAttribute` (scheduler/spread_test.go,
    /// 1.3.0): 80% of 10 in dc1 (the implicit 20% in dc2); with 2 and 0
    /// allocations there, then with 8 and 1.
    #[test]
    fn spread_iterator_single_attribute_v1_3_0() {
        let targets = Targets::new(100, &[("dc1", 80)], 10);
        assert_eq!(targets.desired["dc1"], 8.0);
        assert_eq!(targets.desired[IMPLICIT_TARGET], 2.0);
        let mut scorer = SpreadScorer::new(100, &FitRules::of(v(1, 3, 0)));
        let mut score = |value, used| {
            let seen = [Seen::Targeted {
                targets: &targets,
                value,
                used,
            }];
            final_of(scorer.score(&seen))
        };
        assert_eq!(score("dc1", 3), 0.625);
        assert_eq!(score("dc2", 1), 0.5);
        assert_eq!(score("dc1", 8), 0.0);
        assert_eq!(score("dc2", 1), 0.5);
    }

    fn final_of(score: Option<f64>) -> f64 {
        super::super::score::final_score(&score.into_iter().collect::<Vec<_>>())
    }

    /// `TestSpreadIterator_MaxPenalty` (scheduler/spread_test.go, 1.6.0): a
    /// value no target names, with no implicit target, scores -1.
    #[test]
    fn spread_iterator_max_penalty_v1_6_0() {
        let targets = Targets::new(100, &[("dc1", 80), ("dc2", 20)], 5);
        assert!(!targets.desired.contains_key(IMPLICIT_TARGET));
        let mut scorer = SpreadScorer::new(100, &FitRules::of(v(1, 6, 0)));
        let seen = [Seen::Targeted {
            targets: &targets,
            value: "dc3",
            used: 1,
        }];
        assert_eq!(scorer.score(&seen), Some(-1.0));
        assert_eq!(scorer.score(&[Seen::Error]), Some(-1.0));
    }

    /// A value with a target of 0%: the lowest boost seen so far from
    /// 1.6.0, a division by zero before.
    #[test]
    fn a_zero_target_takes_the_lowest_boost_from_1_6_0() {
        let targets = Targets::new(50, &[("dc1", 0), ("dc2", 100)], 2);
        let at = |dc2_used, release| {
            let mut scorer = SpreadScorer::new(50, &FitRules::of(release));
            let crowded = Seen::Targeted {
                targets: &targets,
                value: "dc2",
                used: dc2_used,
            };
            scorer.score(&[crowded]);
            let zero = Seen::Targeted {
                targets: &targets,
                value: "dc1",
                used: 1,
            };
            scorer.score(&[zero])
        };
        assert_eq!(at(7, v(1, 6, 0)), Some(-2.5));
        assert_eq!(at(1, v(1, 6, 0)), Some(-1.0));
        assert_eq!(at(7, v(1, 5, 17)), Some(f64::NEG_INFINITY));
    }

    /// `Test_evenSpreadScoreBoost` (scheduler/spread_test.go, 1.3.0): dc2
    /// holds none while dc1 holds one, so dc2 is boosted by 1.
    #[test]
    fn even_spread_score_boost_v1_3_0() {
        let counts: BTreeMap<String, u64> = [("dc1", 1), ("dc2", 0), ("dc3", 0)]
            .map(|(k, c)| (k.to_string(), c))
            .into_iter()
            .collect();
        assert_eq!(even_spread_boost(&counts, Some("dc2")), 1.0);
        assert_eq!(even_spread_boost(&counts, None), -1.0);
        assert_eq!(even_spread_boost(&BTreeMap::new(), Some("dc1")), 0.0);
        let even: BTreeMap<String, u64> = [("a", 2), ("b", 2)]
            .map(|(k, c)| (k.to_string(), c))
            .into_iter()
            .collect();
        assert_eq!(even_spread_boost(&even, Some("a")), -1.0);
        let uneven: BTreeMap<String, u64> = [("a", 2), ("b", 3)]
            .map(|(k, c)| (k.to_string(), c))
            .into_iter()
            .collect();
        assert_eq!(even_spread_boost(&uneven, Some("a")), 0.5);
        assert_eq!(even_spread_boost(&uneven, Some("b")), -0.5);
    }
}
