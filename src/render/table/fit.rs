//! Column widths within a line width: identifiers, names and counts keep
//! to one line so they can be read and copied; free text wraps.

use comfy_table::{ColumnConstraint, ContentArrangement, Table, Width};
use unicode_width::UnicodeWidthStr;

/// Columns of free text: they take the width left and wrap.
const PROSE: [&str; 3] = ["Reason", "Description", "Allocs"];

/// A prose column wraps no narrower than this.
const PROSE_MIN: usize = 24;

/// Sets every column's width: identifiers, names and counts as wide as
/// their content (headers wrap only between words), prose columns share what
/// is left of `limit` and wrap, never narrower than [`PROSE_MIN`]. Without a
/// limit (`--verbose`, whose full IDs cannot fit anyway) nothing wraps, so
/// every row stays one line for `grep`. A column with nothing in any row is
/// left out.
pub(super) fn fit(table: &mut Table, limit: Option<usize>) {
    let headers: Vec<String> = table
        .header()
        .map(|h| h.cell_iter().map(|c| strip_ansi(&c.content())).collect())
        .unwrap_or_default();
    let columns: Vec<Column> = headers
        .iter()
        .enumerate()
        .map(|(i, header)| {
            let cells = table
                .column_cells_iter(i)
                .flatten()
                .map(|c| strip_ansi(&c.content()).width())
                .max()
                .unwrap_or(0);
            let word = header.split(' ').map(|w| w.width()).max().unwrap_or(0);
            // The footprint: padding (one space each side of the first column,
            // one after the others) and the blank line before all but the first.
            let edge = 2;
            Column {
                empty: cells == 0,
                prose: PROSE.contains(&header.as_str()),
                full: cells.max(header.width()) + edge,
                narrow: cells.max(word) + edge,
            }
        })
        .collect();
    let prose = columns.iter().filter(|c| c.prose).count();
    let fixed = |narrow: bool| -> usize {
        columns
            .iter()
            .filter(|c| !c.prose && !c.empty)
            .map(|c| if narrow { c.narrow } else { c.full })
            .sum()
    };
    let Some(limit) = limit else {
        for (i, c) in columns.iter().enumerate() {
            if c.empty
                && let Some(col) = table.column_mut(i)
            {
                col.set_constraint(ColumnConstraint::Hidden);
            }
        }
        table.set_content_arrangement(ContentArrangement::Disabled);
        return;
    };
    // Whole headers when the prose still gets its minimum, else headers wrap.
    let narrow = fixed(false) + prose * (PROSE_MIN + 2) > limit;
    let share = (limit.saturating_sub(fixed(narrow)) / prose.max(1)).max(PROSE_MIN + 2);
    for (i, c) in columns.iter().enumerate() {
        let footprint = match (c.prose, narrow) {
            (true, _) => c.full.min(share),
            (false, true) => c.narrow,
            (false, false) => c.full,
        };
        // comfy-table's width leaves out the vertical line.
        let width = footprint - usize::from(i > 0);
        if let Some(col) = table.column_mut(i) {
            col.set_constraint(if c.empty {
                ColumnConstraint::Hidden
            } else {
                ColumnConstraint::Absolute(Width::Fixed(width.try_into().unwrap_or(u16::MAX)))
            });
        }
    }
}

/// The widths one column can take, padding included.
struct Column {
    /// No row has anything in it: the column is left out.
    empty: bool,
    prose: bool,
    /// With the header on one line.
    full: usize,
    /// With the header wrapped between words.
    narrow: usize,
}

/// `s` without ANSI escape sequences, to measure what is seen.
fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            chars.by_ref().find(|c| c.is_ascii_alphabetic());
        } else {
            out.push(c);
        }
    }
    out
}
