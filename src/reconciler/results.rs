//! What the reconciler decides: Nomad's `reconcileResults`.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::model::{Allocation, ClientStatus, Deployment, Id};
use crate::time::Time;

/// Stop descriptions of `scheduler/generic_sched.go`.
pub mod desc {
    pub const NOT_NEEDED: &str = "alloc not needed due to job update";
    pub const RECONNECTED: &str = "alloc not needed due to disconnected client reconnect";
    pub const MIGRATING: &str = "alloc is being migrated";
    pub const UPDATING: &str = "alloc is being updated due to job update";
    pub const LOST: &str = "alloc is lost since its node is down";
    pub const UNKNOWN: &str = "alloc is unknown since its node is disconnected";
    pub const RESCHEDULED: &str = "alloc was rescheduled because it failed";
    pub const RESCHEDULING_FOLLOWUP: &str = "created for delayed rescheduling";
    pub const DISCONNECT_TIMEOUT_FOLLOWUP: &str = "created for delayed disconnect timeout";
}

/// Eval triggers of follow-up evaluations.
pub mod trigger {
    pub const RETRY_FAILED_ALLOC: &str = "alloc-failure";
    pub const MAX_DISCONNECT_TIMEOUT: &str = "max-disconnect-timeout";
    /// The first batch of delayed reschedules, from 1.11.0.
    pub const ALLOC_RESCHEDULE: &str = "alloc-reschedule";
}

/// `allocStopResult`.
#[derive(Clone, Debug)]
pub struct StopResult<'a> {
    pub alloc: &'a Allocation,
    /// The client status the stop sets (`lost`), or none.
    pub client_status: Option<ClientStatus>,
    pub description: &'static str,
    pub followup_eval_id: Option<Arc<str>>,
}

/// `allocPlaceResult`.
#[derive(Clone, Debug)]
pub struct PlaceResult<'a> {
    /// The replaced allocation's name, or a new one.
    pub name: Cow<'a, str>,
    pub task_group: &'a str,
    pub canary: bool,
    pub previous: Option<&'a Allocation>,
    pub reschedule: bool,
    pub lost: bool,
    pub downgrade_non_canary: bool,
    pub min_job_version: u64,
}

/// `allocDestructiveResult`.
#[derive(Clone, Debug)]
pub struct DestructiveResult<'a> {
    pub name: String,
    pub task_group: String,
    pub alloc: &'a Allocation,
    /// The first job spec difference found.
    pub reason: String,
    /// Nomad's label for it (1.5.2 on).
    pub label: Option<&'static str>,
}

/// An update to an allocation that is not a job spec change.
#[derive(Clone, Debug)]
pub struct AllocUpdate<'a> {
    pub alloc: &'a Allocation,
    pub followup_eval_id: Arc<str>,
}

/// A follow-up evaluation to create (`desiredFollowupEvals`).
#[derive(Clone, Debug)]
pub struct FollowupEval<'a> {
    pub id: Arc<str>,
    pub triggered_by: &'static str,
    pub wait_until: Time,
    /// Nomad sets a description on the first eval of a batch run only, except
    /// for disconnect timeouts.
    pub status_description: &'static str,
    pub task_group: String,
    pub alloc_ids: Vec<&'a Id>,
}

/// `DeploymentStatusUpdate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeploymentUpdate {
    pub deployment_id: String,
    pub status: &'static str,
    pub status_description: &'static str,
}

/// `DesiredUpdates`: per task group counts, as `nomad job plan` prints them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DesiredChanges {
    pub place: u64,
    pub stop: u64,
    pub migrate: u64,
    pub in_place_update: u64,
    pub destructive_update: u64,
    pub canary: u64,
    pub ignore: u64,
    pub preemptions: u64,
}

/// The reconciler's decisions for one job.
#[derive(Clone, Debug, Default)]
pub struct ReconcileResults<'a> {
    /// A deployment created by this evaluation.
    pub deployment: Option<Deployment>,
    pub deployment_updates: Vec<DeploymentUpdate>,
    pub place: Vec<PlaceResult<'a>>,
    pub destructive_update: Vec<DestructiveResult<'a>>,
    pub inplace_update: Vec<&'a Allocation>,
    pub stop: Vec<StopResult<'a>>,
    pub attribute_updates: BTreeMap<&'a Id, AllocUpdate<'a>>,
    pub disconnect_updates: BTreeMap<&'a Id, AllocUpdate<'a>>,
    pub reconnect_updates: BTreeMap<&'a Id, &'a Allocation>,
    pub desired_tg_updates: BTreeMap<String, DesiredChanges>,
    pub desired_followup_evals: BTreeMap<String, Vec<FollowupEval<'a>>>,
}
