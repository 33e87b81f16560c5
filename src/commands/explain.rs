//! `--explain` and `--explain-node`: one allocation's or one node's story.

use std::io;
use std::process::ExitCode;

use plan_inspect::explain::{explain, explain_node};
use plan_inspect::model::Snapshot;
use plan_inspect::render;
use plan_inspect::replay::Options;

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
    warn(&explanation.warnings, cli.color);
    let text = match cli.format {
        Format::Json => render::explain::json(&explanation),
        Format::Html => anyhow::bail!(
            "--format html draws the timeline of --what-if or --until; --explain prints table or json"
        ),
        Format::Table => render::explain::table(
            &explanation,
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
