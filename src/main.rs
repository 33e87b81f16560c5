//! The `plan-inspect` binary: parse flags, read, replay, render, and map
//! the outcome to an exit status.

mod cli;
mod progress;

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::Context;
use clap::{CommandFactory, Parser};
use plan_inspect::explain::{explain, explain_node};
use plan_inspect::model::{JobType, Snapshot};
use plan_inspect::read::{ReadFilter, Source, thread_count};
use plan_inspect::render;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::servers::{self, Request};
use plan_inspect::time::Time;
use plan_inspect::warning::Warning;

use cli::{Cli, Color, Format};

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
        write_stdout(&man_page()?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let path = cli
        .snapshot
        .as_deref()
        .context("a snapshot path is required")?;
    if let Some(job_file) = &cli.job_file {
        return run_job_plan(cli, path, job_file);
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
    if let Some(subject) = &cli.explain {
        let explanation = explain(&snapshot, &options, subject)?;
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
        return Ok(exit_code(cli.detailed_exitcode && explanation.changed));
    }
    if let Some(node) = &cli.explain_node {
        let explanation = explain_node(&snapshot, &options, node)?;
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
        return Ok(exit_code(false));
    }
    if story_wanted(cli) {
        let request = Request {
            events: cli.what_if.clone(),
            until: cli.until,
            healthy_after: cli.assume_healthy_after,
        };
        let story = servers::run(&snapshot, &options, &request)?;
        warn(&story.report.warnings, cli.color);
        let text = match cli.format {
            Format::Json => render::json::story(&story),
            Format::Html => render::html::story(&story),
            Format::Table => render::table::story(
                &story,
                render::table::Style {
                    color: use_color(cli.color),
                    verbose: cli.verbose,
                    width: layout_width(&io::stdout()),
                },
            ),
        };
        write_stdout(text.as_bytes())?;
        let changes = story.report.jobs.iter().any(|j| !j.plan.is_noop())
            || story.timeline.iter().any(|e| !e.job.plan.is_noop());
        return Ok(exit_code(cli.detailed_exitcode && changes));
    }
    let replay = Replay::new(&snapshot, &options)?;
    let changes = match cli.format {
        // Each job's report is rendered where it was replayed, and written
        // as it comes: a report on a million allocations is never held
        // whole. Its warnings come after.
        Format::Json => {
            let head = replay.head();
            let mut changes = false;
            let mut out = io::BufWriter::with_capacity(1 << 20, io::stdout().lock());
            let mut warnings = Vec::new();
            let written = render::json::render_streamed(
                &head,
                |emit| {
                    warnings = replay.run(
                        |job| (job.plan.is_settled(), render::json::job(&job)),
                        |(noop, text)| {
                            changes |= !noop;
                            emit(&text);
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
        Format::Table | Format::Html => {
            let report = replay.report();
            warn(&report.warnings, cli.color);
            let style = render::table::Style {
                color: use_color(cli.color),
                verbose: cli.verbose,
                width: layout_width(&io::stdout()),
            };
            write_stdout(render::table::render(&report, style).as_bytes())?;
            let changes = report.jobs.iter().any(|j| !j.plan.is_settled());
            // The process ends next, which frees the report at once.
            std::mem::forget(report);
            changes
        }
    };
    // Likewise the snapshot.
    std::mem::forget(snapshot);
    Ok(exit_code(cli.detailed_exitcode && changes))
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

/// `--job-file`: the job read and planned against the snapshot, printed as
/// `nomad job plan` prints it (tables) or with `job_plan` (JSON).
fn run_job_plan(
    cli: &Cli,
    snapshot_path: &std::path::Path,
    job_file: &std::path::Path,
) -> anyhow::Result<ExitCode> {
    let job_source = Source::from_arg(job_file);
    let job = plan_inspect::read::read_job_file(&job_source)?;
    let filter = ReadFilter {
        keep_job_text: Some(plan_inspect::job_plan::job_key(&job)),
        ..ReadFilter::default()
    };
    let snapshot = progress::read(&Source::from_arg(snapshot_path), &filter, cli.threads)?;
    let options = options(cli);
    let (report, plan) = plan_inspect::job_plan::plan_job(&snapshot, job, &options)?;
    warn(&report.warnings, cli.color);
    let text = match cli.format {
        Format::Json => render::json::render_job_plan(&report, &plan),
        Format::Html => anyhow::bail!(
            "--format html draws the timeline of --what-if or --until; --job-file prints table or json"
        ),
        Format::Table => {
            let style = render::table::Style {
                color: use_color(cli.color),
                verbose: cli.verbose,
                width: layout_width(&io::stdout()),
            };
            let name = job_file.display().to_string();
            let shown = if name == "-" {
                "job.json".to_string()
            } else {
                name
            };
            format!(
                "{}{}",
                render::job_plan::text(
                    &plan,
                    report.jobs.first(),
                    style.color,
                    cli.diff_verbose,
                    &shown
                ),
                render::table::render(&report, style)
            )
        }
    };
    write_stdout(text.as_bytes())?;
    let changes = report.jobs.iter().any(|j| !j.plan.is_settled());
    Ok(exit_code(cli.detailed_exitcode && changes))
}

/// The replay's options from the flags.
fn options(cli: &Cli) -> Options {
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

/// 2 for "changes" under `--detailed-exitcode`, else 0.
fn exit_code(changes: bool) -> ExitCode {
    if changes {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// clap's man page with EXIT STATUS and ENVIRONMENT sections added before
/// VERSION.
fn man_page() -> io::Result<Vec<u8>> {
    let man = clap_mangen::Man::new(Cli::command());
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    man.render_options_section(&mut out)?;
    man.render_extra_section(&mut out)?;
    roff_section(&mut out, "EXIT STATUS", cli::EXIT_STATUS);
    out.extend_from_slice(format!(".PP\n{}\n", roff_text(cli::EXIT_STATUS_NOMAD)).as_bytes());
    roff_section(&mut out, "ENVIRONMENT", cli::ENVIRONMENT);
    man.render_version_section(&mut out)?;
    Ok(out)
}

/// A roff section of tagged paragraphs.
fn roff_section(out: &mut Vec<u8>, title: &str, items: &[(&str, &str)]) {
    out.extend_from_slice(format!(".SH \"{title}\"\n").as_bytes());
    for (tag, text) in items {
        out.extend_from_slice(format!(".TP\n\\fB{tag}\\fR\n{}\n", roff_text(text)).as_bytes());
    }
}

/// Text safe in a roff paragraph: backslashes doubled, no line starting with a
/// control character.
fn roff_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    match escaped.chars().next() {
        Some('.' | '\'') => format!("\\&{escaped}"),
        _ => escaped,
    }
}

/// Prints clap's message and exits as clap would (0 for `--help` and
/// `--version`, 2 for a usage error), except that with
/// `--detailed-exitcode` every error is 1: 2 means "changes" to a gate.
fn usage_error(err: &clap::Error, args: impl Iterator<Item = OsString>) -> ExitCode {
    // A closed stdout under `--help | head` is not worth a message.
    let _ = err.print();
    if !err.use_stderr() {
        return ExitCode::SUCCESS;
    }
    ExitCode::from(usage_error_code(err.exit_code(), args))
}

/// The status for a usage error: 1 when `--detailed-exitcode` is among the
/// flags (before a `--`), else clap's own.
fn usage_error_code(clap_code: i32, args: impl Iterator<Item = OsString>) -> u8 {
    let detailed = args
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--detailed-exitcode");
    if detailed {
        1
    } else {
        u8::try_from(clap_code).unwrap_or(1)
    }
}

/// Warnings go to stderr whatever the format (the JSON document has them too),
/// before the answer on stdout.
fn warn(warnings: &[Warning], when: Color) {
    if warnings.is_empty() {
        return;
    }
    let color = color_wanted(
        when,
        io::stderr().is_terminal(),
        std::env::var_os("NO_COLOR"),
        std::env::var_os("TERM"),
    );
    let text = render::table::warnings(warnings, color, layout_width(&io::stderr()));
    // A closed stderr must not stop the answer.
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// The width to lay out text for on `stream`: `COLUMNS` when it is a
/// positive number, else the terminal's width when `stream` is a terminal,
/// else the default.
fn layout_width(stream: &(impl IsTerminal + std::os::fd::AsFd)) -> u16 {
    let terminal = || {
        stream
            .is_terminal()
            .then(|| terminal_size::terminal_size_of(stream))
            .flatten()
            .map(|(terminal_size::Width(w), _)| w)
    };
    width_from(std::env::var_os("COLUMNS"), terminal)
}

fn width_from(columns: Option<OsString>, terminal: impl FnOnce() -> Option<u16>) -> u16 {
    columns
        .and_then(|c| c.to_str()?.trim().parse::<u16>().ok())
        .filter(|&w| w > 0)
        .or_else(terminal)
        .filter(|&w| w > 0)
        .unwrap_or(render::table::DEFAULT_WIDTH)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_errors_are_one_under_detailed_exitcode() {
        let args = |a: &[&str]| {
            std::iter::once("plan-inspect")
                .chain(a.iter().copied())
                .map(OsString::from)
                .collect::<Vec<_>>()
                .into_iter()
        };
        assert_eq!(
            usage_error_code(2, args(&["--detailed-exitcode", "--jbo"])),
            1
        );
        assert_eq!(
            usage_error_code(2, args(&["--jbo", "--detailed-exitcode"])),
            1
        );
        assert_eq!(usage_error_code(2, args(&["--jbo"])), 2);
        assert_eq!(usage_error_code(2, args(&["--", "--detailed-exitcode"])), 2);
    }

    #[test]
    fn width_is_columns_else_the_terminal_else_80() {
        let os = |s: &str| Some(OsString::from(s));
        assert_eq!(width_from(os("60"), || Some(120)), 60);
        assert_eq!(width_from(os(" 160 "), || None), 160);
        for invalid in ["", "0", "-5", "wide", "70000"] {
            assert_eq!(width_from(os(invalid), || Some(120)), 120, "{invalid}");
            assert_eq!(width_from(os(invalid), || None), 80, "{invalid}");
        }
        assert_eq!(width_from(None, || Some(0)), 80);
        assert_eq!(width_from(None, || None), 80);
    }

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
