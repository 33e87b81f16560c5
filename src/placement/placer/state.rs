//! The state of one evaluation's placement stage: the nodes it targets,
//! the class cache, what the plan stops, updates and adds so far, and
//! each group's ranking.

use std::collections::{BTreeMap, HashMap, HashSet};

use foldhash::fast::FixedState;

use super::super::cluster::Cluster;
use super::super::failure::Failure;
use super::super::spread::Spreads;
use super::super::verdict::Recorder;
use super::group::Group;
use super::setup::Setup;
use super::target::Target;
use super::victims::Eviction;
use crate::feasibility::{Placed, SystemStack};
use crate::fit::NodeUse;
use crate::model::resources::AllocUsage;
use crate::model::{Id, Job};

/// A map by node index, read on every node judged: hashed without SipHash.
pub(super) type NodeMap<V> = HashMap<usize, V, FixedState>;

/// An allocation this plan puts on a node.
pub(super) struct Added<'a> {
    pub task_group: &'a str,
    pub usage: AllocUsage,
}

/// A node whose allocations the plan changed: what they use, and the
/// job's own allocations there by group; `None` until judged again.
pub(super) struct Changed<'a> {
    pub usage: NodeUse,
    pub own: Vec<(&'a str, u32)>,
}

/// The placement stage of one evaluation.
pub struct Placer<'a> {
    pub(super) cluster: &'a Cluster<'a>,
    pub(super) job: &'a Job,
    pub(super) setup: Setup,
    /// The nodes the job targets.
    pub(super) target: Target<'a>,
    pub(super) checks: SystemStack<'a>,
    pub(super) spreads: Spreads<'a>,
    pub(super) stopped: HashSet<&'a Id, FixedState>,
    pub(super) stopping: Vec<Placed<'a>>,
    pub(super) added: NodeMap<Vec<Added<'a>>>,
    pub(super) proposed: Vec<Placed<'a>>,
    pub(super) failures: BTreeMap<String, Failure>,
    /// In-place updates that fit, with what they will hold; those the plan
    /// keeps are committed into `updated`, which placements then read.
    pub(super) checked: HashMap<&'a Id, AllocUsage, FixedState>,
    pub(super) updated: HashMap<&'a Id, AllocUsage, FixedState>,
    /// Placements and in-place updates taken on nodes without resources.
    pub(super) unchecked: u64,
    /// The job's running allocations per node, by group.
    pub(super) own: NodeMap<Vec<(&'a str, u32)>>,
    /// The nodes the plan changed, with their use once judged again.
    pub(super) changed: NodeMap<Option<Changed<'a>>>,
    /// Every change of a node, in order, for the rankings to catch up.
    pub(super) log: Vec<usize>,
    /// The cluster's shared node use counts under these rules.
    pub(super) shared_use: bool,
    /// By group name and job version (its address).
    pub(super) groups: HashMap<(String, usize), Group<'a>, FixedState>,
    /// Armed by `--explain` for the placement it names: that placement
    /// judges every node, in order, as the recorder wants each verdict.
    pub(super) recorder: Option<Box<Recorder<'a>>>,
    /// Preemption, its switch, victims and the pass that evicts.
    pub(super) eviction: Eviction<'a>,
}
