//! `Nodes` on several threads. A real client's node carries kilobytes of
//! fingerprint, and the nodes come after the allocations, so on one thread
//! ten thousand of them keep the other cores idle. The walk cuts each node's
//! text out, which is about as fast as skipping it; the pool parses the
//! texts a batch at a time while the walk cuts the next batch; the nodes are
//! added in order. The result, and the first error, are the same as on one thread.

use std::collections::BTreeMap;
use std::sync::{Arc, mpsc};

use rayon::Scope;
use serde_json::value::RawValue;

use super::{Chunked, Located, Position, Step, Stop};
use crate::model::{self, Interner, Node};
use crate::read::document::State;

/// Bytes of node text in the batches handed to the threads at once: a
/// batch is this over the thread count, between [`LEAST_BATCH`] and
/// [`MOST_BATCH`], so that the texts in flight do not grow with the threads
/// (the read's peak is here, with every allocation already held).
const IN_FLIGHT: usize = 2 << 20;
const LEAST_BATCH: usize = 128 << 10;
const MOST_BATCH: usize = 1 << 20;

/// One node's text, and where it starts in the document.
struct Cut {
    text: Box<RawValue>,
    at: Position,
}

/// Where each text of a batch started, and what each parsed into: the texts
/// are dropped once parsed.
type Parsed = (Vec<Position>, Vec<Result<Node, serde_json::Error>>);

/// The cursor's position in the document, counted on from the last call
/// while the buffer holds the same input at the same indexes: counting from
/// the buffer's start for every node would scan it again each time.
struct Spot {
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
    const NEW: Spot = Spot {
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

/// The batches sent to the pool and those parsed, to be added in order.
struct Batches {
    sent: usize,
    added: usize,
    parsed: BTreeMap<usize, Parsed>,
    done: mpsc::Receiver<(usize, Parsed)>,
    /// Elements added so far.
    index: usize,
}

impl Chunked<'_> {
    /// The nodes, added to `st`; false for `null`.
    pub(super) fn nodes(&mut self, key: &str, st: &mut State<'_>) -> Step<bool> {
        let Some(pool) = self.pool() else {
            return self.each(key, |_, node: Node| {
                st.add_node(node);
                Ok(())
            });
        };
        let interner = Arc::clone(&st.interner);
        let (tx, done) = mpsc::channel();
        let mut batches = Batches {
            sent: 0,
            added: 0,
            parsed: BTreeMap::new(),
            done,
            index: 0,
        };
        let in_flight = self.threads;
        let batch = (IN_FLIGHT / in_flight.max(1)).clamp(LEAST_BATCH, MOST_BATCH);
        pool.in_place_scope(|scope| {
            let send = |n: usize, cuts: Vec<Cut>| {
                let (tx, interner) = (tx.clone(), Arc::clone(&interner));
                scope.spawn(move |_: &Scope<'_>| {
                    let nodes = Interner::install(&interner, || {
                        cuts.iter()
                            .map(|c| model::from_slice(c.text.get().as_bytes()))
                            .collect()
                    });
                    let starts = cuts.into_iter().map(|c| c.at).collect();
                    let _ = tx.send((n, (starts, nodes)));
                });
            };
            let mut cuts = Vec::new();
            let mut bytes = 0;
            let mut spot = Spot::NEW;
            let value = self.elements(key, |this, _, path| {
                let at = this.spot(&mut spot);
                let text = match this.value::<Box<RawValue>>(Some(path)) {
                    Ok(text) => text,
                    Err(stop) => {
                        // What one thread would have met first: an earlier
                        // node's error, else this node's own.
                        batches.send_rest(std::mem::take(&mut cuts), &send);
                        batches.add_all(st, key)?;
                        this.value::<Node>(Some(path))?;
                        return Err(stop);
                    }
                };
                bytes += text.get().len();
                cuts.push(Cut { text, at });
                if bytes >= batch {
                    bytes = 0;
                    batches.send_rest(std::mem::take(&mut cuts), &send);
                    while batches.sent - batches.added > in_flight {
                        batches.add_next(st, key)?;
                    }
                }
                Ok(())
            })?;
            batches.send_rest(cuts, &send);
            batches.add_all(st, key)?;
            Ok(value)
        })
    }

    /// The position of the cursor.
    fn spot(&self, spot: &mut Spot) -> Position {
        spot.locate(&self.buf, self.base, self.offset, self.at, self.pos)
    }
}

impl Batches {
    /// Hands `cuts`, if any, to the pool with `send`.
    fn send_rest(&mut self, cuts: Vec<Cut>, send: &impl Fn(usize, Vec<Cut>)) {
        if !cuts.is_empty() {
            send(self.sent, cuts);
            self.sent += 1;
        }
    }

    /// Adds every batch sent.
    fn add_all(&mut self, st: &mut State<'_>, key: &str) -> Step<()> {
        while self.added < self.sent {
            self.add_next(st, key)?;
        }
        Ok(())
    }

    /// Waits for the next batch in order and adds its nodes; the first that
    /// did not parse stops the walk, located as on one thread.
    fn add_next(&mut self, st: &mut State<'_>, key: &str) -> Step<()> {
        let (starts, nodes) = loop {
            if let Some(batch) = self.parsed.remove(&self.added) {
                break batch;
            }
            let (n, batch) = self.done.recv().expect("a sent batch is parsed");
            self.parsed.insert(n, batch);
        };
        self.added += 1;
        for (at, node) in starts.iter().zip(nodes) {
            match node {
                Ok(node) => st.add_node(node),
                Err(error) => {
                    let (line, column) = at.of((error.line(), error.column()));
                    let path = Some(format!("{key}[{}]", self.index));
                    return Err(Stop::Unexpected {
                        history: None,
                        error: Some(Located {
                            error: Some(error),
                            line,
                            column,
                            path,
                        }),
                    });
                }
            }
            self.index += 1;
        }
        Ok(())
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
