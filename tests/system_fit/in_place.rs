//! The resource fit of a system job's in-place update: `inplaceUpdate`
//! selects the allocation's own node with the allocation staged as gone
//! (v1.3.0 scheduler/util.go:859-877, v2.0.5 :626-645), so a group that no
//! longer fits there is updated destructively, and one that fits only by
//! preempting stays in place with no preemption in the plan.

use super::*;

const RELEASES: [&str; 3] = ["1.3.0", "1.10.5", "2.0.5"];

/// `mock.SystemJob()` registered again: the allocation embeds the same job
/// at an older `JobModifyIndex`, so the diff updates it and `tasksUpdated`
/// finds nothing that needs a new allocation.
fn registered_again() -> (Value, Value) {
    let job = system_job("sys");
    let mut older = job.clone();
    older["JobModifyIndex"] = json!(50);
    let running = alloc(
        "a1",
        &older,
        "n1",
        "my-job.web[0]",
        json!({"Tasks": {"web": {"Cpu": {"CpuShares": 500}, "Memory": {"MemoryMB": 256}}},
               "Shared": {"DiskMB": 300}}),
    );
    (job, running)
}

fn ids(plan: &Value, key: &str, field: &str) -> Vec<String> {
    plan[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e[field].as_str().unwrap().to_string())
        .collect()
}

/// TestInplaceUpdate_Success and TestInplaceUpdate_NoMatch
/// (scheduler/util_test.go at v1.3.0 and v2.0.5) on the system scheduler:
/// on mock.Node's 3,900 free MHz the update stays in place; on a node
/// re-fingerprinted to 450 MHz (350 free) the group's 500 MHz no longer
/// fits, so the update is destructive and its replacement on the same node
/// fails, exhausted in cpu.
#[test]
fn util_test_go_v1_3_0_v2_0_5_inplace_update_no_match_on_a_system_node() {
    let (job, running) = registered_again();
    let roomy = snapshot(vec![node("n1")], vec![job.clone()], vec![running.clone()]);
    let mut shrunk = node("n1");
    shrunk["NodeResources"]["Cpu"]["CpuShares"] = json!(450);
    let tight = snapshot(vec![shrunk], vec![job], vec![running]);
    for release in RELEASES {
        let plan = replay(&roomy, "sys", release);
        assert_eq!(
            ids(&plan, "in_place_update", "alloc_id"),
            ["a1"],
            "{release}: {plan}"
        );
        assert_eq!(count(&plan, "destructive_update"), 0, "{release}");

        let plan = replay(&tight, "sys", release);
        assert_eq!(count(&plan, "in_place_update"), 0, "{release}: {plan}");
        let d = &plan["destructive_update"];
        assert_eq!(
            ids(&plan, "destructive_update", "alloc_id"),
            ["a1"],
            "{release}"
        );
        assert_eq!(
            d[0]["reason"], "its node no longer fits: it lacks 150 MHz cpu",
            "{release}"
        );
        assert_eq!(count(&plan, "place"), 0, "{release}: {plan}");
        let failed = &plan["failed_placements"];
        assert_eq!(failed[0]["count"], 1, "{release}: {plan}");
        assert_eq!(
            failed[0]["metrics"]["dimension_exhausted"],
            json!({"cpu": 1}),
            "{release}"
        );
    }
}

/// An update that fits only by preempting a lower-priority allocation is
/// kept in place and the plan preempts nothing: `inplaceUpdate` takes the
/// option's task resources and drops its preemptions (v1.3.0
/// scheduler/util.go:907-918, v2.0.5 :675-691). `--explain` says so.
#[test]
fn an_in_place_update_that_fits_only_by_preempting_preempts_nothing() {
    let (job, running) = registered_again();
    let mut low = system_job("low");
    low["Type"] = json!("service");
    low["Priority"] = json!(20);
    let other = alloc(
        "b1",
        &low,
        "n1",
        "my-job.web[0]",
        json!({"Tasks": {"web": {"Cpu": {"CpuShares": 600}, "Memory": {"MemoryMB": 256}}},
               "Shared": {"DiskMB": 300}}),
    );
    let mut small = node("n1");
    small["NodeResources"]["Cpu"]["CpuShares"] = json!(1000);
    let doc = snapshot(vec![small], vec![job, low], vec![running, other]);
    for release in RELEASES {
        let plan = replay(&doc, "sys", release);
        assert_eq!(
            ids(&plan, "in_place_update", "alloc_id"),
            ["a1"],
            "{release}: {plan}"
        );
        assert_eq!(count(&plan, "preemptions"), 0, "{release}: {plan}");
        assert_eq!(count(&plan, "destructive_update"), 0, "{release}");
    }
    let text = plan_inspect(&doc, &["--nomad-version", "1.10.5", "--explain", "a1"]);
    assert!(
        text.contains("fits only by preempting 1 allocation(s)"),
        "{text}"
    );
}
