//! The preemption state of one evaluation's placement stage: what the
//! evicting pass found and chose, and the allocations the plan evicted
//! (the evicting pass of `evict.rs` fills it).

use crate::model::Allocation;
use crate::model::resources::AllocatedResources;

/// An allocation of another job the plan evicts.
#[derive(Clone, Debug)]
pub struct Preemption<'a> {
    pub alloc: &'a Allocation,
    /// The name of the placement it makes room for.
    pub by: String,
    /// The placing group, whose desired changes count it.
    pub task_group: String,
}

/// What a node judged with eviction on evicts, and what the allocation
/// then holds there.
pub(super) struct Evicted<'a> {
    pub(super) victims: Vec<&'a Allocation>,
    pub(super) allocated: AllocatedResources,
}

/// The evaluation's preemption state.
#[derive(Default)]
pub(super) struct Eviction<'a> {
    /// The scheduler configuration allows it for the job's type.
    pub(super) enabled: bool,
    /// The evicting pass is running.
    pub(super) on: bool,
    /// The node judged last fits by evicting (evicting pass only).
    pub(super) last: Option<Evicted<'a>>,
    /// The evicting pass's choice.
    pub(super) chosen: Option<Evicted<'a>>,
    pub(super) done: Vec<Preemption<'a>>,
}
