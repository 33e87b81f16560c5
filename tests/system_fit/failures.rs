//! Failed system placements: exhausted nodes, groups filtered everywhere,
//! queued allocations.

use super::*;

const RELEASES: [&str; 2] = ["1.3.0", "1.10.5"];

/// What the allocation of `mock.SystemJob()` holds once placed.
fn system_alloc_resources(disk: i64) -> Value {
    json!({"Tasks": {"web": {"Cpu": {"CpuShares": 500}, "Memory": {"MemoryMB": 256},
        "Networks": [{"Device": "eth0", "IP": "192.168.0.100", "MBits": 50,
                      "DynamicPorts": [{"Label": "http", "Value": 20000}]}]}},
        "Shared": {"DiskMB": disk}})
}

/// TestSystemSched_JobRegister_EphemeralDiskConstraint
/// (scheduler/scheduler_system_test.go at v1.3.0): a second system job
/// asking 60 GB of disk finds the first one's 60 GB on the node's 96 GB:
/// nothing placed, the group failed with the disk exhausted, a blocked
/// evaluation left, the allocation queued.
#[test]
fn scheduler_system_test_go_v1_3_0_job_register_ephemeral_disk_constraint() {
    let mut first = system_job("first");
    first["TaskGroups"][0]["EphemeralDisk"]["SizeMB"] = json!(60 * 1024);
    let mut second = system_job("second");
    second["TaskGroups"][0]["EphemeralDisk"]["SizeMB"] = json!(60 * 1024);
    let running = alloc(
        "a1",
        &first,
        "n1",
        "my-job.web[0]",
        system_alloc_resources(60 * 1024),
    );
    let doc = snapshot(vec![node("n1")], vec![first, second.clone()], vec![running]);
    for release in RELEASES {
        let plan = replay(&doc, "second", release);
        assert_eq!(count(&plan, "place"), 0, "{release}: {plan}");
        let failed = &plan["failed_placements"];
        assert_eq!(failed.as_array().unwrap().len(), 1, "{release}: {plan}");
        assert_eq!(failed[0]["task_group"], "web");
        assert_eq!(failed[0]["count"], 1);
        let m = &failed[0]["metrics"];
        assert_eq!(m["nodes_evaluated"], 1);
        assert_eq!(m["nodes_exhausted"], 1);
        assert_eq!(m["dimension_exhausted"], json!({"disk": 1}));
        assert_eq!(m["class_exhausted"], json!({"linux-medium-pci": 1}));
        assert_eq!(m["nodes_available"], json!({"dc1": 1}));
        let in_pool = u64::from(release != "1.3.0");
        assert_eq!(m["nodes_in_pool"], in_pool, "{release}");
        assert_eq!(failed[0]["nearest_miss"]["lacks"], 24576, "{plan}");
        assert_eq!(plan["blocked_eval"]["status"], "blocked");
        assert_eq!(
            plan["blocked_eval"]["class_eligibility"],
            json!({"v1:mock": true})
        );
        assert_eq!(plan["queued_allocations"], json!({"web": 1}));
    }
    // Alone on the node it fits.
    let alone = snapshot(vec![node("n1")], vec![second], vec![]);
    let plan = replay(&alone, "second", "1.3.0");
    assert_eq!(count(&plan, "place"), 1, "{plan}");
    assert_eq!(count(&plan, "failed_placements"), 0);
    assert_eq!(plan["queued_allocations"], json!({"web": 0}));
}

/// TestSystemSched_JobConstraint_AllFiltered (scheduler_system_test.go at
/// v1.10.5): a job constraint no node meets fails the group with the
/// constraint counted on both nodes; nothing is exhausted, so no blocked
/// evaluation. The same at 1.3.0.
#[test]
fn scheduler_system_test_go_v1_10_5_job_constraint_all_filtered() {
    let mut job = system_job("sys");
    job["Priority"] = json!(50);
    job["Constraints"] = json!([{"LTarget": "${node.unique.name}",
        "RTarget": "something-else", "Operand": "=="}]);
    let doc = snapshot(vec![node("n1"), node("n2")], vec![job], vec![]);
    for release in RELEASES {
        let plan = replay(&doc, "sys", release);
        let failed = &plan["failed_placements"];
        assert_eq!(failed.as_array().unwrap().len(), 1, "{release}: {plan}");
        let m = &failed[0]["metrics"];
        assert_eq!(
            m["constraint_filtered"],
            json!({"${node.unique.name} == something-else": 2}),
            "{release}"
        );
        assert_eq!(
            (m["nodes_evaluated"].clone(), m["nodes_filtered"].clone()),
            (json!(2), json!(2))
        );
        assert_eq!(m["nodes_exhausted"], 0);
        assert!(plan["blocked_eval"].is_null());
        assert_eq!(plan["queued_allocations"], json!({"web": 0}));
    }
}

/// TestSystemSched_Queued_With_Constraints (scheduler_system_test.go at
/// v1.3.0): a node the job's constraint filters leaves nothing queued.
#[test]
fn scheduler_system_test_go_v1_3_0_queued_with_constraints() {
    let mut darwin = node("n1");
    darwin["Attributes"]["kernel.name"] = json!("darwin");
    let doc = snapshot(vec![darwin], vec![system_job("sys")], vec![]);
    let plan = replay(&doc, "sys", "1.3.0");
    assert_eq!(plan["queued_allocations"], json!({"web": 0}));
    assert_eq!(count(&plan, "place"), 0);
}

/// The job of TestSystemSched_JobConstraint_RunMultipleTimes: it may run
/// only on node "foo".
fn on_foo_only() -> Value {
    let mut job = system_job("sys");
    job["Priority"] = json!(50);
    job["Constraints"] =
        json!([{"LTarget": "${node.unique.name}", "RTarget": "foo", "Operand": "=="}]);
    job
}

/// TestSystemSched_JobConstraint_RunMultipleTimes "Rerunning the job with
/// constraint shouldn't report failed allocations" (scheduler_system_test.go
/// at v1.10.5, #25850): the group runs on foo and is filtered on bar; from
/// 1.10.2 that is no failure, before it was.
#[test]
fn scheduler_system_test_go_v1_10_5_job_constraint_run_multiple_times_rerun() {
    let job = on_foo_only();
    let running = alloc(
        "a1",
        &job,
        "foo",
        "my-job.web[0]",
        system_alloc_resources(300),
    );
    let doc = snapshot(vec![node("foo"), node("bar")], vec![job], vec![running]);
    let plan = replay(&doc, "sys", "1.10.5");
    assert_eq!(count(&plan, "failed_placements"), 0, "{plan}");
    assert_eq!(count(&plan, "place"), 0);
    let plan = replay(&doc, "sys", "1.10.1");
    assert_eq!(count(&plan, "failed_placements"), 1, "{plan}");
    let m = &plan["failed_placements"][0]["metrics"];
    assert_eq!(
        m["constraint_filtered"],
        json!({"${node.unique.name} == foo": 1})
    );
}

/// TestSystemSched_JobConstraint_RunMultipleTimes "Running a
/// destructive-update job with constraint that can't be placed should
/// report failed allocations" (scheduler_system_test.go at v1.10.5): the
/// updated group asks 100,000,000 MB; its replacement on foo finds the
/// node exhausted in memory and the group fails with one exhausted node.
#[test]
fn scheduler_system_test_go_v1_10_5_job_constraint_run_multiple_times_destructive() {
    let old = on_foo_only();
    let running = alloc(
        "a1",
        &old,
        "foo",
        "my-job.web[0]",
        system_alloc_resources(300),
    );
    let mut job = old.clone();
    job["TaskGroups"][0]["Tasks"][0]["Resources"]["MemoryMB"] = json!(100_000_000);
    job["Version"] = json!(1);
    job["JobModifyIndex"] = json!(120);
    let doc = snapshot(vec![node("foo"), node("bar")], vec![job], vec![running]);
    for release in ["1.10.5", "1.3.0"] {
        let plan = replay(&doc, "sys", release);
        assert_eq!(count(&plan, "stop"), 1, "{release}: {plan}");
        assert_eq!(count(&plan, "place"), 0, "{release}: {plan}");
        let failed = &plan["failed_placements"];
        assert_eq!(failed.as_array().unwrap().len(), 1, "{release}: {plan}");
        let m = &failed[0]["metrics"];
        assert_eq!(m["nodes_exhausted"], 1);
        assert_eq!(m["dimension_exhausted"], json!({"memory": 1}));
        assert_eq!(failed[0]["nearest_miss"]["node_id"], "foo");
        assert_eq!(plan["queued_allocations"], json!({"web": 1}));
    }
}

/// `addBlocked` (scheduler_system.go:407, :487-501 at 1.3.0; :562,
/// :652-667 at 2.0.5): each task group's first placement that finds no
/// room leaves a blocked evaluation of its own, on that node, triggered
/// by `queued-allocs` (`CreateBlockedEval`); later failures of the group
/// only add to its count. Two groups too big for either node: two blocked
/// evaluations, the second in `more_blocked_evals`.
#[test]
fn a_system_evaluation_leaves_one_blocked_evaluation_per_exhausted_group() {
    let mut job = system_job("sys");
    let mut web2 = job["TaskGroups"][0].clone();
    web2["Name"] = json!("web2");
    job["TaskGroups"].as_array_mut().unwrap().push(web2);
    for tg in job["TaskGroups"].as_array_mut().unwrap() {
        tg["EphemeralDisk"]["SizeMB"] = json!(200 * 1024);
    }
    let doc = snapshot(vec![node("n1"), node("n2")], vec![job], vec![]);
    for release in ["1.3.0", "1.10.5", "2.0.5"] {
        let plan = replay(&doc, "sys", release);
        assert_eq!(count(&plan, "failed_placements"), 2, "{release}: {plan}");
        let first = &plan["blocked_eval"];
        let more = plan["more_blocked_evals"].as_array().unwrap();
        assert_eq!(more.len(), 1, "{release}: {plan}");
        for b in [first, &more[0]] {
            assert_eq!(b["status"], "blocked");
            assert_eq!(b["triggered_by"], "queued-allocs", "{release}");
            assert_eq!(b["class_eligibility"], json!({"v1:mock": true}));
        }
        assert_ne!(first["id"], more[0]["id"]);
        let on: Vec<&Value> = [first, &more[0]].iter().map(|b| &b["node_id"]).collect();
        assert!(on.iter().all(|n| n.is_string()), "{plan}");
        assert_eq!(plan["queued_allocations"], json!({"web": 2, "web2": 2}));
    }
}
