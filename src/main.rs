//! The `plan-inspect` binary: parse flags, read, replay, render, and map
//! the outcome to an exit status.

mod cli;
mod progress;

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::Context;
use clap::{CommandFactory, Parser};
use plan_inspect::explain::explain;
use plan_inspect::read::{ReadFilter, Source};
use plan_inspect::render;
use plan_inspect::replay::{Options, replay};
use plan_inspect::time::Time;

use cli::{Cli, Color, Format};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("plan-inspect: {err:#}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: &Cli) -> anyhow::Result<ExitCode> {
    if let Some(shell) = cli.completions {
        let mut out = Vec::new();
        clap_complete::generate(shell, &mut Cli::command(), "plan-inspect", &mut out);
        write_stdout(&out)?;
        return Ok(ExitCode::SUCCESS);
    }
    if cli.man {
        let mut out = Vec::new();
        clap_mangen::Man::new(Cli::command()).render(&mut out)?;
        write_stdout(&out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let path = cli
        .snapshot
        .as_deref()
        .context("a snapshot path is required")?;
    // `--eval` picks its job from the snapshot, so only without it can the
    // reader skip other jobs' allocations.
    let filter = match cli.eval {
        Some(_) => ReadFilter::default(),
        None => ReadFilter {
            job: cli.job.clone(),
            namespace: cli.namespace.clone(),
        },
    };
    let snapshot = progress::read(&Source::from_arg(path), &filter)?;
    let options = Options {
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
    };
    if let Some(subject) = &cli.explain {
        let explanation = explain(&snapshot, &options, subject)?;
        let text = match cli.format {
            Format::Json => render::explain::json(&explanation),
            Format::Table => render::explain::table(&explanation, use_color(cli.color)),
        };
        write_stdout(text.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    let report = replay(&snapshot, &options)?;
    drop(snapshot);
    match cli.format {
        Format::Json => {
            let mut out = io::BufWriter::with_capacity(1 << 20, io::stdout().lock());
            render::json::render_to(&report, &mut out)?;
            out.flush()?;
        }
        Format::Table => {
            let style = render::table::Style {
                color: use_color(cli.color),
                verbose: cli.verbose,
            };
            write_stdout(render::table::render(&report, style).as_bytes())?;
        }
    }
    let changes = report.jobs.iter().any(|j| j.plan.has_changes());
    Ok(if cli.detailed_exitcode && changes {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

/// `auto` colors only a terminal, and never with `NO_COLOR` set (non-empty)
/// or `TERM=dumb`.
fn use_color(when: Color) -> bool {
    color_wanted(
        when,
        io::stdout().is_terminal(),
        std::env::var_os("NO_COLOR"),
        std::env::var_os("TERM"),
    )
}

fn color_wanted(
    when: Color,
    terminal: bool,
    no_color: Option<OsString>,
    term: Option<OsString>,
) -> bool {
    match when {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            terminal && no_color.is_none_or(|v| v.is_empty()) && term.is_none_or(|t| t != "dumb")
        }
    }
}

fn write_stdout(bytes: &[u8]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_color_needs_a_terminal_without_no_color_or_a_dumb_term() {
        let os = |s: &str| Some(OsString::from(s));
        assert!(color_wanted(Color::Auto, true, None, os("xterm-256color")));
        assert!(color_wanted(Color::Auto, true, os(""), None));
        assert!(!color_wanted(Color::Auto, false, None, os("xterm")));
        assert!(!color_wanted(Color::Auto, true, os("1"), os("xterm")));
        assert!(!color_wanted(Color::Auto, true, None, os("dumb")));
        assert!(color_wanted(Color::Always, false, os("1"), os("dumb")));
        assert!(!color_wanted(Color::Never, true, None, None));
    }
}
