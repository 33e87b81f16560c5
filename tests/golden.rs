//! Golden output for the bundled snapshots, in both formats, pinned with insta.

use std::path::Path;

use plan_inspect::read::read_snapshot_from;
use plan_inspect::render;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::Report;

fn report(name: &str) -> Report {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name);
    let file = std::fs::File::open(&path).unwrap();
    let snapshot = read_snapshot_from(file, name).unwrap();
    Replay::new(&snapshot, &Options::default())
        .unwrap()
        .report()
}

#[test]
fn example_json() {
    insta::assert_snapshot!(render::json::render(&report("example.json")));
}

#[test]
fn example_table() {
    let style = render::table::Style::default();
    insta::assert_snapshot!(render::table::render(&report("example.json"), style));
}

#[test]
fn example_table_verbose() {
    let style = render::table::Style {
        verbose: true,
        ..render::table::Style::default()
    };
    insta::assert_snapshot!(render::table::render(&report("example.json"), style));
}

#[test]
fn rollout_json() {
    insta::assert_snapshot!(render::json::render(&report("rollout.json")));
}

#[test]
fn rollout_table() {
    insta::assert_snapshot!(render::table::render(
        &report("rollout.json"),
        render::table::Style::default()
    ));
}

/// Service, batch, system and sysbatch jobs on one cluster with a node going
/// down, a drained node, an ineligible node, nodes a system job's checks
/// filter, and a rolling update of the system job.
#[test]
fn mixed_cluster_json() {
    insta::assert_snapshot!(render::json::render(&report("mixed-cluster.json")));
}

#[test]
fn mixed_cluster_table() {
    let style = render::table::Style::default();
    insta::assert_snapshot!(render::table::render(&report("mixed-cluster.json"), style));
}

/// The binary writes its tables a job at a time, each laid out on the
/// thread that replayed it: they read as the whole report's, shown and
/// quiet jobs alike, on one thread and on several.
#[test]
fn the_tables_written_a_job_at_a_time_are_the_whole_report_s() {
    for file in ["example.json", "mixed-cluster.json", "rollout.json"] {
        for verbose in [false, true] {
            let style = render::table::Style {
                verbose,
                width: 100,
                ..render::table::Style::default()
            };
            let whole = render::table::render(&report(file), style);
            let path = format!("fixtures/{file}");
            for threads in ["1", "3"] {
                let mut args = vec![path.as_str(), "-j", threads];
                if verbose {
                    args.push("--verbose");
                }
                let (_, out, _) = crate::common::plan_inspect(&args);
                assert_eq!(out, whole, "{file} verbose {verbose} -j {threads}");
            }
        }
    }
}
