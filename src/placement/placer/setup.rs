//! What a job's placement stage is set up with, and what it gives back.

use super::super::spread::SpreadRules;
use crate::fit::Settings;

/// What decides which nodes a job sees and how fit is counted.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    pub settings: Settings,
    /// Datacenters match as wildcards (1.5.0).
    pub globs: bool,
    /// Only the job's node pool is read (1.6.0).
    pub pools: bool,
    /// `SchedulerConfig.SchedulerAlgorithm` is `spread`.
    pub spread_algorithm: bool,
    pub spread: SpreadRules,
}

/// A node chosen for one allocation.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub node: usize,
    pub score: f64,
}
