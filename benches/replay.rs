//! The core alone on an in-memory model: one service job whose allocations
//! (100k by default, `BENCH_ALLOCS=1000000` for a million) are mostly running
//! on ready nodes, some on down, draining or disconnected nodes, some on an
//! older job version (a destructive update). No reading, no rendering.
//!
//! The report is dropped outside the timed routine (`iter_with_large_drop`):
//! the binary never frees it (`main` forgets it at exit), so freeing a
//! million bucket entries is no time a user waits for.
//!
//!     cargo bench --bench replay

use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use plan_inspect::model::{
    Allocation, Job, Node, ReschedulePolicy, Snapshot, Task, TaskGroup, UpdateStrategy,
};
use plan_inspect::replay::{Options, Replay};
use plan_inspect::time::Time;

const NOW: i128 = 1_648_774_800_000_000_000;

fn job(version: u64, image: &str) -> Arc<Job> {
    Arc::new(Job {
        id: "web".into(),
        namespace: "default".into(),
        name: "web".into(),
        job_type: "service".into(),
        priority: 50,
        status: "running".into(),
        version,
        job_modify_index: 100 + version,
        create_index: 10,
        datacenters: vec!["dc1".into()],
        task_groups: vec![
            TaskGroup {
                name: "web".into(),
                count: 0,
                update: Some(UpdateStrategy {
                    max_parallel: 100,
                    ..UpdateStrategy::default()
                }),
                reschedule_policy: Some(ReschedulePolicy {
                    delay: 30_000_000_000,
                    delay_function: "exponential".into(),
                    max_delay: 3_600_000_000_000,
                    unlimited: true,
                    ..ReschedulePolicy::default()
                }),
                tasks: vec![
                    Task {
                        name: "app".into(),
                        driver: "docker".into(),
                        config: plan_inspect::model::GoValue::from(
                            serde_json::json!({ "image": image }),
                        ),
                        kill_timeout: 5_000_000_000,
                        ..Task::default()
                    }
                    .into(),
                ],
                ..TaskGroup::default()
            }
            .into(),
        ],
        ..Job::default()
    })
}

fn model(allocs: usize) -> Snapshot {
    let statuses = [
        "ready",
        "ready",
        "ready",
        "ready",
        "ready",
        "ready",
        "down",
        "disconnected",
    ];
    let nodes: Vec<Node> = (0..1000)
        .map(|i| Node {
            id: format!("node-{i:04}"),
            status: statuses[i % statuses.len()].into(),
            drain: i % 50 == 1,
            ..Node::default()
        })
        .collect();
    let old = job(1, "web:1");
    let mut current = (*job(2, "web:2")).clone();
    current.task_groups[0].count = allocs as i64;
    let current = Arc::new(current);
    let allocs = (0..allocs)
        .map(|i| Allocation {
            id: format!("{i:08x}-0000-4000-8000-000000000000").into(),
            namespace: "default".into(),
            name: format!("web.web[{i}]").into(),
            node_id: nodes[i % nodes.len()].id.as_str().into(),
            job_id: "web".into(),
            job: Some(if i % 4 == 0 {
                Arc::clone(&old)
            } else {
                Arc::clone(&current)
            }),
            task_group: "web".into(),
            desired_status: "run".into(),
            client_status: if i % 20 == 3 { "failed" } else { "running" }.into(),
            create_index: 20,
            modify_time: (NOW - 3_600_000_000_000) as i64,
            ..Allocation::default()
        })
        .collect();
    Snapshot {
        jobs: vec![current],
        nodes,
        allocs,
        now: Some(Time::from_unix_nanos(NOW)),
        ..Snapshot::default()
    }
}

fn bench(c: &mut Criterion) {
    let n = std::env::var("BENCH_ALLOCS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let snapshot = model(n);
    let mut group = c.benchmark_group("replay");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    group.bench_function(format!("single job, {n} allocs"), |b| {
        b.iter_with_large_drop(|| {
            Replay::new(&snapshot, &Options::default())
                .expect("the job exists")
                .report()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
