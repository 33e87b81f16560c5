//! `--job-file`: the job read and planned against the snapshot, printed as
//! `nomad job plan` prints it (tables) or with `job_plan` (JSON).

use std::path::Path;
use std::process::ExitCode;

use plan_inspect::job_plan::{job_key, plan_job};
use plan_inspect::read::{ReadFilter, Source, read_job_file};
use plan_inspect::render;

use super::options;
use crate::cli::{Cli, Format};
use crate::exit::exit_code;
use crate::progress;
use crate::terminal::{style, warn, write_stdout};

/// Under `--detailed-exitcode`, 2 when the job's plan changes allocations.
pub fn run(cli: &Cli, snapshot_path: &Path, job_file: &Path) -> anyhow::Result<ExitCode> {
    let job = read_job_file(&Source::from_arg(job_file))?;
    // Only the snapshot's text of this job is kept whole, to diff against.
    let filter = ReadFilter {
        keep_job_text: Some(job_key(&job)),
        ..ReadFilter::default()
    };
    let snapshot = progress::read(&Source::from_arg(snapshot_path), &filter, cli.threads)?;
    let (report, plan) = plan_job(&snapshot, job, &options(cli))?;
    warn(&report.warnings, cli.color);
    let text = match cli.format {
        Format::Json => render::json::render_job_plan(&report, &plan),
        Format::Html => anyhow::bail!(
            "--format html draws the timeline of --what-if or --until; --job-file prints table or json"
        ),
        Format::Table => {
            let style = style(cli);
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
