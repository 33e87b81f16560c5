//! A job's header and its desired changes by task group, with the note
//! that says where Nomad's counts and the plan's lists differ.

use super::grid::{Col, Grid, Yield};
use super::renderer::Renderer;
use crate::render::wrap::wrap;
use crate::report::{GapCause, GroupChanges, JobReport, PlanList};

impl Renderer {
    pub(super) fn job(&self, job: &JobReport, source: &str) -> String {
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

    pub(super) fn desired_changes(&self, out: &mut String, job: &JobReport) {
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
