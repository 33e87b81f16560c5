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

use super::{Chunked, Located, Step, Stop};
use crate::model::{Interner, Node};
use crate::read::document::State;
use crate::read::split;

/// Bytes of node text handed to a thread at a time.
const BATCH: usize = 1 << 20;

/// One node's text, and where it starts in the document.
struct Cut {
    text: Box<RawValue>,
    line: usize,
    column: usize,
}

/// A batch of texts and what each parsed into.
type Parsed = (Vec<Cut>, Vec<Result<Node, serde_json::Error>>);

/// The cursor's position in the document, counted on from the last call
/// while the buffer stays the same: counting from the buffer's start for
/// every node would scan it again each time.
#[derive(Default)]
struct Spot {
    /// The buffer, its start, and the position at its start, counted from.
    from: (usize, usize, usize, usize),
    at: usize,
    line: usize,
    column: usize,
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
        let pool = (self.threads > 1)
            .then(|| split::pool(self.threads))
            .flatten();
        let Some(pool) = pool else {
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
                            .map(|c| serde_json::from_slice(c.text.get().as_bytes()))
                            .collect()
                    });
                    let _ = tx.send((n, (cuts, nodes)));
                });
            };
            let mut cuts = Vec::new();
            let mut bytes = 0;
            let mut spot = Spot::default();
            let value = self.elements(key, |this, _, path| {
                let (line, column) = this.spot(&mut spot);
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
                cuts.push(Cut { text, line, column });
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

    /// The position of the cursor: the line, and the bytes since the last
    /// newline before it.
    fn spot(&self, spot: &mut Spot) -> (usize, usize) {
        let from = (
            self.buf.as_ptr() as usize,
            self.base,
            self.line,
            self.column,
        );
        if spot.from != from {
            *spot = Spot {
                from,
                at: self.base,
                line: self.line,
                column: self.column,
            };
        }
        let passed = &self.buf[spot.at..self.pos];
        match memchr::memrchr(b'\n', passed) {
            Some(nl) => {
                spot.line += memchr::memchr_iter(b'\n', passed).count();
                spot.column = passed.len() - nl - 1;
            }
            None => spot.column += passed.len(),
        }
        spot.at = self.pos;
        (spot.line, spot.column)
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
                    let (line, column) = match (error.line(), error.column()) {
                        (inner, column) if inner > 1 => (cut.line + inner - 1, column),
                        (_, column) => (cut.line, cut.column + column),
                    };
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
