//! Laying a [`Grid`] out within a line width. Identifiers, statuses, counts
//! and names keep to one line so they can be read and copied; when the
//! table is too wide its headers wrap between words, then columns give way
//! in their fixed order (a name drops its job, a column is left out), and
//! only then does free text wrap below its comfortable width, always
//! between words.

use comfy_table::{ContentArrangement, LineStyle, Table, TableStyle};
use unicode_width::UnicodeWidthStr;

use super::grid::{Grid, Kind, Yield};

/// A prose column wraps no narrower than this while the table can afford it.
const PROSE_MIN: usize = 24;

/// How narrow a prose column may get when the table cannot fit otherwise
/// (never narrower than its longest word).
const PROSE_FLOOR: usize = 12;

/// The footprint of a column beyond its text: padding (one space each side of
/// the first column, one after the others) and the blank before all but the
/// first.
const EDGE: usize = 2;

/// A line under the header and nothing else: rows stay one text line each
/// unless a long cell wraps, and wrapped lines have blank leading columns.
const TABLE_STYLE: TableStyle =
    TableStyle::new().header_separator(LineStyle::none().fill('─').junction('─'));

/// The table's text within `limit` columns where it can fit (see the module
/// documentation); a table whose columns cannot fit even when all have given
/// way is as narrow as they allow. Without a limit (`--verbose`, whose full
/// IDs cannot fit anyway) nothing gives way or wraps, so every row stays one
/// line for `grep`. A column with nothing in any row is left out. `bold`
/// styles the headers.
pub(super) fn layout(grid: &Grid, limit: Option<usize>, bold: &dyn Fn(&str) -> String) -> String {
    let columns: Vec<Column> = (0..grid.columns.len())
        .map(|i| Column::of(grid, i))
        .collect();
    let plan = match limit {
        Some(limit) => plan(grid, &columns, limit),
        None => Plan {
            shown: columns.iter().map(|c| !c.empty).collect(),
            short: vec![false; columns.len()],
            widths: columns.iter().map(|c| c.full(false)).collect(),
            wrap: false,
        },
    };
    let mut t = Table::new();
    t.load_style(TABLE_STYLE)
        .set_content_arrangement(ContentArrangement::Disabled);
    let shown: Vec<usize> = (0..columns.len()).filter(|&i| plan.shown[i]).collect();
    t.set_header(shown.iter().map(|&i| {
        let header = grid.header(i, plan.short[i]);
        let text = if plan.wrap {
            fold(header, plan.widths[i] - EDGE)
        } else {
            header.to_string()
        };
        text.lines().map(bold).collect::<Vec<_>>().join("\n")
    }));
    for row in &grid.rows {
        t.add_row(shown.iter().map(|&i| {
            let cell = row.get(i).map_or("", String::as_str);
            let cell = if plan.short[i] {
                grid.short(cell)
            } else {
                cell
            };
            if plan.wrap && columns[i].prose {
                fold(cell, plan.widths[i] - EDGE)
            } else {
                cell.to_string()
            }
        }));
    }
    // Two spaces between columns, one before the first.
    for (k, c) in t.column_iter_mut().enumerate() {
        c.set_padding((u16::from(k == 0), 1));
    }
    t.trim_fmt()
}

/// Which columns show, in which form, and how wide.
struct Plan {
    shown: Vec<bool>,
    short: Vec<bool>,
    /// Each column's footprint.
    widths: Vec<usize>,
    /// Whether headers and prose wrap to the widths.
    wrap: bool,
}

/// The layout within `limit`: headers whole if the table is comfortable
/// with them (names and identifiers whole, prose at [`PROSE_MIN`]), else
/// wrapped by words; then the columns give way in order until it is
/// comfortable or none is left; prose then takes the width left, down to
/// [`PROSE_FLOOR`] or its longest word.
fn plan(grid: &Grid, columns: &[Column], limit: usize) -> Plan {
    let mut shown: Vec<bool> = columns.iter().map(|c| !c.empty).collect();
    let mut short = vec![false; columns.len()];
    let mut whole = true;
    let comfortable = |shown: &[bool], short: &[bool], whole: bool| -> usize {
        columns
            .iter()
            .enumerate()
            .filter(|&(i, _)| shown[i])
            .map(|(i, c)| c.comfortable(short[i], whole))
            .sum()
    };
    let mut yields = grid.yields.iter();
    while comfortable(&shown, &short, whole) > limit {
        if whole {
            whole = false;
            continue;
        }
        let Some(&(_, i, what)) = yields.next() else {
            break;
        };
        match what {
            Yield::Abbreviate => short[i] = true,
            Yield::Drop => shown[i] = false,
        }
    }
    // What gave way may leave room for the headers on one line.
    whole |= comfortable(&shown, &short, true) <= limit;
    let mut widths: Vec<usize> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| match (shown[i], c.prose) {
            (false, _) => 0,
            (true, false) => c.full_with(short[i], whole),
            (true, true) => c.floor(whole),
        })
        .collect();
    let mut left = limit.saturating_sub(widths.iter().sum());
    for cap in [PROSE_MIN + EDGE, usize::MAX] {
        grow(&mut widths, &mut left, |i| {
            (shown[i] && columns[i].prose).then(|| columns[i].full(false).min(cap))
        });
    }
    Plan {
        shown,
        short,
        widths,
        wrap: true,
    }
}

/// Widens the columns `target` names towards their targets, one character
/// at a time in turn, while `left` lasts: columns that compete share evenly.
fn grow(widths: &mut [usize], left: &mut usize, target: impl Fn(usize) -> Option<usize>) {
    let targets: Vec<Option<usize>> = (0..widths.len()).map(target).collect();
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

/// What one column holds, as footprints.
struct Column {
    /// No row has anything in it: the column is left out.
    empty: bool,
    prose: bool,
    /// The widest cell, whole and abbreviated.
    content: usize,
    short: usize,
    /// The longest word of any cell: prose wraps no narrower.
    word: usize,
    /// The header on one line, and its longest word; whole and
    /// abbreviated.
    header: [usize; 2],
    header_word: [usize; 2],
}

impl Column {
    fn of(grid: &Grid, i: usize) -> Self {
        let cells = || {
            grid.rows
                .iter()
                .filter_map(|r| r.get(i))
                .map(|c| strip_ansi(c))
        };
        let widest = |f: &dyn Fn(&str) -> usize| cells().map(|c| f(&c)).max().unwrap_or(0);
        let content = widest(&|c| c.width());
        let heads = [grid.header(i, false), grid.header(i, true)];
        let word = |h: &str| words(h).map(UnicodeWidthStr::width).max().unwrap_or(0) + EDGE;
        Column {
            empty: content == 0,
            prose: grid.columns[i].kind == Kind::Prose,
            content: content + EDGE,
            short: widest(&|c| grid.short(c).width()) + EDGE,
            word: widest(&|c| words(c).map(UnicodeWidthStr::width).max().unwrap_or(0)) + EDGE,
            header: heads.map(|h| h.width() + EDGE),
            header_word: heads.map(word),
        }
    }

    fn head(&self, short: bool, whole: bool) -> usize {
        let k = usize::from(short);
        if whole {
            self.header[k]
        } else {
            self.header_word[k]
        }
    }

    /// Every cell on one line, with the header whole.
    fn full(&self, short: bool) -> usize {
        self.full_with(short, true)
    }

    fn full_with(&self, short: bool, whole: bool) -> usize {
        let content = if short { self.short } else { self.content };
        content.max(self.head(short, whole))
    }

    /// The narrowest a prose column gets (prose has no short form).
    fn floor(&self, whole: bool) -> usize {
        self.head(false, whole)
            .max(self.word)
            .max(self.content.min(PROSE_FLOOR + EDGE))
    }

    /// The width the column is at ease with: whole, or prose at [`PROSE_MIN`].
    fn comfortable(&self, short: bool, whole: bool) -> usize {
        if self.prose {
            self.floor(whole).max(self.content.min(PROSE_MIN + EDGE))
        } else {
            self.full_with(short, whole)
        }
    }
}

fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split([' ', '\n']).filter(|w| !w.is_empty())
}

/// `text` folded to lines of `width` columns between words; a word wider
/// than the line keeps a line of its own, whole.
fn fold(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in words(text) {
        let w = word.width();
        if line > 0 && line + 1 + w > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += w;
    }
    out
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
    use super::super::allocations::{ALLOCATIONS_COLUMNS, allocations_grid};
    use super::*;
    use proptest::prelude::*;

    const COLUMNS: [super::super::grid::Col; 9] = ALLOCATIONS_COLUMNS;

    /// An Allocations table: IDs, `job.group[N]` names, statuses, and
    /// reasons of words up to 21 characters (`max_client_disconnect`).
    fn grid() -> impl Strategy<Value = Grid> {
        let word = "[a-z_;:,()]{1,21}";
        let row = (
            "[0-9a-f]{8}",
            "[a-z]{1,8}\\.[a-z]{1,8}\\[[0-9]{1,3}\\]",
            "[0-9]{1,3}",
            prop_oneof![Just(""), Just("yes")],
            "[0-9a-f]{8}",
            "(ready|down|disconnected)",
            "(running|failed|unknown)",
            "(untainted|lost|disconnecting)",
            prop::collection::vec(word, 1..12),
        );
        prop::collection::vec(row, 1..6).prop_map(|rows| {
            let mut g = allocations_grid("job");
            for (a, n, v, c, node, ns, cs, b, reason) in rows {
                g.row(vec![
                    a,
                    n,
                    v,
                    c.to_string(),
                    node,
                    ns,
                    cs,
                    b,
                    reason.join(" "),
                ]);
            }
            g
        })
    }

    fn tokens(s: &str) -> impl Iterator<Item = &str> {
        s.split_whitespace()
    }

    proptest! {
        /// No line is wider than the width (below 80, than the table at its
        /// narrowest when that is wider), and every token of the
        /// output is a whole token of a cell (or of a name without its job)
        /// or a header word: nothing is split.
        #[test]
        fn lines_fit_and_no_token_is_split(g in grid(), width in 40usize..200) {
            let text = layout(&g, Some(width), &str::to_string);
            let floor = layout(&g, Some(1), &str::to_string)
                .lines()
                .map(UnicodeWidthStr::width)
                .max()
                .unwrap_or(0);
            // From 80 columns these tables always fit.
            let most = if width >= 80 { width } else { width.max(floor) };
            for line in text.lines() {
                prop_assert!(line.width() <= most, "{width}:\n{text}");
            }
            let mut whole: Vec<&str> = COLUMNS.iter().flat_map(|c| tokens(c.header)).collect();
            for row in &g.rows {
                for cell in row {
                    whole.extend(tokens(cell));
                    whole.extend(tokens(g.short(cell)));
                }
            }
            for line in text.lines().filter(|l| !l.starts_with('─')) {
                for token in tokens(line) {
                    prop_assert!(whole.contains(&token), "{token:?} at {width}:\n{text}");
                }
            }
        }
    }

    /// At 80 columns such a table (reasons of words up to 21) always fits.
    #[test]
    fn the_narrowest_allocations_table_fits_80_columns() {
        let mut g = allocations_grid("job");
        g.row(
            [
                "6b1f7c4e",
                "job.groupgroup[100]",
                "100",
                "yes",
                "a0c4e6f8",
                "disconnected",
                "unknown",
                "disconnecting",
                "max_client_disconnect max_client_disconnect",
            ]
            .map(str::to_string)
            .to_vec(),
        );
        let text = layout(&g, Some(80), &str::to_string);
        assert!(text.lines().all(|l| l.width() <= 80), "{text}");
    }
}
