//! A small builder for snapshots in tests, modelled on Nomad's `mock`
//! package, and assertions modelled on `reconcile_test.go`'s helpers.
//!
//! Nomad's reconciler tests pass a tainted-node map directly, so a node that
//! is absent from it is healthy. A snapshot has no such map: a node missing
//! from `Nodes` is garbage-collected and tainted. The builder therefore
//! registers a ready node for every allocation it creates; tests that need a
//! tainted node change that node's status.

mod alloc;
mod assert;
mod cli_story;
mod cluster;
mod job;
mod process;
mod report;
mod story;
mod tell;

pub use {
    alloc::*, assert::*, cli_story::*, cluster::*, job::*, process::*, report::*, story::*, tell::*,
};

use plan_inspect::time::{Duration, SECOND, Time};

pub const MINUTE: Duration = 60 * SECOND;
pub const HOUR: Duration = 60 * MINUTE;

/// The ID of `mock_job()`.
pub const JOB: &str = "mock-service";

/// The evaluation time of every test snapshot; other times are relative to it.
pub fn now() -> Time {
    Time::parse_rfc3339("2022-04-01T12:00:00Z").unwrap()
}
