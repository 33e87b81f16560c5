//! Column widths within a line width: identifiers, statuses and counts keep
//! to one line so they can be read and copied; names keep to one line while
//! they can, and free text wraps.

use comfy_table::{ColumnConstraint, ContentArrangement, Table, Width};
use unicode_width::UnicodeWidthStr;

/// Columns of free text: they take the width left and wrap.
const PROSE: [&str; 3] = ["Reason", "Description", "Allocs"];

/// Columns of names (`job.group[N]`, a task group): whole unless the table
/// cannot fit otherwise, then wrapped, no narrower than [`NAME_MIN`].
const NAMES: [&str; 2] = ["Name", "Task Group"];

/// A prose column wraps no narrower than this while the table can afford it.
const PROSE_MIN: usize = 24;

/// How narrow a prose column may get when the table cannot fit otherwise.
const PROSE_FLOOR: usize = 12;

/// How narrow a name column may get.
const NAME_MIN: usize = 12;

/// The footprint of a column beyond its text: padding (one space each side of
/// the first column, one after the others) and the blank before all but the
/// first.
const EDGE: usize = 2;

/// Sets every column's width within `limit`: identifiers, statuses and
/// counts as wide as their content (headers wrap only between words, and
/// only when the table would not fit otherwise); names and prose start at
/// their floors ([`NAME_MIN`], [`PROSE_FLOOR`], or their content when
/// narrower), then the prose grows to [`PROSE_MIN`], the names to whole,
/// and the prose takes the rest. A table whose columns cannot fit even at
/// their floors is as narrow as they allow.
/// Without a limit (`--verbose`, whose full IDs cannot fit anyway) nothing
/// wraps, so every row stays one line for `grep`. A column with nothing in
/// any row is left out.
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
            let kind = if PROSE.contains(&header.as_str()) {
                Kind::Prose
            } else if NAMES.contains(&header.as_str()) {
                Kind::Name
            } else {
                Kind::Fixed
            };
            Column {
                empty: cells == 0,
                kind,
                content: cells + EDGE,
                header: header.width() + EDGE,
                word: word + EDGE,
            }
        })
        .collect();
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
    let widths = widths(&columns, limit);
    for (i, (c, width)) in columns.iter().zip(widths).enumerate() {
        // comfy-table's width leaves out the vertical line.
        let width = width.saturating_sub(usize::from(i > 0));
        if let Some(col) = table.column_mut(i) {
            col.set_constraint(if c.empty {
                ColumnConstraint::Hidden
            } else {
                ColumnConstraint::Absolute(Width::Fixed(width.try_into().unwrap_or(u16::MAX)))
            });
        }
    }
}

/// Each column's footprint within `limit` (0 for an empty column).
fn widths(columns: &[Column], limit: usize) -> Vec<usize> {
    let wants = |c: &Column| match c.kind {
        Kind::Fixed | Kind::Name => c.full(),
        Kind::Prose => c.full().min(PROSE_MIN + EDGE),
    };
    let whole = columns
        .iter()
        .filter(|c| !c.empty)
        .map(wants)
        .sum::<usize>()
        <= limit;
    // At least the header (whole or by words), and up to `cap` of the content.
    let upto = |c: &Column, cap: usize| {
        let head = if whole { c.header } else { c.word };
        head.max(c.content.min(cap))
    };
    let mut widths: Vec<usize> = columns
        .iter()
        .map(|c| match (c.empty, c.kind) {
            (true, _) => 0,
            (false, Kind::Fixed) => upto(c, usize::MAX),
            (false, Kind::Name) => upto(c, NAME_MIN + EDGE),
            (false, Kind::Prose) => upto(c, PROSE_FLOOR + EDGE),
        })
        .collect();
    let mut left = limit.saturating_sub(widths.iter().sum());
    // Which columns grow next, and up to how much of their content.
    let stages = [
        (Kind::Prose, PROSE_MIN + EDGE),
        (Kind::Name, usize::MAX),
        (Kind::Prose, usize::MAX),
    ];
    for (kind, cap) in stages {
        grow(columns, &mut widths, &mut left, |c| {
            (c.kind == kind && !c.empty).then(|| upto(c, cap))
        });
    }
    widths
}

/// Widens the columns `target` names towards their targets, one character
/// at a time in turn, while `left` lasts: columns that compete share evenly.
fn grow(
    columns: &[Column],
    widths: &mut [usize],
    left: &mut usize,
    target: impl Fn(&Column) -> Option<usize>,
) {
    let targets: Vec<Option<usize>> = columns.iter().map(&target).collect();
    while *left > 0 {
        let mut grew = false;
        for (w, t) in widths.iter_mut().zip(&targets) {
            if *left > 0
                && let Some(t) = *t
                && *w < t
            {
                *w += 1;
                *left -= 1;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Fixed,
    Name,
    Prose,
}

/// What one column holds, as footprints.
struct Column {
    /// No row has anything in it: the column is left out.
    empty: bool,
    kind: Kind,
    /// The widest cell.
    content: usize,
    /// The header on one line.
    header: usize,
    /// The header's longest word: no column is narrower.
    word: usize,
}

impl Column {
    /// With the header on one line.
    fn full(&self) -> usize {
        self.content.max(self.header)
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn column(kind: Kind, header: &str, cells: usize) -> Column {
        let word = header.split(' ').map(str::len).max().unwrap_or(0);
        Column {
            empty: cells == 0,
            kind,
            content: cells + EDGE,
            header: header.len() + EDGE,
            word: word + EDGE,
        }
    }

    #[test]
    fn names_stay_whole_and_prose_takes_the_rest() {
        let columns = [
            column(Kind::Fixed, "Alloc", 8),
            column(Kind::Name, "Name", 30),
            column(Kind::Prose, "Reason", 80),
        ];
        assert_eq!(widths(&columns, 100), [10, 32, 58]);
    }

    #[test]
    fn a_long_name_wraps_before_the_prose_goes_below_its_minimum() {
        let columns = [
            column(Kind::Fixed, "Alloc", 8),
            column(Kind::Name, "Name", 70),
            column(Kind::Prose, "Reason", 80),
        ];
        // Whole, the name would leave the reason 18: it wraps instead.
        assert_eq!(widths(&columns, 100), [10, 64, 26]);
        assert_eq!(widths(&columns, 60), [10, 24, 26]);
    }

    #[test]
    fn below_every_minimum_names_and_prose_keep_their_floors() {
        let columns = [
            column(Kind::Fixed, "Node Status", 12),
            column(Kind::Name, "Name", 70),
            column(Kind::Prose, "Reason", 80),
            column(Kind::Fixed, "Canary", 0),
        ];
        // The header wraps ("Node" over "Status"): 14, and the floors 14 each.
        assert_eq!(widths(&columns, 30), [14, 14, 14, 0]);
    }
}
