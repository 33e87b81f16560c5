//! The `plan-inspect` binary: parse flags, read, replay, render, and map
//! the outcome to an exit status.

mod cli;
mod commands;
mod exit;
mod man;
mod memory;
mod progress;
mod terminal;

use std::process::ExitCode;

use anyhow::Context;
use clap::{CommandFactory, Parser};
use plan_inspect::model::{JobType, Snapshot};
use plan_inspect::read::{ReadFilter, Source};
use plan_inspect::warning::Warning;

use cli::{Cli, Format};
use commands::options;
use exit::usage_error;
use terminal::{is_broken_pipe, write_stdout};

fn main() -> ExitCode {
    let cli = match Cli::try_parse().and_then(check_stdin) {
        Ok(cli) => cli,
        Err(err) => return usage_error(&err, std::env::args_os()),
    };
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
        write_stdout(&man::man_page()?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let path = cli
        .snapshot
        .as_deref()
        .context("a snapshot path is required")?;
    if let Some(job_file) = &cli.job_file {
        return commands::job_plan::run(cli, path, job_file);
    }
    // `--eval` picks its job from the snapshot, and `--explain` finds its
    // allocation among all of them (to say when it is of another job than
    // `--job`), so only without them can the reader skip other jobs' allocations.
    // A story's servers read every job on the nodes its events touch.
    // `--explain-node` counts every allocation on its node.
    let filter = if cli.eval.is_some()
        || cli.explain.is_some()
        || cli.explain_node.is_some()
        || story_wanted(cli)
    {
        ReadFilter::default()
    } else {
        ReadFilter {
            job: cli.job.clone(),
            namespace: cli.namespace.clone(),
            ..ReadFilter::default()
        }
    };
    let mut snapshot = progress::read(&Source::from_arg(path), &filter, cli.threads)?;
    if let Some(w) = filtered_fit_warning(&snapshot, &filter) {
        snapshot.warnings.push(w);
    }
    let options = options(cli);
    let in_story = !cli.what_if.is_empty() || cli.until.is_some();
    let code = if let Some(subject) = cli.explain.as_ref().filter(|_| in_story) {
        commands::explain::in_story(cli, &snapshot, &options, subject)?
    } else if let Some(subject) = &cli.explain {
        commands::explain::allocation(cli, &snapshot, &options, subject)?
    } else if let Some(node) = &cli.explain_node {
        commands::explain::node(cli, &snapshot, &options, node)?
    } else if story_wanted(cli) {
        commands::story::run(cli, &snapshot, &options)?
    } else {
        commands::replay::run(cli, &snapshot, &options)?
    };
    // The process ends next, which frees the snapshot at once.
    std::mem::forget(snapshot);
    Ok(code)
}

/// `--what-if`, `--until` and `--format html` tell a story.
fn story_wanted(cli: &Cli) -> bool {
    !cli.what_if.is_empty() || cli.until.is_some() || cli.format == Format::Html
}

/// Standard input can feed the snapshot or the job file, not both.
fn check_stdin(cli: Cli) -> Result<Cli, clap::Error> {
    let stdin = |p: &Option<std::path::PathBuf>| p.as_deref().is_some_and(|p| p.as_os_str() == "-");
    if stdin(&cli.snapshot) && stdin(&cli.job_file) {
        return Err(Cli::command().error(
            clap::error::ErrorKind::ArgumentConflict,
            "--job-file - reads standard input, which the snapshot `-` already reads; \
             give the snapshot or the job file as a path",
        ));
    }
    Ok(cli)
}

/// Allocations of other jobs were not read, and a system job's placements
/// are fitted against its nodes' allocations of every job: said once.
fn filtered_fit_warning(snapshot: &Snapshot, filter: &ReadFilter) -> Option<Warning> {
    if filter.is_empty() {
        return None;
    }
    let system = snapshot.jobs.iter().filter(|j| {
        matches!(j.job_type, JobType::System | JobType::Sysbatch)
            && filter.keeps(&j.namespace, &j.id)
    });
    let n = system.count();
    (n > 0).then(|| {
        Warning::new(
            "resource_fit_filtered",
            format!(
                "--job/--namespace left other jobs' allocations unread: the {n} system or sysbatch \
                 job(s) selected are fitted on their nodes without them (nor preempt them); \
                 run without the filter for the full fit"
            ),
        )
    })
}
