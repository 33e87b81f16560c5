//! The story as tables: the events as the servers took them, the timeline
//! as one line per evaluation with its plan's counts, each evaluation's
//! job as the other tables show a job, what was not replayed, what was
//! canceled before it ran, what the deployment watcher wrote, the
//! deployments as the story left them, and the assumptions made. Times are offsets from the evaluation time ("+15m").

use super::renderer::{Renderer, Style};
use crate::render::operator;
use crate::render::wrap::wrap;
use crate::report::{JobReport, Plan};
use crate::servers::{AppliedEvent, Preempted, Story, WatcherAction};
use crate::time::{Time, format_duration};

use super::grid::{Col, Grid};

/// The whole story.
pub fn story(story: &Story, style: Style) -> String {
    let start = story.report.now;
    let width = usize::from(style.width);
    let base = Renderer {
        style,
        now: start,
        eval: None,
    };
    let mut out = wrap(
        &format!("{}.", story.report.nomad_version.describe()),
        width,
    );
    out.push('\n');
    out.push_str(&wrap(
        &format!(
            "Evaluated at {start}{}.",
            match story.until {
                Some(u) => format!(", followed until {u} ({})", offset(u, start)),
                None => ", the evaluations the events create (--until follows what comes next)"
                    .to_string(),
            }
        ),
        width,
    ));
    if !story.what_if.is_empty() {
        let mut t = Grid::new(&[
            Col::whole("Time"),
            Col::whole("Event"),
            Col::whole("Target"),
            Col::prose("Servers"),
            Col::whole("Evals"),
        ]);
        for e in &story.what_if {
            t.row(vec![
                offset(e.at, start),
                e.event.name().to_string(),
                target(&base, e),
                servers(e),
                e.evaluations.len().to_string(),
            ]);
        }
        base.section(&mut out, "What if", &t);
    }
    let mut t = Grid::new(&[
        Col::whole("Time"),
        Col::whole("Trigger"),
        Col::whole("Job"),
        Col::whole("Eval"),
        Col::prose("Plan"),
    ]);
    for e in &story.timeline {
        t.row(vec![
            offset(e.at, start),
            e.evaluation.triggered_by.clone(),
            job_name(&e.job),
            base.id(&e.evaluation.id).to_string(),
            counts(&e.job.plan),
        ]);
    }
    if story.timeline.is_empty() {
        out.push_str("\nNo evaluation in the timeline.\n");
    } else {
        base.section(&mut out, "Timeline", &t);
    }
    let quiet = story
        .timeline
        .iter()
        .filter(|e| !style.verbose && e.job.plan.is_noop())
        .count();
    for e in story
        .timeline
        .iter()
        .filter(|e| style.verbose || !e.job.plan.is_noop())
    {
        let r = Renderer {
            style,
            now: e.at,
            eval: Some((
                e.evaluation.id.clone(),
                e.evaluation.priority,
                e.evaluation.triggered_by.clone(),
            )),
        };
        out.push('\n');
        out.push_str(&r.job(&e.job, &offset(e.at, start)));
        if !e.preempted.is_empty() {
            preempted(&r, &mut out, &e.preempted);
        }
    }
    if quiet > 0 {
        out.push('\n');
        out.push_str(&wrap(
            &format!("{quiet} evaluation(s) change nothing (--verbose shows them)."),
            width,
        ));
    }
    if !story.pending.is_empty() {
        let mut t = Grid::new(&[
            Col::whole("Due"),
            Col::whole("Trigger"),
            Col::whole("Job"),
            Col::whole("Eval"),
        ]);
        for p in &story.pending {
            t.row(vec![
                offset(p.wait_until.unwrap_or(p.created_at), start),
                p.triggered_by.clone(),
                format!("{}/{}", p.namespace, p.job_id),
                base.id(&p.id).to_string(),
            ]);
        }
        let title = match story.until {
            Some(_) => "Not replayed (due after --until)",
            None => "Not replayed (follow-ups: give --until to follow them)",
        };
        base.section(&mut out, title, &t);
    }
    if !story.canceled.is_empty() {
        let mut t = Grid::new(&[
            Col::whole("Time"),
            Col::whole("Trigger"),
            Col::whole("Job"),
            Col::whole("Eval"),
            Col::prose("Why"),
        ]);
        for c in &story.canceled {
            let kept = match &c.kept_eval_id {
                Some(id) => format!(" (kept {})", base.id(id)),
                None => String::new(),
            };
            t.row(vec![
                offset(c.at, start),
                c.evaluation.triggered_by.clone(),
                format!("{}/{}", c.evaluation.namespace, c.evaluation.job_id),
                base.id(&c.evaluation.id).to_string(),
                format!("{}{kept}", c.status_description),
            ]);
        }
        base.section(&mut out, "Canceled", &t);
    }
    watcher(&base, &mut out, story);
    deployments(&base, &mut out, story);
    out.push_str(&format!("\n{}\n", base.bold("Assumptions")));
    for a in &story.assumptions {
        out.push_str(&wrap(&format!("- {}", a.message), width));
    }
    out
}

/// The allocations the plan applier evicted, each with the allocation
/// placed in its stead and its job's `preemption` evaluation.
fn preempted(r: &Renderer, out: &mut String, preempted: &[Preempted]) {
    let mut t = Grid::new(&[
        Col::whole("Alloc"),
        Col::whole("Name"),
        Col::whole("Job"),
        Col::whole("Node"),
        Col::whole("Preempted By"),
        Col::prose("Eval"),
    ]);
    for p in preempted {
        t.row(vec![
            r.id(&p.alloc_id).to_string(),
            p.name.clone(),
            format!("{}/{}", p.namespace, p.job_id),
            r.id(&p.node_id).to_string(),
            r.id(&p.preempted_by_alloc_id).to_string(),
            match &p.eval_id {
                Some(id) => r.id(id).to_string(),
                None => "none: the job is gone".to_string(),
            },
        ]);
    }
    r.section(out, "Evicted (desired evict, client complete)", &t);
}

/// What the deployment watcher wrote besides its batched evaluations.
fn watcher(r: &Renderer, out: &mut String, story: &Story) {
    if story.deployment_watcher.is_empty() {
        return;
    }
    let mut t = Grid::new(&[
        Col::whole("Time"),
        Col::whole("Deployment"),
        Col::whole("Job"),
        Col::whole("Action"),
        Col::whole("Eval"),
        Col::prose("Description"),
    ]);
    for w in &story.deployment_watcher {
        let action = match w.action {
            WatcherAction::Promoted => "promoted",
            WatcherAction::FailedUnhealthy | WatcherAction::FailedDeadline => "failed",
            WatcherAction::PromotedByOperator => "promoted by operator",
            WatcherAction::FailedByOperator => "failed by operator",
            WatcherAction::Paused => "paused",
            WatcherAction::Resumed => "resumed",
            WatcherAction::HealthyByOperator => "allocation healthy by operator",
            WatcherAction::UnhealthyByOperator => "allocation unhealthy by operator",
        };
        let reverted = match &w.reverted {
            Some(v) => format!(" (job version {} registered)", v.job_version),
            None => String::new(),
        };
        let groups = match w.groups.as_slice() {
            [] => String::new(),
            named => format!(" ({})", named.join(", ")),
        };
        t.row(vec![
            offset(w.at, story.report.now),
            r.id(&w.deployment_id).to_string(),
            format!("{}/{}", w.namespace, w.job_id),
            format!("{action}{groups}"),
            r.id(&w.eval_id).to_string(),
            format!("{}{reverted}", w.status_description),
        ]);
    }
    r.section(out, "Deployment watcher", &t);
}

/// Each deployment the story wrote, per group, with the counts the state
/// store holds at its end.
fn deployments(r: &Renderer, out: &mut String, story: &Story) {
    if story.deployments.is_empty() {
        return;
    }
    let mut t = Grid::new(&[
        Col::whole("Deployment"),
        Col::prose("Job"),
        Col::whole("Group"),
        Col::whole("Desired"),
        Col::whole("Placed"),
        Col::whole("Healthy"),
        Col::whole("Unhealthy"),
        Col::prose("Status"),
    ]);
    for d in &story.deployments {
        for (name, g) in &d.groups {
            let mut status = d.status.clone();
            if g.desired_canaries > 0 {
                let promoted = if g.promoted { ", promoted" } else { "" };
                status.push_str(&format!(
                    "; canaries {} of {}{promoted}",
                    g.placed_canaries.len(),
                    g.desired_canaries
                ));
            }
            t.row(vec![
                r.id(&d.id).to_string(),
                format!("{}/{} v{}", d.namespace, d.job_id, d.job_version),
                name.clone(),
                g.desired_total.to_string(),
                g.placed_allocs.to_string(),
                g.healthy_allocs.to_string(),
                g.unhealthy_allocs.to_string(),
                status,
            ]);
        }
    }
    r.section(out, "Deployments (as the story left them)", &t);
}

/// `+1h30m` after the evaluation time, `+0s` at it.
fn offset(t: Time, start: Time) -> String {
    format!("+{}", format_duration(t.sub(start)))
}

fn job_name(job: &JobReport) -> String {
    format!("{}/{}", job.namespace, job.id)
}

/// What the event names: its node, allocation or deployment, or a health
/// request's allocations, the healthy ones first.
fn target(r: &Renderer, e: &AppliedEvent) -> String {
    let listed: Vec<&str> = e
        .healthy_alloc_ids
        .iter()
        .chain(&e.unhealthy_alloc_ids)
        .map(|id| r.id(id))
        .collect();
    if !listed.is_empty() {
        return listed.join(",");
    }
    r.id(e
        .node_id
        .as_deref()
        .or(e.alloc_id.as_deref())
        .or(e.deployment_id.as_deref())
        .unwrap_or(""))
        .to_string()
}

/// What the servers did for one event, in words.
fn servers(e: &AppliedEvent) -> String {
    if let Some(why) = &e.ignored {
        return operator::ignored(why);
    }
    let mut parts: Vec<String> = e
        .node_status
        .iter()
        .map(|c| format!("node {} -> {}", c.from, c.to))
        .collect();
    if let Some(d) = e.deadline {
        parts.push(format!("draining until {d}, ineligible"));
    }
    if parts.is_empty() {
        parts.push(match e.event {
            crate::servers::EventKind::NodeIneligible => "ineligible: no evaluation".to_string(),
            crate::servers::EventKind::AllocFail => "allocation failed".to_string(),
            crate::servers::EventKind::AllocHealthy => "set healthy".to_string(),
            crate::servers::EventKind::AllocUnhealthy => "set unhealthy".to_string(),
            crate::servers::EventKind::AllocHealth => {
                let (h, u) = (e.healthy_alloc_ids.len(), e.unhealthy_alloc_ids.len());
                match (h, u) {
                    (_, 0) => format!("{h} set healthy"),
                    (0, _) => format!("{u} set unhealthy"),
                    _ => format!("{h} set healthy, {u} set unhealthy"),
                }
            }
            kind => operator::deployment_done(kind)
                .unwrap_or("no change")
                .to_string(),
        });
    }
    parts.join("; ")
}

/// The plan's non-zero counts: `2 stop, 2 place, 1 follow-up`.
fn counts(p: &Plan) -> String {
    let lost = p
        .stop
        .iter()
        .filter(|s| {
            s.client_status
                .as_ref()
                .is_some_and(|c| c.as_str() == "lost")
        })
        .count();
    let parts = [
        (p.stop.len() - lost, "stop"),
        (lost, "lost"),
        (p.place.len(), "place"),
        (p.destructive_update.len(), "destructive"),
        (p.preemptions.len(), "preempted"),
        (p.in_place_update.len(), "in-place"),
        (p.disconnect_updates.len(), "disconnect"),
        (p.reconnect_updates.len(), "reconnect"),
        (p.followup_evals.len(), "follow-up"),
    ];
    let mut shown: Vec<String> = parts
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    if p.deployment.is_some() {
        shown.push("new deployment".to_string());
    }
    shown.extend(
        p.deployment_updates
            .iter()
            .map(|u| format!("deployment {}", u.status)),
    );
    if shown.is_empty() {
        "no change".to_string()
    } else {
        shown.join(", ")
    }
}
