//! `scheduler.Annotate`: the plan's counts on each group of the diff, and
//! what each task's change forces.

use std::collections::BTreeMap;

use super::diff_types::{DiffType, JobDiff, TaskDiff, TaskGroupDiff};
use crate::reconciler::DesiredChanges;
use crate::version::{Switch, Switches};

pub const FORCES_CREATE: &str = "forces create";
pub const FORCES_DESTROY: &str = "forces destroy";
pub const FORCES_IN_PLACE: &str = "forces in-place update";
pub const FORCES_DESTRUCTIVE: &str = "forces create/destroy update";

/// Adds the counts of `desired` (the plan's `DesiredTGUpdates`, by group
/// name) and the annotations the release's `Annotate` gives.
pub fn annotate(diff: &mut JobDiff, desired: &BTreeMap<String, DesiredChanges>, release: Switches) {
    for group in &mut diff.task_groups {
        if let Some(d) = desired.get(&group.name) {
            group.updates = updates(d);
        }
        count_change(group);
        let parent = group.kind;
        for task in &mut group.tasks {
            annotate_task(task, parent, release);
        }
    }
}

/// The counts under Nomad's update-type names, zeros left out.
fn updates(d: &DesiredChanges) -> BTreeMap<String, u64> {
    [
        ("ignore", d.ignore),
        ("create", d.place),
        ("migrate", d.migrate),
        ("destroy", d.stop),
        ("canary", d.canary),
        ("in-place update", d.in_place_update),
        ("create/destroy update", d.destructive_update),
    ]
    .into_iter()
    .filter(|(_, n)| *n != 0)
    .map(|(k, n)| (k.to_string(), n))
    .collect()
}

/// `annotateCountChange`: a higher count forces creates, a lower destroys.
/// An unparsable count (never a Nomad job's) annotates nothing.
pub(crate) fn count_change(group: &mut TaskGroupDiff) {
    let Some(count) = group.fields.iter_mut().find(|f| f.name == "Count") else {
        return;
    };
    let parse = |s: &str| {
        if s.is_empty() {
            Some(0)
        } else {
            s.parse::<i64>().ok()
        }
    };
    let (Some(old), Some(new)) = (parse(&count.old), parse(&count.new)) else {
        return;
    };
    if old < new {
        count.annotations.push(FORCES_CREATE.into());
    } else if new < old {
        count.annotations.push(FORCES_DESTROY.into());
    }
}

/// `annotateTask`.
pub(crate) fn annotate_task(task: &mut TaskDiff, parent: DiffType, release: Switches) {
    if task.kind == DiffType::None {
        return;
    }
    if matches!(parent, DiffType::Added | DiffType::Deleted) {
        match task.kind {
            DiffType::Added => return task.annotations.push(FORCES_CREATE.into()),
            DiffType::Deleted => return task.annotations.push(FORCES_DESTROY.into()),
            _ => {}
        }
    }
    let destructive = task.fields.iter().any(|f| f.name != "KillTimeout")
        || task.objects.iter().any(|o| match o.name.as_str() {
            "Service" | "Constraint" => false,
            "Affinity" | "Spread" => !release.has(Switch::PlacementPrefsInPlace),
            "LogConfig" if release.has(Switch::AnnotateLogsDisabled) => {
                o.fields.iter().any(|f| f.name == "Disabled")
            }
            "LogConfig" => false,
            _ => true,
        });
    task.annotations.push(
        if destructive {
            FORCES_DESTRUCTIVE
        } else {
            FORCES_IN_PLACE
        }
        .into(),
    );
}
