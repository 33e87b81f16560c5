//! The reschedule step of an allocation's explanation: its policy, the
//! delay and the decision of the reschedule filters.

use super::explanation::{Step, at, yes_no};
use super::release_rules;
use crate::model::{Allocation, ClientStatus, DelayBase, DelaySteps, ReschedulePolicy};
use crate::reconciler::{
    AllocFacts, Bucket, DisconnectingReplacement, GroupTrace, RescheduleBasis,
};
use crate::replay::JobReplay;
use crate::time::format_duration;

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

/// The reschedule step: the policy, the delay and what was decided.
pub(super) fn rescheduling(
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
