//! An explanation as text: numbered steps with their facts for people, or
//! the JSON document `{"schema_version": 1, "explain": ...}` (docs/explain.md).

use comfy_table::{ColumnConstraint, ContentArrangement, Table, Width, presets};
use owo_colors::OwoColorize;
use serde::Serialize;

use super::layout::document;
use super::now_source;
use super::wrap::wrap;
use crate::explain::{Explanation, StoryEvaluation, SubjectKind};
use crate::report::SCHEMA_VERSION;

#[derive(Serialize)]
struct Document<'e> {
    schema_version: u32,
    explain: &'e Explanation,
}

/// The explanation as pretty-printed JSON, ending in a newline.
pub fn json(e: &Explanation) -> String {
    let doc = Document {
        schema_version: SCHEMA_VERSION,
        explain: e,
    };
    document(&doc)
}

/// The explanation for people, laid out for `width` columns: a header, the
/// bucket and fate, then one table of facts per step, detail facts only when
/// `verbose`. No line ends in a space.
pub fn table(e: &Explanation, color: bool, width: u16, verbose: bool) -> String {
    let bold = |s: &str| {
        if color {
            s.bold().to_string()
        } else {
            s.to_string()
        }
    };
    // `label rest`, wrapped to the width, the label in bold when it is whole
    // on the first line.
    let line = |label: &str, rest: &str| {
        let text = wrap(&format!("{label} {rest}"), usize::from(width));
        match text.strip_prefix(label) {
            Some(tail) if tail.starts_with([' ', '\n']) => format!("{}{tail}", bold(label)),
            _ => text,
        }
    };
    let source = now_source::words(e.now_source);
    let subject = match (&e.subject.kind, &e.subject.id) {
        (SubjectKind::Allocation, Some(id)) => format!("Allocation {id} ({})", e.subject.name),
        _ => format!("Placement {}", e.subject.name),
    };
    let mut out = line(
        &subject,
        &format!(
            "of {}/{} (version {}), group {}",
            e.namespace, e.job, e.job_version, e.task_group
        ),
    );
    match &e.story {
        None => out.push_str(&wrap(
            &format!("evaluated at {} ({source}), eval {}", e.now, e.eval_id),
            usize::from(width),
        )),
        Some(story) => {
            let one =
                |s: &StoryEvaluation| format!("eval {} ({}) at {}", s.id, s.triggered_by, s.at);
            let placed = story.placed_alloc_id.as_ref().map_or(String::new(), |id| {
                format!(", which placed allocation {id}")
            });
            out.push_str(&line(
                "In the story:",
                &format!("decided last in {}{placed}", one(&story.evaluation)),
            ));
            let before = &story.decided_in[..story.decided_in.len().saturating_sub(1)];
            if !before.is_empty() {
                let list: Vec<String> = before.iter().map(one).collect();
                out.push_str(&line("Decided before by:", &list.join("; ")));
            }
        }
    }
    if let Some(b) = e.bucket {
        out.push_str(&line("Bucket:", b.as_str()));
    }
    // One line for every action, so that a stop and its replacement read
    // as one fate.
    let fate = if e.fate.is_empty() {
        "no change".to_string()
    } else {
        e.fate.join("; ")
    };
    out.push_str(&line("Fate:", &fate));
    for (i, step) in e.steps.iter().enumerate() {
        out.push('\n');
        out.push_str(&line(
            &format!("{}. {}:", i + 1, step.title),
            &step.conclusion,
        ));
        let facts: Vec<_> = step.facts.iter().filter(|f| verbose || !f.detail).collect();
        if facts.is_empty() {
            continue;
        }
        let mut t = Table::new();
        t.load_style(presets::NOTHING)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(width);
        for f in facts {
            t.add_row(vec![f.name.as_str(), f.value.as_str()]);
        }
        if let Some(col) = t.column_mut(0) {
            col.set_constraint(ColumnConstraint::UpperBoundary(Width::Fixed(24)));
        }
        out.push_str(&t.trim_fmt());
        out.push('\n');
    }
    out
}
