//! How `computeStopByReconnecting` (or, from C-2, `reconcileReconnecting`)
//! settled one reconnecting allocation, kept so that an explanation can show
//! the comparison instead of redoing it.

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
    /// From C-2: the reconnecting allocation failed on its client; it is
    /// stopped as failed and replaced.
    FailedReconnect,
    /// From C-2: same or older job, and the replacement scored no better or
    /// is not running while the original is: the original is kept.
    OriginalPreferred,
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
            ReconnectVerdict::FailedReconnect => {
                "the reconnecting allocation failed on its client: stopped as failed, to be \
                 replaced"
            }
            ReconnectVerdict::OriginalPreferred => {
                "job not newer, and the replacement scored no higher (or has no score) or is not \
                 running while the original is: original kept"
            }
        }
    }

    /// Whether the reconnecting allocation survives this decision.
    pub fn reconnecting_kept(self) -> bool {
        matches!(
            self,
            ReconnectVerdict::NoMetrics
                | ReconnectVerdict::ReconnectingKept
                | ReconnectVerdict::OriginalPreferred
        )
    }
}

/// One decision of `computeStopByReconnecting` or `reconcileReconnecting`.
#[derive(Clone, Debug)]
pub struct ReconnectDecision<'a> {
    pub reconnecting: &'a Allocation,
    /// The same-named replacement it was weighed against, if any.
    pub replacement: Option<&'a Allocation>,
    /// `MaxNormScore` of the reconnecting allocation and of the replacement.
    pub scores: (Option<f64>, Option<f64>),
    pub verdict: ReconnectVerdict,
}
