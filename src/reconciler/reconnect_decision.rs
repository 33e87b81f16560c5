//! How `computeStopByReconnecting` settled one reconnecting allocation,
//! kept so that an explanation can show the comparison instead of redoing it.

use crate::model::Allocation;

/// Why one side of a reconnecting/replacement pair was kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReconnectVerdict {
    /// The reconnecting allocation may not resume (not desired to run, asked
    /// to migrate or reschedule, or of an older job): stopped, no comparison.
    MustNotResume,
    /// One of the pair has no score metadata; Nomad skips the pair.
    NoMetrics,
    /// The replacement runs a newer job version: it is kept.
    ReplacementNewerVersion,
    /// The replacement's job has a higher create index: it is kept.
    ReplacementNewerJob,
    /// The replacement's node scored higher: it is kept.
    ReplacementHigherScore,
    /// Same or older job, score not higher: the reconnecting one is kept.
    ReconnectingKept,
}

impl ReconnectVerdict {
    pub fn describe(self) -> &'static str {
        match self {
            ReconnectVerdict::MustNotResume => {
                "the reconnecting allocation may not resume (desired status not run, a migrate or \
                 reschedule transition, or an older job): stopped without comparison"
            }
            ReconnectVerdict::NoMetrics => {
                "score metadata missing on one side: the pair is skipped, both stay"
            }
            ReconnectVerdict::ReplacementNewerVersion => {
                "the replacement runs a newer job version: replacement kept"
            }
            ReconnectVerdict::ReplacementNewerJob => {
                "the replacement's job has a higher create index: replacement kept"
            }
            ReconnectVerdict::ReplacementHigherScore => {
                "the replacement's node scored higher: replacement kept"
            }
            ReconnectVerdict::ReconnectingKept => {
                "job not newer and score not higher (ties go to the reconnecting one): \
                 reconnecting allocation kept"
            }
        }
    }

    /// Whether the reconnecting allocation survives this decision.
    pub fn reconnecting_kept(self) -> bool {
        matches!(
            self,
            ReconnectVerdict::NoMetrics | ReconnectVerdict::ReconnectingKept
        )
    }
}

/// One decision of `computeStopByReconnecting`.
#[derive(Clone, Debug)]
pub struct ReconnectDecision<'a> {
    pub reconnecting: &'a Allocation,
    /// The same-named replacement it was weighed against, if any.
    pub replacement: Option<&'a Allocation>,
    /// `MaxNormScore` of the reconnecting allocation and of the replacement.
    pub scores: (Option<f64>, Option<f64>),
    pub verdict: ReconnectVerdict,
}
