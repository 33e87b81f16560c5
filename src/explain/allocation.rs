//! The steps the reconciler took for one existing allocation.

use std::borrow::Cow;

use super::disconnect::{disconnect, reconnect_steps};
use super::explanation::{Explanation, Step, Subject, SubjectKind, at, yes_no};
use super::reschedule::rescheduling;
use crate::model::Allocation;
use crate::reconciler::{Bucket, GroupTrace};
use crate::replay::JobReplay;
use crate::report::{JobReport, Plan};

pub(super) fn explain(jr: &JobReplay<'_, '_>, alloc: &Allocation) -> Explanation {
    let job = jr.job();
    let trace = jr.reconciliation.groups.get(alloc.task_group.as_str());
    let set_aside = trace.and_then(|t| {
        t.set_aside
            .iter()
            .find(|(a, _)| a.id == alloc.id)
            .map(|(_, why)| *why)
    });
    let bucket = trace.and_then(|t| bucket_of(t, alloc));
    let facts = trace.and_then(|t| t.facts.get(&alloc.id));
    let mut steps = vec![identity(job, alloc), node(jr, alloc), status(alloc)];
    steps.extend(facts.map(|f| disconnect(jr, alloc, f)));
    match (set_aside, bucket) {
        (Some(why), _) => steps.push(Step::new("Set aside", why.describe()).fact(
            "when",
            "before filterByTainted: no bucket, not rescheduled, not counted",
        )),
        (None, Some(b)) => steps.extend(trace.and_then(|t| bucket_step(jr, t, alloc, b))),
        (None, None) => {}
    }
    if let (Some(trace), Some(b)) = (trace, bucket) {
        if trace.scaled_to_zero {
            steps.push(Step::new(
                "Group",
                "count = 0: stopped whole, as a removed group is; nothing is rescheduled or placed",
            ));
        }
        if let Some(step) = facts.and_then(|f| rescheduling(jr, trace, alloc, f, b)) {
            steps.push(step);
        }
        steps.extend(reconnect_steps(jr, trace, alloc, b));
        if let Some(step) = job_update(trace, job, alloc) {
            steps.push(step);
        }
    }
    let fate = fate(&job.plan, alloc);
    let mut plan = Step::new(
        "Plan",
        if fate.is_empty() {
            "no change: the plan leaves this allocation as it is".to_string()
        } else {
            fate.join("; ")
        },
    );
    for eval in job
        .plan
        .followup_evals
        .iter()
        .filter(|e| e.alloc_ids.contains(&alloc.id))
    {
        plan = plan.fact(
            "follow-up eval",
            format!(
                "{} ({}), WaitUntil {}",
                eval.id,
                eval.triggered_by,
                at(eval.wait_until, jr.report.now)
            ),
        );
    }
    if let Some(why) = trace.and_then(|t| t.unreplaced.get(&alloc.id)) {
        plan = plan.fact("replacement", why.describe());
    }
    steps.push(plan);
    Explanation {
        subject: Subject {
            kind: SubjectKind::Allocation,
            id: Some(alloc.id.to_string()),
            name: alloc.name().to_string(),
        },
        namespace: job.namespace.clone(),
        job: job.id.clone(),
        job_version: job.version,
        task_group: alloc.task_group.to_string(),
        now: jr.report.now,
        now_source: jr.report.now_source,
        eval_id: jr.report.eval_id.clone(),
        bucket,
        fate,
        changed: job.plan.touches(&alloc.id),
        steps,
        warnings: jr.report.warnings.clone(),
        story: None,
    }
}

fn bucket_of(trace: &GroupTrace<'_>, alloc: &Allocation) -> Option<Bucket> {
    trace.buckets.bucket_of(&alloc.id)
}

fn identity(job: &JobReport, alloc: &Allocation) -> Step {
    let version = if alloc.job.is_none() {
        "unknown (no embedded job)".to_string()
    } else {
        format!("{} (job is at {})", alloc.job_version(), job.version)
    };
    let mut step = Step::new(
        "Allocation",
        format!("{} of {}/{}", alloc.name(), job.namespace, job.id),
    )
    .fact("id", &alloc.id)
    .fact("task group", &alloc.task_group)
    .fact("job version", version)
    .fact("canary", yes_no(alloc.is_canary()));
    if !alloc.deployment_id.is_empty() {
        step = step.fact("deployment", &alloc.deployment_id);
    }
    if !alloc.previous_allocation.is_empty() {
        step = step.fact("previous allocation", &alloc.previous_allocation);
    }
    if !alloc.next_allocation.is_empty() {
        step = step.fact("next allocation", &alloc.next_allocation);
    }
    step
}

fn node(jr: &JobReplay<'_, '_>, alloc: &Allocation) -> Step {
    let tainted = jr.tainted.contains_key(alloc.node_id.as_str());
    let taint = if tainted { "tainted" } else { "not tainted" };
    let Some(node) = jr.nodes.get(alloc.node_id.as_str()) else {
        return Step::new(
            "Node",
            format!("{} is garbage-collected: {taint}", alloc.node_id),
        )
        .fact("node", &alloc.node_id)
        .fact("status", "absent from the snapshot's Nodes");
    };
    Step::new("Node", format!("{} is {}: {taint}", node.id, node.status))
        .fact("node", &node.id)
        .fact("status", &node.status)
        .fact("drain strategy", yes_no(node.has_drain_strategy()))
        .fact(
            "tainted when",
            "missing, down, draining (or a drain strategy), or disconnected",
        )
}

fn status(alloc: &Allocation) -> Step {
    let t = &alloc.desired_transition;
    let transitions: Vec<&str> = [
        (t.should_migrate(), "migrate"),
        (t.should_reschedule(), "reschedule"),
        (t.should_force_reschedule(), "force reschedule"),
    ]
    .into_iter()
    .filter_map(|(set, name)| set.then_some(name))
    .collect();
    let terminal = match (
        alloc.server_terminal_status(),
        alloc.client_terminal_status(),
    ) {
        (true, true) => "terminal (desired and client status)",
        (true, false) => "terminal (desired status)",
        (false, true) => "terminal (client status)",
        (false, false) => "not terminal",
    };
    let mut step = Step::new(
        "Status",
        format!(
            "client {}, desired {}: {terminal}",
            alloc.client_status, alloc.desired_status
        ),
    )
    .fact("client status", alloc.client_status.as_str())
    .fact("desired status", alloc.desired_status.as_str())
    .fact(
        "desired transition",
        if transitions.is_empty() {
            "none".to_string()
        } else {
            transitions.join(", ")
        },
    );
    if !alloc.desired_description.is_empty() {
        step = step.fact("desired description", &alloc.desired_description);
    }
    step
}

/// The bucket with the rule `filterByTainted` recorded for `alloc`.
fn bucket_step(
    jr: &JobReplay<'_, '_>,
    trace: &GroupTrace<'_>,
    alloc: &Allocation,
    bucket: Bucket,
) -> Option<Step> {
    let at = trace.buckets[bucket]
        .iter()
        .position(|a| a.id == alloc.id)?;
    let rule = *trace.bucket_rules[bucket].get(at)?;
    let order = &jr.release.taint_order;
    let number = order.iter().position(|(r, _)| *r == rule).unwrap_or(0) + 1;
    let earlier: Vec<&str> = order[..number - 1]
        .iter()
        .map(|(_, words)| words.as_str())
        .collect();
    let words = order.get(number - 1).map_or("", |(_, w)| w.as_str());
    let reason = jr
        .job()
        .groups
        .iter()
        .find(|g| g.name == *alloc.task_group)
        .and_then(|g| g.buckets[bucket].iter().find(|e| e.id == alloc.id))
        .map_or(Cow::Borrowed(""), |e| e.reason());
    let mut step = Step::new("Bucket", bucket.as_str())
        .fact("rule", format!("{number} of {}: {words}", order.len()))
        .fact("facts", reason);
    if !earlier.is_empty() {
        step = step.detail("rules not matched", earlier.join("; "));
    }
    Some(step)
}

fn job_update(trace: &GroupTrace<'_>, job: &JobReport, alloc: &Allocation) -> Option<Step> {
    let u = &trace.updates;
    if u.ignore.get(&alloc.id).is_some() {
        let step = Step::new(
            "Job update",
            "ignore: no change of the job, or none that needs an update",
        );
        return Some(stopped_all_the_same(step, &job.plan, alloc));
    }
    if u.inplace.get(&alloc.id).is_some() {
        let step = stopped_all_the_same(
            Step::new(
                "Job update",
                "in-place: the job changed, but not in a way that needs a new allocation",
            ),
            &job.plan,
            alloc,
        );
        if u.unchecked.get(&alloc.id).is_some() {
            return Some(step.fact(
                "placement check",
                "skipped: its job version sets max_run_duration, which this release reads as \
                 changed on every update, so the update is in place whether or not the node \
                 still fits",
            ));
        }
        return Some(step);
    }
    let (_, why) = u.destructive.iter().find(|(a, _)| a.id == alloc.id)?;
    let applied = job
        .plan
        .destructive_update
        .iter()
        .any(|d| d.alloc_id == alloc.id);
    let p = &trace.placement;
    let conclusion = if applied {
        "destructive: replaced now"
    } else if !p.place_ready {
        "destructive: held back (deployment paused or failed, or canarying)"
    } else {
        "destructive: held back by the update strategy's max_parallel"
    };
    let mut step = Step::new("Job update", conclusion).fact("first difference", &why.reason);
    if let Some(label) = why.label {
        step = step.fact("nomad label", label);
    }
    Some(step.fact(
        "allowed now",
        format!(
            "{} of {}",
            p.destructive_allowed.max(0),
            u.destructive.len()
        ),
    ))
}

/// `step`, saying so when the plan stops or replaces `alloc` for another
/// reason than the job update, as the scheduler's own stops of allocations
/// on lost nodes do.
fn stopped_all_the_same(mut step: Step, plan: &Plan, alloc: &Allocation) -> Step {
    let stop = plan.stop.iter().find(|s| s.alloc_id == alloc.id);
    let replaced = plan
        .place
        .iter()
        .any(|p| p.previous_alloc_id.as_ref() == Some(&alloc.id));
    let and_replaces = if replaced { " and replaces it" } else { "" };
    match stop {
        Some(s) => step.conclusion.push_str(&format!(
            "; the plan stops it all the same ({:?}){and_replaces}",
            s.description
        )),
        None if replaced => step
            .conclusion
            .push_str("; the plan replaces it all the same"),
        None => {}
    }
    step
}

/// What the plan does with `alloc`, one line per action.
fn fate(plan: &Plan, alloc: &Allocation) -> Vec<String> {
    let id = &alloc.id;
    let mut out = Vec::new();
    for s in plan.stop.iter().filter(|s| s.alloc_id == *id) {
        let mut line = format!("stop: {:?}", s.description);
        if let Some(cs) = &s.client_status {
            line.push_str(&format!(", client status {cs}"));
        }
        if let Some(e) = &s.followup_eval_id {
            line.push_str(&format!(", follow-up eval {e}"));
        }
        out.push(line);
    }
    for p in plan
        .place
        .iter()
        .filter(|p| p.previous_alloc_id.as_ref() == Some(id))
    {
        let older = p.job_version.map(|v| format!("job version {v}"));
        let flags: Vec<&str> = [
            (p.canary, "canary"),
            (p.reschedule, "reschedule"),
            (p.lost, "lost"),
            (!p.reschedule && !p.lost, "migrate"),
            (p.downgrade_non_canary, "downgrade non-canary"),
        ]
        .into_iter()
        .filter_map(|(set, f)| set.then_some(f))
        .chain(older.as_deref())
        .collect();
        out.push(format!(
            "replacement placed: {} ({})",
            p.name,
            flags.join(", ")
        ));
    }
    for d in plan.destructive_update.iter().filter(|d| d.alloc_id == *id) {
        out.push(format!("destructive update of {}: {}", d.name, d.reason));
    }
    if plan.in_place_update.iter().any(|u| u.alloc_id == *id) {
        out.push("in-place update".to_string());
    }
    for u in plan.disconnect_updates.iter().filter(|u| u.alloc_id == *id) {
        out.push(format!(
            "disconnect update: client status unknown, follow-up eval {}",
            u.followup_eval_id
        ));
    }
    if plan.reconnect_updates.iter().any(|u| u.alloc_id == *id) {
        out.push("reconnect update: resumes on its node".to_string());
    }
    for u in plan.attribute_updates.iter().filter(|u| u.alloc_id == *id) {
        out.push(format!(
            "attribute update: follow-up eval {} for its delayed reschedule",
            u.followup_eval_id
        ));
    }
    out
}
