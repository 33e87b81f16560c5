//! Allocations a group takes out before `filterByTainted`, and why.

use super::results::desc;
use crate::model::ClientStatus;

/// Why an allocation was taken out before `filterByTainted`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetAside {
    /// A terminal batch allocation of an older job version (`filterOldTerminalAllocs`).
    OldTerminalBatch,
    /// An unpromoted canary of an older or failed deployment, stopped.
    CancelledCanary,
    /// A canary on a draining node, stopped to migrate.
    CanaryMigrating,
    /// A canary on a lost node, stopped.
    CanaryLost,
    /// A terminal allocation of a stopped job (`filterByTerminal` in `handleStop`).
    TerminalOfStoppedJob,
    /// Stopped or evicted by the server (`filterServerTerminalAllocs`, 1.11.0 on).
    ServerTerminal,
}

impl SetAside {
    pub fn describe(self) -> &'static str {
        match self {
            SetAside::OldTerminalBatch => {
                "terminal batch allocation of an older job version: ignored"
            }
            SetAside::CancelledCanary => {
                "unpromoted canary of an older or failed deployment: stopped"
            }
            SetAside::CanaryMigrating => "canary on a draining node: stopped to migrate",
            SetAside::CanaryLost => "canary on a lost node: stopped",
            SetAside::TerminalOfStoppedJob => "terminal allocation of a stopped job: nothing to do",
            SetAside::ServerTerminal => {
                "stopped or evicted by the server: dropped before classification"
            }
        }
    }
}

impl SetAside {
    /// The stop a set-aside allocation gets, as client status and
    /// description, or none for one that is only ignored.
    pub(super) fn stop(self) -> Option<(Option<ClientStatus>, &'static str)> {
        match self {
            SetAside::CancelledCanary => Some((None, desc::NOT_NEEDED)),
            SetAside::CanaryMigrating => Some((None, desc::MIGRATING)),
            SetAside::CanaryLost => Some((Some(ClientStatus::Lost), desc::LOST)),
            SetAside::OldTerminalBatch
            | SetAside::TerminalOfStoppedJob
            | SetAside::ServerTerminal => None,
        }
    }
}
