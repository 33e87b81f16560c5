//! The steps the reconciler took for one existing allocation.

use std::borrow::Cow;

use super::release_rules;
use super::{Explanation, Step, Subject, SubjectKind, at, yes_no};
use crate::model::{Allocation, ClientStatus, DelayBase, DelaySteps, ReschedulePolicy};
use crate::reconciler::{
    AllocFacts, Bucket, DisconnectingReplacement, GroupTrace, ReconnectCheck, ReconnectDecision,
    ReconnectWeighing, RescheduleBasis,
};
use crate::replay::JobReplay;
use crate::report::{JobReport, Plan};
use crate::time::format_duration;

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
            name: alloc.name.to_string(),
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
        format!("{} of {}/{}", alloc.name, job.namespace, job.id),
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

fn disconnect(jr: &JobReplay<'_, '_>, alloc: &Allocation, facts: &AllocFacts) -> Step {
    let now = jr.report.now;
    let d = &facts.disconnect;
    let last = d.unknown_since;
    let setting = release_rules::lost_timeout_setting(jr.release.fields);
    let mut step = Step::new("Disconnect", "").fact(
        &setting,
        d.timeout.map_or("not set".to_string(), format_duration),
    );
    step = step.fact(
        "last unknown",
        if last.is_zero() {
            "never".to_string()
        } else {
            at(last, now)
        },
    );
    let conclusion = match (d.expiry, d.timeout) {
        (Some(expiry), Some(timeout)) => {
            step = step.fact(
                "expiry",
                format!(
                    "{last} + {} = {}",
                    format_duration(timeout),
                    at(expiry, now)
                ),
            );
            if d.expired {
                "unknown and expired".to_string()
            } else if now >= expiry {
                format!(
                    "not expired: its expiry has passed, but Expired needs client status unknown \
                     (it is {})",
                    alloc.client_status
                )
            } else {
                "not expired (now < expiry); Expired needs client status unknown".to_string()
            }
        }
        _ if last.is_zero() => "never unknown".to_string(),
        _ => format!("unknown without {setting}: never expires"),
    };
    let conclusion = match d.reconnect {
        ReconnectCheck::States { needs } => {
            let needs = if needs {
                "yes: its latest client-status state is unknown"
            } else {
                "no: its latest client-status state is not unknown"
            };
            step = step.fact("needs to reconnect", needs);
            conclusion
        }
        ReconnectCheck::Event { at: t, late } => {
            step = step
                .fact("reconnect event", at(t, now))
                .fact("expired at reconnect", yes_no(late));
            format!(
                "{conclusion}; reconnected {}",
                if late { "too late" } else { "in time" }
            )
        }
        ReconnectCheck::None => conclusion,
    };
    step.conclusion = conclusion;
    if !jr.release.disconnects_checked {
        step = step.fact(
            "disconnected clients",
            "not supported (pre-1.3 servers): expiry and unknown are not checked",
        );
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

fn policy_text(p: &ReschedulePolicy) -> String {
    let attempts = if p.unlimited {
        "unlimited attempts".to_string()
    } else {
        format!("{} attempts in {}", p.attempts, format_duration(p.interval))
    };
    format!(
        "{attempts}, delay {} {}, max delay {}",
        format_duration(p.delay),
        p.delay_function,
        format_duration(p.max_delay)
    )
}

fn delay_text(d: &DelaySteps) -> String {
    let f = format_duration;
    let base = match d.base {
        DelayBase::NoPolicy => "no policy: 0s".to_string(),
        DelayBase::FirstAttempt => "first reschedule: the policy delay".to_string(),
        DelayBase::Constant => "constant: the policy delay".to_string(),
        DelayBase::Exponential { last } => format!("exponential: 2 * {}", f(last)),
        DelayBase::Fibonacci { last, previous } => {
            format!("fibonacci: {} + {}", f(last), f(previous))
        }
        DelayBase::FibonacciSecond => "fibonacci, one earlier attempt: the policy delay".into(),
        DelayBase::FibonacciRestarted { last } => {
            format!("fibonacci restarted after a reset: {} again", f(last))
        }
    };
    let mut out = base;
    if d.capped {
        out.push_str(", capped at MaxDelay");
    }
    if let Some(since) = d.reset_after {
        out.push_str(&format!(
            ", reset to the policy delay ({} since the last reschedule > MaxDelay)",
            f(since)
        ));
    }
    format!("{} ({out})", f(d.delay))
}

/// Why an allocation its policy would not replace now is replaced now
/// (v1.3.0 scheduler/reconcile_util.go:461).
const FORCED: &str = "DesiredTransition.ForceReschedule is set, which is checked before the \
                      reschedule policy";

fn rescheduling(
    jr: &JobReplay<'_, '_>,
    trace: &GroupTrace<'_>,
    alloc: &Allocation,
    facts: &AllocFacts,
    bucket: Bucket,
) -> Option<Step> {
    let job = jr.job();
    if trace.removed || trace.scaled_to_zero || job.stopped {
        return None;
    }
    let disconnecting = bucket == Bucket::Disconnecting;
    if bucket != Bucket::Untainted && !disconnecting {
        return None;
    }
    let now = jr.report.now;
    let mut step = Step::new("Rescheduling", "").fact(
        "policy",
        alloc
            .reschedule_policy()
            .map_or("none".to_string(), policy_text),
    );
    let later = trace
        .reschedule_later
        .iter()
        .find(|d| d.alloc.id == alloc.id);
    let outcome = if trace.reschedule_now.get(&alloc.id).is_some() {
        "reschedule now".to_string()
    } else if let Some(d) = later {
        format!("reschedule later, at {}", at(d.at, now))
    } else {
        "not rescheduled".to_string()
    };
    let f = facts.reschedule?;
    if f.replaced {
        step.conclusion = format!("{outcome}: terminal and already replaced");
        return Some(step);
    }
    let release = jr.release;
    let filter = f.prefilter;
    if !f.policy_read {
        step.conclusion = format!(
            "{outcome}: {}",
            if filter.untainted() {
                "counts as running (batch: not failed, or ran successfully)"
            } else if release.ignores_evicted_batch {
                "ignored (desired stop/evict, or complete/lost; batch: evicted, or stopped and not \
                 successful)"
            } else {
                "ignored (desired stop/evict, or complete/lost; batch: stopped and not successful)"
            }
        );
        return Some(step);
    }
    if filter.untainted() && !disconnecting {
        step = step.fact(
            "counts as running",
            format!(
                "yes (batch: not failed, or ran successfully), and Nomad {} still reads its \
                 policy (from 1.4.14, 1.5.10, 1.6.3 and 1.7.0 until 1.8.1)",
                release.release
            ),
        );
    }
    let basis = f.basis;
    let rescheduled_now = trace.reschedule_now.get(&alloc.id).is_some();
    let forced = rescheduled_now && trace.reschedule_forced.get(&alloc.id).is_some();
    let replacement = || release_rules::disconnecting_replacement(f.disconnecting);
    if let RescheduleBasis::Replace(replace) = basis {
        step = step.fact("disconnect.replace", replace.to_string());
        let why = if forced {
            FORCED
        } else if rescheduled_now || !replace {
            replacement()
        } else {
            "part of the active deployment without a reschedule transition"
        };
        step.conclusion = format!("{outcome}: {why}");
        return Some(step);
    }
    // A running allocation that never failed: the policy's arithmetic
    // below decides nothing, so it is background.
    let never_failed = basis == RescheduleBasis::Failure
        && !rescheduled_now
        && later.is_none()
        && !alloc.client_terminal_status()
        && alloc.client_status != ClientStatus::Unknown;
    let first_detail = step.facts.len();
    let (fail_time, next, eligible) = (f.fail_time, f.next, f.eligible);
    let source = match basis {
        RescheduleBasis::FollowUp => {
            "its last unknown state: this evaluation is the follow-up of its disconnect"
        }
        RescheduleBasis::Failure => "last task finish, else ModifyTime",
        _ => "disconnecting: the evaluation time",
    };
    step = step.fact("fail time", format!("{} ({source})", at(fail_time, now)));
    if let (Some(policy), Some(attempts)) = (alloc.reschedule_policy(), f.attempts) {
        step = step.fact(
            "attempts",
            format!(
                "{attempts} within {} before the fail time, of {} allowed ({} recorded)",
                format_duration(policy.interval),
                if policy.unlimited {
                    "unlimited".to_string()
                } else {
                    policy.attempts.to_string()
                },
                alloc.reschedule_events().len()
            ),
        );
    }
    let delay = f.delay;
    step = step
        .fact("next delay", delay_text(&delay))
        .fact(
            "next reschedule",
            if next.is_zero() {
                // E-1 makes lost allocations eligible as well.
                if release.retries_failed_placements && basis == RescheduleBasis::Failure {
                    "none (not failed or lost)".to_string()
                } else {
                    "none (not failed)".to_string()
                }
            } else {
                format!(
                    "fail time + {} = {}",
                    format_duration(delay.delay),
                    at(next, now)
                )
            },
        )
        .fact("eligible", yes_no(eligible));
    if trace.without_policy.get(&alloc.id).is_some() && release.panics_without_policy {
        step = step.fact(
            "no policy",
            format!(
                "its job version's group has no reschedule policy: Nomad {} dereferences it here \
                 and panics (fixed in 1.9.7 and 1.10.0); not eligible, as the fixed releases say",
                release.release
            ),
        );
    }
    if !alloc.followup_eval_id.is_empty() {
        let own = if alloc.followup_eval_id == jr.report.eval_id {
            "this evaluation: due now"
        } else {
            "another evaluation: it will reschedule"
        };
        step = step.fact(
            "follow-up eval",
            format!("{} ({own})", alloc.followup_eval_id),
        );
    }
    if never_failed {
        step.conclusion = format!("{outcome}: client {}, never failed", alloc.client_status);
        return Some(step.details_from(first_detail));
    }
    let by_policy = basis == RescheduleBasis::Disconnecting;
    let why = if forced {
        FORCED.to_string()
    } else if rescheduled_now {
        if disconnecting && by_policy {
            format!("{}: eligible, and due within 1s of now", replacement())
        } else if disconnecting {
            replacement().to_string()
        } else {
            "eligible, and due within 1s of now or this evaluation is its follow-up".to_string()
        }
    } else if later.is_some() && disconnecting {
        format!("{}: eligible, due later", replacement())
    } else if later.is_some() {
        "eligible, due later, no follow-up eval yet".to_string()
    } else if disconnecting && f.disconnecting == DisconnectingReplacement::Held {
        replacement().to_string()
    } else if !eligible {
        release_rules::reschedule_eligibility(release).to_string()
    } else if !alloc.followup_eval_id.is_empty() {
        "already has a follow-up eval".to_string()
    } else {
        "part of the active deployment without a reschedule transition".to_string()
    };
    step.conclusion = format!("{outcome}: {why}");
    Some(step)
}

fn reconnect_steps(
    jr: &JobReplay<'_, '_>,
    trace: &GroupTrace<'_>,
    alloc: &Allocation,
    bucket: Bucket,
) -> Vec<Step> {
    let mine: Vec<&ReconnectDecision<'_>> = trace
        .reconnect_decisions
        .iter()
        .filter(|d| {
            d.reconnecting.id == alloc.id || d.replacement.is_some_and(|r| r.id == alloc.id)
        })
        .collect();
    if mine.is_empty() {
        return if bucket == Bucket::Reconnecting {
            let why = match jr.release.reconnect_weighing {
                ReconnectWeighing::ReplacementChain => {
                    "no allocation down its NextAllocation chain that the servers have not \
                     stopped: it resumes"
                }
                ReconnectWeighing::NextAllocation => {
                    "its NextAllocation is absent or stopped by the servers: it resumes"
                }
                ReconnectWeighing::PlacedAfter => {
                    "no allocation of its name placed after it: it resumes"
                }
                ReconnectWeighing::OverCount => {
                    "not weighed against a replacement: the group was not over its count"
                }
            };
            vec![Step::new("Reconnect", why)]
        } else {
            Vec::new()
        };
    }
    let score = |s: Option<f64>| s.map_or("no score metadata".to_string(), |s| s.to_string());
    mine.iter()
        .map(|d| {
            let r = d.reconnecting;
            let mut step = Step::new("Reconnect", d.verdict.describe()).fact(
                "reconnecting",
                format!(
                    "{} (job version {}, score {})",
                    r.id,
                    r.job_version(),
                    score(d.scores.0)
                ),
            );
            if let Some(rep) = d.replacement {
                step = step.fact(
                    "replacement",
                    format!(
                        "{} (job version {}, score {})",
                        rep.id,
                        rep.job_version(),
                        score(d.scores.1)
                    ),
                );
                let kept = if d.verdict.reconnecting_kept() {
                    r
                } else {
                    rep
                };
                if let Some((original, replacement)) = d.starts {
                    let start = |t: crate::time::Time| {
                        if t.is_zero() {
                            "none before now".to_string()
                        } else {
                            at(t, jr.report.now)
                        }
                    };
                    step = step
                        .fact("original started", start(original))
                        .fact("replacement started", start(replacement));
                }
                step = step.fact("kept", &kept.id);
            }
            step
        })
        .collect()
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
        let flags: Vec<&str> = [
            (p.canary, "canary"),
            (p.reschedule, "reschedule"),
            (p.lost, "lost"),
            (!p.reschedule && !p.lost, "migrate"),
            (p.downgrade_non_canary, "downgrade non-canary"),
        ]
        .into_iter()
        .filter_map(|(set, f)| set.then_some(f))
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
