//! A place in the document as serde_json and editors count it.

/// A line (from 1) and the bytes since the newline before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Position {
    pub(super) line: usize,
    pub(super) column: usize,
}

impl Position {
    /// The first byte of a document.
    pub(super) const START: Position = Position { line: 1, column: 0 };

    /// Moves past `bytes`.
    pub(super) fn pass(&mut self, bytes: &[u8]) {
        match memchr::memrchr(b'\n', bytes) {
            Some(nl) => {
                self.line += memchr::memchr_iter(b'\n', bytes).count();
                self.column = bytes.len() - nl - 1;
            }
            None => self.column += bytes.len(),
        }
    }

    /// Where an error lies in the document, given where serde_json put it in
    /// a value that starts here (`(1, 1)`: at the value's first byte).
    pub(super) fn of(self, (line, column): (usize, usize)) -> (usize, usize) {
        if line > 1 {
            (self.line + line - 1, column)
        } else {
            (self.line, self.column + column)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passing_text_counts_its_lines_and_the_bytes_after_the_last() {
        let mut at = Position::START;
        at.pass(b"ab");
        assert_eq!(at, Position { line: 1, column: 2 });
        at.pass(b"c\nde\nf");
        assert_eq!(at, Position { line: 3, column: 1 });
        at.pass(b"\n");
        assert_eq!(at, Position { line: 4, column: 0 });
    }

    #[test]
    fn an_error_on_the_values_first_line_is_offset_by_the_column() {
        let at = Position {
            line: 7,
            column: 10,
        };
        assert_eq!(at.of((1, 3)), (7, 13));
        assert_eq!(at.of((2, 3)), (8, 3));
    }
}
