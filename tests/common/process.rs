//! Running the binary: from the crate's folder with 100 columns, or with
//! bytes on its stdin, as a shell pipe gives them.

use std::io::{ErrorKind, Write};
use std::process::{Command, Stdio};

use assert_cmd::cargo::CommandCargoExt;

/// `plan-inspect args` run from the crate's folder, `COLUMNS=100`: the exit
/// code, stdout and stderr.
pub fn plan_inspect(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("plan-inspect")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("COLUMNS", "100")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Runs `command` with `stdin` piped in; the exit code, stdout and stderr.
///
/// A run refused before it reads its input (a usage error) closes the pipe
/// while the bytes are still being written, as `cmd | plan-inspect` would
/// see it: that broken pipe is the program's answer, not the test's failure.
pub fn piped(command: &mut Command, stdin: &[u8]) -> (i32, String, String) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    if let Err(e) = input.write_all(stdin) {
        assert_eq!(e.kind(), ErrorKind::BrokenPipe, "writing stdin: {e}");
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}
