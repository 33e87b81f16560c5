//! The cluster's scheduler configuration (`structs.SchedulerConfiguration`,
//! `nomad/structs/operator.go`), as `nomad operator scheduler
//! get-config -json` and `/v1/operator/scheduler/configuration` print it.
//! A state dump does not carry it: plan-inspect reads it from the
//! extension key `SchedulerConfig`, and without it replays the servers'
//! default configuration.

use serde::Deserialize;

use super::NodePool;

/// `structs.SchedulerConfiguration`, as far as the scheduler reads it.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "PascalCase", default)]
pub struct SchedulerConfig {
    /// `binpack` (the default when empty) or `spread`.
    pub scheduler_algorithm: String,
    pub preemption_config: PreemptionConfig,
    pub memory_oversubscription_enabled: bool,
}

/// `structs.PreemptionConfig`: which schedulers may evict allocations.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "PascalCase", default)]
pub struct PreemptionConfig {
    pub system_scheduler_enabled: bool,
    /// Read from 1.2.0 on.
    pub sys_batch_scheduler_enabled: bool,
    pub batch_scheduler_enabled: bool,
    pub service_scheduler_enabled: bool,
}

impl SchedulerConfig {
    /// The servers' default configuration (`DefaultConfig`,
    /// `nomad/config.go:418-423` at 1.3.0, unchanged to 2.0.5): preemption
    /// for system jobs only.
    pub fn server_default() -> SchedulerConfig {
        SchedulerConfig {
            scheduler_algorithm: "binpack".to_string(),
            preemption_config: PreemptionConfig {
                system_scheduler_enabled: true,
                ..PreemptionConfig::default()
            },
            memory_oversubscription_enabled: false,
        }
    }
}

impl SchedulerConfig {
    /// `WithNodePool` (nomad/structs/operator.go:201 at 1.6.0, :278 at
    /// 2.0.5, the same code): `pool`'s own algorithm and memory
    /// oversubscription, where it sets them, over this configuration.
    pub fn with_node_pool(&self, pool: Option<&NodePool>) -> SchedulerConfig {
        let mut out = self.clone();
        if let Some(own) = pool.and_then(|p| p.scheduler_configuration.as_ref()) {
            if !own.scheduler_algorithm.is_empty() {
                out.scheduler_algorithm = own.scheduler_algorithm.clone();
            }
            if let Some(enabled) = own.memory_oversubscription_enabled {
                out.memory_oversubscription_enabled = enabled;
            }
        }
        out
    }

    /// The bin packer scores with `ScoreFitSpread` (`SetSchedulerConfiguration`,
    /// scheduler/rank.go:190 at 1.6.0): the algorithm is `spread`, and an
    /// empty one is bin packing (`EffectiveSchedulerAlgorithm`).
    pub fn spreads(&self) -> bool {
        self.scheduler_algorithm == "spread"
    }

    /// The algorithm's name, `binpack` when empty.
    pub fn algorithm(&self) -> &str {
        match self.scheduler_algorithm.as_str() {
            "" => "binpack",
            a => a,
        }
    }
}
