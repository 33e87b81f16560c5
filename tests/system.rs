//! System and sysbatch jobs end to end: the binary on the mixed-cluster
//! fixture and on the real-world dumps in `../shared/realworld`.

use std::path::{Path, PathBuf};

use crate::common::plan_inspect as run;

/// `text` with every run of blanks and line breaks as one space.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `<repo>/../shared/realworld/<path>`, or `None` (with a note) when the
/// shared corpus is not beside the checkout.
fn realworld(path: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/realworld")
        .join(path);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipped: {} is absent", p.display());
        None
    }
}

#[test]
fn healthy_system_allocations_are_left_alone() {
    let Some(p) = realworld("probes/system-job-healthy-nodes.json") else {
        return;
    };
    // Before #25850 (1.10.2) Nomad lists the group filtered out of the
    // node it lacks as a failed placement (scheduler_system.go:356-370 at
    // 1.3.0), which `--detailed-exitcode` counts; from 1.10.2 it does not,
    // since the group keeps its allocations elsewhere.
    let (code, out, _) = run(&[p.to_str().unwrap(), "--detailed-exitcode"]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("Task Group \"batch_pause\" (failed to place 1 allocation)"),
        "{out}"
    );
    let (code, out, _) = run(&[
        p.to_str().unwrap(),
        "--detailed-exitcode",
        "--nomad-version",
        "1.10.5",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Nothing to do"), "{out}");
}

#[test]
fn system_jobs_without_nodes_get_no_deployment_and_no_placement() {
    let Some(p) = realworld("snapshots/sabbene-system-jobs-0.10.json") else {
        return;
    };
    let (code, out, err) = run(&[
        p.to_str().unwrap(),
        "--format",
        "json",
        "--detailed-exitcode",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let jobs = doc["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), 4);
    for j in jobs {
        assert_eq!(j["type"], "system");
        assert!(j["plan"]["deployment"].is_null());
        assert!(j["plan"]["place"].as_array().unwrap().is_empty());
    }
    assert!(!out.contains("system_job"));
}

#[test]
fn a_system_placement_is_explained_on_its_node() {
    let (code, out, err) = run(&[
        "fixtures/mixed-cluster.json",
        "--explain",
        "node-exporter.exporter[0]@00000007",
    ]);
    assert_eq!(code, 0, "{err}");
    // Step lines wrap at the width: compare words.
    let out = words(&out);
    assert!(
        out.contains(
            "Feasibility (SystemStack): filtered: job constraint \"${attr.kernel.name} = linux\" \
             not met (node: ${attr.kernel.name} = \"darwin\")"
        ),
        "{out}"
    );
    let (code, out, _) = run(&[
        "fixtures/mixed-cluster.json",
        "--explain",
        "node-exporter.exporter[0]@00000001",
        "--detailed-exitcode",
    ]);
    assert_eq!(code, 2, "a placement changes the cluster");
    assert!(
        words(&out).contains("resource fit fits beside what the node runs"),
        "{out}"
    );
}

#[test]
fn a_system_placement_without_a_node_is_an_error_that_says_how() {
    let (code, out, err) = run(&[
        "fixtures/mixed-cluster.json",
        "--explain",
        "node-exporter.exporter[0]",
    ]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert_eq!(
        err.trim_end(),
        "plan-inspect: job \"node-exporter\" is a system or sysbatch job, which places \
         \"node-exporter.exporter[0]\" once per node: name the node as \
         node-exporter.exporter[0]@NODE (a node ID or ID prefix)"
    );
}

#[test]
fn a_system_allocation_is_explained_with_the_diff_and_the_rolling_limit() {
    let (code, out, err) = run(&["fixtures/mixed-cluster.json", "--explain", "c3000001"]);
    assert_eq!(code, 0, "{err}");
    let out = words(&out);
    assert!(
        out.contains("System diff (diffSystemAllocsForNode): update: job updated: JobModifyIndex 14 on the allocation, 30 now"),
        "{out}"
    );
    assert!(
        out.contains("destructive, held back by the rolling limit"),
        "{out}"
    );
}

#[test]
fn a_bad_constraint_is_one_warning_naming_the_job_and_the_constraint() {
    let snapshot = plan_inspect::read::read_snapshot_from(
        r#"{"Now": "2022-04-01T12:00:00Z",
            "Jobs": [{"ID": "agent", "Name": "agent", "Namespace": "default", "Type": "system",
                      "JobModifyIndex": 5, "Datacenters": ["dc1"],
                      "Constraints": [{"LTarget": "${attr.os.version}", "RTarget": "[0-9", "Operand": "regexp"}],
                      "TaskGroups": [{"Name": "agent", "Count": 1, "Tasks": [{"Name": "agent", "Driver": "exec"}]}]}],
            "Nodes": [
              {"ID": "n1", "Datacenter": "dc1", "Status": "ready", "SchedulingEligibility": "eligible",
               "Attributes": {"os.version": "22.04", "driver.exec": "1"}},
              {"ID": "n2", "Datacenter": "dc1", "Status": "ready", "SchedulingEligibility": "eligible",
               "Attributes": {"os.version": "20.04", "driver.exec": "1"}}],
            "Allocs": []}"#
            .as_bytes(),
        "snapshot.json",
    )
    .unwrap();
    let report =
        plan_inspect::replay::Replay::new(&snapshot, &plan_inspect::replay::Options::default())
            .unwrap()
            .report();
    let job = &report.jobs[0];
    assert!(job.plan.place.is_empty());
    assert_eq!(job.groups[0].desired_changes.place, 0);
    let diff = job.groups[0].system_diff.as_ref().unwrap();
    assert_eq!(diff.filtered_nodes.len(), 2);
    let invalid: Vec<&str> = report
        .warnings
        .iter()
        .filter(|w| w.code == "invalid_constraint")
        .map(|w| w.message.as_str())
        .collect();
    assert_eq!(
        invalid,
        [
            "default/agent: constraint \"${attr.os.version} regexp [0-9\" is invalid (\"[0-9\" is not a \
          valid regular expression); Nomad treats every node it is checked on as infeasible"
        ]
    );
}
