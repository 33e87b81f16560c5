//! A table's text before layout: headers, rows, and what may give way when
//! the line is too narrow, so that [`super::fit`] can decide the layout from
//! the whole content.

/// What a column gives up when the table does not fit its width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Yield {
    /// Shows [`Grid::short`]'s form of its cells (a name without its job)
    /// and its short header, if it has one.
    Abbreviate,
    /// Is left out.
    Drop,
}

/// What a column holds, which decides how it is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Identifiers, statuses, counts and names: kept to one line so they
    /// can be read and copied.
    Whole,
    /// Free text: takes the width left and wraps between words.
    Prose,
}

/// A column's header and kind.
#[derive(Clone, Copy, Debug)]
pub(super) struct Col {
    pub(super) header: &'static str,
    pub(super) kind: Kind,
}

impl Col {
    pub(super) const fn whole(header: &'static str) -> Col {
        Col {
            header,
            kind: Kind::Whole,
        }
    }

    pub(super) const fn prose(header: &'static str) -> Col {
        Col {
            header,
            kind: Kind::Prose,
        }
    }
}

/// Headers and rows of one table, with the columns that give way in order.
#[derive(Debug)]
pub(super) struct Grid {
    pub(super) columns: Vec<Col>,
    pub(super) rows: Vec<Vec<String>>,
    /// `(rank, column, what)`: lower ranks give way first.
    pub(super) yields: Vec<(u8, usize, Yield)>,
    /// The prefix an abbreviated column leaves out of its cells.
    pub(super) prefix: String,
    /// Shorter headers of abbreviated columns, by column.
    pub(super) short_headers: Vec<(usize, &'static str)>,
}

impl Grid {
    pub(super) fn new(columns: &[Col]) -> Self {
        Grid {
            columns: columns.to_vec(),
            rows: Vec::new(),
            yields: Vec::new(),
            prefix: String::new(),
            short_headers: Vec::new(),
        }
    }

    /// A table of job `job_id`'s allocations whose `Name` column, first to
    /// give way, drops the `job.` the job header above already says.
    pub(super) fn of_job(columns: &[Col], job_id: &str) -> Self {
        let mut grid = Grid::new(columns);
        grid.short_of(format!("{job_id}."))
            .give_way(1, "Name", Yield::Abbreviate);
        grid
    }

    pub(super) fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// The column headed `header` gives way as `what` at `rank` (no effect
    /// when the table has no such column).
    pub(super) fn give_way(&mut self, rank: u8, header: &str, what: Yield) -> &mut Self {
        if let Some(i) = self.position(header) {
            self.yields.push((rank, i, what));
            self.yields.sort_by_key(|&(rank, i, _)| (rank, i));
        }
        self
    }

    /// The column headed `header`, abbreviated, is headed `short`.
    pub(super) fn short_header(&mut self, header: &str, short: &'static str) -> &mut Self {
        if let Some(i) = self.position(header) {
            self.short_headers.push((i, short));
        }
        self
    }

    /// The header of column `i`, abbreviated or not.
    pub(super) fn header(&self, i: usize, short: bool) -> &'static str {
        let found = || self.short_headers.iter().find(|&&(j, _)| j == i);
        match found() {
            Some(&(_, h)) if short => h,
            _ => self.columns[i].header,
        }
    }

    /// The column headed `header`.
    fn position(&self, header: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.header == header)
    }

    /// Abbreviated cells leave out `prefix` (an allocation name's
    /// `job.`, which the job header above already says).
    pub(super) fn short_of(&mut self, prefix: String) -> &mut Self {
        self.prefix = prefix;
        self
    }

    /// A cell in its abbreviated form.
    pub(super) fn short<'c>(&self, cell: &'c str) -> &'c str {
        match cell.strip_prefix(self.prefix.as_str()) {
            Some(rest) if !self.prefix.is_empty() && !rest.is_empty() => rest,
            _ => cell,
        }
    }
}
