//! The nodes a job version hands the stack (`readyNodesInDCsAndPool`):
//! the ready nodes in its datacenters and node pool, counted by
//! datacenter for the metrics.

use std::collections::BTreeMap;

use super::super::cluster::Cluster;
use super::super::targets::{in_datacenters, in_pool};
use super::setup::Setup;
use crate::model::Job;

pub(super) struct Target<'a> {
    /// The job version whose datacenters and pool chose the nodes.
    pub job: &'a Job,
    /// How many ready nodes are in them (the candidates).
    pub pool: u64,
    /// The groups of ready nodes (`Cluster::groups`) targeted, and by
    /// group whether it is.
    pub targeted: Vec<u32>,
    pub in_target: Vec<bool>,
    pub by_dc: BTreeMap<String, u64>,
}

impl<'a> Target<'a> {
    pub fn of(cluster: &Cluster<'a>, job: &'a Job, setup: &Setup) -> Target<'a> {
        let mut by_dc = BTreeMap::new();
        if !setup.globs {
            // readyNodesInDCs counts every job datacenter, even empty ones,
            // before 1.5.0 (scheduler/util.go:353-356 at 1.3.0).
            for dc in &job.datacenters {
                by_dc.insert(dc.to_string(), 0);
            }
        }
        let in_target: Vec<bool> = cluster
            .groups
            .iter()
            .map(|g| {
                let node = g.first;
                let taken =
                    (!setup.pools || in_pool(job, node)) && in_datacenters(job, node, setup.globs);
                if taken {
                    *by_dc.entry(node.datacenter.to_string()).or_insert(0) += g.count;
                }
                taken
            })
            .collect();
        let pool = cluster
            .groups
            .iter()
            .zip(&in_target)
            .filter(|(_, t)| **t)
            .map(|(g, _)| g.count)
            .sum();
        let targeted = (0..cluster.groups.len() as u32)
            .filter(|g| in_target[*g as usize])
            .collect();
        Target {
            job,
            pool,
            targeted,
            in_target,
            by_dc,
        }
    }
}
