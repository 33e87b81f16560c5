//! Exit statuses: what a CI gate reads, so `--detailed-exitcode` keeps 2 for
//! "changes" and nothing else.

use std::ffi::OsString;
use std::process::ExitCode;

/// 2 for "changes" under `--detailed-exitcode`, else 0.
pub fn exit_code(changes: bool) -> ExitCode {
    if changes {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// Prints clap's message and exits as clap would (0 for `--help` and
/// `--version`, 2 for a usage error), except that with
/// `--detailed-exitcode` every error is 1: 2 means "changes" to a gate.
pub fn usage_error(err: &clap::Error, args: impl Iterator<Item = OsString>) -> ExitCode {
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
}
