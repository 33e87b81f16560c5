//! The rank iterators of the generic stack for one task group: bin packing
//! or spread fit and the device affinities' score, job anti-affinity, the
//! node reschedule penalty, node affinities and spread blocks
//! ([`super::spread`]), normalised to their mean in that order
//! (`scheduler/rank.go`, `scheduler/stack.go`).

use super::verdict::{
    ALLOCATION_SPREAD, BINPACK, DEVICES, JOB_ANTI_AFFINITY, NODE_AFFINITY, NODE_RESCHEDULE_PENALTY,
    ScoreParts,
};
use crate::feasibility::{Check, Parsed, TargetRules, meets};
use crate::fit::score::{
    binpack, job_anti_affinity, node_affinity, node_reschedule_penalty, score_fit_bin_pack,
    score_fit_spread,
};
use crate::fit::{Capacity, FitRules, Packed};
use crate::model::{Affinity, Constraint, GoValue, Job, Node, TaskGroup, value_hash};

/// The scorers of one task group.
pub struct Ranking {
    desired_count: i64,
    spread_algorithm: bool,
    /// Each affinity's weight and its test as a constraint.
    affinities: Vec<(i64, Constraint)>,
    rules: FitRules,
    targets: TargetRules,
    parsed: Parsed,
}

/// The job's, the group's and its tasks' affinities, in that order
/// (`NodeAffinityIterator.SetTaskGroup`).
pub fn affinities_of(job: &Job, tg: &TaskGroup) -> Vec<Affinity> {
    let read =
        |v: &GoValue| -> Vec<Affinity> { serde_json::from_value(v.to_value()).unwrap_or_default() };
    let mut out = read(&job.affinities);
    out.extend(read(&tg.affinities));
    for task in &tg.tasks {
        out.extend(read(&task.affinities));
    }
    out
}

impl Ranking {
    pub fn new(
        tg: &TaskGroup,
        spread_algorithm: bool,
        affinities: Vec<Affinity>,
        rules: FitRules,
        targets: TargetRules,
    ) -> Ranking {
        Ranking {
            desired_count: tg.count,
            spread_algorithm,
            affinities: affinities
                .into_iter()
                .map(|a| {
                    let c = Constraint {
                        l_target: a.l_target.into(),
                        r_target: a.r_target.into(),
                        operand: a.operand.into(),
                    };
                    (a.weight, c)
                })
                .collect(),
            rules,
            targets,
            parsed: Parsed::new(targets),
        }
    }

    /// What the scores of a node without allocations of the job depend
    /// on besides the node and what it uses, hashed: equal for two groups
    /// that score every such node alike.
    pub fn shape(&self) -> u128 {
        value_hash(&(
            self.spread_algorithm,
            &self.affinities,
            self.rules,
            self.targets,
        ))
    }

    /// The scores of a node on which the allocation fits, using `used` in
    /// all (the bin packer's "binpack" and "devices" scores), with `collisions` allocations of the same job and group already
    /// there and its "allocation-spread" score `spread`, each under its
    /// name, and their mean, the final score.
    pub fn score(
        &mut self,
        node: &Node,
        capacity: &Capacity,
        used: &Packed,
        collisions: usize,
        penalised: bool,
        spread: Option<f64>,
    ) -> ScoreParts {
        let (cpu, memory) = capacity.available_cpu_memory();
        let fit = if cpu <= 0 || memory <= 0 {
            // A node without resources (a hand-written snapshot): no fit
            // score rather than a division by zero.
            0.0
        } else if self.spread_algorithm {
            score_fit_spread(capacity, &used.used)
        } else {
            score_fit_bin_pack(capacity, &used.used)
        };
        let mut scores = vec![(BINPACK, binpack(fit))];
        scores.extend(used.devices.map(|s| (DEVICES, s)));
        scores.extend(
            job_anti_affinity(collisions, self.desired_count).map(|s| (JOB_ANTI_AFFINITY, s)),
        );
        scores.extend(node_reschedule_penalty(penalised).map(|s| (NODE_RESCHEDULE_PENALTY, s)));
        let matches: Vec<(i64, bool)> = self
            .affinities
            .iter()
            .map(|(weight, c)| (*weight, meets(c, node, &mut self.parsed) == Check::Met))
            .collect();
        scores.extend(node_affinity(&matches, &self.rules).map(|s| (NODE_AFFINITY, s)));
        scores.extend(spread.map(|s| (ALLOCATION_SPREAD, s)));
        ScoreParts::new(scores)
    }
}
