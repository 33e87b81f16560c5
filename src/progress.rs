//! A progress bar on stderr while a large snapshot file is read: dumps of big
//! clusters take a while, and a silent terminal looks hung.

use std::io::{self, IsTerminal};
use std::path::Path;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use plan_inspect::model::Snapshot;
use plan_inspect::read::{ReadError, ReadFilter, Source, read_snapshot_observed};

/// Files up to this size are read in about a second: no bar.
const THRESHOLD: u64 = 50 * 1024 * 1024;

/// Reads the snapshot on `threads` threads, with a bar when it is a large
/// file and stderr a terminal.
pub fn read(source: &Source, filter: &ReadFilter, threads: usize) -> Result<Snapshot, ReadError> {
    let bar = match source {
        Source::Path(path) => bar_for(path),
        Source::Stdin => None,
    };
    let Some(bar) = bar else {
        return read_snapshot_observed(source, filter, threads, &|_| {});
    };
    let result = read_snapshot_observed(source, filter, threads, &|n| bar.inc(n));
    bar.finish_and_clear();
    result
}

fn bar_for(path: &Path) -> Option<ProgressBar> {
    let size = std::fs::metadata(path).ok()?.len();
    let attended =
        io::stderr().is_terminal() && std::env::var("TERM").map_or(true, |t| t != "dumb");
    if !wanted(size, attended) {
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
