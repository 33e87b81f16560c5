//! One report per task group, from the reconciler's trace.

use std::collections::HashMap;

use crate::model::{Allocation, Job};
use crate::reconciler::{GroupTrace, Reconciliation};
use crate::report::{Buckets, GroupChanges, GroupReport, RescheduleLater, SetAsideEntry};

/// The groups' reports, by name; `buckets` gives a group's bucket entries.
pub(super) fn group_reports<'r>(
    job: Option<&Job>,
    rec: &Reconciliation<'r>,
    mut buckets: impl FnMut(&str, &GroupTrace<'r>) -> Buckets,
) -> Vec<GroupReport> {
    let r = &rec.results;
    let disconnects = per_group(r.disconnect_updates.values().map(|u| u.alloc));
    let reconnects = per_group(r.reconnect_updates.values().copied());
    rec.groups
        .iter()
        .map(|(name, trace)| {
            let mut set_aside: Vec<SetAsideEntry> = trace
                .set_aside
                .iter()
                .map(|(a, why)| SetAsideEntry {
                    id: a.id.clone(),
                    name: a.name().to_string(),
                    job_version: a.job_version(),
                    canary: a.is_canary(),
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
                desired_changes: GroupChanges {
                    reconciler: r.desired_tg_updates.get(name).cloned().unwrap_or_default(),
                    disconnect: disconnects.get(name.as_str()).copied().unwrap_or(0),
                    reconnect: reconnects.get(name.as_str()).copied().unwrap_or(0),
                    reschedule_now: if trace.reschedule_now_counted {
                        trace.reschedule_now.len() as u64
                    } else {
                        0
                    },
                    reschedule_later: later.len() as u64,
                },
                reschedule_now: trace.reschedule_now.ids().cloned().collect(),
                reschedule_later: later,
                system_diff: None,
            }
        })
        .collect()
}

/// How many of `allocs` each task group has.
fn per_group<'a>(allocs: impl Iterator<Item = &'a Allocation>) -> HashMap<&'a str, u64> {
    let mut counts: HashMap<&str, u64> = HashMap::new();
    for a in allocs {
        *counts.entry(a.task_group.as_str()).or_default() += 1;
    }
    counts
}
