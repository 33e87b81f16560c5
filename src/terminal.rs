//! Where the answer and the warnings go: stdout and stderr, the width to
//! lay text out for and whether to color it, as the flags and the
//! environment say.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};

use plan_inspect::render;
use plan_inspect::warning::Warning;

use crate::cli::{Cli, Color};

/// The table style for stdout.
pub fn style(cli: &Cli) -> render::table::Style {
    render::table::Style {
        color: use_color(cli.color),
        verbose: cli.verbose,
        width: layout_width(&io::stdout()),
    }
}

/// Warnings go to stderr whatever the format (the JSON document has them
/// too): after the answer on stdout where it is written a job at a time
/// (tables, JSON), since the replay finds them as it goes.
pub fn warn(warnings: &[Warning], when: Color) {
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
pub fn layout_width(stream: &(impl IsTerminal + std::os::fd::AsFd)) -> u16 {
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
pub fn use_color(when: Color) -> bool {
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

pub fn write_stdout(bytes: &[u8]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()
}

pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

#[cfg(test)]
mod tests {
    use super::*;

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
