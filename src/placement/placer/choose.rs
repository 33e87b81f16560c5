//! Choosing a node for one allocation of a group: by judging every
//! candidate, or from the group's ranking kept since its first placement.

use std::sync::Arc;

use super::super::class_rows::{Row, RowKey};
use super::super::failure::Failure;
use super::super::metric::AllocMetric;
use super::super::ranked::RankIndex;
use super::super::spread::Round;
use super::super::verdict::NodeVerdict;
use super::group::{ELIGIBLE, Group, INELIGIBLE, UNKNOWN};
use super::judge::Verdict;
use super::setup::{Choice, Select};
use super::state::Placer;
use crate::feasibility::CLASS_INELIGIBLE;

impl<'a> Placer<'a> {
    /// Every candidate through the stack, in node order, or `only` that
    /// node: the choice, or the failure with Nomad's metrics and the
    /// nearest miss. The group's ranking is built on its first scan of
    /// every candidate.
    pub(super) fn scan(
        &mut self,
        g: &mut Group<'a>,
        select: &Select<'_>,
        penalty: &[usize],
        round: Option<&Round>,
        only: Option<usize>,
    ) -> Result<Choice, Box<Failure>> {
        let mut metric = self.fresh_metric();
        let evicting = self.eviction.on;
        let mut index = (!evicting && only.is_none() && g.indexable && g.index.is_none())
            .then(RankIndex::default);
        let mut best: Option<Choice> = None;
        let mut best_evicted = None;
        let mut failure = Failure::default();
        if let Some(r) = self.recorder.as_deref_mut() {
            r.penalised(select.penalty);
            r.untargeted(
                &self.cluster.nodes,
                self.target.job,
                self.setup.pools,
                self.setup.globs,
            );
        }
        // Where the group shares its class verdicts, the nodes of a class
        // ruled out are counted at once and only the rest are judged.
        let picked = match only {
            Some(i) => vec![i],
            None if self.recorder.is_none() && !g.classes.is_empty() => {
                match g.sorted.take() {
                    // The class checks already ran for this placement.
                    Some(counted) => metric = counted,
                    None => self.by_class(g, select.name, &mut metric),
                }
                self.eligible(g)
            }
            None => self.candidates(),
        };
        for i in picked {
            let node = self.cluster.nodes[i];
            metric.nodes_evaluated += 1;
            let class = node.node_class.as_str();
            let recording = self.recorder.is_some();
            let verdict = self.judge(g, select.name, i);
            // Before #13274 an unavailable node of an eligible class ends
            // the search.
            let ends = matches!(verdict, Verdict::Ends(_));
            let noted = match verdict {
                Verdict::Filtered(why) | Verdict::Ends(why) => {
                    metric.filter_node(class, &why);
                    recording.then(|| {
                        let check = why.into_owned();
                        (NodeVerdict::Filtered { check, first: None }, false)
                    })
                }
                Verdict::Exhausted(short) => {
                    if !short.unrecorded {
                        metric.exhaust_node(class, &short.dimension);
                    }
                    let noted = recording.then(|| (NodeVerdict::Exhausted(short.clone()), false));
                    failure.consider(i, short);
                    noted
                }
                Verdict::Fits { used, collisions } => {
                    let capacity = &self.cluster.capacities[i];
                    let penalised = penalty.contains(&i);
                    let spread = round.and_then(|r| self.spreads.score(r, node));
                    let parts = g
                        .ranking
                        .score(node, capacity, &used, collisions, penalised, spread);
                    let (parts, evicted) = match evicting {
                        true => self.preemption_scored(parts),
                        false => (parts, None),
                    };
                    let score = parts.final_score;
                    if let Some(r) = &mut index {
                        let plain = match penalised {
                            true => {
                                g.ranking
                                    .score(node, capacity, &used, collisions, false, None)
                                    .final_score
                            }
                            false => score,
                        };
                        if !r.set(i, Some(plain)) {
                            index = None;
                            g.indexable = false;
                        }
                    }
                    let better = best.as_ref().is_none_or(|b| score > b.score);
                    if better {
                        best = Some(Choice { node: i, score });
                        best_evicted = evicted;
                    }
                    recording.then_some((NodeVerdict::Fits(parts), better))
                }
            };
            if let (Some(r), Some((verdict, better))) = (self.recorder.as_deref_mut(), noted) {
                r.verdict(node, verdict);
                if better {
                    r.best_so_far();
                }
            }
            if ends {
                index = None;
                break;
            }
        }
        if let Some(mut r) = index {
            r.synced = self.log.len();
            g.index = Some(r);
        }
        if evicting {
            self.choose_evicted(best_evicted);
        }
        best.ok_or_else(|| {
            failure.count = 1;
            failure.metric = metric;
            Box::new(failure)
        })
    }

    /// Nomad's fast path for a computed class its cache holds ineligible
    /// (`FeasibilityWrapper`, "computed class ineligible"), taken for all
    /// the class's candidates at once: the first candidate of each class
    /// not checked yet goes through the class checks (a class found
    /// ineligible counts it with its own reason) and the candidates of
    /// ineligible classes are counted as filtered; those of eligible
    /// classes ([`Placer::eligible`]) are left to be judged one by one. The
    /// counts are those of a scan node by node: the class checks of one
    /// class read no other class's verdict, and filtered nodes only add
    /// to the metrics.
    ///
    /// A group whose stack has checked nothing yet takes the row another
    /// job with the same check inputs left
    /// ([`ClassRows`](super::super::class_rows::ClassRows)), or leaves one.
    pub(super) fn by_class(&mut self, g: &mut Group<'a>, name: &str, metric: &mut AllocMetric) {
        let key = self.row_key(g);
        if let Some(row) = key.as_ref().and_then(|k| self.cluster.rows.get(k)) {
            self.checks.adopt(g.tg, row.stack.clone());
            g.classes.copy_from_slice(&row.classes);
            metric.merge(&row.metric);
            return;
        }
        let mut counted = AllocMetric::default();
        self.check_classes(g, name, &mut counted);
        metric.merge(&counted);
        if let Some(key) = key {
            let row = Row {
                classes: g.classes.clone(),
                metric: counted,
                stack: Arc::new(self.checks.row(g.tg)),
            };
            self.cluster.rows.put(key, row);
        }
    }

    /// The key of the group's row where it may take or leave one: its
    /// stack has checked nothing and the job targets some nodes.
    fn row_key(&mut self, g: &Group<'a>) -> Option<RowKey> {
        if self.target.targeted.is_empty() || !self.checks.is_fresh() {
            return None;
        }
        debug_assert!(g.classes.iter().all(|&c| c == UNKNOWN));
        let (job, group) = self.checks.row_key(g.tg)?;
        Some((job, group, self.target.targeted.clone()))
    }

    /// [`Placer::by_class`] class by class.
    fn check_classes(&mut self, g: &mut Group<'a>, name: &str, metric: &mut AllocMetric) {
        let cluster = self.cluster;
        let targeted = std::mem::take(&mut self.target.targeted);
        let buckets = || {
            targeted
                .iter()
                .flat_map(|t| &cluster.group_classes[*t as usize])
        };
        let mut firsts: Vec<(u32, usize)> = buckets()
            .filter(|b| g.classes[b.class as usize] == UNKNOWN)
            .map(|b| (b.class, b.nodes[0]))
            .collect();
        firsts.sort_unstable();
        firsts.dedup_by_key(|(class, _)| *class);
        firsts.sort_unstable_by_key(|(_, i)| *i);
        let mut own_reason = Vec::new();
        for (class, i) in firsts {
            let node = cluster.nodes[i];
            g.classes[class as usize] = match self.checks.class_checks(g.tg, name, node) {
                Ok(_) => ELIGIBLE,
                Err(f) => {
                    metric.filter_node(node.node_class.as_str(), &f.metric());
                    own_reason.push(i);
                    INELIGIBLE
                }
            };
        }
        let mut counted = 0;
        for b in buckets() {
            if g.classes[b.class as usize] == ELIGIBLE {
                continue;
            }
            counted += b.nodes.len();
            if own_reason.binary_search(&b.nodes[0]).is_ok() {
                let first = cluster.nodes[b.nodes[0]].node_class.as_str();
                let rest: Vec<(&str, u64)> = b
                    .node_classes
                    .iter()
                    .map(|&(c, n)| (c, n - u64::from(c == first)))
                    .collect();
                metric.filter_nodes(&rest, CLASS_INELIGIBLE);
            } else {
                metric.filter_nodes(&b.node_classes, CLASS_INELIGIBLE);
            }
        }
        metric.nodes_evaluated += counted as u64;
        self.target.targeted = targeted;
    }

    /// The candidates of the classes [`Placer::by_class`] found eligible,
    /// in ID order.
    fn eligible(&self, g: &Group<'a>) -> Vec<usize> {
        let cluster = self.cluster;
        let mut judged: Vec<usize> = self
            .target
            .targeted
            .iter()
            .flat_map(|t| &cluster.group_classes[*t as usize])
            .filter(|b| g.classes[b.class as usize] == ELIGIBLE)
            .flat_map(|b| b.nodes.iter().copied())
            .collect();
        judged.sort_unstable();
        judged
    }

    /// Every candidate, in ID order.
    fn candidates(&self) -> Vec<usize> {
        let cluster = self.cluster;
        cluster
            .ready
            .iter()
            .filter(|(_, g)| self.target.in_target[*g as usize])
            .map(|(i, _)| *i)
            .collect()
    }

    /// Node `i`'s final score for the group without a reschedule penalty or
    /// spread, or `None` where the group does not fit: what a rank index
    /// keeps.
    pub(super) fn unpenalised_score(&mut self, g: &mut Group<'a>, i: usize) -> Option<f64> {
        match self.judge(g, "", i) {
            Verdict::Fits { used, collisions } => {
                let capacity = &self.cluster.capacities[i];
                let node = self.cluster.nodes[i];
                let parts = g
                    .ranking
                    .score(node, capacity, &used, collisions, false, None);
                Some(parts.final_score)
            }
            _ => None,
        }
    }

    /// The choice from the group's ranking once the nodes changed since
    /// are judged again: the best node outside the penalty, or a penalty
    /// node with its penalised score if that is better (the lower node on
    /// a tie). `None` when no node fits, for [`Placer::scan`] to count.
    /// Only groups without volumes are ranked so, so no allocation name
    /// is read.
    pub(super) fn ranked_best(&mut self, g: &mut Group<'a>, penalty: &[usize]) -> Option<Choice> {
        let mut index = g.index.take()?;
        let mut changed = self.log[index.synced..].to_vec();
        changed.sort_unstable();
        changed.dedup();
        for i in changed {
            if !self.is_candidate(i) {
                continue;
            }
            let score = self.unpenalised_score(g, i);
            if !index.set(i, score) {
                g.indexable = false;
                return None;
            }
        }
        index.synced = self.log.len();
        let mut best = index
            .best(|i| self.is_open(g, i), |i| penalty.contains(&i))
            .map(|(node, score)| Choice { node, score });
        g.index = Some(index);
        for &i in penalty {
            if let Verdict::Fits { used, collisions } = self.judge(g, "", i) {
                let capacity = &self.cluster.capacities[i];
                let node = self.cluster.nodes[i];
                let score = g
                    .ranking
                    .score(node, capacity, &used, collisions, true, None)
                    .final_score;
                let better = best
                    .as_ref()
                    .is_none_or(|b| score > b.score || (score == b.score && i < b.node));
                if better {
                    best = Some(Choice { node: i, score });
                }
            }
        }
        best
    }
}
