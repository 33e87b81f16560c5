//! Tables for people (warnings apart, for stderr): per job a header, the DesiredChanges by task group,
//! the buckets, and the plan. Empty sections are left out, and so are jobs
//! whose plan is a no-op with no failed placement
//! ([`crate::report::Plan::is_settled`], the definition
//! `--detailed-exitcode` uses) unless `--verbose`: at 3 a.m. only what moves
//! matters. For the same reason a job's untouched allocations are one count
//! line, and tables give way to the width (`fit.rs`) rather than overflow.
//!
//! Times are shown relative to the evaluation time ("in 4m30s", "12m ago"),
//! also inside bucket reasons, which are made from their typed facts; the
//! JSON keeps those reasons exact.

pub(super) mod failures;
mod fit;
mod grid;
mod relative;
mod story;

pub use story::story;

use std::collections::{HashMap, HashSet};

use owo_colors::OwoColorize;

use super::wrap::wrap;
use crate::model::{ClientStatus, Id, deployment_status};
use crate::reconciler::Bucket;
use crate::report::{
    BucketEntry, GapCause, GroupChanges, GroupReport, JobReport, NowSource, Plan, PlanList, Report,
};
use crate::time::Time;
use crate::warning::Warning;
use grid::{Col, Grid, Yield};

/// The width tables and text are laid out for when the caller knows no
/// better (output that is not a terminal, such as a pipe into `less`): the
/// narrowest terminal in common use.
pub const DEFAULT_WIDTH: u16 = 80;

/// How to render.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub color: bool,
    /// Full IDs, exact times, every job, allocation and DesiredChanges
    /// column; rows never wrap.
    pub verbose: bool,
    /// The line width to lay out for, in terminal columns (`--verbose`
    /// tables ignore it).
    pub width: u16,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            color: false,
            verbose: false,
            width: DEFAULT_WIDTH,
        }
    }
}

/// The whole report as tables.
pub fn render(report: &Report, style: Style) -> String {
    let r = Renderer {
        style,
        now: report.now,
        eval: report
            .eval_priority
            .map(|priority| (report.eval_id.clone(), priority, "--eval".to_string())),
    };
    let width = usize::from(style.width);
    let mut out = String::new();
    out.push_str(&wrap(
        &format!("{}.", report.nomad_version.describe()),
        width,
    ));
    out.push('\n');
    let source = match report.now_source {
        NowSource::Flag => "--now",
        NowSource::Snapshot => "snapshot Now",
        NowSource::SnapshotMeta => "snapshot meta",
        NowSource::Clock => "clock",
    };
    let shown: Vec<&JobReport> = report
        .jobs
        .iter()
        .filter(|j| style.verbose || !j.plan.is_settled())
        .collect();
    if shown.is_empty() {
        let n = report.jobs.len();
        let line = format!(
            "Nothing to do: {n} {} evaluated at {} ({source}); no allocation changes.",
            jobs(n),
            report.now
        );
        out.push_str(&wrap(&line, width));
        return out;
    }
    for (i, job) in shown.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&r.job(job, source));
    }
    let quiet = report.jobs.len() - shown.len();
    if quiet > 0 {
        out.push('\n');
        out.push_str(&wrap(
            &format!(
                "Nothing to do for {quiet} more {} (--verbose shows them).",
                jobs(quiet)
            ),
            width,
        ));
    }
    out
}

/// The warnings for stderr, one paragraph each wrapped to `width`:
/// `warning: <message> (<code>)`. Kept out of the tables so that stdout is
/// the answer alone.
pub fn warnings(warnings: &[Warning], color: bool, width: u16) -> String {
    let mut out = String::new();
    for w in warnings {
        let text = wrap(
            &format!("warning: {} ({})", w.message, w.code),
            usize::from(width),
        );
        let text = text.trim_end();
        if color {
            out.push_str(&text.yellow().to_string());
        } else {
            out.push_str(text);
        }
        out.push('\n');
    }
    out
}

fn jobs(n: usize) -> &'static str {
    if n == 1 { "job" } else { "jobs" }
}

struct Renderer {
    style: Style,
    now: Time,
    /// The evaluation replayed, its priority, and what made it (`--eval`,
    /// or a trigger in a timeline).
    eval: Option<(String, i64, String)>,
}

impl Renderer {
    fn id<'s>(&self, id: &'s str) -> &'s str {
        if self.style.verbose || id.len() <= 8 {
            id
        } else {
            id.get(..8).unwrap_or(id)
        }
    }

    /// [`Renderer::id`] of an allocation ID.
    fn alloc_id(&self, id: &Id) -> String {
        id.with_str(|id| self.id(id).to_string())
    }

    /// A time relative to the evaluation; exact with `--verbose`.
    fn time(&self, t: Time) -> String {
        if self.style.verbose {
            t.to_string()
        } else {
            relative::time(t, self.now)
        }
    }

    fn bold(&self, s: &str) -> String {
        if self.style.color {
            s.bold().to_string()
        } else {
            s.to_string()
        }
    }

    fn paint_bucket(&self, b: Bucket) -> String {
        let s = b.as_str();
        if !self.style.color {
            return s.to_string();
        }
        match b {
            Bucket::Lost | Bucket::Expiring => s.red().to_string(),
            Bucket::Disconnecting => s.yellow().to_string(),
            Bucket::Reconnecting => s.cyan().to_string(),
            Bucket::Migrate => s.magenta().to_string(),
            Bucket::Ignore => s.dimmed().to_string(),
            Bucket::Untainted => s.to_string(),
        }
    }

    fn section(&self, out: &mut String, title: &str, grid: &Grid) {
        let table = fit::layout(
            grid,
            (!self.style.verbose).then_some(usize::from(self.style.width)),
            &|h| self.bold(h),
        );
        let title = self.bold(wrap(title, usize::from(self.style.width)).trim_end());
        out.push_str(&format!("\n{title}\n{table}\n"));
    }

    fn job(&self, job: &JobReport, source: &str) -> String {
        // A purged job has no spec, so no type; a dump older than
        // namespaces has none either.
        let status = if job.purged {
            Some("purged")
        } else {
            job.stopped.then_some("stopped")
        };
        let state = [Some(job.job_type.as_str()), status]
            .into_iter()
            .flatten()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(", ");
        let name = if job.namespace.is_empty() {
            job.id.clone()
        } else {
            format!("{}/{}", job.namespace, job.id)
        };
        let width = usize::from(self.style.width);
        let mut header = wrap(
            &format!(
                "{name}  {state}{}version {}  evaluated at {} ({source})",
                if state.is_empty() { "" } else { "  " },
                job.version,
                self.now
            ),
            width,
        );
        // A name broken over lines is left plain.
        if let Some(rest) = header.strip_prefix(name.as_str())
            && rest.starts_with([' ', '\n'])
        {
            header = format!("{}{rest}", self.bold(&name));
        }
        if let Some((id, priority, made_by)) = &self.eval {
            header.push_str(&wrap(
                &format!("eval {} ({made_by}), priority {priority}", self.id(id)),
                width,
            ));
        }
        let mut out = header;
        self.desired_changes(&mut out, job);
        self.buckets(&mut out, job);
        self.plan(&mut out, job);
        out
    }

    fn desired_changes(&self, out: &mut String, job: &JobReport) {
        type Column = (&'static str, fn(&GroupChanges) -> u64);
        let optional: [Column; 7] = [
            ("Migrate", |c| c.migrate),
            ("Canary", |c| c.canary),
            ("Preemptions", |c| c.preemptions),
            ("Disconnect", |c| c.disconnect),
            ("Reconnect", |c| c.reconnect),
            ("Reschedule Now", |c| c.reschedule_now),
            ("Reschedule Later", |c| c.reschedule_later),
        ];
        let shown: Vec<&Column> = optional
            .iter()
            .filter(|(_, f)| {
                self.style.verbose || job.groups.iter().any(|g| f(&g.desired_changes) > 0)
            })
            .collect();
        let mut header = vec![
            "Task Group",
            "Ignore",
            "Place",
            "Stop",
            "InPlace",
            "Destructive",
        ];
        header.extend(shown.iter().map(|(h, _)| *h));
        let columns: Vec<Col> = header.iter().map(|h| Col::whole(h)).collect();
        let mut t = Grid::new(&columns);
        for g in &job.groups {
            let c = &g.desired_changes;
            let mut name = g.name.clone();
            if g.removed {
                name.push_str(" (removed)");
            }
            let mut row = vec![
                name,
                c.ignore.to_string(),
                c.place.to_string(),
                c.stop.to_string(),
                c.in_place_update.to_string(),
                c.destructive_update.to_string(),
            ];
            row.extend(shown.iter().map(|(_, f)| f(c).to_string()));
            t.row(row);
        }
        // Counts that are zero in every group go first, the last first;
        // then long headers shorten.
        for (rank, i) in (1..header.len()).rev().enumerate() {
            if t.rows.iter().all(|r| r[i] == "0") {
                t.give_way(
                    u8::try_from(rank).unwrap_or(u8::MAX),
                    header[i],
                    Yield::Drop,
                );
            }
        }
        for (h, short) in [
            ("Destructive", "Destruct"),
            ("Preemptions", "Preempt"),
            ("Disconnect", "Discon"),
            ("Reconnect", "Recon"),
            ("Reschedule Now", "Resched Now"),
            ("Reschedule Later", "Resched Later"),
        ] {
            t.short_header(h, short)
                .give_way(u8::MAX, h, Yield::Abbreviate);
        }
        self.section(out, "Desired changes", &t);
        if let Some(note) = count_note(job) {
            out.push_str(&wrap(&note, usize::from(self.style.width)));
        }
    }

    /// The allocations by bucket. Without `--verbose` only those the plan
    /// or their bucket moves get a row (a job of 30 with one lost allocation
    /// shows one), and one line counts the rest.
    fn buckets(&self, out: &mut String, job: &JobReport) {
        let mut t = allocations_grid(&job.id);
        let touched = Touched::of(&job.plan);
        let shown = |moved: bool, id: &Id| self.style.verbose || moved || touched.0.contains(id);
        let mut rows = 0;
        let mut untouched = 0;
        for g in &job.groups {
            let rescheduling = Rescheduling::of(g);
            for (bucket, e) in all_entries(g) {
                let moved = !matches!(bucket, Bucket::Untainted | Bucket::Ignore)
                    || rescheduling.now.contains(&e.id)
                    || rescheduling.later.contains_key(&e.id);
                if !shown(moved, &e.id) {
                    untouched += 1;
                    continue;
                }
                rows += 1;
                let mut row = self.allocation(e);
                row.extend([self.paint_bucket(bucket), self.reason(&rescheduling, e)]);
                t.row(row);
            }
            for (set, e) in system_entries(g) {
                if !shown(set != "ignore", &e.id) {
                    untouched += 1;
                    continue;
                }
                rows += 1;
                let mut row = self.allocation(e);
                row.extend([set.to_string(), e.reason().into_owned()]);
                t.row(row);
            }
            for f in g.system_diff.iter().flat_map(|d| &d.filtered_nodes) {
                rows += 1;
                t.row(vec![
                    String::new(),
                    f.name.clone(),
                    String::new(),
                    String::new(),
                    self.id(&f.node_id).to_string(),
                    String::new(),
                    String::new(),
                    "filtered".to_string(),
                    f.reason.clone(),
                ]);
            }
            for s in &g.set_aside {
                if !shown(false, &s.id) {
                    untouched += 1;
                    continue;
                }
                rows += 1;
                t.row(vec![
                    self.alloc_id(&s.id),
                    s.name.clone(),
                    s.job_version.to_string(),
                    canary_mark(s.canary).to_string(),
                    String::new(),
                    String::new(),
                    String::new(),
                    "set aside".to_string(),
                    s.reason.clone(),
                ]);
            }
        }
        if rows > 0 {
            self.section(out, "Allocations", &t);
        }
        if untouched > 0 {
            let what = if untouched == 1 {
                "allocation"
            } else {
                "allocations"
            };
            let line = format!("{untouched} {what} untouched (--verbose shows them).");
            if rows == 0 {
                out.push_str(&format!("\n{}\n", self.bold("Allocations")));
            }
            out.push_str(&wrap(&line, usize::from(self.style.width)));
        }
    }

    /// The cells of an allocation row before its bucket and reason.
    fn allocation(&self, e: &BucketEntry) -> Vec<String> {
        vec![
            self.alloc_id(&e.id),
            e.name.to_string(),
            e.job_version.to_string(),
            canary_mark(e.canary).to_string(),
            self.id(&e.node_id).to_string(),
            e.node_status.as_deref().unwrap_or("gc'd").to_string(),
            e.client_status.to_string(),
        ]
    }

    /// The bucket reason, with what the reschedule filters decided and why
    /// a lost allocation is not replaced.
    fn reason(&self, rescheduling: &Rescheduling<'_>, e: &BucketEntry) -> String {
        let mut reason = e.reason_with(|t| self.time(t)).into_owned();
        if let Some(why) = e.unreplaced {
            reason.push_str("; ");
            reason.push_str(&why.describe());
        }
        if rescheduling.now.contains(&e.id) {
            reason.push_str("; reschedule now");
        } else if let Some(&at) = rescheduling.later.get(&e.id) {
            let word = if self.style.verbose { "at " } else { "" };
            reason.push_str(&format!("; reschedule {word}{}", self.time(at)));
        }
        reason
    }

    fn plan(&self, out: &mut String, job: &JobReport) {
        let p = &job.plan;
        if !p.stop.is_empty() {
            let mut t = Grid::of_job(
                &[
                    Col::whole("Alloc"),
                    Col::whole("Name"),
                    Col::whole("Client Status"),
                    Col::prose("Description"),
                    Col::whole("Follow-up Eval"),
                ],
                &job.id,
            );
            t.give_way(2, "Client Status", Yield::Drop)
                .give_way(3, "Follow-up Eval", Yield::Drop);
            for s in &p.stop {
                t.row(vec![
                    self.alloc_id(&s.alloc_id),
                    s.name.clone(),
                    s.client_status
                        .as_ref()
                        .map_or("", ClientStatus::as_str)
                        .to_string(),
                    s.description.to_string(),
                    s.followup_eval_id
                        .as_deref()
                        .map(|i| self.id(i).to_string())
                        .unwrap_or_default(),
                ]);
            }
            self.section(out, "Stop", &t);
        }
        if !p.place.is_empty() {
            let on_nodes = p.place.iter().any(|pl| pl.node_id.is_some());
            let mut header = vec![Col::whole("Name"), Col::whole("Task Group")];
            if on_nodes {
                header.push(Col::whole("Node"));
            }
            header.extend([Col::whole("Previous Alloc"), Col::whole("Flags")]);
            let mut t = Grid::of_job(&header, &job.id);
            t.give_way(2, "Task Group", Yield::Drop);
            for pl in &p.place {
                let flags: Vec<&str> = [
                    (pl.canary, "canary"),
                    (pl.reschedule, "reschedule"),
                    (pl.lost, "lost"),
                    (pl.downgrade_non_canary, "downgrade"),
                ]
                .iter()
                .filter(|(on, _)| *on)
                .map(|(_, f)| *f)
                .collect();
                let mut row = vec![pl.name.clone(), pl.task_group.to_string()];
                if on_nodes {
                    row.push(
                        pl.node_id
                            .as_deref()
                            .map_or("(failed)".to_string(), |n| self.id(n).to_string()),
                    );
                }
                row.extend([
                    pl.previous_alloc_id
                        .as_ref()
                        .map(|i| self.alloc_id(i))
                        .unwrap_or_default(),
                    flags.join(", "),
                ]);
                t.row(row);
            }
            self.section(out, "Place", &t);
        }
        let failed = failures::lines(&job.job_type, &p.failed_placements);
        if !failed.is_empty() {
            out.push('\n');
            let width = usize::from(self.style.width);
            for line in failed {
                let body = line.trim_start();
                let indent = &line[..line.len() - body.len()];
                let wrapped = wrap(body, width.saturating_sub(indent.len()).max(20));
                for part in wrapped.lines() {
                    out.push_str(&format!("{indent}{part}\n"));
                }
            }
        }
        if !p.preemptions.is_empty() {
            let mut t = Grid::of_job(
                &[
                    Col::whole("Alloc"),
                    Col::whole("Name"),
                    Col::whole("Job"),
                    Col::whole("Priority"),
                    Col::whole("Node"),
                    Col::whole("Preempted By"),
                ],
                &job.id,
            );
            for e in &p.preemptions {
                t.row(vec![
                    self.alloc_id(&e.alloc_id),
                    e.name.clone(),
                    format!("{}/{}", e.namespace, e.job_id),
                    e.job_priority.to_string(),
                    self.id(&e.node_id).to_string(),
                    e.preempted_by.clone(),
                ]);
            }
            self.section(out, "Preemptions", &t);
        }
        if !p.destructive_update.is_empty() {
            let mut t = Grid::of_job(
                &[
                    Col::whole("Alloc"),
                    Col::whole("Name"),
                    Col::prose("Reason"),
                ],
                &job.id,
            );
            for d in &p.destructive_update {
                t.row(vec![
                    self.alloc_id(&d.alloc_id),
                    d.name.clone(),
                    d.reason.clone(),
                ]);
            }
            self.section(out, "Destructive updates", &t);
        }
        if !p.in_place_update.is_empty() {
            let mut t = Grid::of_job(
                &[
                    Col::whole("Alloc"),
                    Col::whole("Name"),
                    Col::whole("Deployment"),
                ],
                &job.id,
            );
            for u in &p.in_place_update {
                t.row(vec![
                    self.alloc_id(&u.alloc_id),
                    u.name.clone(),
                    u.deployment_id
                        .as_deref()
                        .map(|i| self.id(i).to_string())
                        .unwrap_or_default(),
                ]);
            }
            self.section(out, "In-place updates", &t);
        }
        for (title, updates, what) in [
            (
                "Disconnect updates",
                &p.disconnect_updates,
                "client status -> unknown",
            ),
            (
                "Attribute updates",
                &p.attribute_updates,
                "follow-up eval set",
            ),
        ] {
            if updates.is_empty() {
                continue;
            }
            let mut t = Grid::new(&[
                Col::whole("Alloc"),
                Col::whole("Update"),
                Col::whole("Follow-up Eval"),
            ]);
            for u in updates {
                t.row(vec![
                    self.alloc_id(&u.alloc_id),
                    what.to_string(),
                    self.id(&u.followup_eval_id).to_string(),
                ]);
            }
            self.section(out, title, &t);
        }
        if !p.reconnect_updates.is_empty() {
            let mut t = Grid::new(&[Col::whole("Alloc"), Col::whole("Update")]);
            for u in &p.reconnect_updates {
                t.row(vec![
                    self.alloc_id(&u.alloc_id),
                    "resume on reconnected client".to_string(),
                ]);
            }
            self.section(out, "Reconnect updates", &t);
        }
        if !p.followup_evals.is_empty() {
            let mut t = Grid::new(&[
                Col::whole("Eval"),
                Col::whole("Triggered By"),
                Col::whole("Wait Until"),
                Col::whole("Task Group"),
                Col::prose("Allocs"),
            ]);
            t.give_way(1, "Task Group", Yield::Drop)
                .give_way(2, "Triggered By", Yield::Drop);
            for e in &p.followup_evals {
                let allocs: Vec<String> = e.alloc_ids.iter().map(|a| self.alloc_id(a)).collect();
                t.row(vec![
                    self.id(&e.id).to_string(),
                    e.triggered_by.clone(),
                    self.time(e.wait_until),
                    e.task_group.clone(),
                    allocs.join(" "),
                ]);
            }
            self.section(out, "Follow-up evaluations", &t);
        }
        if let Some(d) = &p.deployment {
            let mut t = Grid::new(&[
                Col::whole("Task Group"),
                Col::whole("Desired Total"),
                Col::whole("Desired Canaries"),
                Col::whole("Auto Promote"),
                Col::whole("Auto Revert"),
            ]);
            for (name, g) in &d.groups {
                t.row(vec![
                    name.clone(),
                    g.desired_total.to_string(),
                    g.desired_canaries.to_string(),
                    g.auto_promote.to_string(),
                    g.auto_revert.to_string(),
                ]);
            }
            // A created deployment starts running or pending; an
            // initializing one is the current deployment, sent in full.
            let kind = if d.status == deployment_status::INITIALIZING {
                "Deployment"
            } else {
                "New deployment"
            };
            let title = format!(
                "{kind} {} ({}: {})",
                self.id(&d.id),
                d.status,
                d.status_description
            );
            self.section(out, &title, &t);
        }
        if !p.deployment_updates.is_empty() {
            let mut t = Grid::new(&[
                Col::whole("Deployment"),
                Col::whole("Status"),
                Col::prose("Description"),
            ]);
            for u in &p.deployment_updates {
                t.row(vec![
                    self.id(&u.deployment_id).to_string(),
                    u.status.clone(),
                    u.status_description.clone(),
                ]);
            }
            self.section(out, "Deployment updates", &t);
        }
    }
}

/// The line under the desired-changes table when its counts do not add up
/// to the lists below it ([`JobReport::count_gaps`]): Nomad's counts are
/// shown as Nomad has them, so the reader is told which differ and why.
fn count_note(job: &JobReport) -> Option<String> {
    let gaps = job.count_gaps();
    if gaps.is_empty() {
        return None;
    }
    let parts: Vec<String> = gaps
        .iter()
        .map(|g| {
            let (one, many, column) = match g.list {
                PlanList::Stop => ("stop", "stops", "Stop"),
                PlanList::Place => ("placement", "placements", "Place"),
                PlanList::DestructiveUpdate => {
                    ("destructive update", "destructive updates", "Destructive")
                }
                PlanList::InPlaceUpdate => ("in-place update", "in-place updates", "InPlace"),
            };
            let mut columns = vec![column];
            if g.with_canary {
                columns.push("Canary");
            }
            if g.with_migrate {
                columns.push("Migrate");
            }
            let (columns, verb) = match columns.split_last() {
                Some((last, rest)) if !rest.is_empty() => {
                    (format!("{} and {last}", rest.join(", ")), "count")
                }
                _ => (column.to_string(), "counts"),
            };
            let what = if g.listed == 1 { one } else { many };
            format!("{} {what} listed, {columns} {verb} {}", g.listed, g.counted)
        })
        .collect();
    let why = match job.gap_cause() {
        GapCause::SystemJob => {
            "Nomad counts a system job's changes before its evictions and rolling limit, \
             and leaves lost allocations out"
        }
        GapCause::StoppedJob => {
            "stopping a job, this Nomad release counts its unknown allocations as stops \
             without stopping them"
        }
        GapCause::Other => "Nomad counts these apart from its plan here",
    };
    Some(format!(
        "Note: {}. {}{} (docs/nomad-behaviour.md).",
        parts.join("; "),
        why[..1].to_uppercase(),
        &why[1..]
    ))
}

/// The Allocations table's columns.
const ALLOCATIONS_COLUMNS: [Col; 9] = [
    Col::whole("Alloc"),
    Col::whole("Name"),
    Col::whole("Version"),
    Col::whole("Canary"),
    Col::whole("Node"),
    Col::whole("Node Status"),
    Col::whole("Client"),
    Col::whole("Bucket"),
    Col::prose("Reason"),
];

/// The Allocations table of job `job_id`, empty. Reason and bucket say most;
/// what the reason repeats or a person looks up later gives way first.
fn allocations_grid(job_id: &str) -> Grid {
    let mut t = Grid::of_job(&ALLOCATIONS_COLUMNS, job_id);
    t.give_way(2, "Version", Yield::Drop)
        .give_way(3, "Node Status", Yield::Drop)
        .give_way(4, "Canary", Yield::Drop)
        .give_way(5, "Client", Yield::Drop)
        .give_way(6, "Node", Yield::Drop);
    t
}

/// The Canary column: "yes", or empty so that the column shows only when
/// some allocation is a canary.
fn canary_mark(canary: bool) -> &'static str {
    if canary { "yes" } else { "" }
}

/// A group's reschedule decisions by allocation ID, looked up once per row:
/// half of a large group may be failed, so a scan per row would be quadratic.
struct Rescheduling<'g> {
    now: HashSet<&'g Id>,
    later: HashMap<&'g Id, Time>,
}

impl<'g> Rescheduling<'g> {
    fn of(g: &'g GroupReport) -> Self {
        Rescheduling {
            now: g.reschedule_now.iter().collect(),
            later: g.reschedule_later.iter().map(|l| (&l.id, l.at)).collect(),
        }
    }
}

/// The allocations the plan changes: stopped, replaced, updated, marked
/// unknown or given a follow-up evaluation, or resumed. Collected once per
/// job so that a row's lookup does not scan the plan.
struct Touched<'p>(HashSet<&'p Id>);

impl<'p> Touched<'p> {
    fn of(p: &'p Plan) -> Self {
        let ids = p.stop.iter().map(|s| &s.alloc_id);
        let ids = ids.chain(
            p.place
                .iter()
                .filter_map(|pl| pl.previous_alloc_id.as_ref()),
        );
        let ids = ids.chain(p.destructive_update.iter().map(|d| &d.alloc_id));
        let ids = ids.chain(p.in_place_update.iter().map(|u| &u.alloc_id));
        let ids = ids.chain(p.disconnect_updates.iter().map(|u| &u.alloc_id));
        let ids = ids.chain(p.attribute_updates.iter().map(|u| &u.alloc_id));
        let ids = ids.chain(p.reconnect_updates.iter().map(|u| &u.alloc_id));
        Touched(ids.collect())
    }
}

/// A system job's allocations by the set of the system scheduler's diff.
fn system_entries(g: &GroupReport) -> impl Iterator<Item = (&'static str, &BucketEntry)> {
    g.system_diff.iter().flat_map(|d| {
        d.sets()
            .into_iter()
            .flat_map(|(set, entries)| entries.iter().map(move |e| (set, e)))
    })
}

/// Every bucket entry of a group with its bucket, bucket by bucket.
fn all_entries(g: &GroupReport) -> impl Iterator<Item = (Bucket, &BucketEntry)> {
    g.buckets
        .iter()
        .flat_map(|(bucket, entries)| entries.iter().map(move |e| (bucket, e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn renderer(verbose: bool) -> Renderer {
        Renderer {
            style: Style {
                verbose,
                ..Style::default()
            },
            now: Time::parse_rfc3339("2022-04-01T12:00:00Z").unwrap(),
            eval: None,
        }
    }

    #[test]
    fn verbose_shows_times_exact() {
        let t = Time::parse_rfc3339("2022-04-01T12:04:30Z").unwrap();
        assert_eq!(renderer(true).time(t), "2022-04-01T12:04:30Z");
        assert_eq!(renderer(false).time(t), "in 4m30s");
    }
}

#[cfg(test)]
mod snapshots;
