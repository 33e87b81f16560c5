//! The cluster's scheduler configuration (`structs.SchedulerConfiguration`,
//! `nomad/structs/operator.go`), as `nomad operator scheduler
//! get-config -json` and `/v1/operator/scheduler/configuration` print it.
//! A state dump does not carry it: plan-inspect reads it from the
//! extension key `SchedulerConfig`, and without it replays the servers'
//! default configuration.

use serde::Deserialize;

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
