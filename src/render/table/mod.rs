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
mod stream;

pub use renderer::{DEFAULT_WIDTH, Style};
pub use story::story;
pub use stream::{Tables, Written};

use owo_colors::OwoColorize;

use super::wrap::wrap;
use crate::report::Report;
use crate::warning::Warning;

/// The whole report as tables.
pub fn render(report: &Report, style: Style) -> String {
    let tables = Tables::new(report, style);
    let mut written = Written::default();
    let mut out = tables.head();
    for job in &report.jobs {
        out.push_str(&written.next(tables.job(job).as_deref()));
    }
    out.push_str(&tables.tail(&written));
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

#[cfg(test)]
mod snapshots;
