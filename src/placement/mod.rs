//! The placement stage: where each allocation of a service or batch job
//! goes, and why none could take it (Nomad's `computePlacements` in
//! `scheduler/generic_sched.go` over the stack of `scheduler/stack.go`).
//!
//! It sits above the node checks ([`crate::feasibility`]) and the fit
//! arithmetic ([`crate::fit`]) and imports only downward.

pub mod metric;
pub mod score;

pub use metric::AllocMetric;
pub use score::Score;
