//! The tables written a job at a time, as the replay hands each report on:
//! a cluster's tables are never held whole, and each job's is laid out on
//! the thread that replayed it.

use super::renderer::{Renderer, Style};
use super::wrap;
use crate::render::now_source;
use crate::report::{JobReport, Report};

/// What the tables of one report need besides its jobs.
pub struct Tables {
    renderer: Renderer,
    source: &'static str,
    nomad_version: String,
}

/// How many jobs were written so far, and how many of them shown.
#[derive(Default)]
pub struct Written {
    evaluated: usize,
    shown: usize,
}

impl Tables {
    /// The tables of `head`, a report whose jobs come one at a time.
    pub fn new(head: &Report, style: Style) -> Tables {
        let renderer = Renderer {
            style,
            now: head.now,
            eval: head
                .eval_priority
                .map(|priority| (head.eval_id.clone(), priority, "--eval".to_string())),
        };
        Tables {
            renderer,
            source: now_source::words(head.now_source),
            nomad_version: head.nomad_version.describe(),
        }
    }

    /// The first lines: the release replayed.
    pub fn head(&self) -> String {
        let mut out = wrap(&format!("{}.", self.nomad_version), self.width());
        out.push('\n');
        out
    }

    /// A job's tables, `None` for a job that moves nothing unless
    /// `--verbose` ([`crate::report::Plan::is_settled`]). Needs no state,
    /// so that it runs on the thread that replayed the job.
    pub fn job(&self, job: &JobReport) -> Option<String> {
        (self.renderer.style.verbose || !job.plan.is_settled())
            .then(|| self.renderer.job(job, self.source))
    }

    /// The last lines, after the jobs `written`: what was left out, or
    /// that nothing moves.
    pub fn tail(&self, written: &Written) -> String {
        let width = self.width();
        if written.shown == 0 {
            let n = written.evaluated;
            let line = format!(
                "Nothing to do: {n} {} evaluated at {} ({}); no allocation changes.",
                jobs(n),
                self.renderer.now,
                self.source
            );
            return wrap(&line, width);
        }
        let quiet = written.evaluated - written.shown;
        if quiet == 0 {
            return String::new();
        }
        let line = format!(
            "Nothing to do for {quiet} more {} (--verbose shows them).",
            jobs(quiet)
        );
        format!("\n{}", wrap(&line, width))
    }

    fn width(&self) -> usize {
        usize::from(self.renderer.style.width)
    }
}

impl Written {
    /// The text to write for the next job, whose tables are `tables`: a
    /// blank line between two jobs shown.
    pub fn next(&mut self, tables: Option<&str>) -> String {
        self.evaluated += 1;
        let Some(tables) = tables else {
            return String::new();
        };
        self.shown += 1;
        let gap = if self.shown > 1 { "\n" } else { "" };
        format!("{gap}{tables}")
    }
}

fn jobs(n: usize) -> &'static str {
    if n == 1 { "job" } else { "jobs" }
}
