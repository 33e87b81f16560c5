//! Ports of Nomad's system scheduler tests at 8ac3e642e6:
//! scheduler/util_test.go `TestDiffSystemAllocs*`,
//! scheduler/scheduler_system_test.go and scheduler_sysbatch_test.go.
//! Each test is named after its source.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::diff::{DiffInput, Terminal};
use super::*;
use crate::model::NodesById;
use crate::model::*;
use crate::reconciler::{TaintedNodes, desc, tainted_nodes};

/// `mock.Node`: ready, eligible, dc1, linux, the exec driver.
pub(super) fn node(id: &str) -> Node {
    let mut n = Node {
        id: id.into(),
        name: id.into(),
        datacenter: "dc1".into(),
        status: "ready".into(),
        scheduling_eligibility: "eligible".into(),
        computed_class: "v1:mock".into(),
        node_resources: Some(NodeResources {
            networks: vec![NetworkResource {
                mode: "host".into(),
                ..NetworkResource::default()
            }],
            ..NodeResources::default()
        }),
        ..Node::default()
    };
    n.attributes.insert("kernel.name".into(), "linux".into());
    n.attributes.insert("driver.exec".into(), "1".into());
    n.drivers.insert(
        "exec".into(),
        Some(DriverInfo {
            detected: true,
            healthy: true,
        }),
    );
    n
}

/// `mock.SystemJob` (or `mock.Job` with `count`, or `mock.SystemBatchJob`).
pub(super) fn job(job_type: &str, group: &str, count: i64) -> Job {
    let name = if job_type == "sysbatch" {
        "my-sysbatch"
    } else {
        "my-job"
    };
    Job {
        id: name.into(),
        name: name.into(),
        namespace: "default".into(),
        job_type: job_type.into(),
        priority: 50,
        job_modify_index: 99,
        datacenters: vec!["dc1".into()],
        constraints: vec![Constraint {
            l_target: "${attr.kernel.name}".into(),
            r_target: "linux".into(),
            operand: "=".into(),
        }],
        task_groups: vec![TaskGroup {
            name: group.into(),
            count,
            tasks: vec![Task {
                name: group.into(),
                driver: "exec".into(),
                config: GoValue::from(serde_json::json!({"command": "/bin/date"})),
                ..Task::default()
            }],
            ..TaskGroup::default()
        }],
        ..Job::default()
    }
}

fn system_job() -> Job {
    job("system", "web", 1)
}

pub(super) fn older(job: &Job) -> Arc<Job> {
    let mut old = job.clone();
    old.job_modify_index -= 1;
    Arc::new(old)
}

pub(super) fn alloc(id: &str, node: &str, name: &str, job: Arc<Job>) -> Allocation {
    Allocation {
        id: id.into(),
        namespace: "default".into(),
        node_id: node.into(),
        name: name.into(),
        job_id: job.id.as_str().into(),
        task_group: job.task_groups[0].name.as_str().into(),
        job: Some(job),
        desired_status: "run".into(),
        client_status: "running".into(),
        ..Allocation::default()
    }
}

struct Cluster {
    nodes: Vec<Node>,
    allocs: Vec<Allocation>,
}

impl Cluster {
    fn new(nodes: Vec<Node>) -> Cluster {
        Cluster {
            nodes,
            allocs: Vec::new(),
        }
    }

    fn run<R>(&self, job: Option<&Job>, f: impl FnOnce(&SystemSchedule<'_>) -> R) -> R {
        let nodes: NodesById<'_> = self.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
        let allocs: Vec<&Allocation> = self.allocs.iter().collect();
        let tainted = tainted_nodes(allocs.iter().copied(), |id| nodes.get(id).copied());
        let sched = SystemSchedule::compute(&SystemInput {
            job,
            allocs: &allocs,
            nodes: &nodes,
            tainted: &tainted,
            rules: &crate::reconciler::Rules::default(),
            now: crate::time::Time::ZERO,
            record: false,
            fit: None,
            volumes: Default::default(),
            deployment: None,
            new_deployment_id: "",
        });
        f(&sched)
    }
}

fn count(diff: &SystemDiff<'_>, c: Category) -> usize {
    diff.of(c).count()
}

fn ids(diff: &SystemDiff<'_>, c: Category) -> Vec<String> {
    diff.of(c)
        .filter_map(|e| e.alloc)
        .map(|a| a.id.to_string())
        .collect()
}

fn for_node<'a>(
    job: &'a Job,
    node_id: &'a str,
    ready: &ReadyNodes<'a>,
    tainted: &TaintedNodes<'a>,
    live: &[&'a Allocation],
    terminal: &Terminal<'a>,
) -> SystemDiff<'a> {
    let nodes = |_: &str| None;
    let input = DiffInput {
        job: Some(job),
        ready,
        tainted,
        nodes: &nodes,
        live,
        terminal,
        rules: &crate::reconciler::Rules::default(),
        now: crate::time::Time::ZERO,
    };
    let required: BTreeMap<String, &TaskGroup> = (0..job.task_groups[0].count)
        .map(|i| {
            (
                format!("{}.{}[{i}]", job.name, job.task_groups[0].name),
                &job.task_groups[0],
            )
        })
        .collect();
    let mut diff = SystemDiff::default();
    diff.for_node(&input, node_id, live, &required);
    diff
}

#[test]
fn test_diff_system_allocs_for_node_sysbatch_terminal() {
    let job = Arc::new(job("sysbatch", "pinger", 1));
    let n1 = node("node1");
    let ready = ReadyNodes {
        ready: [("node1", &n1)].into_iter().collect(),
        ..ReadyNodes::default()
    };
    let tainted = TaintedNodes::default();
    // Current job: the finished allocation is left alone.
    let mut done = alloc("t", "node1", "my-sysbatch.pinger[0]", Arc::clone(&job));
    done.client_status = "complete".into();
    let terminal: Terminal<'_> = [(("node1", "my-sysbatch.pinger[0]"), &done)].into();
    let diff = for_node(&job, "node1", &ready, &tainted, &[], &terminal);
    assert_eq!(ids(&diff, Category::Ignore), ["t"]);
    assert_eq!(diff.entries.len(), 1);
    // Outdated job: it runs again, as an update.
    let mut outdated = done.clone();
    outdated.job = Some(older(&job));
    let terminal: Terminal<'_> = [(("node1", "my-sysbatch.pinger[0]"), &outdated)].into();
    let diff = for_node(&job, "node1", &ready, &tainted, &[], &terminal);
    assert_eq!(count(&diff, Category::Update), 1);
    assert_eq!(diff.entries.len(), 1);
}

#[test]
fn test_diff_system_allocs_for_node() {
    let job = Arc::new(job("service", "web", 10));
    let old = older(&job);
    let zip = node("zip");
    let mut drain = node("drainNode");
    drain.drain_strategy = GoValue::from(serde_json::json!({"Deadline": 0}));
    let mut dead = node("dead");
    dead.status = "down".into();
    let tainted: TaintedNodes<'_> = [("dead", Some(&dead)), ("drainNode", Some(&drain))]
        .into_iter()
        .collect();
    let ready = ReadyNodes {
        ready: [("zip", &zip)].into_iter().collect(),
        ..ReadyNodes::default()
    };
    let mut migrate = alloc("migrate", "drainNode", "my-job.web[2]", Arc::clone(&old));
    migrate.desired_transition.migrate = Some(true);
    let allocs = [
        alloc("update", "zip", "my-job.web[0]", Arc::clone(&old)),
        alloc("ignore", "zip", "my-job.web[1]", Arc::clone(&job)),
        alloc("stop", "zip", "my-job.web[10]", Arc::clone(&old)),
        migrate,
        alloc("lost", "dead", "my-job.web[3]", Arc::clone(&old)),
    ];
    let terms: Vec<Allocation> = (4..7)
        .map(|i| {
            let mut a = alloc(
                &format!("term{i}"),
                "zip",
                &format!("my-job.web[{i}]"),
                Arc::clone(&job),
            );
            a.client_status = "complete".into();
            a
        })
        .collect();
    let terminal: Terminal<'_> = terms.iter().map(|a| (("zip", &*a.name), a)).collect();
    let live: Vec<&Allocation> = allocs.iter().collect();
    let diff = for_node(&job, "zip", &ready, &tainted, &live, &terminal);
    assert_eq!(ids(&diff, Category::Update), ["update"]);
    assert_eq!(ids(&diff, Category::Ignore), ["ignore"]);
    assert_eq!(ids(&diff, Category::Stop), ["stop"]);
    assert_eq!(ids(&diff, Category::Migrate), ["migrate"]);
    assert_eq!(ids(&diff, Category::Lost), ["lost"]);
    assert_eq!(count(&diff, Category::Place), 6);
    // Replacements of terminal allocations name them.
    for e in diff.of(Category::Place) {
        if let Some(t) = terms.iter().find(|t| *t.name == e.name) {
            assert_eq!(e.alloc.map(|a| &a.id), Some(&t.id));
        }
    }
}

#[test]
fn test_diff_system_allocs_for_node_existing_alloc_ineligible_node() {
    let job = Arc::new(job("service", "web", 1));
    let old = older(&job);
    let eligible = node("eligible");
    let ready = ReadyNodes {
        ready: [("eligible", &eligible)].into_iter().collect(),
        ..ReadyNodes::default()
    };
    let allocs = [
        alloc("update", "eligible", "my-job.web[0]", old),
        alloc("ignore", "ineligible", "my-job.web[0]", Arc::clone(&job)),
    ];
    let live: Vec<&Allocation> = allocs.iter().collect();
    let diff = for_node(
        &job,
        "eligible",
        &ready,
        &TaintedNodes::default(),
        &live,
        &Terminal::new(),
    );
    assert_eq!(count(&diff, Category::Place), 0);
    assert_eq!(ids(&diff, Category::Update), ["update"]);
    assert_eq!(ids(&diff, Category::Ignore), ["ignore"]);
    assert_eq!(diff.entries.len(), 2);
}

#[test]
fn test_diff_system_allocs() {
    let job = Arc::new(system_job());
    let old = older(&job);
    let mut drain = node("drain");
    drain.drain_strategy = GoValue::from(serde_json::json!({"Deadline": 0}));
    let mut dead = node("dead");
    dead.status = "down".into();
    let others: Vec<Node> = ["foo", "bar", "baz", "pipe"]
        .into_iter()
        .map(node)
        .collect();
    // As in Nomad's test, every node is handed over as ready.
    let mut ready = ReadyNodes::default();
    for n in others.iter().chain([&drain, &dead]) {
        ready.ready.insert(&n.id, n);
    }
    let tainted: TaintedNodes<'_> = [("dead", Some(&dead)), ("drain", Some(&drain))]
        .into_iter()
        .collect();
    let mut migrate = alloc("migrate", "drain", "my-job.web[0]", Arc::clone(&old));
    migrate.desired_transition.migrate = Some(true);
    let allocs = [
        alloc("update", "baz", "my-job.web[0]", Arc::clone(&old)),
        alloc("ignore", "bar", "my-job.web[0]", Arc::clone(&job)),
        migrate,
        alloc("lost", "dead", "my-job.web[0]", Arc::clone(&old)),
    ];
    let mut term = alloc("term", "pipe", "my-job.web[0]", Arc::clone(&job));
    term.client_status = "complete".into();
    let terminal: Terminal<'_> = [(("pipe", "my-job.web[0]"), &term)].into();
    let live: Vec<&Allocation> = allocs.iter().collect();
    let nodes = |_: &str| None;
    let diff = SystemDiff::new(&DiffInput {
        job: Some(&job),
        ready: &ready,
        tainted: &tainted,
        nodes: &nodes,
        live: &live,
        terminal: &terminal,
        rules: &crate::reconciler::Rules::default(),
        now: crate::time::Time::ZERO,
    });
    assert_eq!(ids(&diff, Category::Update), ["update"]);
    assert_eq!(ids(&diff, Category::Ignore), ["ignore"]);
    assert_eq!(count(&diff, Category::Stop), 0);
    assert_eq!(ids(&diff, Category::Migrate), ["migrate"]);
    assert_eq!(ids(&diff, Category::Lost), ["lost"]);
    let places: Vec<(&str, Option<String>)> = diff
        .of(Category::Place)
        .map(|e| (e.node_id, e.alloc.map(|a| a.id.to_string())))
        .collect();
    assert_eq!(places, [("foo", None), ("pipe", Some("term".to_string()))]);
}

fn nodes(n: usize) -> Vec<Node> {
    (0..n).map(|i| node(&format!("node-{i:02}"))).collect()
}

#[test]
fn test_system_sched_job_register() {
    let c = Cluster::new(nodes(10));
    let job = system_job();
    c.run(Some(&job), |s| {
        assert_eq!(s.placements.len(), 10);
        let mut on: Vec<&str> = s.placements.iter().map(|p| p.node_id).collect();
        on.dedup();
        assert_eq!(on.len(), 10, "one per node");
        assert!(s.placements.iter().all(|p| p.name == "my-job.web[0]"));
        assert_eq!(s.desired["web"].place, 10);
        assert!(s.stops.is_empty());
    });
}

#[test]
fn test_system_sched_job_register_annotate() {
    // Nine linux nodes and one that is not: nine placements, and the
    // annotation's Place lowered for the filtered one.
    let mut ns = nodes(10);
    ns[9]
        .attributes
        .insert("kernel.name".into(), "darwin".into());
    ns[9].computed_class = "v1:darwin".into();
    let c = Cluster::new(ns);
    let job = system_job();
    c.run(Some(&job), |s| {
        assert_eq!(s.placements.len(), 9);
        assert_eq!(s.desired["web"].place, 9);
        assert_eq!(s.filtered.len(), 1);
        assert_eq!(s.filtered[0].node_id, "node-09");
    });
}

#[test]
fn test_system_sched_job_register_add_node() {
    let mut c = Cluster::new(nodes(10));
    let job = Arc::new(system_job());
    for n in 0..10 {
        let id = format!("node-{n:02}");
        c.allocs.push(alloc(
            &format!("a{n}"),
            &id,
            "my-job.web[0]",
            Arc::clone(&job),
        ));
    }
    c.nodes.push(node("node-10"));
    c.run(Some(&job), |s| {
        assert_eq!(s.placements.len(), 1);
        assert_eq!(s.placements[0].node_id, "node-10");
        assert!(s.stops.is_empty());
        assert_eq!(s.desired["web"].ignore, 10);
        assert_eq!(s.desired["web"].place, 1);
    });
}

fn running_everywhere(c: &mut Cluster, job: &Arc<Job>) {
    for (i, n) in c.nodes.clone().iter().enumerate() {
        c.allocs.push(alloc(
            &format!("a{i:02}"),
            &n.id,
            "my-job.web[0]",
            Arc::clone(job),
        ));
    }
}

#[test]
fn test_system_sched_job_modify() {
    let mut c = Cluster::new(nodes(10));
    let old = Arc::new(system_job());
    running_everywhere(&mut c, &old);
    let mut job = system_job();
    job.job_modify_index = 100;
    job.task_groups[0].tasks[0].config =
        GoValue::from(serde_json::json!({"command": "/bin/other"}));
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 10);
        assert!(s.stops.iter().all(|st| st.description == desc::UPDATING));
        assert_eq!(s.placements.len(), 10);
        for p in &s.placements {
            let prev = p.previous.expect("replaces the old allocation");
            assert_eq!(prev.node_id, p.node_id, "on the same node");
        }
        assert_eq!(s.desired["web"].destructive_update, 10);
        // Place was 0 before the evictions, and nothing was filtered.
        assert_eq!(s.desired["web"].place, 0);
        assert!(!s.limit_reached);
    });
}

#[test]
fn test_system_sched_job_modify_rolling() {
    let mut c = Cluster::new(nodes(10));
    let old = Arc::new(system_job());
    running_everywhere(&mut c, &old);
    let mut job = system_job();
    job.job_modify_index = 100;
    job.update = Some(UpdateStrategy {
        stagger: 30 * crate::time::SECOND,
        max_parallel: 5,
        ..UpdateStrategy::default()
    });
    job.task_groups[0].tasks[0].config =
        GoValue::from(serde_json::json!({"command": "/bin/other"}));
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 5);
        assert_eq!(s.placements.len(), 5);
        assert!(s.limit_reached, "a rolling follow-up eval is due");
        assert_eq!(s.destructive.iter().filter(|d| d.evicted).count(), 5);
        assert_eq!(s.desired["web"].destructive_update, 10);
    });
}

#[test]
fn test_system_sched_job_modify_in_place() {
    let mut c = Cluster::new(nodes(10));
    let old = Arc::new(system_job());
    running_everywhere(&mut c, &old);
    let mut job = system_job();
    job.job_modify_index = 100;
    c.run(Some(&job), |s| {
        assert!(s.stops.is_empty());
        assert!(s.placements.is_empty());
        assert_eq!(s.in_place.len(), 10);
        assert_eq!(s.desired["web"].in_place_update, 10);
    });
}

#[test]
fn test_system_sched_job_modify_remove_dc() {
    let mut ns = nodes(2);
    ns[1].datacenter = "dc2".into();
    let mut c = Cluster::new(ns);
    let mut old = system_job();
    old.datacenters = vec!["dc1".into(), "dc2".into()];
    running_everywhere(&mut c, &Arc::new(old));
    let mut job = system_job();
    job.job_modify_index = 100;
    c.run(Some(&job), |s| {
        let stops: Vec<(&str, &str)> = s
            .stops
            .iter()
            .map(|st| (st.alloc.node_id.as_str(), st.description))
            .collect();
        assert_eq!(stops, [("node-01", desc::NOT_NEEDED)]);
        assert_eq!(s.in_place.len(), 1);
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_system_sched_job_deregister_purged() {
    let mut c = Cluster::new(nodes(10));
    running_everywhere(&mut c, &Arc::new(system_job()));
    c.run(None, |s| {
        assert_eq!(s.stops.len(), 10);
        assert!(s.stops.iter().all(|st| st.description == desc::NOT_NEEDED));
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_system_sched_job_deregister_stopped() {
    let mut c = Cluster::new(nodes(10));
    let mut job = system_job();
    running_everywhere(&mut c, &Arc::new(job.clone()));
    job.stop = true;
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 10);
        assert!(s.placements.is_empty());
        assert_eq!(s.desired["web"].stop, 10);
    });
}

#[test]
fn test_system_sched_node_down() {
    let mut n = node("down");
    n.status = "down".into();
    n.drain_strategy = GoValue::from(serde_json::json!({"Deadline": 0}));
    let mut c = Cluster::new(vec![n]);
    let job = Arc::new(system_job());
    running_everywhere(&mut c, &job);
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].description, desc::LOST);
        assert_eq!(s.stops[0].client_status, Some(ClientStatus::Lost));
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_system_sched_node_drain() {
    let mut n = node("drain");
    n.drain_strategy = GoValue::from(serde_json::json!({"Deadline": 0}));
    let mut c = Cluster::new(vec![n]);
    let job = Arc::new(system_job());
    running_everywhere(&mut c, &job);
    c.allocs[0].desired_transition.migrate = Some(true);
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].description, NODE_TAINTED);
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_system_sched_node_update() {
    let mut c = Cluster::new(vec![node("n")]);
    let job = Arc::new(system_job());
    running_everywhere(&mut c, &job);
    c.run(Some(&job), |s| {
        assert!(s.stops.is_empty() && s.placements.is_empty() && s.in_place.is_empty());
        assert_eq!(s.desired["web"].ignore, 1);
    });
}

#[test]
fn test_system_sched_queued_with_constraints() {
    let mut n = node("darwin");
    n.attributes.insert("kernel.name".into(), "darwin".into());
    let c = Cluster::new(vec![n]);
    let job = system_job();
    c.run(Some(&job), |s| {
        assert!(s.placements.is_empty());
        assert_eq!(s.desired["web"].place, 0);
    });
}

#[test]
fn test_system_sched_existing_alloc_no_nodes() {
    // The only node goes away: its allocation is lost, nothing is placed.
    let mut c = Cluster::new(vec![node("n")]);
    let job = Arc::new(system_job());
    running_everywhere(&mut c, &job);
    c.nodes.clear();
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].description, desc::LOST);
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_system_sched_chained_alloc() {
    // A destructive update chains each replacement to the allocation it replaces.
    let mut c = Cluster::new(nodes(3));
    let old = Arc::new(system_job());
    running_everywhere(&mut c, &old);
    let mut job = system_job();
    job.job_modify_index = 100;
    job.task_groups[0].tasks[0].config =
        GoValue::from(serde_json::json!({"command": "/bin/other"}));
    c.nodes.push(node("node-new"));
    c.run(Some(&job), |s| {
        let mut chained: Vec<Option<String>> = s
            .placements
            .iter()
            .map(|p| p.previous.map(|a| a.id.to_string()))
            .collect();
        chained.sort();
        assert_eq!(
            chained,
            [None, Some("a00"), Some("a01"), Some("a02")].map(|id| id.map(String::from))
        );
    });
}

#[test]
fn test_system_sched_plan_with_drained_node() {
    // A drained node (with a drain strategy, ineligible) keeps its
    // allocation of one group until it is marked to migrate; that one is stopped.
    let mut drained = node("drained");
    drained.drain_strategy = GoValue::from(serde_json::json!({"Deadline": 0}));
    drained.scheduling_eligibility = "ineligible".into();
    let mut c = Cluster::new(vec![drained, node("ready")]);
    let job = Arc::new(system_job());
    running_everywhere(&mut c, &job);
    c.allocs[0].desired_transition.migrate = Some(true);
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].alloc.node_id, "drained");
        assert_eq!(s.stops[0].description, NODE_TAINTED);
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_system_sched_queued_allocs_mult_tg() {
    let mut job = system_job();
    let mut second = job.task_groups[0].clone();
    second.name = "web2".into();
    second.constraints.push(Constraint {
        l_target: "${node.class}".into(),
        r_target: "gpu".into(),
        operand: "=".into(),
    });
    job.task_groups.push(second);
    let mut gpu = node("gpu");
    gpu.node_class = "gpu".into();
    gpu.computed_class = "v1:gpu".into();
    let c = Cluster::new(vec![node("plain"), gpu]);
    c.run(Some(&job), |s| {
        assert_eq!(s.placements.len(), 3);
        assert_eq!(s.desired["web"].place, 2);
        assert_eq!(s.desired["web2"].place, 1);
    });
}

fn constraint_errors(mut job: Job) {
    // Three nodes tagged foo, one of them ineligible, and one tagged
    // otherwise: two placements.
    job.constraints.push(Constraint {
        l_target: "${meta.tag}".into(),
        r_target: "foo".into(),
        operand: "=".into(),
    });
    let mut ns = nodes(4);
    for (n, tag) in ns.iter_mut().zip(["aaaaaa", "foo", "foo", "foo"]) {
        n.meta.insert("tag".into(), tag.into());
        n.computed_class = format!("v1:{tag}").into();
    }
    ns[3].scheduling_eligibility = "ineligible".into();
    let c = Cluster::new(ns);
    c.run(Some(&job), |s| {
        let on: Vec<&str> = s.placements.iter().map(|p| p.node_id).collect();
        assert_eq!(on, ["node-01", "node-02"]);
        assert!(s.invalid_constraints.is_empty());
    });
}

#[test]
fn test_system_sched_constraint_errors() {
    constraint_errors(system_job());
}

#[test]
fn test_sys_batch_constraint_errors() {
    constraint_errors(sysbatch_job());
}

#[test]
fn a_broken_version_constraint_makes_nodes_infeasible_and_is_reported() {
    // A broken version constraint makes every node infeasible, without a
    // panic, and is reported for a warning.
    let mut job = system_job();
    job.constraints.push(Constraint {
        l_target: "${attr.nomad.version}".into(),
        r_target: ">= not-a-version".into(),
        operand: "version".into(),
    });
    let mut n = node("n");
    n.attributes.insert("nomad.version".into(), "1.3.0".into());
    let c = Cluster::new(vec![n]);
    c.run(Some(&job), |s| {
        assert!(s.placements.is_empty());
        assert_eq!(s.invalid_constraints.len(), 1);
        assert_eq!(
            s.invalid_constraints[0].constraint,
            "${attr.nomad.version} version >= not-a-version"
        );
    });
}

#[test]
fn test_sys_batch_job_register_add_node_dead() {
    // A finished sysbatch allocation is not run again; a new node gets one.
    let mut c = Cluster::new(nodes(2));
    let job = Arc::new(job("sysbatch", "pinger", 1));
    for (i, n) in ["node-00"].iter().enumerate() {
        let mut a = alloc(
            &format!("d{i}"),
            n,
            "my-sysbatch.pinger[0]",
            Arc::clone(&job),
        );
        a.client_status = "complete".into();
        c.allocs.push(a);
    }
    c.run(Some(&job), |s| {
        assert_eq!(s.placements.len(), 1);
        assert_eq!(s.placements[0].node_id, "node-01");
        assert_eq!(s.desired["pinger"].ignore, 1);
    });
}

#[test]
fn test_sys_batch_job_modify() {
    // Finished allocations of an older job version run again.
    let mut c = Cluster::new(nodes(3));
    let old = Arc::new(job("sysbatch", "pinger", 1));
    for (i, n) in c.nodes.clone().iter().enumerate() {
        let mut a = alloc(
            &format!("d{i}"),
            &n.id,
            "my-sysbatch.pinger[0]",
            Arc::clone(&old),
        );
        a.client_status = "complete".into();
        c.allocs.push(a);
    }
    let mut new = job("sysbatch", "pinger", 1);
    new.job_modify_index = 100;
    new.task_groups[0].tasks[0].config =
        GoValue::from(serde_json::json!({"command": "/bin/other"}));
    c.run(Some(&new), |s| {
        assert_eq!(s.placements.len(), 3);
        assert!(s.placements.iter().all(|p| p.previous.is_some()));
        assert_eq!(s.desired["pinger"].destructive_update, 3);
    });
}

#[test]
fn test_sys_batch_job_modify_in_place() {
    // A finished allocation updated in place is counted, not planned.
    let mut c = Cluster::new(nodes(2));
    let old = Arc::new(job("sysbatch", "pinger", 1));
    for (i, n) in c.nodes.clone().iter().enumerate() {
        let mut a = alloc(
            &format!("d{i}"),
            &n.id,
            "my-sysbatch.pinger[0]",
            Arc::clone(&old),
        );
        a.client_status = "complete".into();
        c.allocs.push(a);
    }
    let mut new = job("sysbatch", "pinger", 1);
    new.job_modify_index = 100;
    c.run(Some(&new), |s| {
        assert!(s.placements.is_empty() && s.in_place.is_empty() && s.stops.is_empty());
        assert_eq!(s.desired["pinger"].in_place_update, 2);
    });
}

#[test]
fn place_wraps_below_zero_for_a_filtered_replacement() {
    // contract 4: a destructive update's replacement that the node now
    // filters lowers Place, which Nomad never raised for it: uint64 wraps.
    let mut c = Cluster::new(vec![node("n")]);
    let old = Arc::new(system_job());
    running_everywhere(&mut c, &old);
    let mut job = system_job();
    job.job_modify_index = 100;
    job.task_groups[0].tasks[0].driver = "docker".into();
    c.run(Some(&job), |s| {
        assert_eq!(s.destructive.len(), 1);
        assert!(s.placements.is_empty());
        assert_eq!(s.desired["web"].place, u64::MAX);
    });
}

#[test]
fn test_system_sched_job_register_sticky_allocs() {
    // A failed allocation is replaced on its node, chained to it.
    let mut c = Cluster::new(nodes(10));
    let job = Arc::new(system_job());
    running_everywhere(&mut c, &job);
    c.allocs[4].client_status = "failed".into();
    c.run(Some(&job), |s| {
        assert_eq!(s.placements.len(), 1);
        let p = &s.placements[0];
        assert_eq!(p.node_id, "node-04");
        assert_eq!(p.previous.map(|a| a.id.to_string()).as_deref(), Some("a04"));
        assert!(s.stops.is_empty());
    });
}

#[test]
fn test_system_sched_job_register_alloc_fail() {
    // No nodes: nothing to place, no plan.
    let c = Cluster::new(Vec::new());
    let job = system_job();
    c.run(Some(&job), |s| {
        assert!(s.placements.is_empty() && s.stops.is_empty() && s.filtered.is_empty());
        assert!(s.desired.is_empty());
    });
}

#[test]
fn test_system_sched_job_constraint_add_node() {
    job_constraint_add_node(system_job());
}

#[test]
fn test_sys_batch_job_constraint_add_node() {
    job_constraint_add_node(sysbatch_job());
}

/// Two groups pinned to two node classes, one node of each.
fn job_constraint_add_node(mut job: Job) {
    let mut b = job.task_groups[0].clone();
    job.task_groups[0].name = "groupA".into();
    job.task_groups[0].constraints = vec![Constraint {
        l_target: "${node.class}".into(),
        r_target: "Class-A".into(),
        operand: "=".into(),
    }];
    b.name = "groupB".into();
    b.constraints = vec![Constraint {
        l_target: "${node.class}".into(),
        r_target: "Class-B".into(),
        operand: "=".into(),
    }];
    job.task_groups.push(b);
    let class = |id: &str, c: &str| {
        let mut n = node(id);
        n.node_class = c.into();
        n.computed_class = format!("v1:{c}").into();
        n
    };
    let c = Cluster::new(vec![class("a", "Class-A"), class("b", "Class-B")]);
    c.run(Some(&job), |s| {
        let mut placed: Vec<(&str, &str)> = s
            .placements
            .iter()
            .map(|p| (p.task_group.name.as_str(), p.node_id))
            .collect();
        placed.sort();
        assert_eq!(placed, [("groupA", "a"), ("groupB", "b")]);
        assert_eq!(s.desired["groupA"].place, 1);
        assert_eq!(s.desired["groupB"].place, 1);
    });
}

#[test]
fn test_system_sched_node_drain_down() {
    // A drained node that went down: its allocation is lost.
    let mut n = node("n");
    n.drain_strategy = GoValue::from(serde_json::json!({"Deadline": 0}));
    n.status = "down".into();
    let mut c = Cluster::new(vec![n]);
    let job = Arc::new(system_job());
    running_everywhere(&mut c, &job);
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].description, desc::LOST);
        assert_eq!(s.stops[0].client_status, Some(ClientStatus::Lost));
    });
}

fn sysbatch_job() -> Job {
    job("sysbatch", "pinger", 1)
}

fn sysbatch_everywhere(c: &mut Cluster, job: &Arc<Job>, client: &str) {
    for (i, n) in c.nodes.clone().iter().enumerate() {
        let mut a = alloc(
            &format!("s{i:02}"),
            &n.id,
            "my-sysbatch.pinger[0]",
            Arc::clone(job),
        );
        a.client_status = client.into();
        c.allocs.push(a);
    }
}

#[test]
fn test_sys_batch_job_register() {
    let c = Cluster::new(nodes(10));
    let job = sysbatch_job();
    c.run(Some(&job), |s| {
        assert_eq!(s.placements.len(), 10);
        assert!(
            s.placements
                .iter()
                .all(|p| p.name == "my-sysbatch.pinger[0]")
        );
    });
}

#[test]
fn test_sys_batch_job_register_add_node_running() {
    let mut c = Cluster::new(nodes(10));
    let job = Arc::new(sysbatch_job());
    sysbatch_everywhere(&mut c, &job, "running");
    c.nodes.push(node("node-10"));
    c.run(Some(&job), |s| {
        assert!(s.stops.is_empty());
        assert_eq!(s.placements.len(), 1);
        assert_eq!(s.placements[0].node_id, "node-10");
        assert_eq!(s.desired["pinger"].ignore, 10);
    });
}

#[test]
fn test_sys_batch_job_deregister_purged() {
    let mut c = Cluster::new(nodes(10));
    sysbatch_everywhere(&mut c, &Arc::new(sysbatch_job()), "running");
    c.run(None, |s| {
        assert_eq!(s.stops.len(), 10);
        assert!(s.stops.iter().all(|st| st.description == desc::NOT_NEEDED));
    });
}

#[test]
fn test_sys_batch_job_deregister_stopped() {
    let mut c = Cluster::new(nodes(10));
    let mut job = sysbatch_job();
    sysbatch_everywhere(&mut c, &Arc::new(job.clone()), "running");
    job.stop = true;
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 10);
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_sys_batch_node_down() {
    let mut n = node("n");
    n.status = "down".into();
    let mut c = Cluster::new(vec![n]);
    let job = Arc::new(sysbatch_job());
    sysbatch_everywhere(&mut c, &job, "running");
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].description, desc::LOST);
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_sys_batch_node_drain_down() {
    let mut n = node("n");
    n.drain_strategy = GoValue::from(serde_json::json!({"Deadline": 0}));
    n.status = "down".into();
    let mut c = Cluster::new(vec![n]);
    let job = Arc::new(sysbatch_job());
    sysbatch_everywhere(&mut c, &job, "running");
    c.run(Some(&job), |s| {
        let lost: Vec<String> = s.stops.iter().map(|st| st.alloc.id.to_string()).collect();
        assert_eq!(lost, ["s00"]);
        assert_eq!(s.stops[0].client_status, Some(ClientStatus::Lost));
    });
}

#[test]
fn test_sys_batch_node_drain() {
    let mut n = node("n");
    n.drain_strategy = GoValue::from(serde_json::json!({"Deadline": 0}));
    let mut c = Cluster::new(vec![n]);
    let job = Arc::new(sysbatch_job());
    sysbatch_everywhere(&mut c, &job, "running");
    c.allocs[0].desired_transition.migrate = Some(true);
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].description, NODE_TAINTED);
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_sys_batch_node_update() {
    let mut c = Cluster::new(vec![node("n")]);
    let job = Arc::new(sysbatch_job());
    sysbatch_everywhere(&mut c, &job, "running");
    c.run(Some(&job), |s| {
        assert!(s.stops.is_empty() && s.placements.is_empty());
    });
}

#[test]
fn test_sys_batch_queued_with_constraints() {
    let mut n = node("darwin");
    n.attributes.insert("kernel.name".into(), "darwin".into());
    let c = Cluster::new(vec![n]);
    let job = sysbatch_job();
    c.run(Some(&job), |s| {
        assert!(s.placements.is_empty());
        assert_eq!(s.desired["pinger"].place, 0);
    });
}

#[test]
fn test_sys_batch_queued_with_constraints_partial_match() {
    // Three linux and three darwin nodes: placements on the linux ones.
    let mut ns = nodes(6);
    for n in &mut ns[3..] {
        n.attributes.insert("kernel.name".into(), "darwin".into());
        n.computed_class = "v1:darwin".into();
    }
    let c = Cluster::new(ns);
    let job = sysbatch_job();
    c.run(Some(&job), |s| {
        let on: Vec<&str> = s.placements.iter().map(|p| p.node_id).collect();
        assert_eq!(on, ["node-00", "node-01", "node-02"]);
        assert_eq!(s.desired["pinger"].place, 3);
    });
}

#[test]
fn test_sys_batch_existing_alloc_no_nodes() {
    let mut c = Cluster::new(vec![node("n")]);
    let job = Arc::new(sysbatch_job());
    sysbatch_everywhere(&mut c, &job, "running");
    c.nodes.clear();
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].description, desc::LOST);
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_sys_batch_plan_with_drained_node() {
    let mut drained = node("drained");
    drained.drain_strategy = GoValue::from(serde_json::json!({"Deadline": 0}));
    drained.scheduling_eligibility = "ineligible".into();
    let mut c = Cluster::new(vec![drained, node("ready")]);
    let job = Arc::new(sysbatch_job());
    sysbatch_everywhere(&mut c, &job, "running");
    c.allocs[0].desired_transition.migrate = Some(true);
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].alloc.node_id, "drained");
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_sys_batch_queued_allocs_mult_tg() {
    let mut job = sysbatch_job();
    let mut second = job.task_groups[0].clone();
    second.name = "pinger2".into();
    second.constraints.push(Constraint {
        l_target: "${node.class}".into(),
        r_target: "gpu".into(),
        operand: "=".into(),
    });
    job.task_groups.push(second);
    let mut gpu = node("gpu");
    gpu.node_class = "gpu".into();
    gpu.computed_class = "v1:gpu".into();
    let c = Cluster::new(vec![node("plain"), gpu]);
    c.run(Some(&job), |s| {
        assert_eq!(s.desired["pinger"].place, 2);
        assert_eq!(s.desired["pinger2"].place, 1);
    });
}

#[test]
fn test_sys_batch_chained_alloc() {
    let mut c = Cluster::new(nodes(3));
    let old = Arc::new(sysbatch_job());
    sysbatch_everywhere(&mut c, &old, "running");
    let mut job = sysbatch_job();
    job.job_modify_index = 100;
    job.task_groups[0].tasks[0].config =
        GoValue::from(serde_json::json!({"command": "/bin/other"}));
    c.nodes.push(node("node-new"));
    c.run(Some(&job), |s| {
        let mut chained: Vec<Option<String>> = s
            .placements
            .iter()
            .map(|p| p.previous.map(|a| a.id.to_string()))
            .collect();
        chained.sort();
        assert_eq!(
            chained,
            [None, Some("s00"), Some("s01"), Some("s02")].map(|id| id.map(String::from))
        );
    });
}

#[test]
fn computed_class_results_are_shared_unless_a_unique_target_escapes() {
    // Two nodes claim one computed class; only the first is checked for the
    // job constraint on a non-unique attribute. A constraint on a unique
    // attribute is checked on every node.
    let mut first = node("first");
    first
        .attributes
        .insert("kernel.name".into(), "darwin".into());
    let second = node("second");
    let c = Cluster::new(vec![first, second]);
    let job = system_job();
    c.run(Some(&job), |s| {
        assert!(
            s.placements.is_empty(),
            "the class is ineligible after the first node"
        );
        assert!(matches!(
            s.filtered[1].filter,
            crate::feasibility::Filter::ClassIneligible { .. }
        ));
    });
    let mut unique = system_job();
    unique.constraints[0].l_target = "${attr.unique.kernel}".into();
    let mut first = node("first");
    first
        .attributes
        .insert("unique.kernel".into(), "darwin".into());
    let mut second = node("second");
    second
        .attributes
        .insert("unique.kernel".into(), "linux".into());
    let c = Cluster::new(vec![first, second]);
    c.run(Some(&unique), |s| {
        assert_eq!(s.placements.len(), 1);
        assert_eq!(s.placements[0].node_id, "second");
    });
}

fn rack(id: &str, status: &str) -> Node {
    let mut n = node(id);
    n.status = status.into();
    n.meta.insert("rack".into(), "r1".into());
    n
}

#[test]
fn util_1020_propertyset_166_a_lost_mark_frees_its_distinct_property_value() {
    // Seed util.go:1020-1024 stops again, as lost, an allocation already
    // told to stop but running on a down node; propertyset.go:166-192 and
    // :258-272 count every stop in the plan as freeing its node's value,
    // though the existing use (terminal allocations left out) never counted
    // it. Rack r1 is used once by `up` and freed once by `gone`: `new` fits.
    let mut c = Cluster::new(vec![
        rack("down", "down"),
        rack("new", "ready"),
        rack("up", "ready"),
    ]);
    let mut job = system_job();
    job.constraints.push(Constraint {
        l_target: "${meta.rack}".into(),
        r_target: String::new(),
        operand: "distinct_property".into(),
    });
    let job = Arc::new(job);
    c.allocs
        .push(alloc("up0", "up", "my-job.web[0]", Arc::clone(&job)));
    let mut gone = alloc("gone", "down", "my-job.web[0]", Arc::clone(&job));
    gone.desired_status = "stop".into();
    c.allocs.push(gone);
    c.run(Some(&job), |s| {
        let stops: Vec<(String, &str)> = s
            .stops
            .iter()
            .map(|s| (s.alloc.id.to_string(), s.description))
            .collect();
        assert_eq!(stops, [("gone".to_string(), desc::LOST)]);
        let on: Vec<&str> = s.placements.iter().map(|p| p.node_id).collect();
        assert_eq!(on, ["new"], "filtered: {:?}", s.filtered);
    });
}

#[test]
fn util_79_270_861_a_node_evicts_its_lowest_allocation_id_first() {
    // Seed util.go:79 and :270 take a node's allocations in the state
    // store's order, ascending ID, and :861 evicts the first under
    // `max_parallel`: `web` (ID a0) before `api` (ID b0), whatever their
    // names. `web` no longer fits the node, so its replacement is filtered
    // and its annotated Place wraps.
    let mut c = Cluster::new(vec![node("n")]);
    let mut old = system_job();
    let mut api = old.task_groups[0].clone();
    api.name = "api".into();
    old.task_groups.push(api);
    let old = Arc::new(old);
    let mut web = alloc("a0", "n", "my-job.web[0]", Arc::clone(&old));
    web.task_group = "web".into();
    let mut api = alloc("b0", "n", "my-job.api[0]", Arc::clone(&old));
    api.task_group = "api".into();
    c.allocs.extend([api, web]);
    let mut job = (*old).clone();
    job.job_modify_index = 100;
    job.update = Some(UpdateStrategy {
        stagger: 30 * crate::time::SECOND,
        max_parallel: 1,
        ..UpdateStrategy::default()
    });
    for tg in &mut job.task_groups {
        tg.tasks[0].config = GoValue::from(serde_json::json!({"command": "/bin/other"}));
    }
    job.task_groups[0].constraints.push(Constraint {
        l_target: "${node.class}".into(),
        r_target: "gpu".into(),
        operand: "=".into(),
    });
    c.run(Some(&job), |s| {
        let evicted: Vec<String> = s
            .destructive
            .iter()
            .filter(|d| d.evicted)
            .map(|d| d.alloc.id.to_string())
            .collect();
        assert_eq!(evicted, ["a0"]);
        assert!(s.limit_reached);
        assert!(s.placements.is_empty());
        assert_eq!(s.desired["web"].place, u64::MAX);
        assert_eq!(s.desired["api"].place, 0);
    });
}
