//! The inputs of one reconcile, as `computeJobAllocs` gathers them.

use super::rules::Rules;
use super::tainted::TaintedNodes;
use super::update::UpdateKind;
use crate::model::{Allocation, Deployment, Job, TaskGroup};
use crate::time::Time;

/// Decides ignore / destructive / in-place for an allocation against the new
/// job (`allocUpdateType`).
pub type UpdateFn<'a, 'f> = dyn Fn(&'a Allocation, &'a Job, &'a TaskGroup) -> UpdateKind + 'f;

/// The inputs of one reconcile, as `computeJobAllocs` gathers them.
pub struct ReconcileInput<'a, 'f> {
    /// The job; `None` for a purged job, treated as stopped.
    pub job: Option<&'a Job>,
    pub job_id: &'a str,
    pub batch: bool,
    pub deployment: Option<&'a Deployment>,
    pub allocs: Vec<&'a Allocation>,
    pub tainted: &'a TaintedNodes<'a>,
    pub eval_id: &'a str,
    pub eval_priority: i64,
    /// The Nomad behaviour replayed.
    pub rules: &'a Rules,
    pub now: Time,
    pub update_fn: &'f UpdateFn<'a, 'f>,
    /// Keep what each allocation's decisions read ([`super::GroupTrace::facts`]),
    /// for explanations; a plain replay does without.
    pub record: bool,
}
