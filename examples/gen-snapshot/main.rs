//! Writes a large `nomad operator snapshot state` dump to stdout, the same
//! bytes for the same flags (the shapes are described in
//! `benches/snapshot/mod.rs`):
//!
//!     cargo run --release --example gen-snapshot -- --allocs 1000000 > /tmp/varied.json
//!     cargo run --release --example gen-snapshot -- --shape uniform \
//!         --nodes 10000 --allocs 1000000 --jobs 50 --seed 1 > /tmp/uniform.json
//!
//! `--cluster big` and `--cluster many` are the two shapes of issue 32
//! ([`snapshot::Cluster`]): 1M allocations in 20 jobs on 10,000 nodes, and
//! 200k in 10,000 jobs on 2,000 nodes, written as Go writes the dump, with
//! allocations without a job, collected nodes and varied texts; flags after
//! it change its sizes:
//!
//!     gen-snapshot --cluster many --allocs 100000 --jobs 5000 > /tmp/many.json
//!
//! Sizes left unset take the shape's defaults ([`snapshot::Spec::new`]).
//! `--tasks 1 --scores 1 --bare-jobs 1` gives the small varied shape
//! (about 6 KB per allocation, the one nearest the 4.5 KB of issue 15's
//! held-out snapshot); add `--node-attrs 90` for nodes of a hundred
//! attributes, as real clients report them (the fat shape of `bench/e2e.sh`);
//! `--own-indexes 1` gives every allocation's job text a modify index of its
//! own (the churned shape); `--go-dump 1` writes every top-level key and
//! field as Go does, with nodes as clients register them (the go shape).

#[path = "../../benches/snapshot/mod.rs"]
mod snapshot;

use std::io::{self, BufWriter, Write};

use snapshot::{Cluster, Shape, Spec};

fn main() {
    let spec = parse();
    let stdout = io::stdout().lock();
    let mut out = BufWriter::with_capacity(1 << 20, stdout);
    if let Err(e) = spec.write(&mut out).and_then(|()| out.flush())
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        eprintln!("gen-snapshot: {e}");
        std::process::exit(1);
    }
}

fn parse() -> Spec {
    let mut args: Vec<(String, String)> = Vec::new();
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it
            .next()
            .unwrap_or_else(|| usage(&format!("{flag} needs a value")));
        args.push((flag, value));
    }
    let shape = match args.iter().rfind(|(f, _)| f == "--shape") {
        None => Shape::Varied,
        Some((_, v)) if v == "varied" => Shape::Varied,
        Some((_, v)) if v == "uniform" => Shape::Uniform,
        Some((_, v)) => usage(&format!("--shape: {v:?} is not varied or uniform")),
    };
    let mut spec = match args.iter().rfind(|(f, _)| f == "--cluster") {
        None => Spec::new(shape, 100_000),
        Some((_, v)) if v == "big" => Cluster::Big.spec(),
        Some((_, v)) if v == "many" => Cluster::Many.spec(),
        Some((_, v)) => usage(&format!("--cluster: {v:?} is not big or many")),
    };
    for (flag, value) in args
        .iter()
        .filter(|(f, _)| f != "--shape" && f != "--cluster")
    {
        let n: u64 = value
            .parse()
            .unwrap_or_else(|_| usage(&format!("{flag}: {value:?} is not a number")));
        let n_usize = n as usize;
        match flag.as_str() {
            "--nodes" => spec.nodes = n_usize.max(1),
            "--allocs" => spec.allocs = n_usize,
            "--jobs" => spec.jobs = n_usize.max(1),
            "--seed" => spec.seed = n,
            "--versions" => spec.versions = n_usize.max(2),
            "--variants" => spec.variants = n_usize.max(1),
            "--events" => spec.events = n_usize.max(4),
            "--tasks" => spec.tasks = n_usize.clamp(1, 4),
            "--scores" => spec.scores = n_usize.clamp(1, 3),
            "--bare-jobs" => spec.bare_jobs = n != 0,
            "--node-attrs" => spec.node_attrs = n_usize,
            "--own-indexes" => spec.own_indexes = n != 0,
            "--go-dump" => spec.go_dump = n != 0,
            "--null-jobs" => spec.null_jobs = n_usize.min(1000),
            "--gone-nodes" => spec.gone_nodes = n_usize.min(100),
            "--varied-texts" => spec.varied_texts = n != 0,
            _ => usage(&format!("unknown flag {flag}")),
        }
    }
    spec
}

fn usage(problem: &str) -> ! {
    eprintln!("gen-snapshot: {problem}");
    eprintln!(
        "usage: gen-snapshot [--shape varied|uniform | --cluster big|many] [--nodes N] [--allocs N]\n\
         \x20                   [--jobs N] [--seed N]\n\
         \x20                   [--versions N] [--variants N] [--events N] [--tasks N]\n\
         \x20                   [--scores N] [--bare-jobs 0|1] [--node-attrs N]\n\
         \x20                   [--own-indexes 0|1] [--go-dump 0|1] [--null-jobs PER_MILLE]\n\
         \x20                   [--gone-nodes PERCENT] [--varied-texts 0|1] > snapshot.json"
    );
    std::process::exit(2)
}
