//! Progress on stderr while a large snapshot is read, from a file or a pipe:
//! dumps of big clusters take a while, and a silent terminal looks hung.
//! Both say the bytes read and the allocations parsed so far.

use std::io::{self, IsTerminal};
use std::path::Path;
use std::sync::Arc;
use std::sync::Once;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use indicatif::{HumanBytes, HumanDuration, ProgressBar, ProgressDrawTarget, ProgressStyle};
use plan_inspect::model::Snapshot;
use plan_inspect::read::{Observer, ReadError, ReadFilter, Source, read_snapshot_observed};

/// Files up to this size are read in about a second: no bar.
const THRESHOLD: u64 = 50 * 1024 * 1024;

/// Reads the snapshot on `threads` threads, then gives the read's freed
/// memory back to the system before the replay ([`crate::memory`]).
pub fn read(source: &Source, filter: &ReadFilter, threads: usize) -> Result<Snapshot, ReadError> {
    let snapshot = observed(source, filter, threads);
    crate::memory::release_free_pages();
    snapshot
}

/// Reads `source` with a bar when it is a large file and stderr a terminal,
/// or a count of the bytes read once a pipe has given more than
/// [`THRESHOLD`] (its size is not known ahead).
fn observed(source: &Source, filter: &ReadFilter, threads: usize) -> Result<Snapshot, ReadError> {
    let allocations = Arc::new(AtomicU64::new(0));
    let bar = match source {
        Source::Path(path) => bar_for(path, &allocations),
        Source::Stdin => counter(&allocations),
    };
    let Some(bar) = bar else {
        return read_snapshot_observed(source, filter, threads, &|_| {});
    };
    let shown = Display {
        bar,
        allocations,
        shown: Once::new(),
    };
    let result = read_snapshot_observed(source, filter, threads, &shown);
    shown.bar.finish_and_clear();
    result
}

/// The bar or counter, told what the reader reads.
struct Display {
    bar: ProgressBar,
    allocations: Arc<AtomicU64>,
    /// Set once a hidden counter has passed [`THRESHOLD`] and shows.
    shown: Once,
}

impl Observer for Display {
    fn bytes(&self, n: u64) {
        self.bar.inc(n);
        if self.bar.is_hidden() && wanted(self.bar.position(), true) {
            self.shown
                .call_once(|| self.bar.set_draw_target(ProgressDrawTarget::stderr()));
        }
    }

    fn allocation(&self) {
        self.allocations.fetch_add(1, Ordering::Relaxed);
    }
}

/// Whether stderr is a terminal that can redraw a bar.
fn attended() -> bool {
    attended_by(
        io::stderr().is_terminal(),
        std::env::var("TERM").ok().as_deref(),
    )
}

/// A terminal, and not `TERM=dumb` (the bar redraws itself with escape
/// sequences); an unset `TERM` is a terminal's too.
fn attended_by(terminal: bool, term: Option<&str>) -> bool {
    terminal && term != Some("dumb")
}

/// A count of bytes read from stdin and allocations parsed, hidden until
/// it passes [`THRESHOLD`].
fn counter(allocations: &Arc<AtomicU64>) -> Option<ProgressBar> {
    if !attended() {
        return None;
    }
    let allocations = Arc::clone(allocations);
    let style = ProgressStyle::with_template("{spinner} {status}")
        .ok()?
        .with_key(
            "status",
            move |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let n = allocations.load(Ordering::Relaxed);
                let _ = w.write_str(&stdin_status(s.pos(), n, s.elapsed()));
            },
        );
    Some(ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()).with_style(style))
}

/// The counter's line: `reading stdin: 1.50 GiB, 153,204 allocations (12 seconds)`.
fn stdin_status(bytes: u64, allocations: u64, elapsed: Duration) -> String {
    format!(
        "reading stdin: {}, {} ({})",
        HumanBytes(bytes),
        allocations_parsed(allocations),
        HumanDuration(elapsed)
    )
}

/// `1 allocation`, `153,204 allocations`.
fn allocations_parsed(n: u64) -> String {
    let digits = n.to_string();
    let mut grouped = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(d);
    }
    format!("{grouped} allocation{}", if n == 1 { "" } else { "s" })
}

fn bar_for(path: &Path, allocations: &Arc<AtomicU64>) -> Option<ProgressBar> {
    let size = std::fs::metadata(path).ok()?.len();
    if !wanted(size, attended()) {
        return None;
    }
    let allocations = Arc::clone(allocations);
    let style = ProgressStyle::with_template(
        "reading {msg} {wide_bar} {binary_bytes}/{binary_total_bytes}, {allocations} ({eta})",
    )
    .ok()?
    .with_key(
        "allocations",
        move |_: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&allocations_parsed(allocations.load(Ordering::Relaxed)));
        },
    );
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

    #[test]
    fn only_a_terminal_that_redraws_is_attended() {
        assert!(attended_by(true, Some("xterm-256color")));
        assert!(attended_by(true, None));
        assert!(!attended_by(true, Some("dumb")));
        assert!(!attended_by(false, Some("xterm")));
        assert!(!attended_by(false, None));
    }

    #[test]
    fn the_stdin_count_says_bytes_and_allocations() {
        assert_eq!(
            stdin_status(1_610_612_736, 153_204, Duration::from_secs(12)),
            "reading stdin: 1.50 GiB, 153,204 allocations (12 seconds)"
        );
        assert_eq!(allocations_parsed(0), "0 allocations");
        assert_eq!(allocations_parsed(1), "1 allocation");
        assert_eq!(allocations_parsed(999), "999 allocations");
        assert_eq!(allocations_parsed(1_000), "1,000 allocations");
        assert_eq!(allocations_parsed(1_234_567), "1,234,567 allocations");
    }

    /// The counter counts what the reader reports, and shows only once a
    /// pipe has given more than the threshold.
    #[test]
    fn the_counter_counts_and_shows_past_the_threshold() {
        let display = Display {
            bar: ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()),
            allocations: Arc::new(AtomicU64::new(0)),
            shown: Once::new(),
        };
        display.allocation();
        display.allocation();
        display.bytes(THRESHOLD);
        assert!(!display.shown.is_completed());
        display.bytes(1);
        assert!(display.shown.is_completed());
        assert_eq!(display.bar.position(), THRESHOLD + 1);
        assert_eq!(display.allocations.load(Ordering::Relaxed), 2);
    }
}
