//! What to replay, and how: the options the CLI gathers.

use crate::now::NowRequest;
use crate::time::Time;
use crate::version::VersionRequest;

/// What to replay, and how.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--now`.
    pub now: Option<NowRequest>,
    /// The machine's clock, used only when nothing else dates the snapshot.
    pub clock: Time,
    /// `--job`.
    pub job: Option<String>,
    /// `--namespace`.
    pub namespace: Option<String>,
    /// `--eval`: replay this evaluation from the snapshot's `Evals`.
    pub eval: Option<String>,
    /// `--no-disconnected-clients`.
    pub no_disconnected_clients: bool,
    /// `--nomad-version`; the snapshot's `NomadVersion` key, else `auto`,
    /// when absent.
    pub nomad_version: Option<VersionRequest>,
    /// Jobs are replayed on up to this many threads while the caller's
    /// hands on their reports (0 and 1: all on the caller's); the report is
    /// the same on any count.
    pub threads: usize,
}
