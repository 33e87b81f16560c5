//! How `computeStopByReconnecting` (or, from C-2, `reconcileReconnecting`)
//! settled one reconnecting allocation, kept so that an explanation can show
//! the comparison instead of redoing it.

use crate::model::Allocation;
use crate::time::Time;

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
    /// From 1.8.0, `reconcile = "keep_original"`: the original is kept.
    OriginalByStrategy,
    /// From 1.8.0, `reconcile = "keep_replacement"`: the replacement is kept.
    ReplacementByStrategy,
    /// From 1.8.0, `reconcile = "longest_running"`: the original started
    /// first, or alone started.
    OriginalRanLonger,
    /// From 1.8.0, `reconcile = "longest_running"`: the replacement started
    /// no later, or alone started.
    ReplacementRanLonger,
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
            ReconnectVerdict::OriginalByStrategy => {
                "job not newer, and the group's disconnect strategy is keep_original: original \
                 kept"
            }
            ReconnectVerdict::ReplacementByStrategy => {
                "job not newer, and the group's disconnect strategy is keep_replacement: \
                 replacement kept"
            }
            ReconnectVerdict::OriginalRanLonger => {
                "job not newer, and by the group's disconnect strategy longest_running the \
                 original's tasks started first (or only the original's started): original kept"
            }
            ReconnectVerdict::ReplacementRanLonger => {
                "job not newer, and by the group's disconnect strategy longest_running the \
                 replacement's tasks started no later (or only the replacement's started): \
                 replacement kept"
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
                | ReconnectVerdict::OriginalByStrategy
                | ReconnectVerdict::OriginalRanLonger
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
    /// Under `longest_running`, the start of each one's leader or oldest
    /// task (zero: none started before the evaluation).
    pub starts: Option<(Time, Time)>,
    pub verdict: ReconnectVerdict,
}
