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
