//! Large `nomad operator snapshot state` dumps, the same bytes for the same
//! [`Spec`], for benchmarks: the `gen-snapshot` example writes them to a file,
//! the reader bench into memory.
//!
//! Two shapes:
//! - [`Shape::Varied`] is built to look like a real cluster's dump, where no
//!   fast path gets an easy ride: jobs of different sizes and shapes with
//!   several versions each (in-place and destructive differences), every
//!   version embedded in several texts that differ only in modify indexes and
//!   status (as a job's `ModifyIndex` moves while its allocations are placed),
//!   task states with event histories of varying length, `AllocStates`,
//!   reschedule trackers with several events, deployments with canaries, and
//!   every client status on ready, down, draining and disconnected nodes.
//!   Allocations are written in ID order, as Nomad's state store iterates them.
//! - [`Shape::Uniform`] is the first generator's shape: one text per job
//!   version and a few fixed allocation patterns, grouped by job.

mod uniform;
mod varied;

use std::io::{self, Write};

/// The moment the snapshot is taken: 2022-04-01T01:00:00Z.
const NOW_NANOS: i64 = 1_648_774_800_000_000_000;
const SECOND: i64 = 1_000_000_000;
const MINUTE: i64 = 60 * SECOND;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shape {
    Uniform,
    Varied,
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct Spec {
    pub shape: Shape,
    pub nodes: usize,
    pub allocs: usize,
    pub jobs: usize,
    pub seed: u64,
    /// Varied shape: the most versions a job has (at least 2).
    pub versions: usize,
    /// Varied shape: how many texts each job version is embedded as.
    pub variants: usize,
    /// Varied shape: about the most task events a task state keeps.
    pub events: usize,
    /// Varied shape: the tasks in every fourth group (the others run one).
    pub tasks: usize,
    /// Varied shape: the most nodes an allocation's metrics score (1 to 3).
    pub scores: usize,
    /// Varied shape: jobs without service checks, templates or task
    /// environments, which make the embedded job texts (read once per text)
    /// and nothing else smaller.
    pub bare_jobs: bool,
    /// Varied shape: attributes each node has beyond the ten it always
    /// has, as a real client fingerprints its CPU, drivers, cloud and Consul
    /// (about a hundred); with any, nodes also report their drivers.
    pub node_attrs: usize,
    /// Varied shape: each allocation's embedded job has a `ModifyIndex` of
    /// its own (its allocation's `CreateIndex`), as when the servers wrote
    /// the job between most placements; otherwise the texts of one version
    /// are its few variants.
    pub own_indexes: bool,
    /// Varied shape: the dump exactly as `nomad operator snapshot state`
    /// writes it (compact): every top-level key Go's map holds, sorted,
    /// `SnapshotMeta` as a list, and nodes as clients register them, every
    /// field in Go's order, several KB each.
    pub go_dump: bool,
    /// Varied shape: allocations in a thousand written with `"Job":null`
    /// (as an allocation of a job the servers no longer hold).
    pub null_jobs: usize,
    /// Varied shape: nodes in a hundred garbage-collected: down, still
    /// named by allocations, but absent from `Nodes`.
    pub gone_nodes: usize,
    /// Varied shape: task event messages, exit codes, restart delays,
    /// images and descriptions drawn per event, not one text each.
    pub varied_texts: bool,
}

/// A cluster the dumps of issue 32 were taken from, by name.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cluster {
    /// 1M allocations in 20 jobs of 50,000, on 10,000 nodes.
    Big,
    /// 200k allocations in 10,000 jobs of 20, on 2,000 nodes.
    Many,
}

impl Cluster {
    /// The spec: Go's dump with every field and key in Go's order, nodes as
    /// clients fingerprint them, one scored node per allocation, a few
    /// allocations without a job, some nodes collected and texts that vary.
    pub fn spec(self) -> Spec {
        let (allocs, jobs, nodes) = match self {
            Cluster::Big => (1_000_000, 20, 10_000),
            Cluster::Many => (200_000, 10_000, 2_000),
        };
        Spec {
            nodes,
            jobs,
            tasks: 1,
            scores: 1,
            bare_jobs: true,
            node_attrs: 90,
            go_dump: true,
            null_jobs: 5,
            gone_nodes: 3,
            varied_texts: true,
            ..Spec::new(Shape::Varied, allocs)
        }
    }
}

impl Spec {
    /// The shape's defaults for `allocs` allocations: the held-out varied
    /// snapshot has 20 jobs on 10,000 nodes; the uniform one was measured with
    /// 50 jobs.
    pub fn new(shape: Shape, allocs: usize) -> Spec {
        let (nodes, jobs) = match shape {
            Shape::Uniform => (1000, 50),
            Shape::Varied => (10_000, 20),
        };
        Spec {
            shape,
            nodes,
            allocs,
            jobs,
            seed: 1,
            versions: 5,
            variants: 3,
            events: 8,
            tasks: 2,
            scores: 3,
            bare_jobs: false,
            node_attrs: 0,
            own_indexes: false,
            go_dump: false,
            null_jobs: 0,
            gone_nodes: 0,
            varied_texts: false,
        }
    }

    /// Writes the snapshot.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        match self.shape {
            Shape::Uniform => uniform::Cluster::new(self).write(out),
            Shape::Varied => varied::Cluster::new(self).write(out),
        }
    }
}

/// SplitMix64: tiny, fast and good enough for test data.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// True with probability `percent`/100.
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn uuid(&mut self) -> String {
        let (a, b) = (self.next(), self.next());
        format!(
            "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xfff,
            b >> 52,
            b & 0xffff_ffff_ffff
        )
    }
}

fn time(nanos: i64) -> String {
    jiff::Timestamp::from_nanosecond(nanos as i128)
        .expect("generated times are in range")
        .to_string()
}
