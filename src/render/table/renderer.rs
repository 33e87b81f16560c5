//! How to render, and the cells every table shares: IDs shortened, times
//! relative to the evaluation, bold headers, coloured buckets, and a
//! section laid out for the width.

use owo_colors::OwoColorize;

use super::fit;
use super::grid::Grid;
use super::relative;
use crate::model::Id;
use crate::reconciler::Bucket;
use crate::render::wrap::wrap;
use crate::time::Time;

/// The width tables and text are laid out for when the caller knows no
/// better (output that is not a terminal, such as a pipe into `less`): the
/// narrowest terminal in common use.
pub const DEFAULT_WIDTH: u16 = 80;

/// How to render.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub color: bool,
    /// Full IDs, exact times, every job, allocation and DesiredChanges
    /// column; rows never wrap.
    pub verbose: bool,
    /// The line width to lay out for, in terminal columns (`--verbose`
    /// tables ignore it).
    pub width: u16,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            color: false,
            verbose: false,
            width: DEFAULT_WIDTH,
        }
    }
}

/// Renders one report's jobs: the style, the evaluation time the times are
/// relative to, and the evaluation replayed.
pub(super) struct Renderer {
    pub(super) style: Style,
    pub(super) now: Time,
    /// The evaluation replayed, its priority, and what made it (`--eval`,
    /// or a trigger in a timeline).
    pub(super) eval: Option<(String, i64, String)>,
}

impl Renderer {
    pub(super) fn id<'s>(&self, id: &'s str) -> &'s str {
        if self.style.verbose || id.len() <= 8 {
            id
        } else {
            id.get(..8).unwrap_or(id)
        }
    }

    /// [`Renderer::id`] of an allocation ID.
    pub(super) fn alloc_id(&self, id: &Id) -> String {
        id.with_str(|id| self.id(id).to_string())
    }

    /// A time relative to the evaluation; exact with `--verbose`.
    pub(super) fn time(&self, t: Time) -> String {
        if self.style.verbose {
            t.to_string()
        } else {
            relative::time(t, self.now)
        }
    }

    pub(super) fn bold(&self, s: &str) -> String {
        if self.style.color {
            s.bold().to_string()
        } else {
            s.to_string()
        }
    }

    pub(super) fn paint_bucket(&self, b: Bucket) -> String {
        let s = b.as_str();
        if !self.style.color {
            return s.to_string();
        }
        match b {
            Bucket::Lost | Bucket::Expiring => s.red().to_string(),
            Bucket::Disconnecting => s.yellow().to_string(),
            Bucket::Reconnecting => s.cyan().to_string(),
            Bucket::Migrate => s.magenta().to_string(),
            Bucket::Ignore => s.dimmed().to_string(),
            Bucket::Untainted => s.to_string(),
        }
    }

    pub(super) fn section(&self, out: &mut String, title: &str, grid: &Grid) {
        let table = fit::layout(
            grid,
            (!self.style.verbose).then_some(usize::from(self.style.width)),
            &|h| self.bold(h),
        );
        let title = self.bold(wrap(title, usize::from(self.style.width)).trim_end());
        out.push_str(&format!("\n{title}\n{table}\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn renderer(verbose: bool) -> Renderer {
        Renderer {
            style: Style {
                verbose,
                ..Style::default()
            },
            now: Time::parse_rfc3339("2022-04-01T12:00:00Z").unwrap(),
            eval: None,
        }
    }

    #[test]
    fn verbose_shows_times_exact() {
        let t = Time::parse_rfc3339("2022-04-01T12:04:30Z").unwrap();
        assert_eq!(renderer(true).time(t), "2022-04-01T12:04:30Z");
        assert_eq!(renderer(false).time(t), "in 4m30s");
    }
}
