//! What the reconciler saw inside one task group, kept for reports and
//! explanations so that neither has to redo the reconciler's work.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::alloc_facts::AllocFacts;
use super::alloc_set::AllocSet;
use super::reconnect_decision::ReconnectDecision;
use super::reschedule::DelayedReschedule;
use super::set_aside::SetAside;
use super::tainted::{TaintRules, TaintedSets};
use super::unreplaced::Unreplaced;
use super::update::Difference;
use crate::model::{Allocation, Id};

/// What happened inside one task group.
#[derive(Clone, Debug, Default)]
pub struct GroupTrace<'a> {
    /// The group is absent from the job spec (or the job is purged).
    pub removed: bool,
    /// The group is stopped whole because its count is 0 (from 1.11.0).
    pub scaled_to_zero: bool,
    /// The six sets `filterByTainted` returned inside `computeGroup` (or the
    /// stop-all path).
    pub buckets: TaintedSets<'a>,
    /// The rule behind each allocation of `buckets`.
    pub bucket_rules: TaintRules,
    pub set_aside: Vec<(&'a Allocation, SetAside)>,
    pub reschedule_now: AllocSet<'a>,
    /// Whether the group's `RescheduleNow` counter counts `reschedule_now`:
    /// from 1.11.0, where Nomad has the counter, only in a group with a
    /// disconnecting allocation; before, always (plan-inspect's own count).
    pub reschedule_now_counted: bool,
    pub reschedule_later: Vec<DelayedReschedule<'a>>,
    /// Allocations whose reschedule time was read from a reschedule policy
    /// their job version's group does not have.
    pub without_policy: AllocSet<'a>,
    /// Allocations rescheduled now by `DesiredTransition.ForceReschedule`
    /// alone: their policy would not replace them now.
    pub reschedule_forced: AllocSet<'a>,
    /// Every decision of `computeStopByReconnecting`, in order.
    pub reconnect_decisions: Vec<ReconnectDecision<'a>>,
    /// Planned names the scheduler changed because the reconciler's was held
    /// twice (D-1b): the reconciler's name and the planned one.
    pub renamed: Vec<(String, String)>,
    /// How `computeUpdates` split the untainted allocations left after stops.
    pub updates: UpdateSplit<'a>,
    /// The arithmetic behind the group's placements.
    pub placement: PlacementBasis,
    /// What each allocation's decisions read, when the replay records it
    /// ([`super::ReconcileInput::record`]); empty otherwise.
    pub facts: BTreeMap<&'a Id, AllocFacts>,
    /// The lost and expiring allocations that get no replacement, and why.
    pub unreplaced: BTreeMap<&'a Id, Unreplaced>,
}

/// The result of `computeUpdates`.
#[derive(Clone, Debug, Default)]
pub struct UpdateSplit<'a> {
    pub ignore: AllocSet<'a>,
    pub inplace: AllocSet<'a>,
    /// Each with the first job spec difference found.
    pub destructive: Vec<(&'a Allocation, Arc<Difference>)>,
    /// In-place updates that skip the placement check: the release reads
    /// the allocation's `max_run_duration` as changed on every update.
    pub unchecked: AllocSet<'a>,
}

/// The counts `computeCanaries` and `computePlacements` worked from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlacementBasis {
    pub count: i64,
    /// Untainted allocations left after stops (and without canaries while
    /// canarying), migrating, rescheduled now, reconnecting, lost.
    pub untainted: usize,
    pub migrate: usize,
    pub reschedule: usize,
    pub reconnecting: usize,
    pub lost: usize,
    /// Lost allocations waiting for `stop_after_client_disconnect`: while any
    /// do, `computePlacements` is skipped.
    pub lost_later: usize,
    /// Canaries the update strategy asks for (when it requires them) and
    /// those already running.
    pub canaries_desired: i64,
    pub canaries_existing: usize,
    /// Whether placements go ahead in full: the deployment is neither
    /// paused nor failed and the group is not canarying.
    pub place_ready: bool,
    /// How many destructive updates the update strategy allowed.
    pub destructive_allowed: i64,
}
