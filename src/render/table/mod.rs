//! Tables for people (warnings apart, for stderr): per job a header, the DesiredChanges by task group,
//! the buckets, and the plan. Empty sections are left out, and so are jobs
//! whose plan is a no-op with no failed placement
//! ([`crate::report::Plan::is_settled`], the definition
//! `--detailed-exitcode` uses) unless `--verbose`: at 3 a.m. only what moves
//! matters. For the same reason a job's untouched allocations are one count
//! line, and tables give way to the width (`fit.rs`) rather than overflow.
//!
//! Times are shown relative to the evaluation time ("in 4m30s", "12m ago"),
//! also inside bucket reasons, which are made from their typed facts; the
//! JSON keeps those reasons exact.

mod allocations;
pub(super) mod failures;
mod fit;
mod grid;
mod job;
mod plan;
mod relative;
mod renderer;
mod story;

pub use renderer::{DEFAULT_WIDTH, Style};
pub use story::story;

use owo_colors::OwoColorize;

use super::wrap::wrap;
use crate::report::{JobReport, NowSource, Report};
use crate::warning::Warning;
use renderer::Renderer;

/// The whole report as tables.
pub fn render(report: &Report, style: Style) -> String {
    let r = Renderer {
        style,
        now: report.now,
        eval: report
            .eval_priority
            .map(|priority| (report.eval_id.clone(), priority, "--eval".to_string())),
    };
    let width = usize::from(style.width);
    let mut out = String::new();
    out.push_str(&wrap(
        &format!("{}.", report.nomad_version.describe()),
        width,
    ));
    out.push('\n');
    let source = match report.now_source {
        NowSource::Flag => "--now",
        NowSource::Snapshot => "snapshot Now",
        NowSource::SnapshotMeta => "snapshot meta",
        NowSource::Clock => "clock",
    };
    let shown: Vec<&JobReport> = report
        .jobs
        .iter()
        .filter(|j| style.verbose || !j.plan.is_settled())
        .collect();
    if shown.is_empty() {
        let n = report.jobs.len();
        let line = format!(
            "Nothing to do: {n} {} evaluated at {} ({source}); no allocation changes.",
            jobs(n),
            report.now
        );
        out.push_str(&wrap(&line, width));
        return out;
    }
    for (i, job) in shown.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&r.job(job, source));
    }
    let quiet = report.jobs.len() - shown.len();
    if quiet > 0 {
        out.push('\n');
        out.push_str(&wrap(
            &format!(
                "Nothing to do for {quiet} more {} (--verbose shows them).",
                jobs(quiet)
            ),
            width,
        ));
    }
    out
}

/// The warnings for stderr, one paragraph each wrapped to `width`:
/// `warning: <message> (<code>)`. Kept out of the tables so that stdout is
/// the answer alone.
pub fn warnings(warnings: &[Warning], color: bool, width: u16) -> String {
    let mut out = String::new();
    for w in warnings {
        let text = wrap(
            &format!("warning: {} ({})", w.message, w.code),
            usize::from(width),
        );
        let text = text.trim_end();
        if color {
            out.push_str(&text.yellow().to_string());
        } else {
            out.push_str(text);
        }
        out.push('\n');
    }
    out
}

fn jobs(n: usize) -> &'static str {
    if n == 1 { "job" } else { "jobs" }
}

#[cfg(test)]
mod snapshots;
