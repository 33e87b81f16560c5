//! Where the cursor is in the document, counted on as it moves: counting
//! from the buffer's start for every element would scan it again each time.

use super::{Chunked, Position};

/// The cursor's position in the document, counted on from the last call
/// while the buffer holds the same input at the same indexes: counting from
/// the buffer's start for every node would scan it again each time.
pub(super) struct Spot {
    /// Where the buffer's bytes were when last counted: the input offset of
    /// `buf[base]`, and `base`. Every refill that moves or drops bytes
    /// changes the offset or the base; the buffer's address and the
    /// position of its start may well stay the same (a file's lines are
    /// not counted).
    origin: Option<(u64, usize)>,
    /// The index counted up to, and its position.
    pos: usize,
    at: Position,
}

impl Spot {
    /// Nothing counted yet.
    pub(super) const NEW: Spot = Spot {
        origin: None,
        pos: 0,
        at: Position::START,
    };

    /// The position of `buf[pos]`, where `buf[base]`, `offset` bytes into
    /// the input, is at `at`. Counted from `base` again when the bytes moved,
    /// or should the cursor ever be behind the count.
    fn locate(
        &mut self,
        buf: &[u8],
        base: usize,
        offset: u64,
        at: Position,
        pos: usize,
    ) -> Position {
        let origin = Some((offset, base));
        if self.origin != origin || self.pos > pos {
            *self = Spot {
                origin,
                pos: base,
                at,
            };
        }
        self.at.pass(&buf[self.pos..pos]);
        self.pos = pos;
        self.at
    }
}

impl Chunked<'_> {
    /// The position of the cursor.
    pub(super) fn spot(&self, spot: &mut Spot) -> Position {
        spot.locate(&self.buf, self.base, self.offset, self.at, self.pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where each of `bytes` lies, counted from the start.
    fn counted(bytes: &[u8], pos: usize) -> Position {
        let mut at = Position::START;
        at.pass(&bytes[..pos]);
        at
    }

    #[test]
    fn a_refill_into_the_same_buffer_at_the_same_start_counts_afresh() {
        // A file: no lines are counted, so the start's position stays put
        // while the buffer is compacted in place (a copying refill), and
        // only the input offset says that its bytes moved.
        let input: Vec<u8> = (0..6000)
            .map(|i| if i % 97 == 0 { b'\n' } else { b'x' })
            .collect();
        let mut buf = input[..3000].to_vec();
        let mut spot = Spot::NEW;
        assert_eq!(
            spot.locate(&buf, 0, 0, Position::START, 2900),
            counted(&buf, 2900)
        );
        // Keep from 2900, then read on: the node at 2900 is now at 0.
        buf.copy_within(2900.., 0);
        buf[100..].copy_from_slice(&input[3000..3000 + 2900]);
        assert_eq!(
            spot.locate(&buf, 0, 2900, Position::START, 335),
            counted(&buf, 335)
        );
    }

    #[test]
    fn counting_on_across_refills_gives_the_documents_positions() {
        // A stream: the start's position is kept, and a refill may move the
        // kept bytes to a new base in a block, or to index 0 of the same one.
        let input: Vec<u8> = (0..10_000)
            .map(|i| if i % 61 == 0 { b'\n' } else { b'y' })
            .collect();
        let mut spot = Spot::NEW;
        // (input offset of buf[base], base, cursor as input offsets)
        for (offset, base, cursors) in [
            (0, 0, &[0, 10, 500, 2999][..]),
            (2999, 0, &[2999, 3000, 4000, 5999][..]),
            (5000, 1000, &[5999, 6000, 7000][..]),
            (6500, 1000, &[7000, 9000][..]),
            (6500, 0, &[9000, 9500][..]),
        ] {
            let at = counted(&input, offset);
            let mut buf = vec![0; base];
            buf.extend_from_slice(&input[offset..]);
            for &cursor in cursors {
                let pos = base + cursor - offset;
                let found = spot.locate(&buf, base, offset as u64, at, pos);
                assert_eq!(found, counted(&input, cursor), "at {cursor}");
            }
        }
    }
}
