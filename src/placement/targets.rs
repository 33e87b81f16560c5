//! Which nodes a job targets: its datacenters (wildcards from the release
//! that reads them) and its node pool (from 1.6.0), as `readyNodesInDCs`
//! and `readyNodesInDCsAndPool` read them (`scheduler/util.go`).

use crate::model::{Job, Node};
use crate::reconciler::glob_match;

/// The node is in one of the job's datacenters, by name or, with `globs`,
/// as a wildcard matches it. Every Nomad client has a datacenter (`dc1` by
/// default), so a node without one comes from a dump that left it out: it
/// is taken to be in the job's datacenters.
pub fn in_datacenters(job: &Job, node: &Node, globs: bool) -> bool {
    node.datacenter.is_empty()
        || match globs {
            true => job
                .datacenters
                .iter()
                .any(|dc| glob_match(dc, &node.datacenter)),
            false => job.datacenters.contains(&node.datacenter),
        }
}

/// `IsInPool` over the nodes `readyNodesInDCsAndPool` reads: every node
/// for the pool `all` (or none set), else those of the job's pool. A node
/// without a pool comes from a dump made before pools: it is in `default`.
pub fn in_pool(job: &Job, node: &Node) -> bool {
    let pool = match node.node_pool.as_str() {
        "" => "default",
        p => p,
    };
    matches!(job.node_pool.as_str(), "" | "all") || pool == job.node_pool
}

/// Why a node was never handed to the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Untargeted {
    /// Outside the job's node pool (1.6.0 on).
    OutsidePool,
    /// Not ready: down, disconnected, initializing, ineligible or draining.
    NotReady,
    /// Outside the job's datacenters.
    OutsideDatacenters,
}

/// Why `readyNodesInDCsAndPool` leaves `node` out for `job`, checked in
/// its order (pool, readiness, datacenter); `None` for a node it hands to
/// the stack. `pools` and `globs` are the release's node pools and
/// datacenter wildcards.
pub fn untargeted(job: &Job, node: &Node, pools: bool, globs: bool) -> Option<Untargeted> {
    if pools && !in_pool(job, node) {
        Some(Untargeted::OutsidePool)
    } else if !node.ready() {
        Some(Untargeted::NotReady)
    } else if !in_datacenters(job, node, globs) {
        Some(Untargeted::OutsideDatacenters)
    } else {
        None
    }
}
