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
                }),
                _ => None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{NodePoolSchedulerConfig, Snapshot};
    use super::*;

    fn config(algorithm: &str, memory: bool) -> SchedulerConfig {
        SchedulerConfig {
            scheduler_algorithm: algorithm.to_string(),
            memory_oversubscription_enabled: memory,
            ..SchedulerConfig::default()
        }
    }

    fn pool(own: Option<(&str, Option<bool>)>) -> NodePool {
        NodePool {
            name: "pool".to_string(),
            scheduler_configuration: own.map(|(a, m)| NodePoolSchedulerConfig {
                scheduler_algorithm: a.to_string(),
                memory_oversubscription_enabled: m,
            }),
        }
    }

    /// `TestSchedulerConfiguration_WithNodePool` (nomad/structs/
    /// operator_test.go:14 at 1.6.0, :47 at 2.0.5, the same cases): no
    /// pool or no pool configuration keeps the cluster's; a pool's set
    /// algorithm or memory oversubscription replaces it, an unset one does
    /// not. Go's check that the result is a copy has no counterpart: the
    /// merge returns a new value.
    #[test]
    fn operator_test_go_v1_6_0_v2_0_5_scheduler_configuration_with_node_pool() {
        let cases = [
            (
                "nil pool",
                config("spread", false),
                None,
                config("spread", false),
            ),
            (
                "nil pool scheduler config",
                config("spread", false),
                Some(pool(None)),
                config("spread", false),
            ),
            (
                "pool with memory oversubscription",
                config("", false),
                Some(pool(Some(("", Some(true))))),
                config("", true),
            ),
            (
                "pool with scheduler algorithm",
                config("binpack", false),
                Some(pool(Some(("spread", None)))),
                config("spread", false),
            ),
            (
                "pool without memory oversubscription",
                config("", false),
                Some(pool(Some(("", None)))),
                config("", false),
            ),
            (
                "pool without scheduler algorithm",
                config("spread", false),
                Some(pool(Some(("", None)))),
                config("spread", false),
            ),
        ];
        for (name, cluster, pool, want) in cases {
            assert_eq!(cluster.with_node_pool(pool.as_ref()), want, "{name}");
        }
    }

    /// `TestNodePool_MemoryOversubscriptionEnabled` (nomad/structs/
    /// node_pool_test.go:131 at 1.6.0, :164 at 2.0.5): the pool's setting
    /// where it has one, else the cluster's. Go's nil cluster
    /// configuration is a dump without `SchedulerConfig`, whose servers'
    /// default has oversubscription off.
    #[test]
    fn node_pool_test_go_v1_6_0_v2_0_5_memory_oversubscription_enabled() {
        let enabled = |cluster: Option<SchedulerConfig>, pools: Vec<NodePool>| {
            let snapshot = Snapshot {
                scheduler_config: cluster,
                node_pools: pools,
                ..Snapshot::default()
            };
            snapshot
                .scheduler_config_for(Some("pool"))
                .config
                .memory_oversubscription_enabled
        };
        let on = Some(config("", true));
        assert!(enabled(on.clone(), Vec::new()), "no pool");
        assert!(enabled(on.clone(), vec![pool(None)]), "no configuration");
        assert!(enabled(on.clone(), vec![pool(Some(("", None)))]), "unset");
        assert!(!enabled(on, vec![pool(Some(("", Some(false))))]), "off");
        assert!(
            enabled(None, vec![pool(Some(("", Some(true))))]),
            "no cluster's"
        );
    }

    /// What a pool set is told apart from what it left to the cluster, and
    /// a release that reads no pool (`None`) takes the cluster's alone.
    #[test]
    fn the_override_names_the_pool_and_what_it_set() {
        let pools = vec![pool(Some(("spread", None))), pool(Some(("", Some(true))))];
        let cluster = config("binpack", false);
        // The last pool of a name stands, as a later upsert replaces it.
        let a = AppliedConfig::of(&cluster, &pools, "pool");
        assert_eq!(a.config, config("binpack", true));
        let o = a.pool.unwrap();
        assert_eq!((o.name.as_str(), o.scheduler_algorithm), ("pool", false));
        assert!(o.memory_oversubscription);
        assert_eq!(AppliedConfig::of(&cluster, &pools, "other").pool, None);
        assert_eq!(
            AppliedConfig::of(&cluster, &[pool(Some(("", None)))], "pool").pool,
            None,
            "a configuration that sets nothing overrides nothing"
        );
        let snapshot = Snapshot {
            node_pools: pools,
            ..Snapshot::default()
        };
        let before = snapshot.scheduler_config_for(None);
        assert_eq!(before.config, SchedulerConfig::server_default());
        assert_eq!(before.pool, None);
    }
}
