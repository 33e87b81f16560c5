//! `--explain` and `--explain-node`: one allocation's or one node's story,
//! in the snapshot's evaluation or in a story's.

use std::io;
use std::process::ExitCode;

use plan_inspect::explain::{Explanation, explain, explain_node};
use plan_inspect::model::Snapshot;
use plan_inspect::render;
use plan_inspect::replay::Options;
use plan_inspect::servers::{self, Request};

use crate::cli::{Cli, Format};
use crate::exit::exit_code;
use crate::terminal::{layout_width, use_color, warn, write_stdout};

/// `--explain SUBJECT`: under `--detailed-exitcode`, 2 when the subject's
/// allocation changes.
pub fn allocation(
    cli: &Cli,
    snapshot: &Snapshot,
    options: &Options,
    subject: &str,
) -> anyhow::Result<ExitCode> {
    let explanation = explain(snapshot, options, subject)?;
    write(cli, &explanation)
}

/// `--explain SUBJECT` with `--what-if` or `--until`: in the evaluation of
/// the story that last decided it; under `--detailed-exitcode`, 2 when
/// that evaluation changes it.
pub fn in_story(
    cli: &Cli,
    snapshot: &Snapshot,
    options: &Options,
    subject: &str,
) -> anyhow::Result<ExitCode> {
    let request = Request {
        events: cli.what_if.clone(),
        until: cli.until,
        healthy_after: cli.assume_healthy_after,
    };
    let explanation = servers::explain(snapshot, options, &request, subject)?;
    write(cli, &explanation)
}

/// Writes `explanation` in the format asked for; under
/// `--detailed-exitcode`, 2 when the subject changes.
fn write(cli: &Cli, explanation: &Explanation) -> anyhow::Result<ExitCode> {
    warn(&explanation.warnings, cli.color);
    let text = match cli.format {
        Format::Json => render::explain::json(explanation),
        Format::Html => anyhow::bail!(
            "--format html draws the timeline of --what-if or --until; --explain prints table or json"
        ),
        Format::Table => render::explain::table(
            explanation,
            use_color(cli.color),
            layout_width(&io::stdout()),
            cli.verbose,
        ),
    };
    write_stdout(text.as_bytes())?;
    Ok(exit_code(cli.detailed_exitcode && explanation.changed))
}

/// `--explain-node NODE`: a node changes nothing, so always 0.
pub fn node(
    cli: &Cli,
    snapshot: &Snapshot,
    options: &Options,
    node: &str,
) -> anyhow::Result<ExitCode> {
    let explanation = explain_node(snapshot, options, node)?;
    warn(&explanation.warnings, cli.color);
    let text = match cli.format {
        Format::Json => render::explain_node::json(&explanation),
        Format::Html => anyhow::bail!(
            "--format html draws the timeline of --what-if or --until; --explain-node prints table or json"
        ),
        Format::Table => render::explain_node::table(
            &explanation,
            use_color(cli.color),
            layout_width(&io::stdout()),
            cli.verbose,
        ),
    };
    write_stdout(text.as_bytes())?;
    Ok(exit_code(false))
}
