//! The `DistinctHostsIterator` cases of scheduler/feasible_test.go at 1.3.0
//! and scheduler/feasible/feasible_test.go at 2.0.5, end to end through the
//! placement stage on `mock.Node()`s. Nomad's test puts the job's
//! allocations in the plan; here they run in the state, which
//! `ProposedAllocs` reads the same way, and the placement the iterator
//! would be asked for is the one the reconciler makes. Where the iterator
//! leaves one node, the placement lands there; where it leaves none, the
//! placement fails with every node filtered by "distinct_hosts". Then two
//! release changes of the checkers end to end: numeric orderings (#14722)
//! and the `none` network mode (#14300).

use plan_inspect::read::read_snapshot_from;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::JobReport;
use plan_inspect::version::{Release, VersionRequest, v};
use serde_json::{Value, json};

use super::generic_sched::{nodes, placed_nodes};

const BOTH: [Release; 2] = [v(1, 3, 0), v(2, 0, 5)];

fn id(i: usize) -> String {
    format!("{i:08}-0000-4000-8000-000000000000")
}

/// A group of `count` with one small exec task.
fn group(name: &str, count: i64) -> Value {
    json!({
        "Name": name, "Count": count, "EphemeralDisk": {"SizeMB": 10},
        "Tasks": [{"Name": "t", "Driver": "exec", "Resources": {"CPU": 100, "MemoryMB": 64}}]
    })
}

/// Job `foo` in `namespace` with `groups` and job `constraints`.
fn job(namespace: &str, groups: Vec<Value>, constraints: Value) -> Value {
    json!({
        "ID": "foo", "Name": "foo", "Namespace": namespace, "Type": "service",
        "Priority": 50, "Version": 0, "Datacenters": ["dc1"],
        "Constraints": constraints, "TaskGroups": groups
    })
}

fn distinct_hosts(r_target: &str) -> Value {
    json!([{"Operand": "distinct_hosts", "RTarget": r_target}])
}

/// A running allocation of `job`'s group `tg` (index `index`) on node `n`.
fn alloc(namespace: &str, job: &str, tg: &str, index: usize, n: usize) -> Value {
    json!({
        "ID": format!("{namespace}-{job}-{tg}-{index}"),
        "Name": format!("{job}.{tg}[{index}]"), "Namespace": namespace,
        "JobID": job, "TaskGroup": tg, "NodeID": id(n), "JobVersion": 0,
        "DesiredStatus": "run", "ClientStatus": "running",
        "AllocatedResources": {"Tasks": {"t": {"Cpu": {"CpuShares": 100},
                                              "Memory": {"MemoryMB": 64}}},
                               "Shared": {"DiskMB": 10}}
    })
}

/// The report of job `foo` in namespace `default` replayed at `release`.
fn replay(nodes: Vec<Value>, jobs: Vec<Value>, allocs: Vec<Value>, release: Release) -> JobReport {
    let text = json!({
        "Now": "2022-04-01T00:00:00Z", "Jobs": jobs, "Nodes": nodes, "Allocs": allocs
    })
    .to_string();
    let snapshot = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    };
    let report = Replay::new(&snapshot, &options).unwrap().report();
    report
        .jobs
        .into_iter()
        .find(|j| j.id == "foo" && j.namespace == "default")
        .unwrap()
}

/// The number of allocations of `tg` that failed, and how many nodes
/// "distinct_hosts" filtered for them.
fn failed(r: &JobReport, tg: &str) -> (u64, u64) {
    r.plan
        .failed_placements
        .iter()
        .find(|f| &*f.task_group == tg)
        .map_or((0, 0), |f| {
            let filtered = f.metrics.constraint_filtered.get("distinct_hosts");
            (f.count, filtered.copied().unwrap_or(0))
        })
}

/// `TestDistinctHostsIterator_JobDistinctHosts`: the job's "bar" runs on
/// node 0 and its "baz" on node 1, and another job's allocations (of the
/// same groups' names) on both; only node 2 takes another "bar". A third
/// "bar" finds every node taken.
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_distinct_hosts_iterator_job_distinct_hosts() {
    let allocs = vec![
        alloc("default", "foo", "bar", 0, 0),
        alloc("default", "ignore 2", "baz", 0, 0),
        alloc("default", "foo", "baz", 0, 1),
        alloc("default", "ignore 2", "bar", 0, 1),
    ];
    for release in BOTH {
        let groups = |bar| vec![group("bar", bar), group("baz", 1)];
        let j = job("default", groups(2), distinct_hosts(""));
        let r = replay(nodes(3), vec![j], allocs.clone(), release);
        assert_eq!(placed_nodes(&r), [id(2)], "{release}");
        assert_eq!(failed(&r, "bar"), (0, 0), "{release}");
        let j = job("default", groups(3), distinct_hosts(""));
        let r = replay(nodes(3), vec![j], allocs.clone(), release);
        assert_eq!(placed_nodes(&r), [id(2)], "{release}");
        assert_eq!(failed(&r, "bar"), (1, 3), "{release}");
    }
}

/// `TestDistinctHostsIterator_JobDistinctHosts_Table` (2.0.5): the job runs
/// on nodes 0 and 1, and a job of the same ID in namespace "different" on
/// all three. `RTarget` unset, "true" or unparsable leaves node 2 alone;
/// "false" turns the constraint off (#16907), so both placements of a
/// count of four succeed. At 1.3.0 the other namespace's allocation takes
/// node 2 too (before #19004) and `false` is not read (before #16907):
/// every case filters all three nodes.
#[test]
fn feasible_test_go_v2_0_5_distinct_hosts_iterator_job_distinct_hosts_table() {
    let allocs = vec![
        alloc("default", "foo", "bar", 0, 0),
        alloc("different", "foo", "bar", 0, 0),
        alloc("default", "foo", "bar", 1, 1),
        alloc("different", "foo", "bar", 1, 1),
        alloc("different", "foo", "bar", 2, 2),
    ];
    let other = job("different", vec![group("bar", 3)], json!([]));
    let run = |r_target: &str, count: i64, release: Release| {
        let j = job(
            "default",
            vec![group("bar", count)],
            distinct_hosts(r_target),
        );
        replay(nodes(3), vec![j, other.clone()], allocs.clone(), release)
    };
    for r_target in ["", "true", "not_a_bool"] {
        let r = run(r_target, 3, v(2, 0, 5));
        assert_eq!(placed_nodes(&r), [id(2)], "{r_target:?}");
        let r = run(r_target, 3, v(1, 3, 0));
        assert!(placed_nodes(&r).is_empty(), "{r_target:?}");
        assert_eq!(failed(&r, "bar"), (1, 3), "{r_target:?}");
    }
    let r = run("false", 4, v(2, 0, 5));
    assert_eq!(placed_nodes(&r).len(), 2);
    assert_eq!(failed(&r, "bar"), (0, 0));
    let r = run("false", 4, v(1, 3, 0));
    assert_eq!(failed(&r, "bar"), (2, 3));
    // The first tags of each change, and the patches before them.
    assert_eq!(failed(&run("false", 4, v(1, 3, 13)), "bar"), (2, 3));
    let r = run("false", 4, v(1, 3, 14));
    assert_eq!(failed(&r, "bar"), (0, 0));
    assert_eq!(failed(&run("", 3, v(1, 5, 10)), "bar"), (1, 3));
    assert_eq!(placed_nodes(&run("", 3, v(1, 5, 11))), [id(2)]);
    assert_eq!(failed(&run("", 3, v(1, 6, 3)), "bar"), (1, 3));
    assert_eq!(placed_nodes(&run("", 3, v(1, 6, 4))), [id(2)]);
}

/// `TestDistinctHostsIterator_JobDistinctHosts_InfeasibleCount`: three
/// groups of a distinct-hosts job on two nodes; with "bar" on node 0 and
/// "baz" on node 1, "bam" has nowhere to go.
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_distinct_hosts_iterator_job_distinct_hosts_infeasible_count() {
    let allocs = vec![
        alloc("default", "foo", "bar", 0, 0),
        alloc("default", "foo", "baz", 0, 1),
    ];
    let groups = vec![group("bar", 1), group("baz", 1), group("bam", 1)];
    for release in BOTH {
        let j = job("default", groups.clone(), distinct_hosts(""));
        let r = replay(nodes(2), vec![j], allocs.clone(), release);
        assert!(placed_nodes(&r).is_empty(), "{release}");
        assert_eq!(failed(&r, "bam"), (1, 2), "{release}");
    }
}

/// `TestDistinctHostsIterator_TaskGroupDistinctHosts`: group "example" is
/// distinct per host and runs on node 0; another job's "example" on node
/// 1 does not count, so node 1 takes the next one and a third finds none.
/// Group "baz", without the constraint, is placed on both nodes.
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_distinct_hosts_iterator_task_group_distinct_hosts() {
    let allocs = vec![
        alloc("default", "foo", "example", 0, 0),
        alloc("default", "bar", "example", 0, 1),
    ];
    let mut example = group("example", 3);
    example["Constraints"] = distinct_hosts("");
    for release in BOTH {
        let j = job("default", vec![example.clone()], json!([]));
        let r = replay(nodes(2), vec![j], allocs.clone(), release);
        assert_eq!(placed_nodes(&r), [id(1)], "{release}");
        assert_eq!(failed(&r, "example"), (1, 2), "{release}");
        let mut one = example.clone();
        one["Count"] = json!(1);
        let j = job("default", vec![one, group("baz", 2)], json!([]));
        let r = replay(nodes(2), vec![j], allocs.clone(), release);
        let mut placed = placed_nodes(&r);
        placed.sort();
        assert_eq!(placed, [id(0), id(1)], "{release}");
    }
}

/// `node(i)` with its own computed class, so that each is checked on its
/// own, and `attributes` added.
fn node_with(i: usize, attributes: Value) -> Value {
    let mut n = super::generic_sched::node(i);
    n["ComputedClass"] = json!(format!("v1:node-{i}"));
    for (k, v) in attributes.as_object().into_iter().flatten() {
        n["Attributes"][k] = v.clone();
    }
    n
}

/// #14722 end to end (`TestCheckOrder`, v2.0.5 feasible_test.go:1935):
/// `${attr.cpu.numcores} >= 8` on a 4-core and a 16-core node. From 1.4.0
/// the 16-core node takes the placement; at 1.3.x both compare as strings
/// ("16" < "8") and the placement fails with both nodes filtered by the
/// constraint.
#[test]
fn feasible_test_go_v1_4_0_check_order_numeric_constraint() {
    let nodes = vec![
        node_with(0, json!({"cpu.numcores": "4"})),
        node_with(1, json!({"cpu.numcores": "16"})),
    ];
    let constraint = json!([{"LTarget": "${attr.cpu.numcores}", "RTarget": "8", "Operand": ">="}]);
    let run = |release| {
        let j = job("default", vec![group("bar", 1)], constraint.clone());
        replay(nodes.clone(), vec![j], vec![], release)
    };
    for release in [v(1, 4, 0), v(2, 0, 5)] {
        assert_eq!(placed_nodes(&run(release)), [id(1)], "{release}");
    }
    for release in [v(1, 3, 0), v(1, 3, 16)] {
        let r = run(release);
        assert!(placed_nodes(&r).is_empty(), "{release}");
        let f = &r.plan.failed_placements[0];
        assert_eq!(f.count, 1);
        assert_eq!(
            f.metrics.constraint_filtered["${attr.cpu.numcores} >= 8"],
            2
        );
    }
}

/// #14300 end to end: a group whose network mode is `none` is placed from
/// 1.4.2 and 1.5.0; before, every node is filtered as "missing network".
#[test]
fn feasible_test_go_v1_4_2_network_mode_none() {
    let mut bar = group("bar", 1);
    bar["Networks"] = json!([{"Mode": "none"}]);
    let run = |release| {
        let j = job("default", vec![bar.clone()], json!([]));
        let nodes = vec![node_with(0, json!({})), node_with(1, json!({}))];
        replay(nodes, vec![j], vec![], release)
    };
    for release in [v(1, 4, 2), v(1, 5, 0), v(2, 0, 5)] {
        assert_eq!(placed_nodes(&run(release)).len(), 1, "{release}");
    }
    for release in [v(1, 3, 0), v(1, 4, 1)] {
        let r = run(release);
        assert!(placed_nodes(&r).is_empty(), "{release}");
        let f = &r.plan.failed_placements[0];
        assert_eq!(f.metrics.constraint_filtered["missing network"], 2);
    }
}
