//! A job plan as `nomad job plan` prints it (command/job_plan.go): the
//! annotated diff with `+`, `-` and `+/-` markers aligned as Nomad aligns
//! them, the scheduler dry-run, the warnings and the `-check-index` line.
//! Colors follow Nomad's; without color the text is Nomad's with its color
//! codes dropped.

use owo_colors::OwoColorize;

use super::table::failures;
use crate::job_plan::{DiffType, FieldDiff, JobDiff, JobPlan, ObjectDiff, TaskDiff, TaskGroupDiff};
use crate::model::go_quote;
use crate::report::JobReport;

/// The colors Nomad's plan output uses.
#[derive(Clone, Copy)]
enum Paint {
    Green,
    Red,
    Yellow,
    LightYellow,
    Cyan,
    Blue,
    Bold,
}

struct Out {
    color: bool,
    verbose: bool,
}

impl Out {
    fn paint(&self, s: &str, p: Paint) -> String {
        if !self.color {
            return s.to_string();
        }
        match p {
            Paint::Green => s.green().to_string(),
            Paint::Red => s.red().to_string(),
            Paint::Yellow => s.yellow().to_string(),
            Paint::LightYellow => s.bright_yellow().to_string(),
            Paint::Cyan => s.cyan().to_string(),
            Paint::Blue => s.blue().to_string(),
            Paint::Bold => s.bold().to_string(),
        }
    }

    /// `getDiffString`: the marker and its width without color.
    fn marker(&self, kind: DiffType) -> (String, usize) {
        match kind {
            DiffType::Added => (format!("{} ", self.paint("+", Paint::Green)), 2),
            DiffType::Deleted => (format!("{} ", self.paint("-", Paint::Red)), 2),
            DiffType::Edited => (format!("{} ", self.paint("+/-", Paint::LightYellow)), 4),
            DiffType::None => (String::new(), 0),
        }
    }

    fn annotations(&self, list: &[String]) -> String {
        list.iter()
            .map(|a| match a.as_str() {
                "forces create" => self.paint(a, Paint::Green),
                "forces destroy" => self.paint(a, Paint::Red),
                "forces in-place update" => self.paint(a, Paint::Cyan),
                "forces create/destroy update" => self.paint(a, Paint::Yellow),
                _ => a.clone(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `formatJobDiff`.
    fn job(&self, job: &JobDiff) -> String {
        let (marker, _) = self.marker(job.kind);
        let mut out = format!(
            "{marker}{}\n",
            self.paint(&format!("Job: {:?}", job.id), Paint::Bold)
        );
        let (longest_field, mut longest_marker) = longest(&job.fields, &job.objects);
        for g in &job.task_groups {
            longest_marker = longest_marker.max(self.marker(g.kind).1);
        }
        if job.kind == DiffType::Edited || self.verbose {
            let fo = self.aligned(&job.fields, &job.objects, 0, longest_field, longest_marker);
            if !fo.is_empty() {
                out.push_str(&fo);
                out.push('\n');
            }
        }
        for g in &job.task_groups {
            let prefix = longest_marker - self.marker(g.kind).1;
            out.push_str(&self.group(g, prefix));
            out.push('\n');
        }
        out
    }

    /// `formatTaskGroupDiff`.
    fn group(&self, g: &TaskGroupDiff, prefix: usize) -> String {
        let (marker, _) = self.marker(g.kind);
        let title = self.paint(&format!("Task Group: {:?}", g.name), Paint::Bold);
        let mut out = format!("{marker}{}{title}", " ".repeat(prefix));
        if g.updates.is_empty() {
            out.push('\n');
        } else {
            let updates: Vec<String> = g
                .updates
                .iter()
                .map(|(kind, n)| {
                    let text = format!("{n} {kind}");
                    match kind.as_str() {
                        "create" => self.paint(&text, Paint::Green),
                        "destroy" => self.paint(&text, Paint::Red),
                        "migrate" => self.paint(&text, Paint::Blue),
                        "in-place update" => self.paint(&text, Paint::Cyan),
                        "create/destroy update" => self.paint(&text, Paint::Yellow),
                        "canary" => self.paint(&text, Paint::LightYellow),
                        _ => text,
                    }
                })
                .collect();
            out.push_str(&format!(" ({})\n", updates.join(", ")));
        }
        let (longest_field, mut longest_marker) = longest(&g.fields, &g.objects);
        for t in &g.tasks {
            longest_marker = longest_marker.max(self.marker(t.kind).1);
        }
        let sub = prefix + 2;
        if g.kind == DiffType::Edited || self.verbose {
            let fo = self.aligned(&g.fields, &g.objects, sub, longest_field, longest_marker);
            if !fo.is_empty() {
                out.push_str(&fo);
                out.push('\n');
            }
        }
        for t in &g.tasks {
            let task_prefix = longest_marker - self.marker(t.kind).1;
            out.push_str(&self.task(t, sub, task_prefix));
            out.push('\n');
        }
        out
    }

    /// `formatTaskDiff`.
    fn task(&self, t: &TaskDiff, start: usize, prefix: usize) -> String {
        let (marker, _) = self.marker(t.kind);
        let title = self.paint(&format!("Task: {:?}", t.name), Paint::Bold);
        let mut out = format!("{}{marker}{}{title}", " ".repeat(start), " ".repeat(prefix));
        if !t.annotations.is_empty() {
            out.push_str(&format!(" ({})", self.annotations(&t.annotations)));
        }
        let whole = matches!(t.kind, DiffType::Added | DiffType::Deleted);
        if t.kind == DiffType::None || whole && !self.verbose {
            return out;
        }
        out.push('\n');
        let (longest_field, longest_marker) = longest(&t.fields, &t.objects);
        out.push_str(&self.aligned(
            &t.fields,
            &t.objects,
            start + 2,
            longest_field,
            longest_marker,
        ));
        out
    }

    /// `alignedFieldAndObjects`.
    fn aligned(
        &self,
        fields: &[FieldDiff],
        objects: &[ObjectDiff],
        start: usize,
        longest_field: usize,
        longest_marker: usize,
    ) -> String {
        let mut lines: Vec<String> = fields
            .iter()
            .map(|f| {
                let key_prefix = longest_marker - self.marker(f.kind).1;
                let value_prefix = longest_field - f.name.len();
                self.field(f, start, key_prefix, value_prefix)
            })
            .collect();
        lines.extend(objects.iter().map(|o| {
            let key_prefix = longest_marker - self.marker(o.kind).1;
            self.object(o, start, key_prefix)
        }));
        lines.join("\n")
    }

    /// `formatFieldDiff`: values quoted as Go's `%q` quotes them.
    fn field(&self, f: &FieldDiff, start: usize, key_prefix: usize, value_prefix: usize) -> String {
        let (marker, _) = self.marker(f.kind);
        let value = match f.kind {
            DiffType::Added => go_quote(&f.new),
            DiffType::Deleted => go_quote(&f.old),
            DiffType::Edited => format!("{} => {}", go_quote(&f.old), go_quote(&f.new)),
            DiffType::None => go_quote(&f.new),
        };
        let mut out = format!(
            "{}{marker}{}{}: {}{value}",
            " ".repeat(start),
            " ".repeat(key_prefix),
            f.name,
            " ".repeat(value_prefix)
        );
        if !f.annotations.is_empty() {
            out.push_str(&format!(" ({})", self.annotations(&f.annotations)));
        }
        out
    }

    /// `formatObjectDiff`.
    fn object(&self, o: &ObjectDiff, start: usize, key_prefix: usize) -> String {
        let (marker, marker_len) = self.marker(o.kind);
        let mut out = format!(
            "{}{marker}{}{} {{\n",
            " ".repeat(start),
            " ".repeat(key_prefix),
            o.name
        );
        let (longest_field, longest_marker) = longest(&o.fields, &o.objects);
        out.push_str(&self.aligned(
            &o.fields,
            &o.objects,
            start + key_prefix + 2,
            longest_field,
            longest_marker,
        ));
        format!("{out}\n{}}}", " ".repeat(start + marker_len + key_prefix))
    }
}

/// `getLongestPrefixes`.
fn longest(fields: &[FieldDiff], objects: &[ObjectDiff]) -> (usize, usize) {
    let width = |k: DiffType| match k {
        DiffType::Added | DiffType::Deleted => 2,
        DiffType::Edited => 4,
        DiffType::None => 0,
    };
    let field = fields.iter().map(|f| f.name.len()).max().unwrap_or(0);
    let marker = fields
        .iter()
        .map(|f| width(f.kind))
        .chain(objects.iter().map(|o| width(o.kind)))
        .max()
        .unwrap_or(0);
    (field, marker)
}

/// The plan as `nomad job plan` prints it; `job_file` is named in the
/// `-check-index` command. `job` is the planned job's replay, whose failed
/// placements make the dry-run's warning (`formatDryRun`,
/// `command/job_plan.go` at 1.10.5).
pub fn text(
    plan: &JobPlan,
    job: Option<&JobReport>,
    color: bool,
    verbose: bool,
    job_file: &str,
) -> String {
    let o = Out { color, verbose };
    let mut out = format!("{}\n\n", o.job(&plan.diff).trim());
    out.push_str(&o.paint("Scheduler dry-run:", Paint::Bold));
    out.push('\n');
    let failed = job.map_or_else(Vec::new, |j| {
        failures::lines(&j.job_type, &j.plan.failed_placements)
    });
    match failed.split_first() {
        None => out.push_str(&o.paint("- All tasks successfully allocated.", Paint::Green)),
        Some((warning, groups)) => {
            out.push_str(&o.paint(&format!("- {warning}"), Paint::Yellow));
            for line in groups {
                out.push('\n');
                out.push_str(&o.paint(line, Paint::Yellow));
            }
        }
    }
    if let (Some(at), Some(wait)) = (&plan.next_periodic_launch, plan.next_periodic_wait) {
        let line = format!(
            "- If submitted now, next periodic launch would be at {at} ({} from now).",
            crate::time::format_duration(wait)
        );
        out.push('\n');
        out.push_str(&o.paint(&line, Paint::Green));
    }
    out.push_str("\n\n");
    if !plan.warnings.is_empty() {
        let warnings = format!(
            "Job Warnings:\n{}",
            crate::job_plan::merged_warnings(&plan.warnings)
        );
        out.push_str(&o.paint(&warnings, Paint::Yellow));
        out.push_str("\n\n");
    }
    out.push_str(&o.paint(
        &format!("Job Modify Index: {}", plan.job_modify_index),
        Paint::Bold,
    ));
    out.push_str(&format!(
        "\nTo submit the job with version verification run:\n\n\
         nomad job run -check-index {} {job_file}\n\n\
         When running the job with the check-index flag, the job will only be run if the\n\
         job modify index given matches the server-side version. If the index has\n\
         changed, another user has modified the job and the plan's results are\n\
         potentially invalid.\n",
        plan.job_modify_index
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_quoted_as_go_quotes_them() {
        assert_eq!(go_quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
    }
}
