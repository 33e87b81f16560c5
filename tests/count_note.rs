//! The note under a job's desired-changes table: printed exactly when the
//! counts, read from the JSON, do not add up to the plan's lists (stops to
//! Stop and Migrate, placements to Place, Canary and Migrate, destructive
//! and in-place updates to their own), on every bundled snapshot at six
//! releases; and both of docs/nomad-behaviour.md's cases of bundled
//! snapshots are met.

use std::path::Path;

use plan_inspect::read::read_snapshot_from;
use plan_inspect::render;
use plan_inspect::render::table::Style;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::Report;
use plan_inspect::version::{Release, VersionRequest, v};
use serde_json::Value;

/// Whether the job's JSON counts miss one of its plan's lists.
fn counts_differ(job: &Value) -> bool {
    let sum = |keys: &[&str]| -> u64 {
        let groups = job["groups"].as_array().unwrap();
        groups
            .iter()
            .flat_map(|g| {
                keys.iter()
                    .map(move |k| g["desired_changes"][k].as_u64().unwrap())
            })
            .sum()
    };
    let listed = |list: &str| job["plan"][list].as_array().unwrap().len() as u64;
    listed("stop") != sum(&["stop", "migrate"])
        || listed("place") != sum(&["place", "canary", "migrate"])
        || listed("destructive_update") != sum(&["destructive_update"])
        || listed("in_place_update") != sum(&["in_place_update"])
}

#[test]
fn the_note_shows_exactly_when_the_counts_miss_the_lists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut paths: Vec<_> = ["", "incidents"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let mut noted = Vec::new();
    for path in &paths {
        let name = path.file_name().unwrap().to_str().unwrap();
        let snapshot = read_snapshot_from(std::fs::File::open(path).unwrap(), name).unwrap();
        for release in [
            v(1, 3, 0),
            v(1, 3, 16),
            v(1, 6, 10),
            v(1, 9, 7),
            v(1, 11, 2),
            v(2, 0, 5),
        ] {
            let mut options = Options {
                nomad_version: Some(VersionRequest::Release(release)),
                ..Options::default()
            };
            let reports = [Replay::new(&snapshot, &options).unwrap().report(), {
                options.nomad_version = Some(VersionRequest::Release(Release::Seed));
                Replay::new(&snapshot, &options).unwrap().report()
            }];
            for report in reports {
                for job in &report.jobs {
                    let alone = Report {
                        jobs: vec![job.clone()],
                        ..report.clone()
                    };
                    let json: Value = serde_json::from_str(&render::json::render(&alone)).unwrap();
                    let differ = counts_differ(&json["jobs"][0]);
                    let style = Style {
                        verbose: true,
                        ..Style::default()
                    };
                    let table = render::table::render(&alone, style);
                    assert_eq!(
                        table.contains("\nNote: "),
                        differ,
                        "{name} {:?} {}:\n{table}",
                        report.nomad_version,
                        job.id
                    );
                    if differ {
                        noted.push((name.to_string(), job.id.clone(), job.stopped));
                    }
                }
            }
        }
    }
    // A system job (mixed-cluster.json's node-exporter) and a stopped
    // service job at the seed (rollout.json's cache).
    assert!(
        noted
            .iter()
            .any(|(f, j, _)| f == "mixed-cluster.json" && j == "node-exporter")
    );
    assert!(
        noted
            .iter()
            .any(|(f, j, stopped)| f == "rollout.json" && j == "cache" && *stopped)
    );
}
