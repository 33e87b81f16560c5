//! Nomad's tests of the job plan, ported (named after file and tag).

mod admission;
mod annotate;
mod blocks_diff;
mod canonical;
mod cron;
mod endpoint;
mod group_diff;
mod job_diff;
mod task_diff;

use super::diff_types::{DiffType, FieldDiff};

/// A field diff without annotations.
fn field(kind: DiffType, name: &str, old: &str, new: &str) -> FieldDiff {
    FieldDiff {
        kind,
        name: name.into(),
        old: old.into(),
        new: new.into(),
        annotations: vec![],
    }
}

use serde_json::Value;

use super::diff_types::{ObjectDiff, TaskGroupDiff};
use super::schema::{self, Type};

/// The job as Go's encoder writes a `structs.Job` built in a Go test: every
/// primitive field of the job, its groups and tasks present, zero when the
/// test leaves it out.
fn go_job(mut v: Value) -> Value {
    fill(&mut v, Type::Job);
    for g in v
        .get_mut("TaskGroups")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        fill(g, Type::TaskGroup);
        for t in g
            .get_mut("Tasks")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            fill(t, Type::Task);
        }
    }
    v
}

fn fill(v: &mut Value, ty: Type) {
    let Some(m) = v.as_object_mut() else { return };
    for (name, kind) in schema::fields(ty) {
        let zero = match kind {
            schema::Field::Str => Value::from(""),
            schema::Field::Num => Value::from(0),
            schema::Field::Bool => Value::from(false),
            schema::Field::Map => Value::Null,
        };
        m.entry(*name).or_insert(zero);
    }
}

/// A diff's fields and objects one per line, as Nomad's `GoString` lists
/// them: `Type Name: "old" => "new"`, objects as `Type Name {` ... `}`.
fn lines(fields: &[FieldDiff], objects: &[ObjectDiff], depth: usize, out: &mut Vec<String>) {
    let pad = "  ".repeat(depth);
    for f in fields {
        let ann = if f.annotations.is_empty() {
            String::new()
        } else {
            format!(" ({})", f.annotations.join(", "))
        };
        out.push(format!(
            "{pad}{:?} {}: {:?} => {:?}{ann}",
            f.kind, f.name, f.old, f.new
        ));
    }
    for o in objects {
        out.push(format!("{pad}{:?} {} {{", o.kind, o.name));
        lines(&o.fields, &o.objects, depth + 1, out);
        out.push(format!("{pad}}}"));
    }
}

/// A group's diff as lines, its tasks included.
fn group_lines(g: &TaskGroupDiff) -> Vec<String> {
    let mut out = vec![format!("{:?} group {:?}", g.kind, g.name)];
    lines(&g.fields, &g.objects, 1, &mut out);
    for t in &g.tasks {
        let ann = if t.annotations.is_empty() {
            String::new()
        } else {
            format!(" ({})", t.annotations.join(", "))
        };
        out.push(format!("  {:?} task {:?}{ann}", t.kind, t.name));
        lines(&t.fields, &t.objects, 2, &mut out);
    }
    out
}

/// The expected lines of a test, trimmed.
fn expect(text: &str) -> Vec<String> {
    let text = text.strip_prefix('\n').unwrap_or(text);
    let indent = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l[indent..].trim_end().to_string())
        .collect()
}

/// The diff rules of a release.
fn rules_of(release: crate::model::Release) -> crate::version::Switches {
    crate::version::Switches::of(release)
}
