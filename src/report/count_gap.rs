//! Where a job's desired-changes counts and its plan's lists disagree.
//! The counts are Nomad's own annotation, which in some cases it computes
//! apart from the plan (docs/nomad-behaviour.md, "When the counts and the
//! lists disagree"); a reader adding up the columns should be told so
//! rather than left to doubt either.

use super::job::{GroupChanges, JobReport};

/// One of the plan's lists whose length the desired-changes counts miss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountGap {
    pub list: PlanList,
    /// Entries of the list.
    pub listed: u64,
    /// The sum of the counts that stand for it (as [`PlanList`] says).
    pub counted: u64,
    /// Whether the Migrate count is part of `counted` (it is for stops
    /// and placements) and not zero.
    pub with_migrate: bool,
    /// Whether the Canary count is part of `counted` and not zero.
    pub with_canary: bool,
}

/// A list of the plan that a desired-changes count stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanList {
    /// Stop and Migrate: a migration is a stop and a placement.
    Stop,
    /// Place, Canary and Migrate.
    Place,
    DestructiveUpdate,
    InPlaceUpdate,
}

/// Why the counts differ, as far as the job tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GapCause {
    /// A system or sysbatch job: Nomad counts before its evictions and the
    /// rolling limit, and counts no lost allocation.
    SystemJob,
    /// A stopped job: some releases count its unknown allocations as stops
    /// without stopping them.
    StoppedJob,
    /// Another of the cases docs/nomad-behaviour.md lists.
    Other,
}

impl JobReport {
    /// The plan's lists whose length differs from the counts of the
    /// job's groups that stand for them; empty when every one adds up.
    pub fn count_gaps(&self) -> Vec<CountGap> {
        let sum = |f: fn(&GroupChanges) -> u64| {
            self.groups
                .iter()
                .fold(0u64, |n, g| n.saturating_add(f(&g.desired_changes)))
        };
        let migrate = sum(|c| c.migrate);
        let canary = sum(|c| c.canary);
        let p = &self.plan;
        [
            (PlanList::Stop, p.stop.len(), sum(|c| c.stop), true, false),
            (PlanList::Place, p.place.len(), sum(|c| c.place), true, true),
            (
                PlanList::DestructiveUpdate,
                p.destructive_update.len(),
                sum(|c| c.destructive_update),
                false,
                false,
            ),
            (
                PlanList::InPlaceUpdate,
                p.in_place_update.len(),
                sum(|c| c.in_place_update),
                false,
                false,
            ),
        ]
        .into_iter()
        .map(|(list, listed, own, m, c)| CountGap {
            list,
            listed: listed as u64,
            counted: own
                .saturating_add(if m { migrate } else { 0 })
                .saturating_add(if c { canary } else { 0 }),
            with_migrate: m && migrate > 0,
            with_canary: c && canary > 0,
        })
        .filter(|g| g.listed != g.counted)
        .collect()
    }

    /// Why [`JobReport::count_gaps`] finds gaps.
    pub fn gap_cause(&self) -> GapCause {
        if matches!(self.job_type.as_str(), "system" | "sysbatch") {
            GapCause::SystemJob
        } else if self.stopped {
            GapCause::StoppedJob
        } else {
            GapCause::Other
        }
    }
}
