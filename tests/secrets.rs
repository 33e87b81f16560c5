//! Secrets never reach the output: keys plan-inspect does not use (`ACLTokens`,
//! `SITokens`, `OneTimeTokens`, `Variables`, `RootKeyMeta`) are skipped unread,
//! and the secret-bearing parts of a task it keeps for comparison (`Env`,
//! `Vault`, `Templates`) are never printed, in any output mode or error.

use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;

use crate::common::piped;

const MARKER: &str = "MARKER-5ec2e7";

/// Runs the binary, feeding `stdin` when given; stdout and stderr together.
fn output(args: &[&str], stdin: Option<&[u8]>) -> (i32, String) {
    let mut c = Command::cargo_bin("plan-inspect").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR")).args(args);
    let (code, stdout, stderr) = piped(&mut c, stdin.unwrap_or_default());
    (code, stdout + &stderr)
}

const MODES: &[&[&str]] = &[
    &[],
    &["--verbose"],
    &["--color", "always"],
    &["--color", "always", "--verbose"],
    &["--format", "json"],
    &["--format", "json", "--verbose"],
    &["--job", "web", "--verbose", "--detailed-exitcode"],
    &["--job", "absent"],
];

#[test]
fn no_secret_in_any_output_mode() {
    let file = "tests/bad_input/secrets.json";
    let bytes = std::fs::read(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    assert!(String::from_utf8_lossy(&bytes).matches(MARKER).count() >= 8);
    for mode in MODES {
        for (source, stdin) in [(file, None), ("-", Some(bytes.as_slice()))] {
            let args: Vec<&str> = std::iter::once(source)
                .chain(mode.iter().copied())
                .collect();
            let (code, text) = output(&args, stdin);
            assert!(!text.contains(MARKER), "{args:?} printed a secret:\n{text}");
            assert!(
                code == 0 || code == 2 || text.contains("no job"),
                "{args:?}: {code} {text}"
            );
        }
    }
}

#[test]
fn a_syntax_error_right_after_a_secret_does_not_echo_it() {
    let (code, text) = output(&["tests/bad_input/secret_then_syntax_error.json"], None);
    assert_eq!(code, 1);
    assert_eq!(
        text,
        "plan-inspect: tests/bad_input/secret_then_syntax_error.json:1:49: at ACLTokens: expected `,` or `]`\n"
    );
}
