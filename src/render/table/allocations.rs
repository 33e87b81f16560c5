//! The Allocations table: each allocation with its bucket (or a system
//! job's diff set) and reason; without `--verbose`, only those that move.

use std::collections::{HashMap, HashSet};

use super::grid::{Col, Grid, Yield};
use super::renderer::Renderer;
use crate::model::Id;
use crate::reconciler::Bucket;
use crate::render::wrap::wrap;
use crate::report::{BucketEntry, GroupReport, JobReport, Plan};
use crate::time::Time;

impl Renderer {
    /// The allocations by bucket. Without `--verbose` only those the plan
    /// or their bucket moves get a row (a job of 30 with one lost allocation
    /// shows one), and one line counts the rest.
    pub(super) fn buckets(&self, out: &mut String, job: &JobReport) {
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
}

/// The Allocations table's columns.
pub(super) const ALLOCATIONS_COLUMNS: [Col; 9] = [
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
pub(super) fn allocations_grid(job_id: &str) -> Grid {
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
