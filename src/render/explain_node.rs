//! `--explain-node` as text: the node, its resources before and after the
//! plan, and the allocations behind each number; or the JSON document
//! `{"schema_version": 1, "explain_node": ...}` (docs/json-schema.md).

use comfy_table::{CellAlignment, ContentArrangement, Table, presets};
use owo_colors::OwoColorize;
use serde::Serialize;

use super::layout::document;
use super::wrap::wrap;
use crate::explain::{Amounts, NodeExplanation};
use crate::report::SCHEMA_VERSION;

#[derive(Serialize)]
struct Document<'e> {
    schema_version: u32,
    explain_node: &'e NodeExplanation,
}

/// The node's explanation as pretty-printed JSON, ending in a newline.
pub fn json(e: &NodeExplanation) -> String {
    let doc = Document {
        schema_version: SCHEMA_VERSION,
        explain_node: e,
    };
    document(&doc)
}

/// IDs are cut to this many characters unless `verbose`.
const SHORT_ID: usize = 8;

/// The node's explanation for people, laid out for `width` columns.
pub fn table(e: &NodeExplanation, color: bool, width: u16, verbose: bool) -> String {
    let bold = |s: &str| {
        if color {
            s.bold().to_string()
        } else {
            s.to_string()
        }
    };
    let w = usize::from(width);
    let n = &e.node;
    let name = if n.name.is_empty() || n.name == n.id {
        String::new()
    } else {
        format!(" ({})", n.name)
    };
    let mut out = wrap(
        &format!(
            "{} {}{name}: datacenter {}, node pool {}, class {}, status {}, eligibility {}{}",
            bold("Node"),
            n.id,
            or_none(&n.datacenter),
            or_none(&n.node_pool),
            or_none(&n.node_class),
            n.status,
            or_none(&n.eligibility),
            if n.draining { ", draining" } else { "" }
        ),
        w,
    );
    out.push_str(&wrap(&format!("evaluated at {}", e.now), w));
    if !e.fit_checked {
        out.push_str(&wrap(
            "The node has no resources block: the placement stage does not check fit on it.",
            w,
        ));
    }
    let id = |s: &str| -> String {
        if verbose {
            s.to_string()
        } else {
            s.chars().take(SHORT_ID).collect()
        }
    };

    out.push('\n');
    out.push_str(&bold("Resources"));
    out.push('\n');
    let mut t = grid(
        width,
        &[
            "",
            "CPU MHz",
            "cores",
            "memory MB",
            "memory max MB",
            "disk MB",
        ],
    );
    let mut capacity_row = |label: &str, a: &Amounts| {
        let mut row = vec![label.to_string()];
        row.extend(amounts(a));
        t.add_row(row);
    };
    capacity_row("capacity", &e.capacity);
    capacity_row("reserved", &e.reserved);
    capacity_row("running", &e.used);
    let sum = |items: &mut dyn Iterator<Item = &Amounts>| {
        let mut s = Amounts::default();
        for a in items {
            s.cpu_mhz += a.cpu_mhz;
            s.cores += a.cores;
            s.memory_mb += a.memory_mb;
            s.memory_max_mb += a.memory_max_mb;
            s.disk_mb += a.disk_mb;
        }
        s
    };
    capacity_row("plan adds", &sum(&mut e.adds.iter().map(|a| &a.resources)));
    capacity_row(
        "plan frees",
        &sum(&mut e.frees.iter().map(|f| &f.resources)),
    );
    capacity_row("after plan", &e.used_after);
    capacity_row("left", &e.left);
    right_align(&mut t, 1..6);
    out.push_str(&t.trim_fmt());
    out.push('\n');
    let short: Vec<&str> = [
        ("CPU", e.left.cpu_mhz),
        ("cores", e.left.cores),
        ("memory", e.left.memory_mb),
        ("disk", e.left.disk_mb),
    ]
    .iter()
    .filter(|(_, v)| *v < 0)
    .map(|(name, _)| *name)
    .collect();
    if !short.is_empty() {
        out.push_str(&wrap(
            &format!(
                "Over capacity in {}: each job is evaluated on the snapshot alone, so the \
                 placements of different jobs do not see each other.",
                short.join(", ")
            ),
            w,
        ));
    }

    if !e.running.is_empty() {
        out.push('\n');
        out.push_str(&bold("Running"));
        out.push('\n');
        // Statuses and cores only under --verbose, to keep the rest unbroken.
        // The name holds the job; its namespace is in the JSON.
        let mut header = vec!["alloc", "name"];
        if verbose {
            header.extend(["status", "cores"]);
        }
        header.extend(["MHz", "mem MB", "disk MB"]);
        let mut t = grid(width, &header);
        for a in &e.running {
            let mut row = vec![id(&a.alloc_id), a.name.clone()];
            if verbose {
                row.push(format!("{}/{}", a.client_status, a.desired_status));
                row.push(a.resources.cores.to_string());
            }
            row.extend(short_amounts(&a.resources));
            t.add_row(row);
        }
        right_align(&mut t, header.len() - 3..header.len());
        out.push_str(&t.trim_fmt());
        out.push('\n');
    }
    if !e.adds.is_empty() {
        out.push('\n');
        out.push_str(&bold("Plan adds"));
        out.push('\n');
        let mut t = grid(
            width,
            &["name", "kind", "score", "MHz", "mem MB", "disk MB"],
        );
        for a in &e.adds {
            let mut row = vec![
                a.name.clone(),
                a.kind.replace('_', " "),
                a.score.map_or(String::new(), |s| format!("{s:.4}")),
            ];
            row.extend(short_amounts(&a.resources));
            t.add_row(row);
        }
        right_align(&mut t, 2..6);
        out.push_str(&t.trim_fmt());
        out.push('\n');
    }
    if !e.frees.is_empty() {
        out.push('\n');
        out.push_str(&bold("Plan frees"));
        out.push('\n');
        let mut t = grid(
            width,
            &["alloc", "name", "kind", "why", "MHz", "mem MB", "disk MB"],
        );
        for f in &e.frees {
            let mut row = vec![
                id(&f.alloc_id),
                f.name.clone(),
                f.kind.replace('_', " "),
                f.why.clone(),
            ];
            row.extend(short_amounts(&f.resources));
            t.add_row(row);
        }
        right_align(&mut t, 4..7);
        out.push_str(&t.trim_fmt());
        out.push('\n');
    }
    out
}

fn or_none(s: &str) -> &str {
    if s.is_empty() { "(none)" } else { s }
}

fn grid(width: u16, header: &[&str]) -> Table {
    let mut t = Table::new();
    t.load_style(presets::NOTHING)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(width)
        .set_header(header.to_vec());
    t
}

fn right_align(t: &mut Table, columns: std::ops::Range<usize>) {
    for c in columns {
        if let Some(col) = t.column_mut(c) {
            col.set_cell_alignment(CellAlignment::Right);
        }
    }
}

fn amounts(a: &Amounts) -> Vec<String> {
    [a.cpu_mhz, a.cores, a.memory_mb, a.memory_max_mb, a.disk_mb]
        .iter()
        .map(i64::to_string)
        .collect()
}

fn short_amounts(a: &Amounts) -> Vec<String> {
    [a.cpu_mhz, a.memory_mb, a.disk_mb]
        .iter()
        .map(i64::to_string)
        .collect()
}
