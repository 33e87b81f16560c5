//! The placement stage: where each allocation of a service or batch job
//! goes, and why none could take it (Nomad's `computePlacements` in
//! `scheduler/generic_sched.go` over the stack of `scheduler/stack.go`).
//!
//! It sits above the node checks ([`crate::feasibility`]) and the fit
//! arithmetic ([`crate::fit`]) and imports only downward.

pub mod ask;
pub mod board;
pub mod class_rows;
pub mod cluster;
pub mod failure;
pub mod metric;
pub mod misses;
pub mod placer;
pub mod ranked;
pub mod ranking;
pub mod score;
pub mod spread;
pub mod targets;
pub mod verdict;

pub use cluster::Cluster;
pub use failure::Failure;
pub use metric::AllocMetric;
pub use placer::{Choice, Misfit, Placer, Select, Setup};
pub use score::Score;
pub use spread::SpreadRules;
pub use targets::Untargeted;
pub use verdict::{NodeVerdict, PlacementRecord, Recorder, ScoreParts};
