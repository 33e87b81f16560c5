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

/// Bytes of node text handed to a thread at a time.
const BATCH: usize = 1 << 20;

/// One node's text, and where it starts in the document.
struct Cut {
    text: Box<RawValue>,
    at: Position,
}

/// A batch of texts and what each parsed into.
type Parsed = (Vec<Cut>, Vec<Result<Node, serde_json::Error>>);

/// The cursor's position in the document, counted on from the last call
/// while the buffer stays the same: counting from the buffer's start for
/// every node would scan it again each time.
struct Spot {
    /// The buffer and its start when last counted, and the position there.
    origin: (*const u8, usize, Position),
    /// The byte counted up to, and its position.
    pos: usize,
    at: Position,
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
        pool.in_place_scope(|scope| {
            let send = |n: usize, cuts: Vec<Cut>| {
                let (tx, interner) = (tx.clone(), Arc::clone(&interner));
                scope.spawn(move |_: &Scope<'_>| {
                    let nodes = Interner::install(&interner, || {
                        cuts.iter()
                            .map(|c| model::from_slice(c.text.get().as_bytes()))
                            .collect()
                    });
                    let _ = tx.send((n, (cuts, nodes)));
                });
            };
            let mut cuts = Vec::new();
            let mut bytes = 0;
            let mut spot = None;
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
                if bytes >= BATCH {
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
    fn spot(&self, spot: &mut Option<Spot>) -> Position {
        let origin = (self.buf.as_ptr(), self.base, self.at);
        let spot = match spot {
            Some(spot) if spot.origin == origin => spot,
            _ => spot.insert(Spot {
                origin,
                pos: self.base,
                at: self.at,
            }),
        };
        spot.at.pass(&self.buf[spot.pos..self.pos]);
        spot.pos = self.pos;
        spot.at
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
        let (cuts, nodes) = loop {
            if let Some(batch) = self.parsed.remove(&self.added) {
                break batch;
            }
            let (n, batch) = self.done.recv().expect("a sent batch is parsed");
            self.parsed.insert(n, batch);
        };
        self.added += 1;
        for (cut, node) in cuts.iter().zip(nodes) {
            match node {
                Ok(node) => st.add_node(node),
                Err(error) => {
                    let (line, column) = cut.at.of((error.line(), error.column()));
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
