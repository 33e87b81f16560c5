//! System preemption: TestSystemSched_ExhaustResources and
//! TestSystemSched_Preemption, and the scheduler configuration's switch.

use super::*;

/// A service allocation of `mock.Job()` at `priority` asking `cpu` MHz.
fn service(id: &str, priority: i64, cpu: i64) -> (Value, Value) {
    let job = json!({
        "ID": id, "Name": id, "Namespace": "default", "Type": "service",
        "Priority": priority, "Datacenters": ["dc1"], "Status": "running",
        "TaskGroups": [{"Name": "web", "Count": 1, "EphemeralDisk": {"SizeMB": 150},
            "Migrate": {"MaxParallel": 1},
            "Tasks": [{"Name": "web", "Driver": "exec",
                "Resources": {"CPU": cpu, "MemoryMB": 256}}]}],
        "Version": 0, "CreateIndex": 10, "ModifyIndex": 10, "JobModifyIndex": 10
    });
    let resources = json!({"Tasks": {"web": {"Cpu": {"CpuShares": cpu},
        "Memory": {"MemoryMB": 256}}}, "Shared": {"DiskMB": 150}});
    let a = alloc(
        &format!("{id}-alloc"),
        &job,
        "n1",
        &format!("{id}.web[0]"),
        resources,
    );
    (job, a)
}

/// One node, `sys` and a service allocation of priority `priority` holding
/// 3600 of the node's 3900 MHz left: `sys` fits only by preempting it.
fn crowded(priority: i64, sys: Value) -> Value {
    let (svc, svc_alloc) = service("svc", priority, 3600);
    snapshot(vec![node("n1")], vec![svc, sys], vec![svc_alloc])
}

/// TestSystemSched_ExhaustResources (scheduler/scheduler_system_test.go at
/// v1.3.0): a service allocation of priority 50 holds 3600 of the node's
/// 3900 MHz; the system job (priority 100) evicts it and is placed, with
/// nothing queued. Without the service allocation there is no preemption.
#[test]
fn scheduler_system_test_go_v1_3_0_exhaust_resources() {
    let doc = crowded(50, system_job("sys"));
    for release in ["1.3.0", "1.10.5"] {
        let plan = replay(&doc, "sys", release);
        assert_eq!(count(&plan, "place"), 1, "{release}: {plan}");
        assert_eq!(count(&plan, "failed_placements"), 0, "{release}");
        let p = &plan["preemptions"];
        assert_eq!(p.as_array().map(Vec::len), Some(1), "{release}: {plan}");
        assert_eq!(p[0]["job_id"], "svc");
        assert_eq!(p[0]["alloc_id"], "svc-alloc");
        assert_eq!(p[0]["node_id"], "n1");
        assert_eq!(p[0]["job_priority"], 50);
        assert_eq!(p[0]["preempted_by"], "my-job.web[0]");
        assert_eq!(plan["queued_allocations"], json!({"web": 0}));
    }
}

/// The job's desired changes count the preemption, as Nomad's annotation.
#[test]
fn a_preemption_counts_in_the_placing_groups_desired_changes() {
    let doc = crowded(50, system_job("sys"));
    let plan = replay(&doc, "sys", "1.3.0");
    assert_eq!(count(&plan, "preemptions"), 1);
    let report = full_report(&doc);
    assert_eq!(
        job_of(&report, "sys")["groups"][0]["desired_changes"]["preemptions"],
        1
    );
}

/// Within 10 priority points nothing is preempted: the placement fails on
/// CPU.
#[test]
fn an_allocation_within_ten_priority_points_is_not_preempted() {
    let doc = crowded(91, system_job("sys"));
    let plan = replay(&doc, "sys", "1.3.0");
    assert_eq!(count(&plan, "place"), 0, "{plan}");
    assert!(plan.get("preemptions").is_none(), "{plan}");
    let m = &plan["failed_placements"][0]["metrics"];
    assert_eq!(m["dimension_exhausted"], json!({"cpu": 1}));
}

/// Sysbatch jobs do not preempt under the servers' default configuration
/// (`SysBatchSchedulerEnabled` false, nomad/config.go:420 at 1.3.0); a
/// `SchedulerConfig` that enables it lets them, and one that disables
/// system preemption stops system jobs.
#[test]
fn the_scheduler_configuration_switches_preemption_per_job_type() {
    let mut batch = system_job("sys");
    batch["Type"] = json!("sysbatch");
    let mut doc = crowded(50, batch);
    let plan = replay(&doc, "sys", "1.3.0");
    assert_eq!(count(&plan, "place"), 0, "{plan}");
    assert_eq!(count(&plan, "failed_placements"), 1);
    doc["SchedulerConfig"] = json!({"PreemptionConfig": {"SysBatchSchedulerEnabled": true}});
    let plan = replay(&doc, "sys", "1.3.0");
    assert_eq!(count(&plan, "preemptions"), 1, "{plan}");

    let mut doc = crowded(50, system_job("sys"));
    doc["SchedulerConfig"] = json!({"PreemptionConfig": {"SystemSchedulerEnabled": false}});
    let plan = replay(&doc, "sys", "1.3.0");
    assert_eq!(count(&plan, "place"), 0, "{plan}");
    assert_eq!(count(&plan, "preemptions"), 0);
}

/// TestSystemSched_Preemption (scheduler/scheduler_system_test.go at
/// v1.3.0): on a node of 3072 MHz and 1000 Mbit/s, three low-priority
/// batch allocations (20, 20, 40) and one of priority 100 leave no room
/// for a system task of 1948 MHz and 800 Mbit/s: the bandwidth preemption
/// evicts the three low ones, the priority-100 one stays; the second,
/// empty node takes its placement without evicting anything.
#[test]
fn scheduler_system_test_go_v1_3_0_preemption() {
    let small = |id: &str| {
        let mut n = node(id);
        n["NodeResources"]["Cpu"]["CpuShares"] = json!(3072);
        n["NodeResources"]["Memory"]["MemoryMB"] = json!(5034);
        n["NodeResources"]["Disk"]["DiskMB"] = json!(20 * 1024);
        n
    };
    let batch = |id: &str, priority: i64| {
        json!({"ID": id, "Name": id, "Namespace": "default", "Type": "batch",
            "Priority": priority, "Datacenters": ["dc1"], "Status": "running",
            "TaskGroups": [{"Name": "web", "Count": 1, "EphemeralDisk": {"SizeMB": 150},
                "Tasks": [{"Name": "web", "Driver": "exec", "Resources": {"CPU": 512}}]}],
            "Version": 0, "CreateIndex": 10, "ModifyIndex": 10, "JobModifyIndex": 10})
    };
    let held = |cpu: i64, mem: i64, mbits: i64, ports: Value, disk: i64| {
        json!({"Tasks": {"web": {"Cpu": {"CpuShares": cpu}, "Memory": {"MemoryMB": mem},
            "Networks": [{"Device": "eth0", "IP": "192.168.0.100", "MBits": mbits,
                          "ReservedPorts": ports}]}},
            "Shared": {"DiskMB": disk}})
    };
    let (j1, j2, j3, j4) = (
        batch("job1", 20),
        batch("job2", 20),
        batch("job3", 40),
        batch("job4", 100),
    );
    let allocs = vec![
        alloc(
            "a1",
            &j1,
            "n1",
            "my-job[0]",
            held(512, 1024, 200, json!([]), 5120),
        ),
        alloc(
            "a2",
            &j2,
            "n1",
            "my-job[2]",
            held(512, 1024, 200, json!([]), 5120),
        ),
        alloc(
            "a3",
            &j3,
            "n1",
            "my-job[0]",
            held(1024, 25, 400, json!([]), 5120),
        ),
        alloc(
            "a4",
            &j4,
            "n1",
            "my-job4[0]",
            held(
                1024,
                2048,
                100,
                json!([{"Label": "web", "Value": 80}]),
                2048,
            ),
        ),
    ];
    let mut job = system_job("sys");
    job["TaskGroups"][0]["Tasks"][0]["Resources"] = json!({"CPU": 1948, "MemoryMB": 256,
        "Networks": [{"MBits": 800, "DynamicPorts": [{"Label": "http"}]}]});
    let doc = snapshot(
        vec![small("n1"), small("n2")],
        vec![j1, j2, j3, j4, job],
        allocs,
    );
    for release in ["1.3.0", "1.10.5"] {
        let plan = replay(&doc, "sys", release);
        assert_eq!(count(&plan, "place"), 2, "{release}: {plan}");
        let evicted: Vec<&str> = plan["preemptions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["job_id"].as_str().unwrap())
            .collect();
        assert_eq!(evicted, ["job1", "job2", "job3"], "{release}");
        assert!(
            plan["preemptions"]
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["node_id"] == "n1")
        );
    }
}

/// The whole report, at the release the snapshot implies.
fn full_report(doc: &Value) -> Value {
    serde_json::from_str(&plan_inspect(doc, &["--format", "json"])).unwrap()
}

/// The table lists the evicted allocation under "Preemptions" with its job,
/// priority and the placement it makes room for.
#[test]
fn the_table_lists_preemptions() {
    let doc = crowded(50, system_job("sys"));
    let out = plan_inspect(&doc, &["--color", "never", "--verbose"]);
    let mut lines = out.lines().skip_while(|l| l.trim() != "Preemptions");
    let row = lines
        .find(|l| l.contains("svc-alloc"))
        .unwrap_or_else(|| panic!("{out}"));
    for word in ["svc.web[0]", "default/svc", "50", "n1", "my-job.web[0]"] {
        assert!(row.contains(word), "{word} in {row}");
    }
}
