//! Bucket entries: one per allocation, the bulk of a large report.

use std::sync::Arc;

use super::texts::Texts;
use crate::model::NodesById;
use crate::model::{Allocation, Name};
use crate::reconciler::{
    AllocSet, BucketReason, ReasonKind, TaintContext, TaintedSets, classify_rule_with,
};
use crate::report::{BucketEntry, Buckets};

/// Describes allocations in their buckets, sharing repeated strings.
pub(super) struct EntryMaker<'r> {
    nodes: &'r NodesById<'r>,
    taint: TaintContext<'r, 'r>,
    texts: Texts<'r>,
}

impl<'r> EntryMaker<'r> {
    pub fn new(nodes: &'r NodesById<'r>, taint: TaintContext<'r, 'r>) -> Self {
        EntryMaker {
            nodes,
            taint,
            texts: Texts::default(),
        }
    }

    /// The shared strings, for the rest of the report.
    pub fn texts(&mut self) -> &mut Texts<'r> {
        &mut self.texts
    }

    pub fn buckets(&mut self, sets: &TaintedSets<'r>) -> Buckets {
        Buckets {
            sets: sets.map(|set| self.entries(set)),
            expiring: self.taint.rules.has_expiring_bucket(),
        }
    }

    fn entries(&mut self, set: &AllocSet<'r>) -> Vec<BucketEntry> {
        set.iter().map(|a| self.entry(a)).collect()
    }

    fn entry(&mut self, a: &'r Allocation) -> BucketEntry {
        let node = self.texts.node(&a.node_id, self.nodes, self.taint.tainted);
        let rule = classify_rule_with(a, self.taint, || node.tainted);
        let (node_id, node_status, node_desc) =
            (node.id.clone(), node.status.clone(), node.desc.clone());
        let fields = self.taint.rules.disconnect_fields();
        let facts = BucketReason::of(a, rule, node.node, fields);
        let kind = rule.reason_kind();
        let reason = match kind {
            ReasonKind::Node => node_desc,
            ReasonKind::Statuses => self.texts.reason(rule, a, || facts.exact()),
            ReasonKind::Times => Name::from(facts.exact()),
        };
        BucketEntry {
            id: a.id.clone(),
            name: Arc::clone(&a.name),
            node_id,
            node_status,
            reason,
            rule: Some(rule),
            node_draining: facts.node.draining,
            times: (kind == ReasonKind::Times).then(|| Box::new(facts.times)),
            client_status: a.client_status.clone(),
            desired_status: a.desired_status.clone(),
            job_version: a.job_version(),
            canary: a.is_canary(),
        }
    }
}
