//! `readyNodesInDCs`: the nodes a system job targets.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{Job, Node};

pub use crate::placement::targets::{in_datacenters, in_pool};

/// How a system job's targeting sees one node, for explanations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Targeting {
    /// Outside the job's node pool (from 1.6.0): not read at all.
    OutsidePool,
    /// Ready and in the job's datacenters.
    Targeted,
    /// Ready, but in none of the job's datacenters (or no job).
    NotInDatacenters,
    NotReady,
}

impl Targeting {
    /// With `globs` datacenters match as wildcards; with `pools` only the
    /// job's node pool is read.
    pub fn of(job: Option<&Job>, node: &Node, globs: bool, pools: bool) -> Targeting {
        let outside_pool = pools && job.is_some_and(|j| !in_pool(j, node));
        let in_dcs = job.is_some_and(|j| in_datacenters(j, node, globs));
        if outside_pool {
            Targeting::OutsidePool
        } else if !node.ready() {
            Targeting::NotReady
        } else if in_dcs {
            Targeting::Targeted
        } else {
            Targeting::NotInDatacenters
        }
    }
}

/// The ready nodes in the job's datacenters, and every node that is not
/// ready (in any datacenter).
#[derive(Clone, Debug, Default)]
pub struct ReadyNodes<'a> {
    /// Sorted by ID.
    pub ready: BTreeMap<&'a str, &'a Node>,
    pub not_ready: BTreeSet<&'a str>,
}

impl<'a> ReadyNodes<'a> {
    /// Nomad gathers no nodes for a stopped (or purged) job.
    /// With `pools` (1.6.0 on) only the nodes of the job's pool are read
    /// at all, so one outside it is neither ready nor not ready.
    pub fn new(job: Option<&Job>, nodes: &[&'a Node], globs: bool, pools: bool) -> ReadyNodes<'a> {
        let mut out = ReadyNodes::default();
        let Some(job) = job.filter(|j| !j.stop) else {
            return out;
        };
        for node in nodes {
            if pools && !in_pool(job, node) {
                continue;
            }
            if !node.ready() {
                out.not_ready.insert(&node.id);
            } else if in_datacenters(job, node, globs) {
                out.ready.insert(&node.id, node);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{eligibility, node_status};

    fn node(status: &str, dc: &str, pool: &str) -> Node {
        Node {
            id: "n1".into(),
            status: status.into(),
            datacenter: dc.into(),
            node_pool: pool.into(),
            scheduling_eligibility: eligibility::ELIGIBLE.into(),
            ..Node::default()
        }
    }

    /// The pool is read first (from 1.6.0), then readiness, then the
    /// datacenters; a stopped job is targeted as its spec says.
    #[test]
    fn targeting_reads_pool_then_readiness_then_datacenters() {
        let job = Job {
            datacenters: vec!["dc*".into()],
            node_pool: "web".into(),
            stop: true,
            ..Job::default()
        };
        let of = |n: &Node, globs, pools| Targeting::of(Some(&job), n, globs, pools);
        let ready_dc2 = node(node_status::READY, "dc2", "web");
        assert_eq!(of(&ready_dc2, true, true), Targeting::Targeted);
        assert_eq!(of(&ready_dc2, false, true), Targeting::NotInDatacenters);
        let other_pool = node(node_status::DOWN, "dc2", "batch");
        assert_eq!(of(&other_pool, true, true), Targeting::OutsidePool);
        assert_eq!(of(&other_pool, true, false), Targeting::NotReady);
        assert_eq!(
            Targeting::of(None, &ready_dc2, true, true),
            Targeting::NotInDatacenters
        );
    }
}
