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

/// A snapshot with a job of `big` running allocations (written whole by
/// the writing thread, past 4,096 entries) between small ones, on four nodes.
fn big_and_small(big: usize) -> String {
    let job = |id: &str, count: usize| {
        format!(
            r#"{{"ID": "{id}", "Name": "{id}", "Namespace": "default", "Type": "service",
            "Datacenters": ["dc1"], "Priority": 50, "Status": "running", "Version": 0,
            "TaskGroups": [{{"Name": "web", "Count": {count}, "Tasks": [{{"Name": "app",
            "Driver": "docker", "Resources": {{"CPU": 10, "MemoryMB": 10}}}}]}}]}}"#
        )
    };
    let node = |i: usize| {
        format!(
            r#"{{"ID": "{i:08x}-0000-4000-8000-000000000000", "Name": "n{i}", "Datacenter": "dc1",
            "Status": "ready", "SchedulingEligibility": "eligible",
            "Drivers": {{"docker": {{"Detected": true, "Healthy": true}}}},
            "NodeResources": {{"Cpu": {{"CpuShares": 400000}}, "Memory": {{"MemoryMB": 400000}},
            "Disk": {{"DiskMB": 100000}}}}}}"#
        )
    };
    let jobs = [("a-small", 3), ("big", big), ("z-small", 2)];
    let mut allocs = Vec::new();
    for (j, &(id, count)) in jobs.iter().enumerate() {
        for i in 0..count {
            allocs.push(format!(
                r#"{{"ID": "{j:08x}-{:04x}-4000-8000-{i:012x}", "Namespace": "default",
                "JobID": "{id}", "TaskGroup": "web", "Name": "{id}.web[{i}]",
                "NodeID": "{:08x}-0000-4000-8000-000000000000", "DesiredStatus": "run",
                "ClientStatus": "running", "JobVersion": 0}}"#,
                i % 7,
                i % 4
            ));
        }
    }
    let jobs: Vec<String> = jobs.iter().map(|&(id, count)| job(id, count)).collect();
    let nodes: Vec<String> = (0..4).map(node).collect();
    format!(
        r#"{{"Allocs": [{}], "Jobs": [{}], "Nodes": [{}]}}"#,
        allocs.join(","),
        jobs.join(","),
        nodes.join(",")
    )
}

#[test]
fn a_job_written_whole_gives_the_same_bytes_on_any_thread_count() {
    let dir = std::env::temp_dir().join(format!("plan-inspect-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.json");
    std::fs::write(&path, big_and_small(4200)).unwrap();
    let json = ["--format", "json"];
    let one = run(&path, "1", &json);
    assert_eq!(one.0, Some(0), "{}", String::from_utf8_lossy(&one.2));
    let report: serde_json::Value = serde_json::from_slice(&one.1).unwrap();
    let ids: Vec<&str> = report["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["a-small", "big", "z-small"]);
    let untainted = &report["jobs"][1]["groups"][0]["buckets"]["untainted"];
    assert_eq!(untainted.as_array().unwrap().len(), 4200);
    for threads in ["2", "4", "0"] {
        assert_eq!(run(&path, threads, &json), one, "{threads} threads");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
