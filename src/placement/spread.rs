//! The "allocation-spread" score of the generic stack: Nomad's
//! `SpreadIterator` over one `propertySet` per `spread` block
//! (`scheduler/spread.go` and `scheduler/propertyset.go` at 1.3.0 and
//! 1.6.0, `scheduler/feasible/` from 1.11.0, unchanged since 1.6.0).
//!
//! The iterator lives as long as the evaluation, and two of its numbers do
//! too, which Nomad's own tests never show:
//! - the weights of every group it has seen are summed once per group and
//!   never reset (`sumSpreadWeights`, v1.3.0 spread.go:269), so a second
//!   group's block weighs its weight over the sum of both groups' blocks;
//! - from #17198 a value the targets want none of scores the lowest boost
//!   seen so far (`lowestSpreadBoost`, v1.6.0 spread.go:187-200), which
//!   depends on the order nodes are ranked in: plan-inspect ranks every node
//!   that fits in node-ID order, in-place checks first, as the replay meets
//!   them.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Deserialize;

use crate::feasibility::{Placed, TargetRules, resolve};
use crate::model::{GoValue, Job, Node, TaskGroup};

/// The target value standing for "every other value" (`implicitTarget`).
pub const IMPLICIT_TARGET: &str = "*";

/// What the release changes in spread scoring (catalogue rows #17198 and
/// #17195).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpreadRules {
    /// A 0% target scores the lowest boost so far instead of dividing by
    /// zero.
    pub lowest_boost: bool,
    /// Values no target names count together, as the implicit target.
    pub implicit_as_one: bool,
}

/// A `structs.Spread` block.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "PascalCase", default)]
pub struct Block {
    pub attribute: String,
    pub weight: i64,
    #[serde(deserialize_with = "null_as_empty")]
    pub spread_target: Vec<Target>,
}

/// A `structs.SpreadTarget`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "PascalCase", default)]
pub struct Target {
    pub value: String,
    pub percent: i64,
}

fn null_as_empty<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Target>, D::Error> {
    Ok(Option::<Vec<Target>>::deserialize(d)?.unwrap_or_default())
}

/// The blocks a job or group sets; a list Nomad could not have written
/// reads as none.
pub fn blocks_of(spreads: &GoValue) -> Vec<Block> {
    serde_json::from_value(spreads.to_value()).unwrap_or_default()
}

/// `spreadInfo`: a block's weight and the count it wants of each value.
#[derive(Clone, Debug, PartialEq)]
pub struct Desired {
    pub weight: i64,
    pub counts: BTreeMap<String, f64>,
}

impl Desired {
    /// `computeSpreadInfo` for one block of a group of `count`: each
    /// target's percent of the count; what the targets leave goes to the
    /// implicit target.
    pub fn of(block: &Block, count: i64) -> Desired {
        let mut counts = BTreeMap::new();
        let mut sum = 0.0;
        for t in &block.spread_target {
            let d = t.percent as f64 / 100.0 * count as f64;
            counts.insert(t.value.clone(), d);
            sum += d;
        }
        if sum > 0.0 && sum < count as f64 {
            counts.insert(IMPLICIT_TARGET.to_string(), count as f64 - sum);
        }
        Desired {
            weight: block.weight,
            counts,
        }
    }
}

/// The value a spread attribute names on a node (`getProperty`).
fn property<'n>(
    node: Option<&'n Node>,
    attribute: &'n str,
    targets: TargetRules,
) -> Option<&'n str> {
    match node {
        Some(n) if !attribute.is_empty() => resolve(attribute, n, targets).text(),
        _ => None,
    }
}

/// One block's `propertySet`: the group's existing allocations per value.
#[derive(Clone, Debug)]
struct ValueSet {
    attribute: String,
    /// The values the targets name, once values outside them count as one.
    explicit: BTreeSet<String>,
    existing: BTreeMap<String, u64>,
    targets: TargetRules,
}

impl ValueSet {
    /// `targetedPropertyValue`: the key a value counts under.
    fn key<'v>(&self, value: &'v str) -> &'v str {
        if self.explicit.is_empty() || self.explicit.contains(value) {
            value
        } else {
            IMPLICIT_TARGET
        }
    }

    fn count(&self, allocs: &[Placed<'_>], group: &str) -> BTreeMap<String, u64> {
        let mut out = BTreeMap::new();
        for a in allocs.iter().filter(|a| a.task_group == group) {
            if let Some(v) = property(a.node, &self.attribute, self.targets) {
                *out.entry(self.key(v).to_string()).or_insert(0) += 1;
            }
        }
        out
    }

    /// `GetCombinedUseMap` after `PopulateProposed`: existing and proposed
    /// allocations per value, less the plan's stops (never below 0); a value
    /// placed again clears one stop less, and a single stop of it stays.
    fn combined(
        &self,
        group: &str,
        stopping: &[Placed<'_>],
        proposed: &[Placed<'_>],
    ) -> BTreeMap<String, u64> {
        let proposed = self.count(proposed, group);
        let mut cleared = self.count(stopping, group);
        for v in proposed.keys() {
            match cleared.get(v).copied() {
                Some(0) => {
                    cleared.remove(v);
                }
                Some(c) if c > 1 => {
                    cleared.insert(v.clone(), c - 1);
                }
                _ => {}
            }
        }
        let mut use_ = self.existing.clone();
        for (v, c) in proposed {
            *use_.entry(v).or_insert(0) += c;
        }
        for (v, c) in cleared {
            if let Some(u) = use_.get_mut(&v) {
                *u = u.saturating_sub(c);
            }
        }
        use_
    }
}

/// What the iterator keeps for one task group (`groupPropertySets` and
/// `tgSpreadInfo`).
#[derive(Clone, Debug)]
struct GroupSpread {
    sets: Vec<ValueSet>,
    /// By attribute: two blocks on one attribute share the info of the one
    /// read last, the job's (`spreadInfos[spread.Attribute]`).
    desired: BTreeMap<String, Desired>,
}

/// The spread scoring of one evaluation.
#[derive(Clone, Debug)]
pub struct Spreads<'a> {
    job_blocks: Vec<Block>,
    existing: Vec<Placed<'a>>,
    groups: HashMap<String, GroupSpread>,
    sum_weights: i64,
    lowest_boost: f64,
    rules: SpreadRules,
    targets: TargetRules,
}

/// The counts one selection reads (`Reset` repopulating every set), for
/// the group being placed.
#[derive(Clone, Debug)]
pub struct Round {
    group: String,
    uses: Vec<BTreeMap<String, u64>>,
}

impl<'a> Spreads<'a> {
    /// The iterator for `job`, whose non-terminal allocations `existing`
    /// are counted, attributes resolving as `targets` say.
    pub fn new(
        job: &Job,
        existing: Vec<Placed<'a>>,
        rules: SpreadRules,
        targets: TargetRules,
    ) -> Spreads<'a> {
        Spreads {
            job_blocks: blocks_of(&job.spreads),
            existing,
            groups: HashMap::new(),
            sum_weights: 0,
            lowest_boost: -1.0,
            rules,
            targets,
        }
    }

    /// `SpreadIterator.SetJob` to another version of the same job: its
    /// spreads, unless it has none at all (`null`: the last job's stay),
    /// and every group's sets built again; the sum of the weights is not
    /// reset, so a group built again adds its weights once more, as in
    /// Nomad.
    pub fn set_job(&mut self, job: &Job) {
        if !job.spreads.is_null() {
            self.job_blocks = blocks_of(&job.spreads);
        }
        self.groups.clear();
    }

    /// `SetTaskGroup`: the group's sets and desired counts, built the first
    /// time the group is seen, whose weights then join the sum.
    fn set_group(&mut self, tg: &TaskGroup) -> &GroupSpread {
        if !self.groups.contains_key(&tg.name) {
            let tg_blocks = blocks_of(&tg.spreads);
            let set_of = |b: &Block| {
                let explicit = match self.rules.implicit_as_one {
                    true => b.spread_target.iter().map(|t| t.value.clone()).collect(),
                    false => BTreeSet::new(),
                };
                let mut set = ValueSet {
                    attribute: b.attribute.clone(),
                    explicit,
                    existing: BTreeMap::new(),
                    targets: self.targets,
                };
                set.existing = set.count(&self.existing, &tg.name);
                set
            };
            let sets = self
                .job_blocks
                .iter()
                .chain(&tg_blocks)
                .map(set_of)
                .collect();
            let mut desired = BTreeMap::new();
            for b in tg_blocks.iter().chain(&self.job_blocks) {
                desired.insert(b.attribute.clone(), Desired::of(b, tg.count));
                self.sum_weights += b.weight;
            }
            self.groups
                .insert(tg.name.clone(), GroupSpread { sets, desired });
        }
        &self.groups[&tg.name]
    }

    /// The counts for one selection of `tg` with the plan's `stopping` and
    /// `proposed` allocations of the job; `None` when the group has no
    /// spread.
    pub fn round(
        &mut self,
        tg: &TaskGroup,
        stopping: &[Placed<'_>],
        proposed: &[Placed<'_>],
    ) -> Option<Round> {
        let group = self.set_group(tg);
        (!group.sets.is_empty()).then(|| Round {
            group: tg.name.clone(),
            uses: group
                .sets
                .iter()
                .map(|s| s.combined(&tg.name, stopping, proposed))
                .collect(),
        })
    }

    /// The node's "allocation-spread" score; none when it sums to 0.
    pub fn score(&mut self, round: &Round, node: &Node) -> Option<f64> {
        let group = &self.groups[&round.group];
        let mut total = 0.0;
        for (set, uses) in group.sets.iter().zip(&round.uses) {
            let Some(raw) = property(Some(node), &set.attribute, set.targets) else {
                total -= 1.0;
                continue;
            };
            let key = set.key(raw);
            let used = uses.get(key).copied().unwrap_or(0) + 1;
            let Some(desired) = group.desired.get(&set.attribute) else {
                continue;
            };
            if desired.counts.is_empty() {
                total += even_spread_boost(uses, raw);
                continue;
            }
            let wanted = desired
                .counts
                .get(key)
                .or_else(|| desired.counts.get(IMPLICIT_TARGET));
            let Some(&wanted) = wanted else {
                total -= 1.0;
                continue;
            };
            let weight = desired.weight as f64 / self.sum_weights as f64;
            if wanted == 0.0 && self.rules.lowest_boost {
                total += self.lowest_boost;
                continue;
            }
            let boost = (wanted - used as f64) / wanted * weight;
            total += boost;
            if self.rules.lowest_boost && boost < self.lowest_boost {
                self.lowest_boost = boost;
            }
        }
        (total != 0.0).then_some(total)
    }
}

/// `evenSpreadScoreBoost`: how far the node's value lags the least used
/// value, or leads it when the node's value is the least used. Nomad's
/// minimum takes a count of 0 as "none yet" and so skips it unless it comes
/// last in Go's map order (a count drops to 0 only when the plan stops a
/// value's last allocation); here zero counts are always skipped.
pub fn even_spread_boost(counts: &BTreeMap<String, u64>, value: &str) -> f64 {
    if counts.is_empty() {
        return 0.0;
    }
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
mod tests;
