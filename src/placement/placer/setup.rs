//! What a job's placement stage is set up with, and what it gives back.

use std::sync::Arc;

use super::super::spread::SpreadRules;
use crate::feasibility::{DistinctHostsRules, TargetRules, VolumeRules};
use crate::fit::Settings;
use crate::model::AppliedConfig;

/// What decides which nodes a job sees and how fit is counted.
#[derive(Clone, Debug)]
pub struct Setup {
    pub settings: Settings,
    /// Datacenters match as wildcards (1.5.0).
    pub globs: bool,
    /// Only the job's node pool is read (1.6.0).
    pub pools: bool,
    /// `SchedulerConfig.SchedulerAlgorithm` is `spread`.
    pub spread_algorithm: bool,
    /// The configuration these settings come from, kept only where the
    /// job's node pool set part of it, for `--explain`.
    pub pool_config: Option<Arc<AppliedConfig>>,
    pub spread: SpreadRules,
    /// How the release checks volumes.
    pub volumes: VolumeRules,
    /// How the release resolves `${...}` targets.
    pub targets: TargetRules,
    /// How the release reads `distinct_hosts`.
    pub distinct_hosts: DistinctHostsRules,
}

impl Setup {
    /// This setup under `applied`, the scheduler configuration of one job
    /// version (`SetSchedulerConfiguration`): its algorithm and memory
    /// oversubscription.
    pub fn under(&self, applied: AppliedConfig) -> Setup {
        Setup {
            settings: Settings {
                memory_oversubscription: applied.config.memory_oversubscription_enabled,
                ..self.settings
            },
            spread_algorithm: applied.config.spreads(),
            pool_config: applied.pool.is_some().then(|| Arc::new(applied)),
            ..self.clone()
        }
    }
}

/// How one allocation is placed (`SelectOptions`): its name (which
/// `per_alloc` volumes read), the nodes it avoids, and the node it
/// prefers (a sticky ephemeral disk's previous node), tried alone first.
#[derive(Clone, Copy, Debug, Default)]
pub struct Select<'s> {
    pub name: &'s str,
    pub penalty: &'s [&'s str],
    pub preferred: Option<usize>,
}

/// A node chosen for one allocation.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub node: usize,
    pub score: f64,
}
