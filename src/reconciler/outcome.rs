//! What one group's computation returns, for the job's fold to merge.

use std::collections::BTreeMap;

use super::deployment::DeploymentChange;
use super::results::{
    AllocUpdate, DesiredChanges, DestructiveResult, FollowupEval, PlaceResult, StopResult,
};
use super::trace::GroupTrace;
use crate::model::{Allocation, Id};

/// One group's decisions, in the order it made them, with what it saw.
#[derive(Debug, Default)]
pub(super) struct GroupOutcome<'a> {
    /// Before the fold counts reconnect updates as ignored.
    pub changes: DesiredChanges,
    pub stop: Vec<StopResult<'a>>,
    pub place: Vec<PlaceResult<'a>>,
    pub destructive_update: Vec<DestructiveResult<'a>>,
    pub inplace_update: Vec<&'a Allocation>,
    pub attribute_updates: BTreeMap<&'a Id, AllocUpdate<'a>>,
    pub disconnect_updates: BTreeMap<&'a Id, AllocUpdate<'a>>,
    pub reconnect_updates: BTreeMap<&'a Id, &'a Allocation>,
    pub followup_evals: Vec<FollowupEval<'a>>,
    pub deployment: Option<DeploymentChange>,
    pub progress: GroupProgress,
    pub trace: GroupTrace<'a>,
}

/// How far a group is from its deployment being complete.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum GroupProgress {
    /// Stopped entirely (removed from the job, or the job stopped): no
    /// deployment waits on it.
    #[default]
    Removed,
    /// Nothing left to place, update, migrate or reschedule, and no
    /// canaries required: complete once its deployment state is healthy.
    Settled,
    /// Work left.
    Pending,
}
