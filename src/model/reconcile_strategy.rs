//! A task group's `disconnect.reconcile`: which copy is kept when a
//! disconnected allocation comes back beside its replacement.

/// The `disconnect.reconcile` strategies of Nomad 1.8.0 on.
pub mod reconcile_option {
    pub const BEST_SCORE: &str = "best_score";
    pub const KEEP_ORIGINAL: &str = "keep_original";
    pub const KEEP_REPLACEMENT: &str = "keep_replacement";
    pub const LONGEST_RUNNING: &str = "longest_running";
    pub const ALL: [&str; 4] = [BEST_SCORE, KEEP_ORIGINAL, KEEP_REPLACEMENT, LONGEST_RUNNING];
}

/// A `disconnect.reconcile` strategy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReconcileStrategy {
    /// The replacement if its node scored better and it runs or the original
    /// does not; the rule of every release before 1.8.0.
    #[default]
    BestScore,
    KeepOriginal,
    KeepReplacement,
    /// The copy whose leader task (or oldest task) started first.
    LongestRunning,
}

impl ReconcileStrategy {
    /// The strategy a job names; "" is the default, best_score. `None` for a
    /// name Nomad's job validation rejects.
    pub fn parse(name: &str) -> Option<ReconcileStrategy> {
        Some(match name {
            "" | reconcile_option::BEST_SCORE => ReconcileStrategy::BestScore,
            reconcile_option::KEEP_ORIGINAL => ReconcileStrategy::KeepOriginal,
            reconcile_option::KEEP_REPLACEMENT => ReconcileStrategy::KeepReplacement,
            reconcile_option::LONGEST_RUNNING => ReconcileStrategy::LongestRunning,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            ReconcileStrategy::BestScore => reconcile_option::BEST_SCORE,
            ReconcileStrategy::KeepOriginal => reconcile_option::KEEP_ORIGINAL,
            ReconcileStrategy::KeepReplacement => reconcile_option::KEEP_REPLACEMENT,
            ReconcileStrategy::LongestRunning => reconcile_option::LONGEST_RUNNING,
        }
    }
}
