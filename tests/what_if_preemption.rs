//! Preemption in the story: the plan applier evicts a plan's victims
//! (desired `evict`, `Preempted by alloc ID <id>`, v1.3.0
//! nomad/state/state_store.go:6562-6565), frees their capacity, and
//! writes one `preemption` evaluation per victim job at its priority
//! (v1.3.0 nomad/plan_apply.go:284-302, v2.0.5 :355-382), which the story
//! then replays: the victim's job is replaced elsewhere or blocked until
//! capacity appears. TestSysBatch_Preemption
//! (scheduler/scheduler_sysbatch_test.go at v1.3.0 and v2.0.5) is ported
//! here, as its assertions read the state after the harness applied the
//! plan.
//!
//! The cluster of `tests/what-if/preemption.json`: three nodes of 3900
//! MHz to give; the system job `logs` (priority 100) runs version 0 (500
//! MHz) on each and is at version 1 (1000 MHz); client-1 also runs
//! `cache` (30, 2500 MHz) and `api[0]` (70, 500 MHz), client-2 `api[1]`
//! and `db` (80, 2000 MHz). Updating `logs` on client-1 needs 100 MHz
//! more than is left: it evicts `cache`, the lowest priority.

use plan_inspect::read::read_snapshot_from;
use plan_inspect::render;
use plan_inspect::replay::Options;
use plan_inspect::servers::{MarkKind, Story, run};
use plan_inspect::version::{Release, VersionRequest, v};
use serde_json::{Value, json};

const BOTH: [Release; 2] = [v(1, 3, 0), v(2, 0, 5)];

const CLIENT_1: &str = "3f6b1d20-8c4e-4a7b-9d1e-2a5c7e9f0b11";
const CLIENT_2: &str = "9e2c4a71-1f3d-4b6a-8e2c-5d7f9a1b3c22";
const CLIENT_3: &str = "c47d2e93-6a8b-4f1c-a3d5-7e9b1c3d5f33";
const CACHE_ALLOC: &str = "4a7c1e59-0004-4000-8000-000000000004";

fn fixture() -> Value {
    let path = format!(
        "{}/tests/what-if/preemption.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The story of `events` until `until` on `doc` at `release`, and its JSON.
fn story(doc: &Value, release: Release, events: &[&str], until: Option<&str>) -> (Story, Value) {
    let text = doc.to_string();
    let snapshot = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    };
    let request = crate::common::request(events, until, None);
    let story = run(&snapshot, &options, &request).unwrap_or_else(|e| panic!("{e}"));
    let json = serde_json::from_str(&render::json::story(&story)).unwrap();
    (story, json)
}

/// The timeline's entries of job `job`, in the order they ran.
fn entries<'s>(json: &'s Value, job: &str) -> Vec<&'s Value> {
    json["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["evaluation"]["job_id"] == job)
        .collect()
}

/// The nodes of the placements a plan made.
fn placed_on(entry: &Value) -> Vec<&str> {
    entry["job"]["plan"]["place"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["node_id"].as_str())
        .collect()
}

/// The allocation of `job` the story placed on `node`, at most one.
fn placed_alloc(story: &Story, job: &str, node: &str) -> String {
    let ids: Vec<&str> = story
        .marks
        .iter()
        .filter(|m| m.kind == MarkKind::Placed && m.job_id == job && m.node_id == node)
        .map(|m| m.alloc_id.as_str())
        .collect();
    let [id] = ids.as_slice() else {
        panic!("{job} placed on {node}: {ids:?}");
    };
    id.to_string()
}

/// client-3 misses its heartbeat and comes back half an hour later. The
/// node-update evaluation of `logs` updates it on client-1 and client-2,
/// evicting `cache` on client-1; `cache`'s preemption evaluation finds no
/// node with 2500 MHz left (client-1 holds logs' new 1000, client-2 db's
/// 2000, client-3 is down) and blocks; when client-3 is back, `logs` is
/// placed there first (priority 100) and `cache`'s blocked evaluation then
/// places it beside.
#[test]
fn a_system_update_evicts_a_service_allocation_whose_job_blocks_until_a_node_returns() {
    for release in BOTH {
        let (story, json) = story(
            &fixture(),
            release,
            &["node-down:client-3", "node-up:client-3@30m"],
            Some("1h"),
        );
        let logs = entries(&json, "logs");
        let first = logs[0];
        assert_eq!(first["evaluation"]["triggered_by"], "node-update");
        let [victim] = first["preempted"].as_array().unwrap().as_slice() else {
            panic!("{release}: {first}");
        };
        let by = placed_alloc(&story, "logs", CLIENT_1);
        assert_eq!(victim["alloc_id"], CACHE_ALLOC, "{release}");
        assert_eq!(victim["node_id"], CLIENT_1);
        assert_eq!(victim["preempted_by_alloc_id"], by.as_str());
        assert_eq!(victim["desired_status"], "evict");
        assert_eq!(
            victim["desired_description"],
            format!("Preempted by alloc ID {by}")
        );
        assert_eq!(victim["client_status"], "complete");

        let cache = entries(&json, "cache");
        let evicted = cache[0];
        assert_eq!(
            evicted["evaluation"]["triggered_by"], "preemption",
            "{release}"
        );
        assert_eq!(evicted["evaluation"]["id"], victim["eval_id"]);
        assert_eq!(evicted["evaluation"]["priority"], 30);
        assert_eq!(evicted["at"], first["at"]);
        assert!(placed_on(evicted).is_empty(), "{release}: {evicted}");
        let failed = &evicted["job"]["plan"]["failed_placements"][0];
        assert_eq!(failed["metrics"]["dimension_exhausted"], json!({"cpu": 2}));
        let blocked = &evicted["job"]["plan"]["blocked_eval"];
        assert_eq!(blocked["triggered_by"], "queued-allocs");

        let back = cache[1];
        assert_eq!(back["evaluation"]["id"], blocked["id"], "{release}");
        assert_eq!(placed_on(back), [CLIENT_3], "{release}");
        // logs ran on client-3 before it, and each node holds one logs
        // allocation: a system update is placed once.
        let returned = logs[logs.len() - 1];
        assert_eq!(placed_on(returned), [CLIENT_3], "{release}");
        assert_eq!(returned["at"], back["at"]);
        let position = |e: &Value| {
            json["timeline"]
                .as_array()
                .unwrap()
                .iter()
                .position(|t| t["evaluation"]["id"] == e["evaluation"]["id"])
        };
        assert!(position(returned) < position(back), "{release}");
        let live = story
            .marks
            .iter()
            .filter(|m| m.job_id == "logs" && m.kind == MarkKind::Placed)
            .count();
        assert_eq!(
            live, 3,
            "{release}: logs placed on client-1, client-2, client-3"
        );
        assert!(json["pending"].as_array().unwrap().is_empty(), "{release}");
    }
}

/// With only `logs` on client-2 there is room there (2900 MHz after its
/// update): `cache`'s preemption evaluation replaces it on client-2 at
/// once, and nothing blocks.
#[test]
fn the_evicted_allocation_is_replaced_on_another_node_with_room() {
    let mut doc = fixture();
    doc["Allocs"]
        .as_array_mut()
        .unwrap()
        .retain(|a| a["NodeID"] != CLIENT_2 || a["JobID"] == "logs");
    for release in BOTH {
        let (_, json) = story(&doc, release, &["node-down:client-3"], Some("10m"));
        let cache = entries(&json, "cache");
        let [evicted] = cache.as_slice() else {
            panic!("{release}: {cache:?}");
        };
        assert_eq!(evicted["evaluation"]["triggered_by"], "preemption");
        assert_eq!(placed_on(evicted), [CLIENT_2], "{release}");
        assert!(evicted["job"]["plan"]["blocked_eval"].is_null());
    }
}

/// Without `--until` the preemption evaluation is written but not
/// replayed: it waits among the follow-ups, with its job's priority.
#[test]
fn without_until_the_preemption_evaluation_is_listed_as_not_replayed() {
    let (_, json) = story(&fixture(), v(1, 3, 0), &["node-down:client-3"], None);
    assert!(entries(&json, "cache").is_empty());
    let first = entries(&json, "logs")[0];
    let pending = json["pending"].as_array().unwrap();
    let [p] = pending.as_slice() else {
        panic!("{pending:?}");
    };
    assert_eq!(p["triggered_by"], "preemption");
    assert_eq!(
        (p["job_id"].as_str(), p["priority"].as_i64()),
        (Some("cache"), Some(30))
    );
    assert_eq!(p["id"], first["preempted"][0]["eval_id"]);
}

/// A victim whose job is gone from the state gets no evaluation
/// (`JobByID` finds none), though it is evicted all the same.
#[test]
fn a_victim_whose_job_is_gone_is_evicted_without_an_evaluation() {
    let mut doc = fixture();
    doc["Jobs"]
        .as_array_mut()
        .unwrap()
        .retain(|j| j["ID"] != "cache");
    let (_, json) = story(&doc, v(1, 3, 0), &["node-down:client-3"], Some("10m"));
    let first = entries(&json, "logs")[0];
    assert_eq!(first["preempted"][0]["alloc_id"], CACHE_ALLOC, "{first}");
    assert!(first["preempted"][0]["eval_id"].is_null());
    assert!(entries(&json, "cache").is_empty());
    assert!(json["pending"].as_array().unwrap().is_empty());
}

/// The picture ends the evicted allocation's bar as preempted, and the
/// tables list it under "Evicted" with the allocation placed in its stead.
#[test]
fn the_picture_and_the_tables_show_the_eviction() {
    let (story, _) = story(&fixture(), v(1, 3, 0), &["node-down:client-3"], Some("10m"));
    let page = render::html::story(&story);
    let bar = page
        .lines()
        .find(|l| l.contains(&format!("data-alloc=\"{CACHE_ALLOC}\"")))
        .unwrap_or_else(|| panic!("{page}"));
    assert!(bar.contains("data-status=\"preempted\""), "{bar}");
    let style = render::table::Style {
        color: false,
        verbose: false,
        width: 120,
    };
    let tables = render::table::story(&story, style);
    let by = placed_alloc(&story, "logs", CLIENT_1);
    let row = tables
        .lines()
        .skip_while(|l| !l.starts_with("Evicted"))
        .find(|l| l.contains(&CACHE_ALLOC[..8]))
        .unwrap_or_else(|| panic!("{tables}"));
    assert!(
        row.contains(&by[..8]) && row.contains("default/cache"),
        "{row}"
    );
}

/// The same story from a snapshot whose lists come in another order is
/// the same document, byte for byte.
#[test]
fn the_preemption_story_does_not_depend_on_input_order() {
    let doc = fixture();
    let mut reversed = doc.clone();
    for key in ["Nodes", "Jobs", "Allocs"] {
        reversed[key].as_array_mut().unwrap().reverse();
    }
    let events = ["node-down:client-3", "node-up:client-3@30m"];
    for release in BOTH {
        let (a, _) = story(&doc, release, &events, Some("1h"));
        let (b, _) = story(&reversed, release, &events, Some("1h"));
        let (a, b) = (render::json::story(&a), render::json::story(&b));
        assert!(a.contains("\"preemption\""), "{release}");
        assert_eq!(a, b, "{release}");
    }
}

/// A service job of one group `name` of one task asking `cpu` MHz.
fn service(id: &str, priority: i64, cpu: i64) -> Value {
    json!({
        "ID": id, "Name": id, "Namespace": "default", "Type": "service",
        "Priority": priority, "Datacenters": ["dc1"], "Status": "running",
        "Version": 0, "CreateIndex": 10, "ModifyIndex": 10, "JobModifyIndex": 10,
        "TaskGroups": [{"Name": id, "Count": 1, "EphemeralDisk": {"SizeMB": 300},
            "Migrate": {"MaxParallel": 1},
            "Tasks": [{"Name": id, "Driver": "exec",
                "Resources": {"CPU": cpu, "MemoryMB": 256}}]}]
    })
}

/// client-1 runs `low` (priority 20, 3000 MHz), client-2 `high` (70, 3000
/// MHz); both nodes give 3900 MHz.
fn two_services() -> Value {
    let mut doc = fixture();
    let nodes = doc["Nodes"].as_array_mut().unwrap();
    nodes.retain(|n| n["Name"] != "client-3");
    let (low, high) = (service("low", 20, 3000), service("high", 70, 3000));
    let template = doc["Allocs"][0].clone();
    let alloc = |id: &str, job: &Value, node: &str| {
        let mut a = template.clone();
        a["ID"] = json!(id);
        a["Name"] = json!(format!("{0}.{0}[0]", job["ID"].as_str().unwrap()));
        a["JobID"] = job["ID"].clone();
        a["TaskGroup"] = job["ID"].clone();
        a["Job"] = job.clone();
        a["NodeID"] = json!(node);
        a["DeploymentStatus"] = json!({"Canary": false, "Healthy": true});
        a["AllocatedResources"] = json!({"Shared": {"DiskMB": 300},
            "Tasks": {job["ID"].as_str().unwrap(): {"Cpu": {"CpuShares": 3000},
                "Memory": {"MemoryMB": 256}}}});
        a
    };
    doc["Allocs"] = json!([
        alloc("10a0b0c0-0000-4000-8000-000000000001", &low, CLIENT_1),
        alloc("20a0b0c0-0000-4000-8000-000000000002", &high, CLIENT_2),
    ]);
    doc["Jobs"] = json!([low, high]);
    doc
}

/// Service preemption, which the scheduler configuration switches on
/// (`ServiceSchedulerEnabled`): when client-2 goes down, `high`'s
/// replacement evicts `low` on client-1, and `low`'s preemption
/// evaluation blocks. Without the switch `high` blocks and `low` runs on.
#[test]
fn service_preemption_when_the_configuration_allows_it() {
    let mut doc = two_services();
    doc["SchedulerConfig"] = json!({"PreemptionConfig": {
        "SystemSchedulerEnabled": true, "ServiceSchedulerEnabled": true}});
    for release in BOTH {
        let (story, json) = story(&doc, release, &["node-down:client-2"], Some("10m"));
        let high = entries(&json, "high");
        assert_eq!(placed_on(high[0]), [CLIENT_1], "{release}");
        let victim = &high[0]["preempted"][0];
        assert_eq!(victim["job_id"], "low", "{release}: {}", high[0]);
        let by = placed_alloc(&story, "high", CLIENT_1);
        assert_eq!(victim["preempted_by_alloc_id"], by.as_str());
        let low = entries(&json, "low");
        let [evicted] = low.as_slice() else {
            panic!("{release}: {low:?}");
        };
        assert_eq!(evicted["evaluation"]["triggered_by"], "preemption");
        assert_eq!(evicted["evaluation"]["priority"], 20);
        assert!(placed_on(evicted).is_empty());
        assert!(!evicted["job"]["plan"]["blocked_eval"].is_null());
        let waiting: Vec<&Value> = json["pending"].as_array().unwrap().iter().collect();
        assert_eq!(waiting.len(), 1, "{release}: {waiting:?}");
        assert_eq!(waiting[0]["job_id"], "low");
    }
    let (_, json) = story(
        &two_services(),
        v(1, 3, 0),
        &["node-down:client-2"],
        Some("10m"),
    );
    let high = entries(&json, "high");
    assert!(placed_on(high[0]).is_empty());
    assert!(high[0].get("preempted").is_none());
    assert!(entries(&json, "low").is_empty());
}

/// TestSysBatch_Preemption (scheduler/scheduler_sysbatch_test.go:1413 at
/// v1.3.0, :1547 at v2.0.5): two nodes of 3072 MHz, 5034 MB and 1000
/// Mbit/s; on the first, three low-priority batch allocations (job1 and
/// job2 at 20, job3 at 40) and one of priority 100 (job4); a sysbatch job
/// of priority 100 asking 1948 MHz and 800 Mbit/s, with preemption on for
/// sysbatch. Its registration places on both nodes and, on the first,
/// evicts the three low ones, each then desired `evict` and described
/// `Preempted by alloc ID` the placement on that node; job4's stays.
#[test]
fn scheduler_sysbatch_test_go_v1_3_0_and_v2_0_5_sys_batch_preemption() {
    let node = |id: &str, name: &str| {
        let mut n = fixture()["Nodes"][0].clone();
        n["ID"] = json!(id);
        n["Name"] = json!(name);
        n["NodeResources"] = json!({"Cpu": {"CpuShares": 3072}, "Memory": {"MemoryMB": 5034},
            "Disk": {"DiskMB": 20 * 1024},
            "Networks": [{"Device": "eth0", "CIDR": "192.168.0.100/32", "MBits": 1000}],
            "NodeNetworks": [{"Mode": "host", "Device": "eth0", "Addresses": [
                {"Family": "ipv4", "Alias": "default", "Address": "192.168.0.100"}]}]});
        n["ReservedResources"] = json!(null);
        n
    };
    let (n0, n1) = (
        "0d000000-0000-4000-8000-000000000000",
        "1d000000-0000-4000-8000-000000000000",
    );
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
    let alloc = |id: &str, job: &Value, name: &str, resources: Value| {
        json!({"ID": id, "Namespace": "default", "Name": name, "NodeID": n0,
            "JobID": job["ID"], "Job": job, "TaskGroup": "web",
            "DesiredStatus": "run", "ClientStatus": "running", "DesiredTransition": {},
            "AllocatedResources": resources, "CreateIndex": 100, "ModifyIndex": 100})
    };
    let jobs = [
        batch("job1", 20),
        batch("job2", 20),
        batch("job3", 40),
        batch("job4", 100),
    ];
    let allocs = json!([
        alloc(
            "a1000000-0000-4000-8000-000000000000",
            &jobs[0],
            "my-job[0]",
            held(512, 1024, 200, json!([]), 5120)
        ),
        alloc(
            "a2000000-0000-4000-8000-000000000000",
            &jobs[1],
            "my-job[2]",
            held(512, 1024, 200, json!([]), 5120)
        ),
        alloc(
            "a3000000-0000-4000-8000-000000000000",
            &jobs[2],
            "my-job[0]",
            held(1024, 25, 400, json!([]), 5120)
        ),
        alloc(
            "a4000000-0000-4000-8000-000000000000",
            &jobs[3],
            "my-job4[0]",
            held(
                1024,
                2048,
                100,
                json!([{"Label": "web", "Value": 80}]),
                2048
            )
        ),
    ]);
    let sysbatch = json!({"ID": "sysbatch", "Name": "my-job", "Namespace": "default",
        "Type": "sysbatch", "Priority": 100, "Datacenters": ["dc1"], "Status": "pending",
        "TaskGroups": [{"Name": "pinger", "Count": 1, "EphemeralDisk": {"SizeMB": 150},
            "Tasks": [{"Name": "ping-example", "Driver": "exec",
                "Config": {"command": "/usr/bin/ping"},
                "Resources": {"CPU": 1948, "MemoryMB": 256,
                    "Networks": [{"MBits": 800, "DynamicPorts": [{"Label": "http"}]}]}}]}],
        "Version": 0, "CreateIndex": 42, "ModifyIndex": 99, "JobModifyIndex": 99});
    let register = json!({"ID": "e1000000-0000-4000-8000-000000000000",
        "Namespace": "default", "JobID": "sysbatch", "Type": "sysbatch", "Priority": 100,
        "TriggeredBy": "job-register", "Status": "pending", "CreateIndex": 200, "ModifyIndex": 200});
    let mut all_jobs = jobs.to_vec();
    all_jobs.push(sysbatch);
    let mut doc = json!({
        "Now": "2022-04-01T00:00:00Z", "Nodes": [node(n0, "node-0"), node(n1, "node-1")],
        "Jobs": all_jobs, "Allocs": allocs, "Deployments": [],
        "Evals": [register],
        "SchedulerConfig": {"PreemptionConfig": {"SysBatchSchedulerEnabled": true}}
    });
    doc["Evals"][0]["Status"] = json!("pending");
    for release in BOTH {
        let (story, json) = story(&doc, release, &[], Some("1m"));
        let runs = entries(&json, "sysbatch");
        let plans: Vec<&&Value> = runs
            .iter()
            .filter(|e| !e["job"]["plan"]["place"].as_array().unwrap().is_empty())
            .collect();
        let [plan] = plans.as_slice() else {
            panic!("{release}: one plan places: {runs:?}");
        };
        let mut nodes = placed_on(plan);
        nodes.sort_unstable();
        assert_eq!(nodes, [n0, n1], "{release}");
        assert!(
            plan["job"]["plan"]["failed_placements"]
                .as_array()
                .unwrap()
                .is_empty()
        );
        let by = placed_alloc(&story, "sysbatch", n0);
        let preempted = plan["preempted"].as_array().unwrap();
        let jobs: Vec<&str> = preempted
            .iter()
            .map(|p| p["job_id"].as_str().unwrap())
            .collect();
        assert_eq!(jobs, ["job1", "job2", "job3"], "{release}");
        for p in preempted {
            assert_eq!(p["node_id"], n0);
            assert_eq!(p["desired_status"], "evict");
            assert_eq!(
                p["desired_description"],
                format!("Preempted by alloc ID {by}")
            );
        }
        // Each job of a victim has its evaluation, in job order, and job4
        // none: the broker hands them out by priority (job3's 40 first).
        let evals: Vec<(&str, &str)> = json["timeline"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["evaluation"]["triggered_by"] == "preemption")
            .map(|e| {
                (
                    e["evaluation"]["job_id"].as_str().unwrap(),
                    e["evaluation"]["id"].as_str().unwrap(),
                )
            })
            .collect();
        let ids = |job: &str| {
            preempted
                .iter()
                .find(|p| p["job_id"] == job)
                .and_then(|p| p["eval_id"].as_str())
                .unwrap()
        };
        assert_eq!(
            evals,
            [
                ("job3", ids("job3")),
                ("job1", ids("job1")),
                ("job2", ids("job2"))
            ],
            "{release}"
        );
    }
}
