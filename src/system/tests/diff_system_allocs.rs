//! `TestDiffSystemAllocs*` (scheduler/util_test.go): how `diffSystemAllocs`
//! sorts a system job's allocations node by node.

use super::*;
use crate::system::diff::terminal_of;

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
                &*job.task_groups[0],
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
    let terminal = terminal_of([("node1", &done)]);
    let diff = for_node(&job, "node1", &ready, &tainted, &[], &terminal);
    assert_eq!(ids(&diff, Category::Ignore), ["t"]);
    assert_eq!(diff.entries.len(), 1);
    // Outdated job: it runs again, as an update.
    let mut outdated = done.clone();
    outdated.job = Some(older(&job));
    let terminal = terminal_of([("node1", &outdated)]);
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
    let terminal = terminal_of(terms.iter().map(|a| ("zip", a)));
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
        if let Some(t) = terms.iter().find(|t| t.name() == e.name) {
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
    let terminal = terminal_of([("pipe", &term)]);
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
