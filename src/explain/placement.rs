//! Why a group needs one placement, from the counts the reconciler kept,
//! and where it goes, from the placement stage's verdicts on every node.

use super::error::ExplainError;
use super::explanation::{Explanation, Step, Subject, SubjectKind, yes_no};
use super::release_rules;
use super::verdicts;
use crate::model::Id;
use crate::reconciler::PlacementBasis;
use crate::replay::JobReplay;
use crate::report::JobReport;

/// The placement `name`; with `node`, that node's verdict too. Also the
/// name of the group's first failed placement when this one was counted
/// with it without a look at the nodes, whose verdicts tell why.
pub(super) fn explain(
    jr: &JobReplay<'_, '_>,
    name: &str,
    node: Option<&str>,
) -> Result<(Explanation, Option<String>), ExplainError> {
    let job = jr.job();
    let places: Vec<_> = job.plan.place.iter().filter(|p| p.name == name).collect();
    let destructive: Vec<_> = job
        .plan
        .destructive_update
        .iter()
        .filter(|d| d.name == name)
        .collect();
    let Some(group) = places
        .first()
        .map(|p| &*p.task_group)
        .or(destructive.first().map(|d| d.task_group.as_str()))
    else {
        return Err(ExplainError::NotPlaced {
            name: name.to_string(),
            job: job.id.clone(),
        });
    };
    let basis = jr
        .reconciliation
        .groups
        .get(group)
        .map(|t| t.placement.clone())
        .unwrap_or_default();
    let changes = job
        .groups
        .iter()
        .find(|g| g.name == group)
        .map(|g| g.desired_changes.clone())
        .unwrap_or_default();
    let stop_setting = release_rules::stop_timeout_setting(jr.release.fields);
    let mut steps = vec![counts(&basis, &stop_setting).fact(
        "desired changes",
        format!(
            "place {}, canary {}, destructive {}, migrate {}, stop {}",
            changes.place,
            changes.canary,
            changes.destructive_update,
            changes.migrate,
            changes.stop
        ),
    )];
    let mut fate = Vec::new();
    for p in &places {
        let (why, line) = if p.canary && p.previous_alloc_id.is_none() {
            (
                format!(
                    "a canary: the update strategy wants {} canaries and {} run",
                    basis.canaries_desired, basis.canaries_existing
                ),
                "canary placed",
            )
        } else if p.reschedule {
            (
                format!(
                    "replaces {}, rescheduled now",
                    p.previous_alloc_id
                        .as_ref()
                        .map_or("?".to_string(), Id::to_string)
                ),
                "replacement placed (reschedule)",
            )
        } else if p.lost {
            (
                format!(
                    "replaces lost {}: existing {} < count {}",
                    p.previous_alloc_id
                        .as_ref()
                        .map_or("?".to_string(), Id::to_string),
                    existing(&basis),
                    basis.count
                ),
                "replacement placed (lost)",
            )
        } else if let Some(prev) = &p.previous_alloc_id {
            (
                format!("migrates {prev}, which is stopped as \"alloc is being migrated\""),
                "replacement placed (migrate)",
            )
        } else {
            (
                format!(
                    "a missing name: existing {} < count {}, the lowest free indexes are placed",
                    existing(&basis),
                    basis.count
                ),
                "new allocation placed",
            )
        };
        match &p.node_id {
            Some(node) => fate.push(format!("{line}: {} on node {node}", p.name)),
            None => fate.push(format!(
                "{}: {}: no node takes it",
                line.replacen("placed", "not placed", 1),
                p.name
            )),
        }
        let mut step = Step::new("Placement", why)
            .fact("canary", yes_no(p.canary))
            .fact("reschedule", yes_no(p.reschedule))
            .fact("lost", yes_no(p.lost));
        if let Some(prev) = &p.previous_alloc_id {
            step = step.fact("previous allocation", prev);
        }
        if p.downgrade_non_canary {
            let made = match p.job_version {
                Some(v) => format!("yes: placed with job version {v}, an older one"),
                None => "yes, but no older version qualifies: placed with the current version"
                    .to_string(),
            };
            step = step.fact("downgrade non-canary", made);
        }
        steps.push(step);
    }
    for d in &destructive {
        fate.push(match &d.node_id {
            Some(node) => format!(
                "destructive update of {}: {}; replacement on node {node}",
                d.alloc_id, d.reason
            ),
            None => format!(
                "destructive update of {}: {}; no node takes the replacement, the allocation \
                 keeps running",
                d.alloc_id, d.reason
            ),
        });
        steps.push(
            Step::new(
                "Destructive update",
                format!("replaces {} with the new job version", d.alloc_id),
            )
            .fact("first difference", &d.reason),
        );
    }
    if let Some(step) = preemption_step(job, name) {
        steps.push(step);
    }
    let renamed = jr.reconciliation.groups.get(group).and_then(|t| {
        t.renamed
            .iter()
            .filter(|(_, to)| to == name)
            .map(|(from, _)| from.clone())
            .next()
    });
    if let Some(from) = renamed {
        steps.push(
            Step::new(
                "Name",
                format!(
                    "the reconciler chose {from}, which more than one allocation of the group \
                     holds: the scheduler plans the next free name instead"
                ),
            )
            .fact("reconciler's name", from),
        );
    }
    let nearest = job
        .plan
        .failed_placements
        .iter()
        .find(|f| f.task_group == group)
        .and_then(|f| f.nearest_miss.as_ref());
    let mut first_failure = None;
    for record in jr.placements {
        if record.coalesced {
            let first = record.first_failure.clone().unwrap_or_default();
            steps.push(
                Step::new(
                    "Nodes",
                    format!(
                        "not looked for: group {group} already failed at {first} in this \
                         evaluation, and Nomad counts this one with that failure \
                         (CoalescedFailures) without trying the nodes again; the verdicts \
                         that follow are that failure's"
                    ),
                )
                .fact("first failure", &first),
            );
            first_failure = Some(first);
            continue;
        }
        steps.extend(verdicts::steps(record, nearest));
        if let Some(node) = node {
            steps.push(verdicts::node_step(record, node));
        }
    }
    let subject = match node {
        Some(node) => format!("{name}@{node}"),
        None => name.to_string(),
    };
    let explanation = Explanation {
        subject: Subject {
            kind: SubjectKind::Placement,
            id: None,
            name: subject,
        },
        namespace: job.namespace.clone(),
        job: job.id.clone(),
        job_version: job.version,
        task_group: group.to_string(),
        now: jr.report.now,
        now_source: jr.report.now_source,
        eval_id: jr.report.eval_id.clone(),
        bucket: None,
        fate,
        changed: true,
        steps,
        warnings: jr.report.warnings.clone(),
        story: None,
    };
    Ok((explanation, first_failure))
}

/// The verdicts of the first failure of `group`, the placement `first`,
/// which a coalesced placement shares; with `node`, that node's verdict too.
pub(super) fn first_failure(jr: &JobReplay<'_, '_>, group: &str, node: Option<&str>) -> Vec<Step> {
    let nearest = jr
        .job()
        .plan
        .failed_placements
        .iter()
        .find(|f| f.task_group == group)
        .and_then(|f| f.nearest_miss.as_ref());
    let mut steps = Vec::new();
    for record in jr.placements.iter().filter(|r| !r.coalesced) {
        steps.extend(verdicts::steps(record, nearest));
        if let Some(node) = node {
            steps.push(verdicts::node_step(record, node));
        }
    }
    steps
}
/// What `computePlacements` counts as already there.
fn existing(b: &PlacementBasis) -> usize {
    b.untainted + b.migrate + b.reschedule + b.reconnecting
}

/// The group's counts; `stop_setting` names the setting lost allocations
/// wait for.
fn counts(b: &PlacementBasis, stop_setting: &str) -> Step {
    let conclusion = if b.lost_later > 0 {
        format!(
            "no placements computed: {} lost allocation(s) wait for {stop_setting}",
            b.lost_later,
        )
    } else {
        let missing = (b.count - existing(b) as i64).max(0);
        format!(
            "count {} - existing {} = {missing} missing",
            b.count,
            existing(b)
        )
    };
    let mut step = Step::new("Group", conclusion)
        .fact("count", b.count.to_string())
        .fact(
            "existing",
            format!(
                "untainted {} + migrating {} + rescheduling {} + reconnecting {} = {}",
                b.untainted,
                b.migrate,
                b.reschedule,
                b.reconnecting,
                existing(b)
            ),
        )
        .fact("lost", b.lost.to_string());
    if b.canaries_desired > 0 {
        step = step.fact(
            "canaries",
            format!(
                "{} wanted, {} running",
                b.canaries_desired, b.canaries_existing
            ),
        );
    }
    if !b.place_ready {
        step = step.fact(
            "placements held",
            "deployment paused or failed, or canarying: only lost replacements and reschedules go ahead",
        );
    }
    step
}

/// The allocations the placement `name` preempts, when no node had room
/// for it without (the preemption pass of `selectNextOption`).
fn preemption_step(job: &JobReport, name: &str) -> Option<Step> {
    let evicted: Vec<_> = job
        .plan
        .preemptions
        .iter()
        .filter(|p| p.preempted_by == name)
        .collect();
    let node = &evicted.first()?.node_id;
    let names: Vec<&str> = evicted.iter().map(|p| p.name.as_str()).collect();
    let mut step = Step::new(
        "Preemption",
        format!(
            "no node had room without preempting: on node {node} it preempts {}",
            names.join(", ")
        ),
    );
    for p in evicted {
        step = step.fact(
            "preempts",
            format!(
                "{} ({}, job {}/{} at priority {})",
                p.alloc_id, p.name, p.namespace, p.job_id, p.job_priority
            ),
        );
    }
    Some(step)
}
