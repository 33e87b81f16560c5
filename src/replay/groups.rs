//! One report per task group, from the reconciler's trace.

use crate::model::Job;
use crate::reconciler::{GroupTrace, Reconciliation};
use crate::report::{Buckets, GroupReport, RescheduleLater, SetAsideEntry};

/// The groups' reports, by name; `buckets` gives a group's bucket entries.
pub(super) fn group_reports<'r>(
    job: Option<&Job>,
    rec: &Reconciliation<'r>,
    mut buckets: impl FnMut(&str, &GroupTrace<'r>) -> Buckets,
) -> Vec<GroupReport> {
    rec.groups
        .iter()
        .map(|(name, trace)| {
            let mut set_aside: Vec<SetAsideEntry> = trace
                .set_aside
                .iter()
                .map(|(a, why)| SetAsideEntry {
                    id: a.id.clone(),
                    name: a.name.clone(),
                    reason: why.describe().to_string(),
                })
                .collect();
            set_aside.sort_by(|a, b| a.id.cmp(&b.id));
            let mut later: Vec<RescheduleLater> = trace
                .reschedule_later
                .iter()
                .map(|d| RescheduleLater {
                    id: d.alloc.id.clone(),
                    at: d.at,
                })
                .collect();
            later.sort_by(|a, b| a.id.cmp(&b.id));
            GroupReport {
                name: name.clone(),
                count: job
                    .filter(|j| !j.stop)
                    .and_then(|j| j.lookup_task_group(name))
                    .map_or(0, |tg| tg.count),
                removed: trace.removed,
                buckets: buckets(name, trace),
                set_aside,
                reschedule_now: trace.reschedule_now.ids().map(str::to_string).collect(),
                reschedule_later: later,
                desired_changes: rec
                    .results
                    .desired_tg_updates
                    .get(name)
                    .cloned()
                    .unwrap_or_default(),
                system_diff: None,
            }
        })
        .collect()
}
