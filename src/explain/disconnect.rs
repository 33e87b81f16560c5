//! The disconnect and reconnect steps of an allocation's explanation: its
//! lost timeout and expiry, and how a reconnecting allocation was weighed
//! against its replacement.

use super::explanation::{Step, at, yes_no};
use super::release_rules;
use crate::model::Allocation;
use crate::reconciler::{
    AllocFacts, Bucket, GroupTrace, ReconnectCheck, ReconnectDecision, ReconnectWeighing,
};
use crate::replay::JobReplay;
use crate::time::format_duration;

/// The disconnect step: the lost timeout, the expiry and whether the
/// allocation reconnected in time.
pub(super) fn disconnect(jr: &JobReplay<'_, '_>, alloc: &Allocation, facts: &AllocFacts) -> Step {
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

/// The reconnect steps: how a reconnecting allocation was weighed against
/// its replacement.
pub(super) fn reconnect_steps(
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
