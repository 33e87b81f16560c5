//! The default answer: every selected job replayed, as tables or as the
//! JSON document.

use std::io::{self, Write};
use std::process::ExitCode;

use plan_inspect::model::Snapshot;
use plan_inspect::render;
use plan_inspect::render::json::JobJson;
use plan_inspect::replay::{Options, Replay};

use crate::cli::{Cli, Format};
use crate::exit::exit_code;
use crate::memory::release_free_pages;
use crate::terminal::{style, warn};

/// Under `--detailed-exitcode`, 2 when any job's plan is not settled.
pub fn run(cli: &Cli, snapshot: &Snapshot, options: &Options) -> anyhow::Result<ExitCode> {
    let replay = Replay::new(snapshot, options)?;
    let changes = match cli.format {
        // Each job's report is written as it comes: a report on a million
        // allocations is never held whole. Its warnings come after. A large
        // job's memory, freed here into the arena of the thread that
        // replayed it, goes back to the system at once: each thread's arena
        // would otherwise keep the largest job it replayed.
        Format::Json => {
            let head = replay.head();
            let mut changes = false;
            let mut out = io::BufWriter::with_capacity(1 << 20, io::stdout().lock());
            let mut warnings = Vec::new();
            let written = render::json::render_streamed(
                &head,
                |emit| {
                    warnings = replay.run(
                        |job| (job.plan.is_settled(), JobJson::new(job)),
                        |(noop, job)| {
                            changes |= !noop;
                            emit(&job);
                            if let JobJson::Whole(job) = job {
                                drop(job);
                                release_free_pages();
                            }
                        },
                    );
                    warnings.clone()
                },
                &mut out,
            )
            .and_then(|()| out.flush());
            // Said even when stdout closed early: the replay ran to its end.
            warn(&warnings, cli.color);
            written?;
            changes
        }
        // Tables too are written a job at a time, laid out on the threads
        // that replayed the jobs; the warnings come after, as for JSON.
        // (`--format html` is a story's, `main` sends it there.)
        Format::Table | Format::Html => {
            let tables = render::table::Tables::new(&replay.head(), style(cli));
            let mut shown = render::table::Written::default();
            let mut changes = false;
            let mut out = io::BufWriter::with_capacity(1 << 20, io::stdout().lock());
            let mut written = out.write_all(tables.head().as_bytes());
            let warnings = replay.run(
                |job| {
                    let text = tables.job(&job);
                    let (settled, large) = (job.plan.is_settled(), job.is_large());
                    drop(job);
                    if large {
                        release_free_pages();
                    }
                    (settled, text)
                },
                |(settled, text)| {
                    changes |= !settled;
                    let text = shown.next(text.as_deref());
                    if written.is_ok() {
                        written = out.write_all(text.as_bytes());
                    }
                },
            );
            let written = written
                .and_then(|()| out.write_all(tables.tail(&shown).as_bytes()))
                .and_then(|()| out.flush());
            warn(&warnings, cli.color);
            written?;
            changes
        }
    };
    Ok(exit_code(cli.detailed_exitcode && changes))
}
