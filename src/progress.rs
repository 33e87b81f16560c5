//! Progress on stderr while a large snapshot is read, from a file or a pipe:
//! dumps of big clusters take a while, and a silent terminal looks hung.

use std::io::{self, IsTerminal};
use std::path::Path;
use std::sync::Once;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use plan_inspect::model::Snapshot;
use plan_inspect::read::{ReadError, ReadFilter, Source, read_snapshot_observed};

/// Files up to this size are read in about a second: no bar.
const THRESHOLD: u64 = 50 * 1024 * 1024;

/// Reads the snapshot on `threads` threads, with a bar when it is a large
/// file and stderr a terminal, or a count of the bytes read once a pipe has
/// given more than [`THRESHOLD`] (its size is not known ahead).
pub fn read(source: &Source, filter: &ReadFilter, threads: usize) -> Result<Snapshot, ReadError> {
    let bar = match source {
        Source::Path(path) => bar_for(path),
        Source::Stdin => counter(),
    };
    let Some(bar) = bar else {
        return read_snapshot_observed(source, filter, threads, &|_| {});
    };
    let shown = Once::new();
    let result = read_snapshot_observed(source, filter, threads, &|n| {
        bar.inc(n);
        if bar.is_hidden() && wanted(bar.position(), true) {
            shown.call_once(|| bar.set_draw_target(ProgressDrawTarget::stderr()));
        }
    });
    bar.finish_and_clear();
    result
}

/// Whether stderr is a terminal that can redraw a bar.
fn attended() -> bool {
    io::stderr().is_terminal() && std::env::var("TERM").map_or(true, |t| t != "dumb")
}

/// A count of bytes read from stdin, hidden until it passes [`THRESHOLD`].
fn counter() -> Option<ProgressBar> {
    if !attended() {
        return None;
    }
    let style =
        ProgressStyle::with_template("reading stdin {spinner} {binary_bytes} ({elapsed})").ok()?;
    Some(ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()).with_style(style))
}

fn bar_for(path: &Path) -> Option<ProgressBar> {
    let size = std::fs::metadata(path).ok()?.len();
    if !wanted(size, attended()) {
        return None;
    }
    let style = ProgressStyle::with_template(
        "reading {msg} {wide_bar} {binary_bytes}/{binary_total_bytes} ({eta})",
    )
    .ok()?;
    let bar = ProgressBar::with_draw_target(Some(size), ProgressDrawTarget::stderr())
        .with_style(style)
        .with_message(path.display().to_string());
    Some(bar)
}

/// A bar only for a file over [`THRESHOLD`] and only on a terminal that is
/// not `TERM=dumb` (the bar redraws itself with escape sequences).
fn wanted(size: u64, attended: bool) -> bool {
    attended && size > THRESHOLD
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bar_only_for_large_files_on_a_terminal() {
        assert!(wanted(THRESHOLD + 1, true));
        assert!(!wanted(THRESHOLD, true));
        assert!(!wanted(u64::MAX, false));
    }
}
