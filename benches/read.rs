//! The reader alone, on generated snapshots held in memory: the two
//! clusters of `gen-snapshot --cluster` scaled down, the varied shape
//! (as real dumps are), the same with a modify index of its own in every
//! allocation's job text (churned), and the uniform one, each against the floor of
//! parsing the same bytes into `serde_json::de::IgnoredAny`. 20,000
//! allocations by default (`BENCH_ALLOCS` to change it).
//!
//!     cargo bench --bench read

mod snapshot;

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use plan_inspect::read::read_snapshot_from;
use serde::de::IgnoredAny;
use snapshot::{Cluster, Shape, Spec};

fn bench(c: &mut Criterion) {
    let n = std::env::var("BENCH_ALLOCS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let churned = Spec {
        own_indexes: true,
        ..Spec::new(Shape::Varied, n)
    };
    // The two clusters scaled down: 20 jobs, or 20 allocations a job; 100
    // allocations a node.
    let scaled = |cluster: Cluster, jobs: usize| Spec {
        allocs: n,
        jobs: jobs.max(1),
        nodes: (n / 100).max(1),
        ..cluster.spec()
    };
    for (spec, name) in [
        (scaled(Cluster::Big, 20), "big cluster"),
        (scaled(Cluster::Many, n / 20), "many-jobs cluster"),
        (Spec::new(Shape::Varied, n), "varied"),
        (churned, "churned"),
        (Spec::new(Shape::Uniform, n), "uniform"),
    ] {
        let mut bytes = Vec::new();
        spec.write(&mut bytes)
            .expect("writing to memory cannot fail");
        let mut group = c.benchmark_group(format!("read {name}, {n} allocs"));
        group
            .throughput(Throughput::Bytes(bytes.len() as u64))
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(8));
        group.bench_function("floor (IgnoredAny)", |b| {
            b.iter(|| serde_json::from_slice::<IgnoredAny>(&bytes).expect("valid JSON"))
        });
        group.bench_function("read_snapshot_from", |b| {
            b.iter(|| read_snapshot_from(&bytes[..], "bench.json").expect("a valid snapshot"))
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
