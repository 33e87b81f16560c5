//! The JSON document (schema version 1, see `docs/json-schema.md`).

use crate::report::Report;

/// The report as pretty-printed JSON, ending in a newline.
pub fn render(report: &Report) -> String {
    let mut out = serde_json::to_string_pretty(report).expect("a report always serializes");
    out.push('\n');
    out
}
