//! The scheduler configuration a job runs with, and what of it its node
//! pool set.

use super::{NodePool, SchedulerConfig};

/// The configuration a job's scheduler runs with: the cluster's, merged
/// with its node pool's own from 1.6.0 (`setJob`, scheduler/generic_sched.go
/// :708-724 and scheduler_system.go:216-232 at 1.6.0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppliedConfig {
    pub config: SchedulerConfig,
    /// Set when the pool's own configuration set part of it.
    pub pool: Option<PoolOverride>,
}

/// What a node pool's own configuration set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolOverride {
    pub name: String,
    pub scheduler_algorithm: bool,
    pub memory_oversubscription: bool,
    /// The cluster's configuration it overrode.
    pub cluster: SchedulerConfig,
}

impl AppliedConfig {
    /// The configuration of a job in node pool `pool` (`NodePoolByName`:
    /// the pool of that exact name, none for a name no pool has) under the
    /// cluster's `cluster`, `pools` being the pools the release reads (none
    /// before 1.6.0).
    pub fn of(cluster: &SchedulerConfig, pools: &[NodePool], pool: &str) -> AppliedConfig {
        let found = pools.iter().rev().find(|p| p.name == pool);
        let own = found.and_then(|p| p.scheduler_configuration.as_ref());
        let set = own.map(|c| {
            (
                !c.scheduler_algorithm.is_empty(),
                c.memory_oversubscription_enabled.is_some(),
            )
        });
        AppliedConfig {
            config: cluster.with_node_pool(found),
            pool: match set {
                Some((algorithm, memory)) if algorithm || memory => Some(PoolOverride {
                    name: pool.to_string(),
                    scheduler_algorithm: algorithm,
                    memory_oversubscription: memory,
                    cluster: cluster.clone(),
                }),
                _ => None,
            },
        }
    }
}
