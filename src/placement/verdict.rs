//! What the placement stage concluded about every node for one placement,
//! kept only for the placement `--explain` names: a plain replay never
//! arms a [`Recorder`] and pays nothing for it.

use std::sync::Arc;

use super::targets::{Untargeted, untargeted};
use crate::fit::Shortfall;
use crate::model::{AppliedConfig, Job, Node};

/// Nomad's names of the rank iterators' scores (`ScoreMetaData.Scores`).
pub const BINPACK: &str = "binpack";
pub const DEVICES: &str = "devices";
pub const JOB_ANTI_AFFINITY: &str = "job-anti-affinity";
pub const NODE_RESCHEDULE_PENALTY: &str = "node-reschedule-penalty";
pub const NODE_AFFINITY: &str = "node-affinity";
pub const ALLOCATION_SPREAD: &str = "allocation-spread";

/// The scores a node got, each under Nomad's name, in the order the
/// iterators appended them, and their mean (`NormScore`).
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreParts {
    pub components: Vec<(&'static str, f64)>,
    pub final_score: f64,
}

impl ScoreParts {
    /// The parts and their mean, as [`crate::fit::score::final_score`] takes it, without a
    /// second list: every node that fits is scored on the hot path.
    pub fn new(components: Vec<(&'static str, f64)>) -> ScoreParts {
        let final_score = match components.len() {
            0 => 0.0,
            n => components.iter().map(|(_, s)| *s).sum::<f64>() / n as f64,
        };
        ScoreParts {
            final_score,
            components,
        }
    }
}

/// What the stack made of one node.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeVerdict {
    Untargeted(Untargeted),
    /// A feasibility check removed it: `check` in Nomad's words (the
    /// metric's `ConstraintFiltered` key); for "computed class ineligible",
    /// `first` is the check an earlier node of its class failed.
    Filtered {
        check: String,
        first: Option<String>,
    },
    /// It passed the checks but had no room.
    Exhausted(Shortfall),
    /// The allocation fits, with these scores.
    Fits(ScoreParts),
}

/// The verdicts of one placement attempt.
#[derive(Clone, Debug, Default)]
pub struct PlacementRecord<'a> {
    /// Every node of the snapshot with its verdict, in node-ID order.
    pub nodes: Vec<(&'a Node, NodeVerdict)>,
    /// The node chosen, an index into `nodes`.
    pub chosen: Option<usize>,
    /// The nodes a replacement avoids (`node-reschedule-penalty`).
    pub penalised: Vec<String>,
    /// The group had already failed in this evaluation, so the stack did
    /// not run again (`CoalescedFailures`).
    pub coalesced: bool,
    /// The name of the group's first failed placement in the evaluation,
    /// whose metrics Nomad keeps.
    pub first_failure: Option<String>,
    /// The scheduler configuration the stack ran with, where the job
    /// version's node pool set part of it.
    pub pool_config: Option<Arc<AppliedConfig>>,
}

/// Collects one placement's verdicts as the stack reaches them.
#[derive(Debug, Default)]
pub struct Recorder<'a> {
    record: PlacementRecord<'a>,
    /// The class check behind the next node's "computed class ineligible".
    class_cause: Option<String>,
}

impl<'a> Recorder<'a> {
    pub fn new() -> Recorder<'a> {
        Recorder::default()
    }

    pub fn penalised(&mut self, nodes: &[&str]) {
        self.record.penalised = nodes.iter().map(|n| n.to_string()).collect();
    }

    /// Every node of `nodes` that is not handed to the stack, with why.
    pub fn untargeted(&mut self, nodes: &[&'a Node], job: &Job, pools: bool, globs: bool) {
        for node in nodes {
            if let Some(why) = untargeted(job, node, pools, globs) {
                self.verdict(node, NodeVerdict::Untargeted(why));
            }
        }
    }

    /// The node's class is ineligible because one of its nodes failed
    /// `first`; said of the verdict given next.
    pub fn class_cause(&mut self, first: String) {
        self.class_cause = Some(first);
    }

    pub fn verdict(&mut self, node: &'a Node, mut verdict: NodeVerdict) {
        let cause = self.class_cause.take();
        if let NodeVerdict::Filtered { first, .. } = &mut verdict {
            *first = cause;
        }
        self.record.nodes.push((node, verdict));
    }

    /// The node just given a verdict is the best so far.
    pub fn best_so_far(&mut self) {
        self.record.chosen = self.record.nodes.len().checked_sub(1);
    }

    /// The stack runs again from the start (preemption's second pass):
    /// the verdicts so far are dropped, as Nomad's metrics are.
    pub fn restart(&mut self) {
        self.record.nodes.clear();
        self.record.chosen = None;
        self.class_cause = None;
    }

    /// The stack runs with `config`, set by the job version's node pool.
    pub fn pool_config(&mut self, config: Option<Arc<AppliedConfig>>) {
        self.record.pool_config = config;
    }

    /// The stack did not run: the group failed already.
    pub fn coalesced(&mut self) {
        self.record.coalesced = true;
    }

    /// The record, its nodes sorted by ID as the cluster keeps them.
    pub fn finish(mut self) -> PlacementRecord<'a> {
        let chosen = self
            .record
            .chosen
            .map(|c| self.record.nodes[c].0.id.clone());
        self.record.nodes.sort_by(|a, b| a.0.id.cmp(&b.0.id));
        self.record.chosen =
            chosen.and_then(|id| self.record.nodes.iter().position(|(n, _)| n.id == id));
        self.record
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::fit::score::final_score;

    #[test]
    fn score_parts_keep_nomad_s_names_and_their_mean() {
        let parts = ScoreParts::new(vec![(BINPACK, 0.5), (JOB_ANTI_AFFINITY, -0.5)]);
        assert_eq!(parts.final_score, 0.0);
        assert_eq!(parts.components[1], (JOB_ANTI_AFFINITY, -0.5));
        let odd = [0.1, 0.7, -0.3333333, 0.25];
        let named = odd.iter().map(|s| (NODE_AFFINITY, *s)).collect();
        assert_eq!(ScoreParts::new(named).final_score, final_score(&odd));
        assert_eq!(ScoreParts::new(Vec::new()).final_score, 0.0);
    }
}
