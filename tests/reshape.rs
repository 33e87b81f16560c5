//! Every output of every bundled snapshot, pinned as digests: the JSON
//! report, the table (default and `--verbose`) and `--explain` of every
//! allocation and placement, as JSON and as a verbose table, at six
//! releases. A change of structure must leave each digest as it is; a
//! change of behaviour updates the snapshot on purpose (`cargo insta
//! review`), and the digest line names what changed.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use plan_inspect::explain::explain;
use plan_inspect::model::Snapshot;
use plan_inspect::read::read_snapshot_from;
use plan_inspect::render;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::version::{Release, VersionRequest, v};

/// FNV-1a, 64 bits: stable across Rust releases and platforms, which
/// `std`'s hasher does not promise.
fn digest(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

fn snapshots(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            snapshots(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// Every subject `--explain` takes in `report`'s JSON: each allocation of
/// the snapshot and each placement (with its node for system jobs).
fn subjects(snapshot: &Snapshot, report: &serde_json::Value) -> Vec<String> {
    let mut subjects: Vec<String> = snapshot.allocs.iter().map(|a| a.id.to_string()).collect();
    for job in report["jobs"].as_array().unwrap() {
        for place in job["plan"]["place"].as_array().unwrap() {
            let name = place["name"].as_str().unwrap();
            subjects.push(match place["node_id"].as_str() {
                Some(node) => format!("{name}@{node}"),
                None => name.to_string(),
            });
        }
    }
    subjects.sort();
    subjects.dedup();
    subjects
}

fn digests(path: &Path, release: Release) -> String {
    let file = std::fs::File::open(path).unwrap();
    let snapshot = read_snapshot_from(file, &path.display().to_string()).unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    };
    let report = Replay::new(&snapshot, &options).unwrap().report();
    let json = render::json::render(&report);
    let mut table = String::new();
    for (verbose, width) in [(false, 80), (true, 160)] {
        let style = render::table::Style {
            color: false,
            verbose,
            width,
        };
        table.push_str(&render::table::render(&report, style));
    }
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let subjects = subjects(&snapshot, &value);
    let mut explained = String::new();
    for subject in &subjects {
        match explain(&snapshot, &options, subject) {
            Ok(e) => {
                explained.push_str(&render::explain::json(&e));
                explained.push_str(&render::explain::table(&e, false, 100, true));
            }
            Err(e) => writeln!(explained, "{subject}: {e}").unwrap(),
        }
    }
    format!(
        "json {} table {} explain {} ({} subjects)",
        digest(&json),
        digest(&table),
        digest(&explained),
        subjects.len()
    )
}

#[test]
fn every_output_of_every_bundled_snapshot() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut paths = Vec::new();
    snapshots(&root, &mut paths);
    paths.sort();
    let releases = [
        Release::Seed,
        v(1, 5, 0),
        v(1, 8, 0),
        v(1, 10, 5),
        v(1, 11, 2),
        v(2, 0, 5),
    ];
    let mut lines = String::new();
    for path in &paths {
        let name = path.strip_prefix(&root).unwrap().display().to_string();
        for release in releases {
            writeln!(lines, "{name} {release}: {}", digests(path, release)).unwrap();
        }
    }
    insta::assert_snapshot!(lines);
}
