//! Memory stays bounded on hostile input: the binary's peak resident set is
//! measured by GNU time (`/usr/bin/time -f %M`), which forks the binary from
//! its own small process. A child forked from this test program would not
//! do: on Linux a child's peak counts the memory of the process it was
//! forked from until it execs, and this program grows as other tests run
//! beside it (the peak then read as 218 MiB against a 214 MiB bound).
//!
//! The documented bound (docs/input.md, "Memory"): an element of a key
//! plan-inspect skips is held once while it is checked (the fast reader's
//! buffer grows to fit it) and then dropped, so peak RSS stays under 64 MiB
//! plus 1.5 times the largest skipped element; a string it reads is held at
//! most three times while being parsed (serde_json's scratch buffer, the
//! decoded value, the output), so peak RSS stays under 64 MiB plus three
//! times the largest used string.

use std::process::Command;

use assert_cmd::cargo::cargo_bin;

const MIB: u64 = 1 << 20;

/// GNU time, which `.ci/run` installs where it is missing.
const TIME: &str = "/usr/bin/time";

/// What one run printed, and its peak RSS in bytes.
struct Run {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    peak_rss: u64,
}

/// Runs the binary on `before`, 100 MiB of `x`, then `after`. The file is
/// written in chunks: a forked child starts with this process's resident pages,
/// so the test must not hold the big string itself.
fn run_on(before: &str, after: &str) -> Run {
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("plan-inspect-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("hostile.json");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    file.write_all(before.as_bytes()).unwrap();
    let chunk = vec![b'x'; MIB as usize];
    for _ in 0..100 {
        file.write_all(&chunk).unwrap();
    }
    file.write_all(after.as_bytes()).unwrap();
    file.into_inner().unwrap().sync_all().unwrap();
    let (out_path, err_path, rss_path) = (dir.join("stdout"), dir.join("stderr"), dir.join("rss"));
    let status = Command::new(TIME)
        .arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(&rss_path)
        .arg(cargo_bin("plan-inspect"))
        .args([path.to_str().unwrap(), "--format", "json"])
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .status()
        .unwrap_or_else(|e| panic!("{TIME}: {e}; install GNU time (Debian package time)"));
    // time writes "Command exited with non-zero status N" before the figure.
    let rss = std::fs::read_to_string(&rss_path).unwrap();
    let kib: u64 = rss.lines().last().unwrap().trim().parse().unwrap();
    let run = Run {
        code: status.code(),
        stdout: std::fs::read(&out_path).unwrap(),
        stderr: std::fs::read(&err_path).unwrap(),
        peak_rss: kib * 1024,
    };
    std::fs::remove_dir_all(&dir).unwrap();
    run
}

#[test]
fn peak_memory_stays_within_the_documented_bound() {
    // 100 MB in a skipped key: held once while checked, then dropped.
    let out = run_on(
        r#"{"Now": "2022-04-01T00:00:00Z", "Nodes": [], "ACLTokens": [{"SecretID": ""#,
        r#""}]}"#,
    );
    assert_eq!(out.code, Some(0));
    let skipped = out.peak_rss;
    assert!(
        skipped < 64 * MIB + 3 * 100 * MIB / 2,
        "skipped 100 MB string: peak {} MiB",
        skipped / MIB
    );

    // 100 MB in a job's task config, which is read and kept for comparison.
    let out = run_on(
        r#"{"Now": "2022-04-01T00:00:00Z", "Jobs": [{"ID": "web", "Type": "service",
            "TaskGroups": [{"Name": "web", "Count": 1, "Tasks": [{"Config": {"image": ""#,
        r#""}}]}]}]}"#,
    );
    assert_eq!(
        out.code,
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["jobs"][0]["plan"]["place"].as_array().map(Vec::len),
        Some(1)
    );
    let used = out.peak_rss;
    assert!(
        used < 64 * MIB + 3 * 100 * MIB,
        "used 100 MB string: peak {} MiB",
        used / MIB
    );
    eprintln!(
        "peak RSS: skipped {} MiB, used {} MiB",
        skipped / MIB,
        used / MIB
    );
}
