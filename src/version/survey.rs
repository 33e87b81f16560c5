//! What the version checks read of a snapshot's allocations, gathered in one
//! pass: a million allocations are a quarter of a gigabyte, walked once here
//! instead of once per check.

use std::collections::{BTreeSet, HashSet};
use std::sync::Arc;

use foldhash::fast::FixedState;

use crate::model::{AllocState, AllocStateField, ClientStatus, DesiredStatus, Job, Snapshot};

/// The allocations' embedded jobs and their later-release inputs, each
/// input as the set of `allocation ID` examples that have it.
#[derive(Default)]
pub struct Survey<'s> {
    /// The jobs the allocations embed, each once, in the order first met.
    pub embedded: Vec<&'s Arc<Job>>,
    /// AllocStates record a reconnect: running right after unknown.
    pub reconnected: BTreeSet<String>,
    /// The reschedule tracker records a LastReschedule.
    pub last_reschedule: BTreeSet<String>,
    /// Desired to run though its replacement could not be placed.
    pub kept_run: BTreeSet<String>,
    /// MigrateDisablePlacement is set.
    pub no_migrate: BTreeSet<String>,
}

impl<'s> Survey<'s> {
    pub fn of(snapshot: &'s Snapshot) -> Survey<'s> {
        let mut survey = Survey::default();
        // Allocations of one version share its job, and mostly follow one
        // of the same: only a change of job is looked up.
        let mut seen: HashSet<*const Job, FixedState> = HashSet::default();
        let mut previous = None;
        for a in &snapshot.allocs {
            if let Some(job) = &a.job
                && previous.replace(Arc::as_ptr(job)) != Some(Arc::as_ptr(job))
                && seen.insert(Arc::as_ptr(job))
            {
                survey.embedded.push(job);
            }
            let id = || format!("allocation {}", a.id);
            if reconnected(&a.alloc_states) {
                survey.reconnected.insert(id());
            }
            if a.reschedule_tracker
                .as_ref()
                .is_some_and(|t| !t.last_reschedule.is_empty())
            {
                survey.last_reschedule.insert(id());
            }
            // The tracker first: the status is text behind a pointer.
            if a.last_reschedule_failed() && a.desired_status == DesiredStatus::Run {
                survey.kept_run.insert(id());
            }
            if a.desired_transition.should_disable_migration_placement() {
                survey.no_migrate.insert(id());
            }
        }
        survey
    }
}

/// Whether a client status of running directly follows one of unknown.
fn reconnected(states: &[AllocState]) -> bool {
    let mut states = states
        .iter()
        .filter(|s| s.field == AllocStateField::ClientStatus);
    let Some(mut previous) = states.next() else {
        return false;
    };
    for s in states {
        if previous.value == ClientStatus::Unknown && s.value == ClientStatus::Running {
            return true;
        }
        previous = s;
    }
    false
}
