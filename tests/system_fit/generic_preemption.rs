//! Preemption by service and batch jobs: TestServiceSched_Preemption
//! (scheduler/generic_sched_test.go at v1.3.0 and v2.0.5), the scheduler
//! configuration's switches, the preemption score and the plan's later
//! placements. Nomad's test harness has no scheduler configuration, where
//! `selectNextOption` defaults to preempting; a snapshot without one is
//! replayed under the servers' default, which does not, so the ported
//! cases switch it on.

use super::*;

/// A service job of `mock.Job()` shape: priority `priority`, one group
/// "web" of `count` whose task asks `cpu` MHz and `mem` MB, no network.
fn service_job(id: &str, priority: i64, count: i64, cpu: i64, mem: i64) -> Value {
    json!({
        "ID": id, "Name": id, "Namespace": "default", "Type": "service",
        "Priority": priority, "Datacenters": ["dc1"], "Status": "running",
        "TaskGroups": [{"Name": "web", "Count": count, "EphemeralDisk": {"SizeMB": 150},
            "Tasks": [{"Name": "web", "Driver": "exec",
                "Resources": {"CPU": cpu, "MemoryMB": mem}}]}],
        "Version": 0, "CreateIndex": 10, "ModifyIndex": 10, "JobModifyIndex": 10
    })
}

/// The allocation `id` of `job` on `node` holding `cpu` MHz and `mem` MB.
fn held(id: &str, job: &Value, node: &str, cpu: i64, mem: i64) -> Value {
    let resources = json!({"Tasks": {"web": {"Cpu": {"CpuShares": cpu},
        "Memory": {"MemoryMB": mem}}}, "Shared": {"DiskMB": 150}});
    let name = format!("{}.web[0]", job["ID"].as_str().unwrap());
    alloc(id, job, node, &name, resources)
}

/// The test's node: 1000 MHz, 2048 MB and 100 GB, with 50 MHz, 256 MB,
/// 4 GB and port 22 reserved.
fn small(id: &str) -> Value {
    let mut n = node(id);
    n["NodeResources"]["Cpu"]["CpuShares"] = json!(1000);
    n["NodeResources"]["Memory"]["MemoryMB"] = json!(2048);
    n["ReservedResources"]["Cpu"]["CpuShares"] = json!(50);
    n
}

fn preempting(mut doc: Value, service: bool, batch: bool) -> Value {
    doc["SchedulerConfig"] = json!({"PreemptionConfig": {
        "SystemSchedulerEnabled": true,
        "ServiceSchedulerEnabled": service, "BatchSchedulerEnabled": batch}});
    doc
}

/// TestServiceSched_Preemption's cluster: job1 (priority 30, 500 MHz,
/// 1024 MB) and job2 (50, 350 MHz, 512 MB) run on the one node; job3
/// (100) asks 900 MHz and 1700 MB.
fn crowded() -> Value {
    let job1 = service_job("job1", 30, 1, 500, 1024);
    let job2 = service_job("job2", 50, 1, 350, 512);
    let job3 = service_job("job3", 100, 1, 900, 1700);
    let allocs = vec![
        held("a1", &job1, "n1", 500, 1024),
        held("a2", &job2, "n1", 350, 512),
    ];
    snapshot(vec![small("n1")], vec![job1, job2, job3], allocs)
}

fn preempted(plan: &Value) -> Vec<&str> {
    plan["preemptions"].as_array().map_or(Vec::new(), |p| {
        p.iter().map(|p| p["alloc_id"].as_str().unwrap()).collect()
    })
}

/// TestServiceSched_Preemption (generic_sched_test.go:5634 at v1.3.0,
/// :7049 at v2.0.5): job3 is placed on the node by preempting both
/// allocations, with no blocked evaluation.
#[test]
fn generic_sched_test_go_v1_3_0_and_v2_0_5_service_sched_preemption() {
    let doc = preempting(crowded(), true, false);
    for release in ["1.3.0", "2.0.5"] {
        let report = report(&doc, release);
        let job = job_of(&report, "job3");
        let plan = &job["plan"];
        assert_eq!(count(plan, "place"), 1, "{release}: {plan}");
        assert_eq!(plan["place"][0]["node_id"], "n1");
        assert_eq!(count(plan, "failed_placements"), 0, "{release}");
        assert!(plan["blocked_eval"].is_null(), "{release}: {plan}");
        assert_eq!(preempted(plan), ["a1", "a2"], "{release}");
        for p in plan["preemptions"].as_array().unwrap() {
            assert_eq!(p["preempted_by"], "job3.web[0]");
            assert_eq!(p["node_id"], "n1");
        }
        assert_eq!(job["groups"][0]["desired_changes"]["preemptions"], 2);
    }
}

/// Without a scheduler configuration the servers' default holds: service
/// and batch jobs do not preempt (nomad/config.go:418-423 at 1.3.0), so
/// job3 fails on memory. The batch switch is read for batch jobs only.
#[test]
fn service_and_batch_preemption_follow_their_own_switches() {
    for release in ["1.3.0", "2.0.5"] {
        let plan = replay(&crowded(), "job3", release);
        assert_eq!(count(&plan, "failed_placements"), 1, "{plan}");
        assert!(preempted(&plan).is_empty());
        let plan = replay(&preempting(crowded(), false, true), "job3", release);
        assert_eq!(count(&plan, "failed_placements"), 1, "{release}: {plan}");

        let mut batch = crowded();
        batch["Jobs"][2]["Type"] = json!("batch");
        let plan = replay(&preempting(batch.clone(), true, false), "job3", release);
        assert_eq!(count(&plan, "failed_placements"), 1, "{release}: {plan}");
        let plan = replay(&preempting(batch, false, true), "job3", release);
        assert_eq!(preempted(&plan), ["a1", "a2"], "{release}: {plan}");
    }
}

/// Two nodes that each fit job3 only by evicting one allocation of the
/// same size: the node whose victim has the lower priority scores higher
/// ("preemption", rank.go:797-868 at 1.3.0), though its ID sorts after.
#[test]
fn the_node_with_the_cheaper_victims_wins() {
    let high = service_job("high", 60, 1, 900, 1700);
    let low = service_job("low", 20, 1, 900, 1700);
    let job = service_job("job3", 100, 1, 900, 1700);
    let allocs = vec![
        held("a-high", &high, "n1", 900, 1700),
        held("a-low", &low, "n2", 900, 1700),
    ];
    let doc = preempting(
        snapshot(vec![small("n1"), small("n2")], vec![high, low, job], allocs),
        true,
        false,
    );
    for release in ["1.3.0", "2.0.5"] {
        let plan = replay(&doc, "job3", release);
        assert_eq!(plan["place"][0]["node_id"], "n2", "{release}: {plan}");
        assert_eq!(preempted(&plan), ["a-low"], "{release}");
    }
}

/// An allocation preempted for one placement is gone for the next of the
/// same evaluation: the second fits beside the first without preempting
/// again, and nothing is preempted twice.
#[test]
fn a_preempted_allocation_frees_its_room_for_later_placements() {
    let big = service_job("big", 20, 1, 900, 1700);
    let job = service_job("job3", 100, 2, 400, 700);
    let allocs = vec![held("a-big", &big, "n1", 900, 1700)];
    let doc = preempting(
        snapshot(vec![small("n1")], vec![big, job], allocs),
        true,
        false,
    );
    for release in ["1.3.0", "2.0.5"] {
        let report = report(&doc, release);
        let job = job_of(&report, "job3");
        let plan = &job["plan"];
        assert_eq!(count(plan, "place"), 2, "{release}: {plan}");
        assert!(
            plan["place"]
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["node_id"] == "n1")
        );
        assert_eq!(preempted(plan), ["a-big"], "{release}: {plan}");
        assert_eq!(job["groups"][0]["desired_changes"]["preemptions"], 1);
    }
}

/// `--explain` on the placement names what it preempts and scores the
/// node with Nomad's "preemption" score; the table lists the victims.
#[test]
fn explain_and_table_show_the_preemptions() {
    let doc = preempting(crowded(), true, false);
    let out = plan_inspect(
        &doc,
        &[
            "--explain",
            "job3.web[0]",
            "--color",
            "never",
            "--nomad-version",
            "1.3.0",
        ],
    );
    let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("on node n1 it preempts job1.web[0], job2.web[0]"),
        "{out}"
    );
    assert!(
        words.contains("a1 (job1.web[0], job default/job1 at priority 30)"),
        "{out}"
    );
    assert!(words.contains("preemption"), "{out}");
    let out = plan_inspect(
        &doc,
        &["--color", "never", "--verbose", "--nomad-version", "1.3.0"],
    );
    let mut lines = out.lines().skip_while(|l| l.trim() != "Preemptions");
    let row = lines
        .find(|l| l.contains("a2"))
        .unwrap_or_else(|| panic!("{out}"));
    for word in ["job2.web[0]", "default/job2", "50", "n1", "job3.web[0]"] {
        assert!(row.contains(word), "{word} in {row}");
    }
}

/// TestPreemptionMultiple (scheduler/preemption_test.go:1389 at v1.3.0,
/// scheduler/integration/preemption_test.go:21 at v2.0.5): a node with four
/// GPUs, each held by one of four allocations of a priority 5 job; a
/// priority 100 job places two allocations of two GPUs each, which
/// preempts all four.
#[test]
fn preemption_test_go_v1_3_0_v2_0_5_preemption_multiple() {
    let mut n = node("n1");
    n["ReservedResources"] = json!({});
    n["NodeResources"]["Devices"] = json!([{
        "Type": "gpu", "Vendor": "nvidia", "Name": "1080ti",
        "Attributes": {
            "memory": {"Int": 11, "Unit": "GiB"}, "cuda_cores": {"Int": 3584},
            "graphics_clock": {"Int": 1480, "Unit": "MHz"},
            "memory_bandwidth": {"Int": 11, "Unit": "GB/s"}},
        "Instances": (0..4).map(|i| json!({"ID": format!("dev{i}"), "Healthy": true}))
            .collect::<Vec<_>>()
    }]);
    let gpus = |mut job: Value, count: i64| {
        job["TaskGroups"][0]["Tasks"][0]["Resources"]["Devices"] =
            json!([{"Name": "gpu", "Count": count}]);
        job
    };
    let low = gpus(service_job("low", 5, 4, 500, 256), 1);
    let high = gpus(service_job("high", 100, 2, 500, 256), 2);
    let allocs: Vec<Value> = (0..4)
        .map(|i| {
            let resources = json!({"Tasks": {"web": {
                "Cpu": {"CpuShares": 500}, "Memory": {"MemoryMB": 256},
                "Devices": [{"Type": "gpu", "Vendor": "nvidia", "Name": "1080ti",
                             "DeviceIDs": [format!("dev{i}")]}]}},
                "Shared": {"DiskMB": 150}});
            alloc(
                &format!("low-{i}"),
                &low,
                "n1",
                &format!("low.web[{i}]"),
                resources,
            )
        })
        .collect();
    let doc = preempting(snapshot(vec![n], vec![low, high], allocs), true, false);
    for release in ["1.3.0", "2.0.5"] {
        let plan = replay(&doc, "high", release);
        assert_eq!(count(&plan, "place"), 2, "{release}: {plan}");
        assert_eq!(count(&plan, "failed_placements"), 0, "{release}: {plan}");
        assert_eq!(
            preempted(&plan),
            ["low-0", "low-1", "low-2", "low-3"],
            "{release}: {plan}"
        );
        let nodes: Vec<&Value> = plan["preemptions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| &p["node_id"])
            .collect();
        assert!(nodes.iter().all(|n| *n == "n1"), "{release}: {plan}");
    }
}
