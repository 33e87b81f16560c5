//! The JSON document (schema version 1, see `docs/json-schema.md`).

use crate::report::Report;

/// The report as pretty-printed JSON, ending in a newline.
pub fn render(report: &Report) -> String {
    let mut out = Vec::new();
    render_to(report, &mut out).expect("a report always serializes");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// The same text, written as it is produced: a large report is never held twice.
pub fn render_to(report: &Report, out: &mut impl std::io::Write) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report).map_err(std::io::Error::from)?;
    out.write_all(b"\n")
}
