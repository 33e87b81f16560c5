//! Sections read on several threads a batch at a time. Their elements come
//! after the allocations, so on one thread they keep the other cores idle:
//! ten thousand nodes of kilobytes of fingerprint each, or the job versions
//! of a cluster of many small jobs. The walk cuts each element's text out,
//! which is about as fast as skipping it; the pool prepares the texts a
//! batch at a time while the walk cuts the next batch; the walk settles
//! what was prepared in order. The result, and the first error, are the
//! same as on one thread.

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, mpsc};

use rayon::{Scope, ThreadPool};
use serde::de::IgnoredAny;

use super::spot::Spot;
use super::{Chunked, Located, Position, Step, Stop};
use crate::model::Interner;

/// Bytes of text in the batches handed to the threads at once, by default
/// ([`Batched::in_flight`] says otherwise): a batch is this over the thread
/// count, between [`LEAST_BATCH`] and [`MOST_BATCH`], so that the texts in
/// flight do not grow with the threads.
pub(super) const IN_FLIGHT: usize = 2 << 20;
/// The same for the job sections: the read's memory peaks as they end,
/// every allocation and job text held, and texts in flight add to the peak
/// (the default added 3 MB on many-jobs 200k; smaller batches cost no
/// measurable time).
pub(super) const JOBS_IN_FLIGHT: usize = 512 << 10;
const LEAST_BATCH: usize = 64 << 10;
const MOST_BATCH: usize = 1 << 20;

/// Where each element of a batch starts and ends in the document, and what
/// each was prepared into: the texts are dropped once prepared.
struct Prepared<P> {
    spans: Vec<(Position, Position)>,
    out: Vec<P>,
}

/// A batch as a thread hands it back: prepared, or the panic it raised.
type Done<P> = (usize, std::thread::Result<Prepared<P>>);

/// The batches sent to the pool and those prepared, to be settled in order.
struct Order<P> {
    sent: usize,
    settled: usize,
    waiting: BTreeMap<usize, std::thread::Result<Prepared<P>>>,
    done: mpsc::Receiver<Done<P>>,
    /// Elements settled so far.
    index: usize,
}

/// How a section's elements are read: `prepare` runs on the pool's threads
/// with the read's interner installed, on each element's text and what
/// `ahead` knew of it; `settle` on the walking thread in the elements'
/// order; `check`, on the walking thread at an element the cut refused,
/// reads it as one thread would so that its error is the same.
pub(super) struct Batched<'f, P, S, C, A: Ahead = ()> {
    /// Bytes of text in flight ([`IN_FLIGHT`]).
    pub(super) in_flight: usize,
    pub(super) prepare: Prepare<'f, P, A::Found>,
    pub(super) settle: S,
    pub(super) check: C,
    pub(super) ahead: A,
}

/// How the pool prepares an element: from its text and what the walk
/// found of it.
pub(super) type Prepare<'f, P, F> = &'f (dyn Fn(&[u8], Option<F>) -> P + Sync);

/// An element's text cut out for the pool, where it is in the document,
/// and what the walk found of it.
struct Cut<F> {
    text: Box<[u8]>,
    start: Position,
    end: Position,
    found: Option<F>,
}

/// What the walk may know of an element before it checks it: an element
/// that is a text checked before (a job version an allocation embedded)
/// needs no check, only its length.
pub(super) trait Ahead {
    /// What the walk found of a known element, handed on to `prepare`.
    type Found: Copy + Send;
    /// The length of the element at the start of `bytes`, and what was
    /// found of it, if it is a text checked before; `None` to check it.
    fn known(&mut self, bytes: &[u8]) -> Option<(usize, Self::Found)>;
    /// Notes the element `text` the walk has just passed.
    fn passed(&mut self, text: &[u8]);
}

/// Nothing known ahead: every element is checked.
impl Ahead for () {
    type Found = ();

    fn known(&mut self, _: &[u8]) -> Option<(usize, ())> {
        None
    }

    fn passed(&mut self, _: &[u8]) {}
}

impl Chunked<'_> {
    /// The array (or `null`: false) at the cursor, its elements read on
    /// `pool` as `how` says. An error `settle` returns is located as
    /// [`Chunked::each_text`] locates it: one with a line in the element's
    /// text, and anything else just after the element. An element larger
    /// than a batch is prepared where it lies in the buffer, on the walking
    /// thread once those before it are settled: a copy would double what
    /// it takes.
    pub(super) fn in_batches<P, S, C, A>(
        &mut self,
        key: &str,
        pool: &ThreadPool,
        interner: &Arc<Interner>,
        mut how: Batched<'_, P, S, C, A>,
    ) -> Step<bool>
    where
        P: Send,
        S: FnMut(P) -> Result<(), serde_json::Error>,
        C: FnMut(&mut Self, &dyn Fn() -> String) -> Step<()>,
        A: Ahead,
    {
        let (tx, done) = mpsc::channel();
        let mut order = Order {
            sent: 0,
            settled: 0,
            waiting: BTreeMap::new(),
            done,
            index: 0,
        };
        let batches_in_flight = self.threads;
        let batch = (how.in_flight / batches_in_flight.max(1)).clamp(LEAST_BATCH, MOST_BATCH);
        let prepare = how.prepare;
        pool.in_place_scope(|scope| {
            let send = |n: usize, cuts: Vec<Cut<A::Found>>| {
                let tx = tx.clone();
                scope.spawn(move |_: &Scope<'_>| {
                    let prepared = panic::catch_unwind(AssertUnwindSafe(|| {
                        let out = Interner::install(interner, || {
                            cuts.iter().map(|c| prepare(&c.text, c.found)).collect()
                        });
                        let spans = cuts.into_iter().map(|c| (c.start, c.end)).collect();
                        Prepared { spans, out }
                    }));
                    let _ = tx.send((n, prepared));
                });
            };
            let mut cuts = Vec::new();
            let mut bytes = 0;
            let mut spot = Spot::NEW;
            let value = self.elements(key, |this, _, path| {
                let start = this.spot(&mut spot);
                this.mark = Some(this.pos);
                let known = how.ahead.known(&this.buf[this.pos..this.end]);
                let checked = match known {
                    Some((len, _)) => {
                        this.pos += len;
                        Ok(IgnoredAny)
                    }
                    None => this.value::<IgnoredAny>(Some(path)),
                };
                let found = known.map(|(_, found)| found);
                let from = this.mark.take().expect("set above");
                if let Err(stop) = checked {
                    // What one thread would have met first: an earlier
                    // element's error, else this one's own.
                    order.send(std::mem::take(&mut cuts), &send);
                    order.settle_all(&mut how.settle, key)?;
                    (how.check)(this, path)?;
                    return Err(stop);
                }
                let end = this.spot(&mut spot);
                let text = &this.buf[from..this.pos];
                how.ahead.passed(text);
                if text.len() > batch {
                    // Too large to copy: read where it is, after the rest.
                    order.send(std::mem::take(&mut cuts), &send);
                    order.settle_all(&mut how.settle, key)?;
                    let out = prepare(text, found);
                    return order.settle_one(out, (start, end), &mut how.settle, key);
                }
                bytes += text.len();
                cuts.push(Cut {
                    text: Box::from(text),
                    start,
                    end,
                    found,
                });
                if bytes >= batch {
                    bytes = 0;
                    order.send(std::mem::take(&mut cuts), &send);
                    while order.sent - order.settled > batches_in_flight {
                        order.settle_next(&mut how.settle, key)?;
                    }
                }
                Ok(())
            })?;
            order.send(cuts, &send);
            order.settle_all(&mut how.settle, key)?;
            Ok(value)
        })
    }
}

impl<P> Order<P> {
    /// Hands `cuts`, if any, to the pool with `send`.
    fn send<T>(&mut self, cuts: Vec<T>, send: &impl Fn(usize, Vec<T>)) {
        if !cuts.is_empty() {
            send(self.sent, cuts);
            self.sent += 1;
        }
    }

    /// Settles every batch sent.
    fn settle_all(
        &mut self,
        settle: &mut impl FnMut(P) -> Result<(), serde_json::Error>,
        key: &str,
    ) -> Step<()> {
        while self.settled < self.sent {
            self.settle_next(settle, key)?;
        }
        Ok(())
    }

    /// Waits for the next batch in order and settles its elements; the
    /// first that fails stops the walk, located as on one thread. A panic
    /// on a thread of the pool goes on here.
    fn settle_next(
        &mut self,
        settle: &mut impl FnMut(P) -> Result<(), serde_json::Error>,
        key: &str,
    ) -> Step<()> {
        let prepared = loop {
            if let Some(batch) = self.waiting.remove(&self.settled) {
                break batch;
            }
            let (n, batch) = self.done.recv().expect("a sent batch is handed back");
            self.waiting.insert(n, batch);
        };
        let prepared = prepared.unwrap_or_else(|payload| panic::resume_unwind(payload));
        self.settled += 1;
        for (span, out) in prepared.spans.into_iter().zip(prepared.out) {
            self.settle_one(out, span, settle, key)?;
        }
        Ok(())
    }

    /// Settles the element at `span`; its failure stops the walk, located
    /// as on one thread.
    fn settle_one(
        &mut self,
        out: P,
        (start, end): (Position, Position),
        settle: &mut impl FnMut(P) -> Result<(), serde_json::Error>,
        key: &str,
    ) -> Step<()> {
        if let Err(error) = settle(out) {
            let at = if error.line() > 0 { start } else { end };
            let (line, column) = at.of((error.line(), error.column()));
            return Err(Stop::Unexpected {
                history: None,
                error: Some(Located {
                    error: Some(error),
                    line,
                    column,
                    path: Some(format!("{key}[{}]", self.index)),
                }),
            });
        }
        self.index += 1;
        Ok(())
    }
}
