//! The rank iterators' scores, each a number the final score averages
//! (`nomad/structs/funcs.go:235-297` and `scheduler/rank.go:538-793` at
//! 1.3.0; `scheduler/feasible/rank.go` from 1.11.0).

use super::capacity::Capacity;
use super::comparable::Comparable;
use super::rules::FitRules;

/// `binPackingMaxFitScore`: the best fit score, by which the binpack score
/// is normalised to at most 1.
pub const BIN_PACKING_MAX_FIT_SCORE: f64 = 18.0;

/// `computeFreePercentage`: the free share of the node's unreserved CPU
/// and memory once `used` is placed.
fn free_percentages(node: &Capacity, used: &Comparable) -> (f64, f64) {
    let cpu = (node.total.cpu_shares - node.reserved.cpu_shares) as f64;
    let mem = (node.total.memory_mb - node.reserved.memory_mb) as f64;
    (
        1.0 - used.cpu_shares as f64 / cpu,
        1.0 - used.memory_mb as f64 / mem,
    )
}

/// `ScoreFitBinPack`: 18 for a node left exactly full, 0 for an empty one.
pub fn score_fit_bin_pack(node: &Capacity, used: &Comparable) -> f64 {
    let (cpu, mem) = free_percentages(node, used);
    bound(20.0 - (10f64.powf(cpu) + 10f64.powf(mem)))
}

/// `ScoreFitSpread`: 18 for an empty node, 0 for a full one.
pub fn score_fit_spread(node: &Capacity, used: &Comparable) -> f64 {
    let (cpu, mem) = free_percentages(node, used);
    bound(10f64.powf(cpu) + 10f64.powf(mem) - 2.0)
}

/// Nomad's bounds on a fit score; NaN (a node with no capacity) passes, as
/// Go's comparisons let it.
fn bound(score: f64) -> f64 {
    score.clamp(0.0, BIN_PACKING_MAX_FIT_SCORE)
}

/// The "binpack" score appended for every node that fits.
pub fn binpack(fit_score: f64) -> f64 {
    fit_score / BIN_PACKING_MAX_FIT_SCORE
}

/// The "job-anti-affinity" score: with `collisions` allocations of the
/// same job and group already proposed on the node, the penalty
/// `-(collisions + 1) / count`; none without collisions.
pub fn job_anti_affinity(collisions: usize, desired_count: i64) -> Option<f64> {
    (collisions > 0).then(|| -((collisions + 1) as f64) / desired_count as f64)
}

/// The "node-reschedule-penalty" score: -1 on a node where the allocation
/// being replaced ran (or failed before); none elsewhere.
pub fn node_reschedule_penalty(penalised: bool) -> Option<f64> {
    penalised.then_some(-1.0)
}

/// The "node-affinity" score: matched weights over all weights, each
/// affinity given as (weight, whether the node matches it). None without
/// affinities, and when the matched weights sum to 0 unless the release
/// scores that ([`FitRules::zero_affinity_scored`]).
pub fn node_affinity(affinities: &[(i64, bool)], rules: &FitRules) -> Option<f64> {
    if affinities.is_empty() {
        return None;
    }
    let sum: f64 = affinities.iter().map(|(w, _)| (*w as f64).abs()).sum();
    let matched: f64 = affinities
        .iter()
        .filter(|(_, m)| *m)
        .map(|(w, _)| *w as f64)
        .sum();
    (rules.zero_affinity_scored || matched != 0.0).then_some(matched / sum)
}

/// The "devices" score: the matched device affinity weights over their
/// total; none when the requested devices have no affinities.
pub fn device_affinity(matched: f64, total_weight: f64) -> Option<f64> {
    (total_weight != 0.0).then_some(matched / total_weight)
}

/// `ScoreNormalizationIterator`: the mean of the scores appended; 0 for a
/// node with none.
pub fn final_score(scores: &[f64]) -> f64 {
    if scores.is_empty() {
        return 0.0;
    }
    scores.iter().sum::<f64>() / scores.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::from_slice;
    use crate::model::resources::NodeSupply;
    use crate::version::v;

    fn used(cpu: i64, memory: i64) -> Comparable {
        Comparable {
            cpu_shares: cpu,
            memory_mb: memory,
            ..Comparable::default()
        }
    }

    /// `TestScoreFitBinPack` (nomad/structs/funcs_test.go, 2.0.5): a 4096
    /// MHz, 8 GB node with half of each reserved.
    #[test]
    fn score_fit_bin_pack_v2_0_5() {
        let node: NodeSupply = from_slice(
            br#"{"NodeResources": {"Processors": {"Topology": {"Cores": [
                {"ID": 0, "Grade": true, "BaseSpeed": 4096}]}},
                "Memory": {"MemoryMB": 8192}},
              "ReservedResources": {"Cpu": {"CpuShares": 2048}, "Memory": {"MemoryMB": 4096}}}"#,
        )
        .unwrap();
        let capacity = Capacity::of(&node, &FitRules::of(v(2, 0, 5)));
        for (cpu, mem, binpack, spread) in [
            (2048, 4096, 18.0, 0.0),
            (0, 0, 0.0, 18.0),
            (1024, 2048, 13.675, 4.325),
        ] {
            let b = score_fit_bin_pack(&capacity, &used(cpu, mem));
            let s = score_fit_spread(&capacity, &used(cpu, mem));
            assert!((b - binpack).abs() < 0.001, "binpack {b} for {cpu}/{mem}");
            assert!((s - spread).abs() < 0.001, "spread {s} for {cpu}/{mem}");
            assert!((b + s - 18.0).abs() < 0.001);
        }
    }

    /// `TestJobAntiAffinity_PlannedAlloc` and `TestScoreNormalizationIterator`
    /// (scheduler/rank_test.go, 1.3.0): two allocations of a group of 4 on
    /// the node give -0.75, with the reschedule penalty a mean of -0.875.
    #[test]
    fn job_anti_affinity_and_score_normalization_v1_3_0() {
        assert_eq!(job_anti_affinity(2, 4), Some(-0.75));
        assert_eq!(job_anti_affinity(0, 4), None);
        let scores: Vec<f64> = [job_anti_affinity(2, 4), node_reschedule_penalty(true)]
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(final_score(&scores), -0.875);
        let none: Vec<f64> = [job_anti_affinity(0, 4), node_reschedule_penalty(false)]
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(final_score(&none), 0.0);
        assert_eq!(binpack(9.0), 0.5);
    }

    /// `TestNodeAffinityIterator` (scheduler/rank_test.go, 1.3.0): weights
    /// 100 (dc1), -100 (dc2), 50 (kernel), 50 (class) over four nodes.
    #[test]
    fn node_affinity_iterator_v1_3_0() {
        let rules = FitRules::of(v(1, 3, 0));
        let node = |dc1, dc2, kernel, class| [(100, dc1), (-100, dc2), (50, kernel), (50, class)];
        let score = |m: [(i64, bool); 4]| node_affinity(&m, &rules);
        assert_eq!(score(node(true, false, true, false)), Some(0.5));
        assert_eq!(score(node(false, true, false, false)), Some(-(1.0 / 3.0)));
        assert_eq!(score(node(false, true, false, true)), Some(-(1.0 / 6.0)));
        assert_eq!(score(node(true, false, false, false)), Some(1.0 / 3.0));
        assert_eq!(node_affinity(&[], &rules), None);
    }

    /// A node matching no affinity adds a 0 to its mean from 1.10.2.
    #[test]
    fn a_zero_affinity_score_counts_from_1_10_2() {
        let unmatched = [(100, false)];
        assert_eq!(node_affinity(&unmatched, &FitRules::of(v(1, 10, 1))), None);
        assert_eq!(
            node_affinity(&unmatched, &FitRules::of(v(1, 10, 2))),
            Some(0.0)
        );
        assert_eq!(device_affinity(1.0, 2.0), Some(0.5));
        assert_eq!(device_affinity(0.0, 0.0), None);
    }
}
