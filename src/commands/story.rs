//! `--what-if`, `--until` and `--format html`: the servers' timeline.

use std::process::ExitCode;

use plan_inspect::model::Snapshot;
use plan_inspect::render;
use plan_inspect::replay::Options;
use plan_inspect::servers::{self, Request};

use crate::cli::{Cli, Format};
use crate::exit::exit_code;
use crate::terminal::{style, warn, write_stdout};

/// Under `--detailed-exitcode`, 2 when the first replay or any later
/// evaluation on the timeline changes allocations.
pub fn run(cli: &Cli, snapshot: &Snapshot, options: &Options) -> anyhow::Result<ExitCode> {
    let request = Request {
        events: cli.what_if.clone(),
        until: cli.until,
        healthy_after: cli.assume_healthy_after,
    };
    let story = servers::run(snapshot, options, &request)?;
    warn(&story.report.warnings, cli.color);
    let text = match cli.format {
        Format::Json => render::json::story(&story),
        Format::Html => render::html::story(&story),
        Format::Table => render::table::story(&story, style(cli)),
    };
    write_stdout(text.as_bytes())?;
    let changes = story.report.jobs.iter().any(|j| !j.plan.is_noop())
        || story.timeline.iter().any(|e| !e.job.plan.is_noop());
    Ok(exit_code(cli.detailed_exitcode && changes))
}
