//! A failed scan counts the nodes of a class its cache rules out at once:
//! its metrics are those of the scan node by node that `--explain`
//! recording takes.

use serde_json::json;

use super::*;
use crate::feasibility::{DistinctHostsRules, TargetRules, VolumeRules};
use crate::fit::{FitRules, Settings, Shortfall};
use crate::model::{Node, Snapshot, from_slice};
use crate::placement::{AllocMetric, Recorder, SpreadRules};
use crate::version::v;

/// Node `i` of datacenter `dc`, computed class `class` ("" for none),
/// node class `node_class`, with a Linux or Windows kernel and the docker
/// driver or not.
fn node(i: usize, dc: &str, class: &str, node_class: &str, linux: bool, docker: bool) -> Node {
    let n = json!({
        "ID": format!("n{i:02}"), "Datacenter": dc, "NodeClass": node_class,
        "ComputedClass": class, "Status": "ready", "SchedulingEligibility": "eligible",
        "Attributes": {"kernel.name": if linux { "linux" } else { "windows" },
                       "driver.docker": if docker { "1" } else { "0" }},
        "NodeResources": {"Cpu": {"CpuShares": 4000}, "Memory": {"MemoryMB": 8192},
                          "Disk": {"DiskMB": 10000}},
    });
    from_slice(n.to_string().as_bytes()).unwrap()
}

/// The metrics of each group's failed placement, by the class-cached
/// scan, or node by node when `recording`.
fn failed_metrics(snapshot: &Snapshot, job: &Job, recording: bool) -> Vec<AllocMetric> {
    let rules = FitRules::of(v(1, 10, 5));
    let cluster = Cluster::new(snapshot, &rules);
    let setup = Setup {
        settings: Settings {
            rules,
            memory_oversubscription: false,
        },
        globs: true,
        pools: true,
        spread_algorithm: false,
        pool_config: None,
        spread: SpreadRules::default(),
        volumes: VolumeRules::default(),
        targets: TargetRules::default(),
        distinct_hosts: DistinctHostsRules::default(),
    };
    let mut placer = Placer::new(&cluster, job, &[], [], setup);
    for tg in &job.task_groups {
        if recording {
            placer.record(Recorder::new());
        }
        let select = Select {
            name: "web",
            ..Select::default()
        };
        assert_eq!(placer.place(tg, &select), None);
    }
    placer
        .failures()
        .values()
        .map(|f| f.metric.clone())
        .collect()
}

#[test]
fn a_failed_scan_counts_ineligible_classes_as_node_by_node() {
    let nodes = vec![
        node(0, "dc1", "v1:a", "web", true, true),
        node(1, "dc1", "v1:b", "web", false, true),
        node(2, "dc1", "v1:a", "", true, true),
        node(3, "dc1", "v1:b", "batch", false, true),
        node(4, "dc1", "", "web", true, true),
        node(5, "dc1", "", "", false, true),
        node(6, "dc2", "v1:b", "web", false, true),
        node(7, "dc2", "v1:a", "batch", true, true),
        node(8, "dc2", "v1:b", "", false, true),
        node(9, "dc2", "v1:c", "batch", true, false),
        node(10, "dc2", "v1:c", "batch", true, false),
        node(11, "dc3", "v1:a", "web", true, true),
    ];
    let group = |name: &str| {
        json!({"Name": name, "Count": 1,
               "Tasks": [{"Name": "app", "Driver": "docker",
                          "Resources": {"CPU": 100, "MemoryMB": 100000}}]})
    };
    let j = json!({"ID": "web", "Type": "service", "Datacenters": ["dc1", "dc2"],
        "Constraints": [{"LTarget": "${attr.kernel.name}", "RTarget": "linux", "Operand": "="}],
        "TaskGroups": [group("a"), group("b")]});
    let job: Job = from_slice(j.to_string().as_bytes()).unwrap();
    let snapshot = Snapshot {
        nodes,
        ..Snapshot::default()
    };
    let by_class = failed_metrics(&snapshot, &job, false);
    assert_eq!(by_class, failed_metrics(&snapshot, &job, true));
    let a = &by_class[0];
    assert_eq!((a.nodes_evaluated, a.nodes_filtered), (11, 7));
    assert_eq!(a.nodes_exhausted, 4);
    fn counted(m: &BTreeMap<String, u64>) -> Vec<(&str, u64)> {
        m.iter().map(|(k, n)| (k.as_str(), *n)).collect()
    }
    assert_eq!(
        counted(&a.constraint_filtered),
        [
            ("${attr.kernel.name} = linux", 2),
            ("computed class ineligible", 4),
            ("missing drivers", 1)
        ]
    );
    assert_eq!(counted(&a.class_filtered), [("batch", 3), ("web", 2)]);
    let b = &by_class[1];
    assert_eq!((b.nodes_evaluated, b.nodes_filtered), (11, 7));
}

/// A small generator of varied clusters for the board test.
struct Rng(u64);

impl Rng {
    fn next(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below
    }
}

/// A cluster of `n` nodes of varied size, class and datacenter (a few
/// without resources), each running a few allocations of jobs "web" and
/// "other".
fn varied_cluster(rng: &mut Rng, n: usize) -> Snapshot {
    let mut nodes = Vec::new();
    let mut allocs = Vec::new();
    for i in 0..n {
        let class = format!("v1:{}", rng.next(4));
        let mut node = json!({
            "ID": format!("n{i:03}"), "Datacenter": format!("dc{}", 1 + rng.next(3)),
            "ComputedClass": class, "Status": "ready", "SchedulingEligibility": "eligible",
            "Attributes": {"kernel.name": if rng.next(5) == 0 { "windows" } else { "linux" },
                           "driver.docker": "1", "rack": format!("r{}", rng.next(3))},
            "NodeResources": {"Cpu": {"CpuShares": 1000 + 500 * rng.next(6)},
                              "Memory": {"MemoryMB": 1024 * (1 + rng.next(4))},
                              "Disk": {"DiskMB": 10000}},
        });
        if rng.next(15) == 0 {
            node.as_object_mut().unwrap().remove("NodeResources");
        }
        nodes.push(from_slice(node.to_string().as_bytes()).unwrap());
        for a in 0..rng.next(4) {
            let job = if rng.next(3) == 0 { "web" } else { "other" };
            let alloc = json!({
                "ID": format!("a{i:03}-{a}"), "NodeID": format!("n{i:03}"), "JobID": job,
                "TaskGroup": if rng.next(2) == 0 { "a" } else { "b" }, "Name": "x",
                "ClientStatus": "running", "DesiredStatus": "run",
                "AllocatedResources": {
                    "Tasks": {"app": {"Cpu": {"CpuShares": 100 * (1 + rng.next(5))},
                                      "Memory": {"MemoryMB": 128 * (1 + rng.next(4))}}},
                    "Shared": {"DiskMB": 300}}});
            allocs.push(from_slice(alloc.to_string().as_bytes()).unwrap());
        }
    }
    Snapshot {
        nodes,
        allocs,
        ..Snapshot::default()
    }
}

/// Every placement of `job`, as node ID and score bits, and the
/// failures' metrics and nearest misses: through the stack as it runs, or
/// with every placement recorded, which judges every node in order.
fn placements(
    cluster: &Cluster<'_>,
    job: &Job,
    snapshot: &Snapshot,
    recording: bool,
) -> (Vec<Option<(usize, u64)>>, Vec<Missed>) {
    let rules = FitRules::of(v(1, 10, 5));
    let setup = Setup {
        settings: Settings {
            rules,
            memory_oversubscription: false,
        },
        globs: true,
        pools: true,
        spread_algorithm: job.priority % 2 == 1,
        pool_config: None,
        spread: SpreadRules::default(),
        volumes: VolumeRules::default(),
        targets: TargetRules::default(),
        distinct_hosts: DistinctHostsRules::default(),
    };
    let own: Vec<&Allocation> = snapshot
        .allocs
        .iter()
        .filter(|a| a.job_id.as_str() == job.id)
        .collect();
    let stops = own.iter().copied().step_by(3);
    let mut placer = Placer::new(cluster, job, &own, stops, setup);
    let penalty = ["n003", "n010", "n011"];
    let mut out = Vec::new();
    for k in 0..16 {
        for tg in &job.task_groups {
            if recording {
                placer.record(Recorder::new());
            }
            let select = Select {
                name: "web",
                penalty: if k % 4 == 1 { &penalty } else { &[] },
                ..Select::default()
            };
            let choice = placer.place(tg, &select);
            out.push(choice.map(|c| (c.node, c.score.to_bits())));
            placer.recorded();
        }
    }
    let failures = placer.failures().values();
    let failures = failures.map(|f| (f.metric.clone(), f.nearest.clone()));
    (out, failures.collect())
}

/// The shared board with the nodes a job touches judged again chooses
/// what judging every node for every placement chooses, and its misses
/// count the failures a scan counts, on varied clusters, for jobs that
/// share a board and one that does not.
#[test]
fn board_rankings_choose_as_a_scan_of_every_node() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut boards, mut failures, mut missed) = (0, 0, 0);
    for round in 0..12 {
        let snapshot = varied_cluster(&mut rng, 40);
        let rules = FitRules::of(v(1, 10, 5));
        let cluster = Cluster::new(&snapshot, &rules);
        let affinity = json!([{"LTarget": "${attr.rack}", "RTarget": "r1",
                               "Operand": "=", "Weight": 50}]);
        let jobs = [
            ("web", 300, 512),
            ("other", 300, 512),
            ("third", 1500, 256),
            ("huge", 5000, 256),
            ("huger", 5000, 256),
        ];
        for (id, cpu, mem) in jobs {
            let group = |name: &str| {
                json!({"Name": name, "Count": 4,
                       "Affinities": if round % 3 == 0 { affinity.clone() } else { json!(null) },
                       "Tasks": [{"Name": "app", "Driver": "docker",
                                  "Resources": {"CPU": cpu, "MemoryMB": mem}}]})
            };
            let j = json!({"ID": id, "Type": "service", "Priority": 50 + round,
                "Datacenters": if round % 2 == 0 { json!(["dc1", "dc2"]) } else { json!(["*"]) },
                "Constraints": [{"LTarget": "${attr.kernel.name}", "RTarget": "linux",
                                 "Operand": "="}],
                "TaskGroups": [group("a"), group("b")]});
            let job: Job = from_slice(j.to_string().as_bytes()).unwrap();
            let fast = placements(&cluster, &job, &snapshot, false);
            let scanned = placements(&cluster, &job, &snapshot, true);
            assert_eq!(fast, scanned, "round {round}, job {id}");
            failures += fast.1.len();
        }
        boards += cluster.boards.built();
        missed += cluster.boards.missed();
    }
    // The boards were read, not passed by, and some groups ran out, some
    // counted from a board's misses.
    assert!(
        boards >= 12 && failures >= 12 && missed >= 6,
        "{boards} boards, {failures} failures, {missed} boards with misses"
    );
}

/// A failure's metrics and nearest miss.
type Missed = (AllocMetric, Option<(usize, Shortfall)>);

/// Each placement's node and score bits with the failures' metrics.
type Placements = (Vec<Option<(usize, u64)>>, Vec<AllocMetric>);

/// The class eligibility a blocked evaluation would carry, and whether it
/// escaped.
type Eligibility = (BTreeMap<String, bool>, bool);

/// Each placement's node and score bits, the failures' metrics and the
/// class eligibility a blocked evaluation would carry, for `job` on
/// `cluster` with nothing recorded.
fn placed_with_eligibility(cluster: &Cluster<'_>, job: &Job) -> (Placements, Eligibility) {
    let rules = FitRules::of(v(1, 10, 5));
    let setup = Setup {
        settings: Settings {
            rules,
            memory_oversubscription: false,
        },
        globs: true,
        pools: true,
        spread_algorithm: false,
        pool_config: None,
        spread: SpreadRules::default(),
        volumes: VolumeRules::default(),
        targets: TargetRules::default(),
        distinct_hosts: DistinctHostsRules::default(),
    };
    let mut placer = Placer::new(cluster, job, &[], [], setup);
    let mut out = Vec::new();
    for _ in 0..6 {
        for tg in &job.task_groups {
            let choice = placer.place(tg, &Select::default());
            out.push(choice.map(|c| (c.node, c.score.to_bits())));
        }
    }
    let metrics = placer.failures().values().map(|f| f.metric.clone());
    let (eligibility, escaped) = placer.eligibility();
    ((out, metrics.collect()), (eligibility, escaped))
}

/// Jobs whose class checks read the same inputs take a group's checks
/// whole from the row an earlier job left: their choices, failures'
/// metrics and class eligibility are those of the job on a cluster of
/// its own, where nothing is shared.
#[test]
fn class_rows_answer_as_a_cluster_of_its_own() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut rows = 0;
    for round in 0..8 {
        let snapshot = varied_cluster(&mut rng, 40);
        let rules = FitRules::of(v(1, 10, 5));
        let shared = Cluster::new(&snapshot, &rules);
        let jobs = [
            ("one", json!(["dc1", "dc2"])),
            ("two", json!(["dc1", "dc2"])),
            ("three", json!(["dc1", "dc2"])),
            ("four", json!(["dc2"])),
            ("five", json!(["dc2"])),
            ("six", json!(["dc1", "dc2"])),
        ];
        for (id, datacenters) in jobs {
            let group = |name: &str, cpu: u64, driver: &str| {
                json!({"Name": name, "Count": 3,
                       "Tasks": [{"Name": "app", "Driver": driver,
                                  "Resources": {"CPU": cpu, "MemoryMB": 256}}]})
            };
            let j = json!({"ID": id, "Type": "service", "Datacenters": datacenters,
                "Constraints": [{"LTarget": "${attr.kernel.name}", "RTarget": "linux",
                                 "Operand": "="}],
                "TaskGroups": [group("b", 4000, "docker"),
                               group("a", 300 + 100 * round, "docker"),
                               group("c", 100, "exec")]});
            let job: Job = from_slice(j.to_string().as_bytes()).unwrap();
            let alone = Cluster::new(&snapshot, &rules);
            assert_eq!(
                placed_with_eligibility(&shared, &job),
                placed_with_eligibility(&alone, &job),
                "round {round}, job {id}"
            );
            assert_eq!(alone.rows.kept(), 0);
        }
        rows += shared.rows.kept();
    }
    // Rows were left for both sets of datacenters and taken by later jobs.
    assert!(rows >= 16, "{rows} rows");
}
