//! `--format html`: the story as one self-contained page (no script, no
//! network): the timeline drawn as an inline SVG, one lane per node with
//! each allocation a bar from its start to its stop or eviction, unknown
//! stretches, missed heartbeats and disconnect expiries marked, the
//! operator's requests marked (a deployment's across the lanes, an
//! allocation's health on its bar, a refused one set apart), evaluations
//! as ticks, then the tables. Elements carry `data-` attributes naming what
//! they draw, which the browser test reads.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::servers::story::Ignored;
use crate::servers::{AppliedEvent, EventKind, MarkKind, Story, TargetKind};
use crate::time::Time;

use super::{operator, table};

const LEFT: f64 = 220.0;
const PLOT: f64 = 900.0;
const LANE: f64 = 30.0;
const TOP: f64 = 50.0;

/// The page.
pub fn story(story: &Story) -> String {
    let mut out = String::new();
    out.push_str(concat!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        "<title>plan-inspect timeline</title>\n<style>\n",
        "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}\n",
        "svg text{font-size:12px;font-family:monospace}\n",
        ".bar{stroke:#333;stroke-width:.5}\n",
        ".bar[data-status=running]{fill:#4c9a5f}.bar[data-status=complete]{fill:#8aa}\n",
        ".bar[data-status=lost]{fill:#c0504d}.bar[data-status=failed]{fill:#e08a1e}\n",
        ".bar[data-status=preempted]{fill:#d4b13c}\n",
        ".unknown{fill:#b9a0d9;opacity:.85}\n",
        ".tick{stroke:#225;stroke-width:2}.disconnect{stroke:#c0504d;stroke-width:2;stroke-dasharray:4 3}\n",
        ".expiry{stroke:#7b4fb0;stroke-width:2;stroke-dasharray:2 2}\n",
    ));
    // Only a page with operator marks has their rules.
    if operator_events(story).next().is_some() {
        out.push_str(concat!(
            ".operator{stroke:#1f5fbf;stroke-width:3}circle.operator{fill:#1f5fbf;stroke-width:1.5}\n",
            "circle.operator[data-health=unhealthy]{fill:#c0504d}\n",
            ".operator.refused{stroke:#777;stroke-width:2;stroke-dasharray:6 3}\n",
            "circle.operator.refused{fill:#fff;stroke-dasharray:none}\n",
        ));
    }
    out.push_str(concat!(
        "pre{background:#f6f6f6;padding:.8em;overflow-x:auto}\n",
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}\n",
        "</style>\n</head>\n<body>\n<h1>plan-inspect: what happens next</h1>\n"
    ));
    let _ = writeln!(
        out,
        "<p>{}. Evaluated at {}{}.</p>",
        esc(&story.report.nomad_version.describe()),
        story.report.now,
        story
            .until
            .map_or(String::new(), |u| format!(", followed until {u}"))
    );
    svg(&mut out, story);
    out.push_str("<h2>Tables</h2>\n<pre>");
    let text = table::story(
        story,
        table::Style {
            color: false,
            verbose: false,
            width: 120,
        },
    );
    out.push_str(&esc(&text));
    out.push_str("</pre>\n</body>\n</html>\n");
    out
}

/// One allocation's bar: when it started and how it ended.
struct Bar {
    id: String,
    name: String,
    start: Time,
    end: Option<(Time, &'static str)>,
    unknown: Vec<(Time, Option<Time>)>,
}

fn svg(out: &mut String, story: &Story) {
    let start = story.report.now;
    let last = story
        .marks
        .iter()
        .map(|m| m.at)
        .chain(story.timeline.iter().map(|e| e.at))
        .chain(story.what_if.iter().map(|e| e.at))
        .chain(story.until)
        .max()
        .unwrap_or(start);
    let span = (last.sub(start) as f64 * 1.05).max(1e9);
    let x = |t: Time| LEFT + t.sub(start) as f64 / span * PLOT;
    let mut lanes: BTreeMap<String, BTreeMap<String, Bar>> = BTreeMap::new();
    for m in &story.marks {
        let lane = lanes.entry(m.node_id.clone()).or_default();
        let bar = lane.entry(m.alloc_id.clone()).or_insert_with(|| Bar {
            id: m.alloc_id.clone(),
            name: m.name.clone(),
            start: m.at,
            end: None,
            unknown: Vec::new(),
        });
        match m.kind {
            MarkKind::Running | MarkKind::Placed => {}
            MarkKind::Unknown => bar.unknown.push((m.at, None)),
            MarkKind::Reconnected => {
                if let Some(open) = bar.unknown.iter_mut().rev().find(|u| u.1.is_none()) {
                    open.1 = Some(m.at);
                }
            }
            MarkKind::Stopped => bar.end = bar.end.or(Some((m.at, "complete"))),
            MarkKind::Lost => bar.end = Some((m.at, "lost")),
            MarkKind::Failed => bar.end = Some((m.at, "failed")),
            MarkKind::Preempted => bar.end = Some((m.at, "preempted")),
        }
    }
    let height = TOP + LANE * lanes.len() as f64 + 30.0;
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"timeline\" width=\"{}\" height=\"{height}\" \
         viewBox=\"0 0 {} {height}\" data-start=\"{start}\" data-end=\"{}\">",
        LEFT + PLOT + 20.0,
        LEFT + PLOT + 20.0,
        start.add(span as i64)
    );
    let _ = writeln!(
        out,
        "<text x=\"{LEFT}\" y=\"14\">{start}</text><line x1=\"{LEFT}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#999\"/>",
        TOP - 8.0,
        LEFT + PLOT,
        TOP - 8.0
    );
    for e in &story.timeline {
        let at = x(e.at);
        let _ = writeln!(
            out,
            "<line class=\"tick\" data-eval=\"{}\" data-trigger=\"{}\" data-job=\"{}\" data-at=\"{}\" \
             x1=\"{at:.1}\" y1=\"{}\" x2=\"{at:.1}\" y2=\"{}\"><title>{} {} at {}</title></line>",
            esc(&e.evaluation.id),
            esc(&e.evaluation.triggered_by),
            esc(&e.job.id),
            e.at,
            TOP - 22.0,
            TOP - 8.0,
            esc(&e.evaluation.triggered_by),
            esc(&e.job.id),
            e.at
        );
    }
    for (row, (node, bars)) in lanes.iter().enumerate() {
        let y = TOP + LANE * row as f64;
        let label = match story.node_names.get(node) {
            _ if node.is_empty() => "(no node)".to_string(),
            Some(name) if !name.is_empty() => name.clone(),
            _ => node.get(..8).unwrap_or(node).to_string(),
        };
        let _ = writeln!(
            out,
            "<g class=\"lane\" data-node=\"{}\"><text x=\"4\" y=\"{:.1}\">{}</text>",
            esc(node),
            y + 18.0,
            esc(&label)
        );
        for e in story
            .what_if
            .iter()
            .filter(|e| e.node_id.as_deref() == Some(node))
        {
            if e.event == EventKind::NodeDown && e.ignored.is_none() {
                let at = x(e.at);
                let _ = writeln!(
                    out,
                    "<line class=\"disconnect\" data-node=\"{}\" data-at=\"{}\" x1=\"{at:.1}\" y1=\"{y:.1}\" \
                     x2=\"{at:.1}\" y2=\"{:.1}\"><title>heartbeat missed at {}</title></line>",
                    esc(node),
                    e.at,
                    y + LANE,
                    e.at
                );
            }
        }
        let n = bars.len().max(1) as f64;
        for (k, bar) in bars.values().enumerate() {
            let h = (LANE - 6.0) / n;
            let top = y + 3.0 + h * k as f64;
            let (end, status) = match bar.end {
                Some((t, s)) => (t, s),
                None => (start.add(span as i64), "running"),
            };
            let (x0, x1) = (x(bar.start), x(end).max(x(bar.start) + 2.0));
            let _ = writeln!(
                out,
                "<rect class=\"bar\" data-alloc=\"{}\" data-status=\"{status}\" data-start=\"{}\" data-end=\"{}\" \
                 x=\"{x0:.1}\" y=\"{top:.1}\" width=\"{:.1}\" height=\"{:.1}\"><title>{} {} {} to {}</title></rect>",
                esc(&bar.id),
                bar.start,
                if bar.end.is_some() {
                    end.to_string()
                } else {
                    String::new()
                },
                x1 - x0,
                h - 1.0,
                esc(&bar.name),
                esc(&bar.id),
                bar.start,
                if bar.end.is_some() {
                    end.to_string()
                } else {
                    "the end".to_string()
                }
            );
            for (from, to) in &bar.unknown {
                let to = to.unwrap_or(end);
                let (u0, u1) = (x(*from), x(to).max(x(*from) + 2.0));
                let _ = writeln!(
                    out,
                    "<rect class=\"unknown\" data-alloc=\"{}\" data-start=\"{from}\" x=\"{u0:.1}\" y=\"{top:.1}\" \
                     width=\"{:.1}\" height=\"{:.1}\"><title>unknown from {from}</title></rect>",
                    esc(&bar.id),
                    u1 - u0,
                    h - 1.0
                );
            }
        }
        alloc_marks(out, story, bars, y, &x);
        out.push_str("</g>\n");
    }
    deployment_marks(out, story, &lanes, height, &x);
    let expiries = story
        .timeline
        .iter()
        .flat_map(|e| &e.job.plan.followup_evals)
        .filter(|f| f.triggered_by == "max-disconnect-timeout");
    for f in expiries {
        let at = x(f.wait_until);
        let _ = writeln!(
            out,
            "<line class=\"expiry\" data-eval=\"{}\" data-at=\"{}\" x1=\"{at:.1}\" y1=\"{:.1}\" x2=\"{at:.1}\" \
             y2=\"{:.1}\"><title>disconnect expires at {}</title></line>",
            esc(&f.id),
            f.wait_until,
            TOP - 8.0,
            height - 30.0,
            f.wait_until
        );
    }
    out.push_str("</svg>\n");
}

/// The operator's requests the picture marks: those applied, those Nomad
/// CE took and did nothing of, and those Nomad refused; an event after
/// `--until` is not.
fn operator_events(story: &Story) -> impl Iterator<Item = &AppliedEvent> {
    story.what_if.iter().filter(|e| {
        (e.event.sets_health() || e.event.target() == TargetKind::Deployment)
            && matches!(
                e.ignored,
                None | Some(Ignored::Refused { .. } | Ignored::EnterpriseOnly)
            )
    })
}

/// The allocations a health request names, each with the health it sets.
fn health_sets(e: &AppliedEvent) -> Vec<(&str, &'static str)> {
    let single = if e.event == EventKind::AllocUnhealthy {
        "unhealthy"
    } else {
        "healthy"
    };
    e.alloc_id
        .iter()
        .map(|id| (id.as_str(), single))
        .chain(
            e.healthy_alloc_ids
                .iter()
                .map(|id| (id.as_str(), "healthy")),
        )
        .chain(
            e.unhealthy_alloc_ids
                .iter()
                .map(|id| (id.as_str(), "unhealthy")),
        )
        .collect()
}

/// A mark's class, `data-` attributes and tooltip: what the request asked,
/// and what came of it.
fn mark_head(e: &AppliedEvent, done: &str) -> (&'static str, String, String) {
    let (class, refused, outcome) = match &e.ignored {
        Some(Ignored::Refused { errors }) => {
            let errors = errors.join("; ");
            (
                "operator refused",
                format!(" data-refused=\"{}\"", esc(&errors)),
                format!("refused: {errors}"),
            )
        }
        Some(why) => ("operator", String::new(), operator::ignored(why)),
        None => ("operator", String::new(), done.to_string()),
    };
    let deployment = e.deployment_id.as_deref().map_or(String::new(), |d| {
        format!(" data-deployment=\"{}\"", esc(d))
    });
    let attrs = format!(
        "data-event=\"{}\"{deployment} data-at=\"{}\"{refused}",
        e.event, e.at
    );
    (class, attrs, format!("{} at {}: {outcome}", e.text, e.at))
}

/// In one lane, a health request's mark on the bar of each allocation it
/// names: a dot, which a bar of any thickness shows.
fn alloc_marks(
    out: &mut String,
    story: &Story,
    bars: &BTreeMap<String, Bar>,
    y: f64,
    x: &impl Fn(Time) -> f64,
) {
    let h = (LANE - 6.0) / bars.len().max(1) as f64;
    for e in operator_events(story).filter(|e| e.event.sets_health()) {
        for (alloc, health) in health_sets(e) {
            let Some(k) = bars.keys().position(|id| id == alloc) else {
                continue;
            };
            let (class, attrs, title) = mark_head(e, &format!("set {health}"));
            let (at, middle) = (x(e.at), y + 3.0 + h * k as f64 + (h - 1.0) / 2.0);
            let _ = writeln!(
                out,
                "<circle class=\"{class}\" {attrs} data-alloc=\"{}\" data-health=\"{health}\" \
                 cx=\"{at:.1}\" cy=\"{middle:.1}\" r=\"4.5\"><title>{}</title></circle>",
                esc(alloc),
                esc(&title)
            );
        }
    }
}

/// Across the lanes, a deployment request's mark, and a health request's
/// none of whose allocations has a bar.
fn deployment_marks(
    out: &mut String,
    story: &Story,
    lanes: &BTreeMap<String, BTreeMap<String, Bar>>,
    height: f64,
    x: &impl Fn(Time) -> f64,
) {
    let drawn = |alloc: &str| lanes.values().any(|bars| bars.contains_key(alloc));
    for e in operator_events(story) {
        let done = match operator::deployment_done(e.event) {
            Some(done) => done,
            None if health_sets(e).iter().any(|(a, _)| drawn(a)) => continue,
            None => "health set",
        };
        let (class, attrs, title) = mark_head(e, done);
        let at = x(e.at);
        let _ = writeln!(
            out,
            "<line class=\"{class}\" {attrs} x1=\"{at:.1}\" y1=\"{:.1}\" x2=\"{at:.1}\" \
             y2=\"{:.1}\"><title>{}</title></line>",
            TOP - 8.0,
            height - 30.0,
            esc(&title)
        );
    }
}

/// Text safe in HTML content and attribute values.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
