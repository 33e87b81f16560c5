//! Bucket entries: one per allocation, the bulk of a large report.

use super::texts::Texts;
use crate::model::Allocation;
use crate::model::NodesById;
use crate::reconciler::{
    AllocSet, Bucket, BucketReason, ByBucket, GroupTrace, ReasonKind, TaintContext, TaintRule,
};
use crate::report::{BucketEntry, Buckets, EntryWhy};
use crate::version::Switch;

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

    /// The entries of the group's buckets, each with the rule that
    /// classified it and, for a lost one, why it is not replaced.
    pub fn buckets(&mut self, trace: &GroupTrace<'r>) -> Buckets {
        Buckets {
            sets: ByBucket::from_fn(|b| {
                self.entries(b, &trace.buckets[b], &trace.bucket_rules[b], trace)
            }),
            expiring: self.taint.rules.has(Switch::D3),
        }
    }

    fn entries(
        &mut self,
        bucket: Bucket,
        set: &AllocSet<'r>,
        rules: &[TaintRule],
        trace: &GroupTrace<'r>,
    ) -> Vec<BucketEntry> {
        debug_assert_eq!(set.len(), rules.len());
        let lost = matches!(bucket, Bucket::Lost | Bucket::Expiring);
        set.iter()
            .zip(rules)
            .map(|(a, &rule)| {
                let mut e = self.entry(a, rule);
                if lost {
                    e.unreplaced = trace.unreplaced.get(&a.id).copied();
                }
                e
            })
            .collect()
    }

    fn entry(&mut self, a: &'r Allocation, rule: TaintRule) -> BucketEntry {
        let node = self.texts.node(&a.node_id, self.nodes);
        let (node_id, node_status, node) = (node.id.clone(), node.status.clone(), node.node);
        let facts = BucketReason::of(a, rule, node, self.taint.rules.disconnect_fields());
        BucketEntry {
            id: a.id.clone(),
            name: a.name(),
            node_id,
            node_status,
            why: EntryWhy::Tainted {
                rule,
                node_draining: facts.node.draining,
                times: (rule.reason_kind() == ReasonKind::Times).then(|| Box::new(facts.times)),
            },
            client_status: a.client_status.clone(),
            desired_status: a.desired_status.clone(),
            job_version: a.job_version(),
            canary: a.is_canary(),
            unreplaced: None,
        }
    }
}
