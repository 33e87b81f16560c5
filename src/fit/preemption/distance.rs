//! How far a candidate's resources are from what is needed (lower is
//! nearer), and the penalty for evicting past a group's `max_parallel`.

use super::super::comparable::Comparable;

/// The score added per preemption beyond a group's `migrate.max_parallel`
/// (`maxParallelPenalty`).
pub const MAX_PARALLEL_PENALTY: f64 = 50.0;

/// `basicResourceDistance`: the Euclidean length of the relative
/// differences in memory, CPU and disk; a dimension not asked for (zero or
/// less) counts as no difference.
pub fn resources(ask: &Comparable, used: &Comparable) -> f64 {
    let coord = |asked: i64, held: i64| {
        if asked > 0 {
            (asked as f64 - held as f64) / asked as f64
        } else {
            0.0
        }
    };
    let memory = coord(ask.memory_mb, used.memory_mb);
    let cpu = coord(ask.cpu_shares, used.cpu_shares);
    let disk = coord(ask.disk_mb, used.disk_mb);
    (memory.powi(2) + cpu.powi(2) + disk.powi(2)).sqrt()
}

/// `networkResourceDistance`: the relative difference in bandwidth. An
/// ask of no bandwidth divides by zero as Go's floats do (infinite, or NaN
/// for a candidate of none).
pub fn network(held_mbits: Option<i64>, needed_mbits: i64) -> f64 {
    match held_mbits {
        Some(held) => ((needed_mbits - held) as f64 / needed_mbits as f64).abs(),
        None => f64::MAX,
    }
}

/// The penalty for a group with `preempted` evictions in the plan already.
fn penalty(max_parallel: i64, preempted: usize) -> f64 {
    let preempted = i64::try_from(preempted).unwrap_or(i64::MAX);
    if max_parallel > 0 && preempted >= max_parallel {
        (preempted + 1 - max_parallel) as f64 * MAX_PARALLEL_PENALTY
    } else {
        0.0
    }
}

/// `scoreForTaskGroup`.
pub fn task_group_score(
    needed: &Comparable,
    used: &Comparable,
    max_parallel: i64,
    preempted: usize,
) -> f64 {
    resources(needed, used) + penalty(max_parallel, preempted)
}

/// `scoreForNetwork`: a candidate without a network scores the maximum.
pub fn network_score(
    held_mbits: Option<i64>,
    needed_mbits: i64,
    max_parallel: i64,
    preempted: usize,
) -> f64 {
    match held_mbits {
        Some(_) => network(held_mbits, needed_mbits) + penalty(max_parallel, preempted),
        None => f64::MAX,
    }
}
