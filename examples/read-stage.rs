//! The reader alone on a snapshot file, for timing it apart from the
//! replay: `read-stage FILE [THREADS]` reads the file as plan-inspect does
//! (0 threads is one per core) and prints the counts it kept.

use plan_inspect::read::{ReadFilter, Source, read_snapshot_observed};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: read-stage FILE [THREADS]");
    let threads = args
        .next()
        .map_or(0, |t| t.parse().expect("THREADS is a number"));
    let source = Source::from_arg(std::path::Path::new(&path));
    let snapshot = read_snapshot_observed(&source, &ReadFilter::default(), threads, &|_| {})
        .unwrap_or_else(|e| panic!("{e}"));
    println!(
        "{} allocations, {} jobs, {} nodes",
        snapshot.allocs.len(),
        snapshot.jobs.len(),
        snapshot.nodes.len()
    );
    // The binary never frees its snapshot either.
    std::mem::forget(snapshot);
}
