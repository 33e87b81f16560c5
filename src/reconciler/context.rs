//! What one group's computation reads besides its allocations, and the
//! filters every step applies to the group's allocations before it reads
//! them.

use super::alloc_set::AllocSet;
use super::job_state::{ClusterState, JobState};
use super::reschedule::RescheduleContext;
use super::rules::Rules;
use super::set_aside::SetAside;
use crate::model::{Allocation, Deployment};
use crate::version::Switch;

/// What one group's computation reads besides its allocations.
pub(super) struct GroupContext<'c, 'a, 'f> {
    pub name: &'c str,
    pub job: &'c JobState<'a, 'f>,
    pub cluster: &'c ClusterState<'a>,
    /// The Nomad behaviour replayed.
    pub rules: &'a Rules,
    /// The deployment as the groups before this one left it.
    pub deployment: Option<&'c Deployment>,
}

impl<'a> GroupContext<'_, 'a, '_> {
    /// `filterServerTerminalAllocs` (1.11.0 on): the allocations the server
    /// stopped or evicted are set aside, except batch ones (of the
    /// allocation's own job) without a reschedule transition.
    pub(super) fn filter_server_terminal_allocs(
        &self,
        all: AllocSet<'a>,
    ) -> (AllocSet<'a>, Vec<(&'a Allocation, SetAside)>) {
        if !self.rules.has(Switch::G0) {
            return (all, Vec::new());
        }
        let dropped = all.filter(|a| {
            let batch = a.job.as_ref().is_some_and(|j| j.is_batch());
            a.server_terminal_status() && (!batch || a.desired_transition.should_reschedule())
        });
        let set_aside = dropped
            .iter()
            .map(|a| (a, SetAside::ServerTerminal))
            .collect();
        (all.difference(&[&dropped]), set_aside)
    }

    /// `filterOldTerminalAllocs`: batch jobs set aside terminal allocations
    /// of older job versions.
    pub(super) fn filter_old_terminal_allocs(
        &self,
        all: AllocSet<'a>,
    ) -> (AllocSet<'a>, AllocSet<'a>) {
        if !self.job.batch {
            return (all, AllocSet::new());
        }
        let job = self.job.job;
        let old = all.filter(|a| {
            (a.job_version() < job.version || a.job_create_index() < job.create_index)
                && a.terminal_status()
        });
        (all.difference(&[&old]), old)
    }

    /// What `filterByRescheduleable` reads besides the allocations.
    pub(super) fn reschedule_context(&self) -> RescheduleContext<'_> {
        RescheduleContext {
            rules: self.rules,
            batch: self.job.batch,
            now: self.cluster.now,
            eval_id: self.job.eval_id,
            deployment: self.deployment,
        }
    }
}
