//! What the binary does once the snapshot is read: one answer per mode,
//! each rendered in the format asked for and written to stdout.

pub mod explain;
pub mod job_plan;
pub mod replay;
pub mod story;

use plan_inspect::read::thread_count;
use plan_inspect::replay::Options;
use plan_inspect::time::Time;

use crate::cli::Cli;

/// The replay's options from the flags, the clock read now.
pub fn options(cli: &Cli) -> Options {
    Options {
        now: cli.now,
        clock: Time::from_unix_nanos(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as i128),
        ),
        job: cli.job.clone(),
        namespace: cli.namespace.clone(),
        eval: cli.eval.clone(),
        no_disconnected_clients: cli.no_disconnected_clients,
        nomad_version: cli.nomad_version,
        threads: thread_count(cli.threads),
    }
}
