//! `--threads` changes how the snapshot is read, never what comes out.

use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;

/// Every snapshot the tests ship, good and bad.
fn inputs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let mut dirs = vec![root.join("fixtures"), root.join("tests/bad_input")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.to_string_lossy();
            if path.is_dir() {
                dirs.push(path);
            } else if name.ends_with(".json") || name.ends_with(".gz") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn run(path: &Path, threads: &str, format: &[&str]) -> (Option<i32>, Vec<u8>, Vec<u8>) {
    let out = Command::cargo_bin("plan-inspect")
        .unwrap()
        .arg(path)
        .args([
            "--threads",
            threads,
            "--color",
            "never",
            "--now",
            "2022-04-01T00:00:00Z",
        ])
        .args(format)
        .output()
        .unwrap();
    (out.status.code(), out.stdout, out.stderr)
}

#[test]
fn one_thread_and_four_give_the_same_bytes_on_every_fixture() {
    let inputs = inputs();
    assert!(inputs.len() > 30, "{} inputs", inputs.len());
    for path in &inputs {
        for format in [&["--format", "json"][..], &["--verbose"][..]] {
            let one = run(path, "1", format);
            assert_eq!(run(path, "4", format), one, "{} {format:?}", path.display());
            assert_eq!(run(path, "0", format), one, "{} {format:?}", path.display());
        }
    }
}
