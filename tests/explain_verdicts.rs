//! `--explain` of a service placement with the placement stage's verdicts
//! on every node (filtered, exhausted, scores, the choice, a failure and
//! its nearest miss, bounded at scale), `NAME@NODE` on a service job, and
//! `--explain-node`.

use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use plan_inspect::explain::{Explanation, Step, explain, explain_node};
use plan_inspect::model::Snapshot;
use plan_inspect::read::read_snapshot_from;
use plan_inspect::render;
use plan_inspect::replay::{Options, Replay};
use serde_json::{Value, json};

/// A ready linux node of `cpu` MHz and `memory` MB, nothing reserved.
fn node(i: usize, name: &str, cpu: i64, memory: i64) -> Value {
    json!({
        "ID": format!("{i:08}-0000-4000-8000-000000000000"),
        "Name": name,
        "Datacenter": "dc1",
        "Status": "ready",
        "SchedulingEligibility": "eligible",
        "Attributes": {"kernel.name": "linux", "nomad.version": "1.6.0"},
        "Drivers": {"exec": {"Detected": true, "Healthy": true}},
        "NodeResources": {
            "Cpu": {"CpuShares": cpu},
            "Memory": {"MemoryMB": memory},
            "Disk": {"DiskMB": 10240}
        },
        "ReservedResources": {}
    })
}

fn with(mut node: Value, key: &str, value: Value) -> Value {
    node[key] = value;
    node
}

fn windows(i: usize, name: &str) -> Value {
    let mut n = node(i, name, 4000, 8192);
    n["Attributes"]["kernel.name"] = json!("windows");
    n
}

/// Job "web": group "web" of `count`, one exec task of 500 MHz and 1024
/// MB, on linux.
fn job(count: i64) -> Value {
    json!({
        "ID": "web", "Name": "web", "Namespace": "default", "Type": "service",
        "Priority": 50, "Version": 0, "Datacenters": ["dc1"],
        "Constraints": [{"LTarget": "${attr.kernel.name}", "RTarget": "linux", "Operand": "="}],
        "TaskGroups": [{
            "Name": "web", "Count": count, "EphemeralDisk": {"SizeMB": 100},
            "Tasks": [{"Name": "web", "Driver": "exec",
                       "Resources": {"CPU": 500, "MemoryMB": 1024}}]
        }]
    })
}

fn snapshot(nodes: Vec<Value>, job: Value) -> Snapshot {
    let text = json!({
        "Now": "2022-04-01T00:00:00Z", "NomadVersion": "1.6.0",
        "Jobs": [job], "Nodes": nodes, "Allocs": []
    })
    .to_string();
    read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap()
}

/// node-0 empty and large, node-1 windows, node-2 down, node-3 short of
/// memory, node-4 small: bin packing prefers it.
fn cluster() -> Snapshot {
    snapshot(
        vec![
            node(0, "node-0", 8000, 16384),
            windows(1, "node-1"),
            with(node(2, "node-2", 4000, 8192), "Status", json!("down")),
            node(3, "node-3", 4000, 768),
            node(4, "node-4", 2000, 4096),
        ],
        job(1),
    )
}

fn explained(s: &Snapshot, subject: &str) -> Explanation {
    explain(s, &Options::default(), subject).expect("explain failed")
}

fn step<'e>(e: &'e Explanation, title: &str) -> &'e Step {
    e.steps
        .iter()
        .find(|s| s.title == title)
        .unwrap_or_else(|| panic!("no step {title}: {:?}", e.steps))
}

fn fact<'s>(s: &'s Step, name: &str) -> &'s str {
    s.facts
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.value.as_str())
        .unwrap_or_else(|| panic!("no fact {name} in {s:?}"))
}

#[test]
fn a_placement_tells_every_node_s_verdict_and_why_the_chosen_node_won() {
    let s = cluster();
    let report = Replay::new(&s, &Options::default()).unwrap().report();
    let place = &report.jobs[0].plan.place[0];
    assert_eq!(
        place.node_id.as_deref(),
        Some("00000004-0000-4000-8000-000000000000")
    );
    let score = place.score.unwrap().0;
    let e = explained(&s, "web.web[0]");
    let targets = step(&e, "Targets");
    assert_eq!(
        targets.conclusion,
        "4 of 5 nodes are ready and in the job's datacenters and node pool: the stack evaluates them"
    );
    assert_eq!(fact(targets, "status down"), "1 node: node-2");
    let feasibility = step(&e, "Feasibility");
    assert_eq!(
        feasibility.conclusion,
        "1 of 4 evaluated nodes are filtered"
    );
    assert_eq!(
        fact(feasibility, "${attr.kernel.name} = linux"),
        "1 node: node-1"
    );
    let resources = step(&e, "Resources");
    assert_eq!(resources.conclusion, "1 of 3 feasible nodes have no room");
    assert_eq!(
        fact(resources, "memory"),
        "1 node: node-3 lacks 256 MB memory"
    );
    let scores = step(&e, "Scores");
    let names: Vec<&str> = scores.facts.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["node-4", "node-0"]);
    assert_eq!(
        fact(scores, "node-4"),
        format!("final {score:.4} = mean(binpack {score:.4})")
    );
    let choice = step(&e, "Choice");
    assert_eq!(
        choice.conclusion,
        format!("node-4: the highest final score, {score:.4}")
    );
    assert_eq!(
        fact(choice, "node"),
        "00000004-0000-4000-8000-000000000000 (node-4)"
    );
    assert!(fact(choice, "runner-up").starts_with("node-0 with "));
    assert_eq!(
        e.fate,
        ["new allocation placed: web.web[0] on node 00000004-0000-4000-8000-000000000000"]
    );
    let text = render::explain::table(&e, false, 100, false);
    assert!(
        text.contains("7. Choice: node-4: the highest final score"),
        "{text}"
    );
}

/// `NAME@NODE` on a service job explains the service placement, with that
/// node's verdict, not the system scheduler's story (which only a system or
/// sysbatch job has).
#[test]
fn name_at_node_on_a_service_placement_tells_that_node_s_verdict() {
    let s = cluster();
    let e = explained(&s, "web.web[0]@node-0");
    assert_eq!(
        e.subject.name,
        "web.web[0]@00000000-0000-4000-8000-000000000000"
    );
    assert!(e.steps.iter().all(|s| !s.title.starts_with("System diff")));
    let node = step(&e, "Node");
    assert_eq!(node.conclusion, "node-0: fits, ranked 2 of 2");
    assert!(fact(node, "chosen instead").starts_with("node-4 with "));
    let e = explained(&s, "web.web[0]@00000001");
    assert_eq!(
        step(&e, "Node").conclusion,
        "node-1: filtered by ${attr.kernel.name} = linux"
    );
    let e = explained(&s, "web.web[0]@node-3");
    assert_eq!(
        step(&e, "Node").conclusion,
        "node-3: no room, it lacks 256 MB memory"
    );
    let e = explained(&s, "web.web[0]@node-2");
    assert_eq!(
        step(&e, "Node").conclusion,
        "node-2: status down, not evaluated"
    );
    let err = explain(&s, &Options::default(), "web.web[0]@zz").unwrap_err();
    assert_eq!(
        err.to_string(),
        "no node has the ID, name or ID prefix \"zz\"; the snapshot's nodes: \
         00000000-0000-4000-8000-000000000000 (node-0), 00000001-0000-4000-8000-000000000000 (node-1), \
         00000002-0000-4000-8000-000000000000 (node-2), 00000003-0000-4000-8000-000000000000 (node-3), \
         00000004-0000-4000-8000-000000000000 (node-4)"
    );
    let err = explain(&s, &Options::default(), "web.web[0]@0000000").unwrap_err();
    assert!(
        err.to_string().starts_with(
            "\"0000000\" matches 5 nodes: 00000000-0000-4000-8000-000000000000 (node-0), "
        ),
        "{err}"
    );
}

/// A group no node takes: the first failure tells why each node said no
/// and the nearest miss; the second is counted with it, and says so.
#[test]
fn a_failed_placement_groups_the_refusals_and_names_the_nearest_miss() {
    let s = snapshot(
        vec![
            node(0, "node-0", 4000, 768),
            node(1, "node-1", 4000, 512),
            windows(2, "node-2"),
            node(3, "node-3", 100, 8192),
        ],
        job(2),
    );
    let e = explained(&s, "web.web[0]");
    assert_eq!(
        e.fate,
        ["new allocation not placed: web.web[0]: no node takes it"]
    );
    let resources = step(&e, "Resources");
    assert_eq!(resources.conclusion, "3 of 3 feasible nodes have no room");
    assert_eq!(
        fact(resources, "memory"),
        "2 nodes: node-0 lacks 256 MB memory, node-1 lacks 512 MB memory"
    );
    assert_eq!(fact(resources, "cpu"), "1 node: node-3 lacks 400 MHz cpu");
    let choice = step(&e, "Choice");
    assert_eq!(
        choice.conclusion,
        "no node takes it: of 4 evaluated, 1 filtered and 3 without room: a failed placement"
    );
    assert_eq!(
        fact(choice, "nearest miss"),
        "node node-0 lacks 256 MB memory"
    );
    assert!(e.steps.iter().all(|s| s.title != "Scores"));

    let e = explained(&s, "web.web[1]");
    let nodes = step(&e, "Nodes");
    assert_eq!(
        nodes.conclusion,
        "not looked for: group web already failed at web.web[0] in this evaluation, and Nomad \
         counts this one with that failure (CoalescedFailures) without trying the nodes again; \
         the verdicts that follow are that failure's"
    );
    assert_eq!(
        step(&e, "Choice").conclusion,
        "no node takes it: of 4 evaluated, 1 filtered and 3 without room: a failed placement"
    );
}

/// Ten thousand nodes or forty: reasons are grouped with counts and three
/// examples, and five scores are listed with a count of the rest.
#[test]
fn the_verdicts_stay_bounded_however_many_nodes() {
    let mut nodes: Vec<Value> = (0..40).map(|i| windows(i, &format!("w-{i:02}"))).collect();
    nodes.extend((40..52).map(|i| node(i, &format!("l-{i:02}"), 4000, 8192)));
    let s = snapshot(nodes, job(1));
    let e = explained(&s, "web.web[0]");
    assert_eq!(
        fact(step(&e, "Feasibility"), "${attr.kernel.name} = linux"),
        "40 nodes: w-00, w-01, w-02 and 37 more"
    );
    let scores = step(&e, "Scores");
    assert_eq!(scores.facts.len(), 6);
    assert!(fact(scores, "more").starts_with("7 more nodes fit, scoring "));
    // Every node scores the same: the lowest ID wins.
    assert_eq!(
        step(&e, "Choice").conclusion,
        format!(
            "l-40: the highest final score, {}, tied; the lowest node ID wins the tie",
            fact(scores, "l-40")
                .strip_prefix("final ")
                .and_then(|s| s.split(' ').next())
                .unwrap()
        )
    );
}

/// Nomad caches a check's verdict per computed class within an evaluation:
/// a later placement's nodes of a class that failed read "computed class
/// ineligible", and the explanation names the check behind it.
#[test]
fn a_class_found_ineligible_earlier_names_the_check_it_failed() {
    let class = |n: Value, c: &str| with(n, "ComputedClass", json!(c));
    let nodes = vec![
        class(windows(0, "w-0"), "v1:windows"),
        class(windows(1, "w-1"), "v1:windows"),
        class(node(2, "l-2", 4000, 8192), "v1:linux"),
        class(node(3, "l-3", 4000, 8192), "v1:linux"),
    ];
    let s = snapshot(nodes, job(2));
    let first = explained(&s, "web.web[0]");
    assert_eq!(
        fact(step(&first, "Feasibility"), "${attr.kernel.name} = linux"),
        "1 node: w-0"
    );
    assert_eq!(
        fact(
            step(&first, "Feasibility"),
            "computed class ineligible (${attr.kernel.name} = linux)"
        ),
        "1 node: w-1"
    );
    let second = explained(&s, "web.web[1]");
    assert_eq!(
        fact(
            step(&second, "Feasibility"),
            "computed class ineligible (${attr.kernel.name} = linux)"
        ),
        "2 nodes: w-0, w-1"
    );
    let e = explained(&s, "web.web[1]@w-0");
    assert_eq!(
        fact(step(&e, "Node"), "class failed"),
        "${attr.kernel.name} = linux"
    );
}

#[test]
fn explain_node_shows_capacity_what_runs_what_the_plan_adds_and_what_is_left() {
    let s = cluster();
    let e = explain_node(&s, &Options::default(), "node-4").unwrap();
    assert_eq!(e.node.id, "00000004-0000-4000-8000-000000000000");
    assert_eq!((e.capacity.cpu_mhz, e.capacity.memory_mb), (2000, 4096));
    assert!(e.running.is_empty());
    assert_eq!(e.adds.len(), 1);
    let add = &e.adds[0];
    assert_eq!((add.name.as_str(), add.kind), ("web.web[0]", "place"));
    assert_eq!(
        (
            add.resources.cpu_mhz,
            add.resources.memory_mb,
            add.resources.disk_mb
        ),
        (500, 1024, 100)
    );
    assert_eq!(
        (e.left.cpu_mhz, e.left.memory_mb, e.left.disk_mb),
        (1500, 3072, 10140)
    );
    let e = explain_node(&s, &Options::default(), "node-0").unwrap();
    assert!(e.adds.is_empty());
    assert_eq!(e.left.cpu_mhz, 8000);
}

/// A running allocation that the plan stops (its group scaled to 0): what
/// it held is freed.
#[test]
fn explain_node_frees_what_a_stopped_allocation_held() {
    let alloc = json!({
        "ID": "a0000000-0000-4000-8000-000000000000", "Namespace": "default",
        "JobID": "web", "TaskGroup": "web", "Name": "web.web[0]",
        "NodeID": "00000004-0000-4000-8000-000000000000",
        "ClientStatus": "running", "DesiredStatus": "run",
        "AllocatedResources": {
            "Tasks": {"web": {"Cpu": {"CpuShares": 500}, "Memory": {"MemoryMB": 1024}}},
            "Shared": {"DiskMB": 100}
        }
    });
    let text = json!({
        "Now": "2022-04-01T00:00:00Z", "NomadVersion": "1.6.0",
        "Jobs": [job(0)], "Nodes": [node(4, "node-4", 2000, 4096)], "Allocs": [alloc]
    })
    .to_string();
    let s = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
    let e = explain_node(&s, &Options::default(), "node-4").unwrap();
    assert_eq!(e.running.len(), 1);
    assert_eq!(e.running[0].resources.cpu_mhz, 500);
    assert_eq!(e.used.memory_mb, 1024);
    assert_eq!(e.frees.len(), 1);
    assert_eq!(
        (e.frees[0].kind, e.frees[0].why.as_str()),
        ("stop", "alloc not needed due to job update")
    );
    assert_eq!((e.used_after.cpu_mhz, e.left.cpu_mhz), (0, 2000));
    let json = render::explain_node::json(&e);
    let doc: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(
        doc["explain_node"]["frees"][0]["resources"]["memory_mb"],
        1024
    );
    let table = render::explain_node::table(&e, false, 80, false);
    assert!(table.contains("Plan frees"), "{table}");
    assert!(
        table.lines().all(|l| l.len() <= 80 && !l.ends_with(' ')),
        "{table}"
    );
}

fn bin() -> Command {
    let mut c = Command::cargo_bin("plan-inspect").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

#[test]
fn explain_node_of_an_unknown_or_ambiguous_node_exits_1_with_nothing_on_stdout() {
    let out = bin()
        .args(["fixtures/mixed-cluster.json", "--explain-node", "zz"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(
            "no node has the ID, name or ID prefix \"zz\"; the snapshot's nodes: \
             00000001-aaaa-bbbb-cccc-000000000001 (client-1), "
        ),
        "{stderr}"
    );
    let out = bin()
        .args(["fixtures/mixed-cluster.json", "--explain-node", "0000000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("\"0000000\" matches 7 nodes: "), "{stderr}");
    assert!(stderr.contains("; give more of the ID"), "{stderr}");
    let out = bin()
        .args([
            "fixtures/mixed-cluster.json",
            "--explain-node",
            "client-1",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["explain_node"]["adds"][0]["name"],
        "node-exporter.exporter[0]"
    );
}
