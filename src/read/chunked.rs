//! The fast walk: the input is read in large chunks and every array element
//! is parsed from a slice of the chunk, which serde_json does several times
//! faster than from a reader, and without tracking the JSON path.
//!
//! It takes only well-formed input. At the first thing it does not expect
//! (bad JSON, a wrong type, an embedded job that does not parse) it gives up,
//! and the exact walk of [`super::document`] reads the input again to say
//! precisely what is wrong: from the chunk kept in memory while the input is
//! small, or from the file, reopened. Only for a large stream that cannot be
//! read twice does the error come from here, with its position but the path
//! only down to the element (`Allocs[17]`).

mod batches;
mod jobs;
mod position;
mod spot;
mod typed;

use std::io::{self, Read};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use rayon::ThreadPool;
use serde::de::{DeserializeOwned, IgnoredAny};

use super::alloc_record::AllocRecord;
use super::document::{MetaField, NamespaceName, State};
use super::internal::internal_error;
use super::owner::Owner;
use super::read_ahead::{BLOCK, Next, ROOM, ReadAhead};
use super::split::{self, Element, Embedded, Part, Spliced, Texts};
use crate::model::{CsiPlugin, CsiVolume, GoJson, Interner, NodePool, SchedulerConfig};
use crate::time::Time;
use position::Position;

/// Bytes read at a time; an element longer than this grows the buffer.
const CHUNK: usize = 8 << 20;

/// Bytes of allocations buffered before they are parsed on several threads:
/// a block, so that one block taken whole fills a batch.
const BATCH: usize = BLOCK;

/// The input is kept whole while it is no longer than this, so that a
/// failed fast walk can be replayed from memory.
const HISTORY: usize = 16 << 20;

/// Why the fast walk stopped early.
pub(super) enum Stop {
    /// Reading failed.
    Io(io::Error),
    /// The input is not what the fast walk takes. With the whole input seen
    /// so far (`history`), the exact walk can replay it; `error` is the best
    /// the fast walk can say otherwise.
    Unexpected {
        history: Option<Vec<u8>>,
        error: Option<Located>,
    },
}

/// What went wrong where: a serde_json error inside the element at `path`,
/// or (without `error`) unexpected input at the cursor.
pub(super) struct Located {
    pub(super) error: Option<serde_json::Error>,
    pub(super) line: usize,
    pub(super) column: usize,
    pub(super) path: Option<String>,
}

/// The input, buffered in chunks, with the document position of the cursor.
pub(super) struct Chunked<'r> {
    reader: &'r mut ReadAhead,
    /// The input from `buf[base]` to `buf[end]`; positions index `buf`.
    buf: Vec<u8>,
    base: usize,
    pos: usize,
    end: usize,
    eof: bool,
    /// Whether `buf` still starts at the first byte of the input.
    whole: bool,
    /// The position of `buf[base]`; kept only when the reader counts lines
    /// (a file is read again instead).
    at: Position,
    /// Input bytes before `buf[base]`, kept always: with `base` it says
    /// which input byte each index of `buf` holds.
    offset: u64,
    /// When `buf` is a read-ahead block taken whole, the newlines its own
    /// bytes (from [`ROOM`]) hold.
    block_lines: Option<usize>,
    /// A position to come back to, which compaction keeps in the buffer.
    mark: Option<usize>,
    /// Threads allocations and nodes are parsed on.
    threads: usize,
}

type Step<T> = Result<T, Stop>;

fn unexpected<T>() -> Step<T> {
    Err(Stop::Unexpected {
        history: None,
        error: None,
    })
}

impl<'r> Chunked<'r> {
    pub(super) fn new(reader: &'r mut ReadAhead, threads: usize) -> Chunked<'r> {
        Chunked {
            reader,
            buf: vec![0; CHUNK],
            base: 0,
            pos: 0,
            end: 0,
            eof: false,
            whole: true,
            at: Position::START,
            offset: 0,
            block_lines: None,
            mark: None,
            threads,
        }
    }

    /// Walks the document into `st`. A bug that panics here, or on a thread
    /// of the walk, stops it like unexpected input, placed at the cursor: the
    /// exact walk then reads the input again where it can.
    pub(super) fn walk(mut self, st: &mut State<'_>) -> Step<()> {
        let result = panic::catch_unwind(AssertUnwindSafe(|| self.document(st)))
            .unwrap_or_else(|payload| Err(self.internal(payload.as_ref())));
        match result {
            Err(Stop::Unexpected { error, .. }) => Err(Stop::Unexpected {
                error: Some(error.unwrap_or_else(|| self.locate(None, None))),
                history: self.history(),
            }),
            other => other,
        }
    }

    /// Everything read so far followed by the rest of the reader, while the
    /// buffer still holds the whole input.
    fn history(&mut self) -> Option<Vec<u8>> {
        let mut all = self.buf.get(..self.end).filter(|_| self.whole)?.to_vec();
        // A read error here shows again in the exact walk, which reports it.
        let _ = self.reader.read_to_end(&mut all);
        Some(all)
    }

    /// The stop for a panic with `payload`, at the cursor as far as the
    /// buffer's bookkeeping still holds after it.
    fn internal(&self, payload: &(dyn std::any::Any + Send)) -> Stop {
        let mut at = self.locate(None, None);
        // Only a stream too large to keep ends here: a file is read again.
        at.error = Some(serde::de::Error::custom(format!(
            "{}; save the snapshot to a file and pass its path: it is then read again the exact way",
            internal_error(payload)
        )));
        Stop::Unexpected {
            history: None,
            error: Some(at),
        }
    }

    fn document(&mut self, st: &mut State<'_>) -> Step<()> {
        self.expect(b'{')?;
        st.started = true;
        if self.peek()? == Some(b'}') {
            self.pos += 1;
        } else {
            loop {
                let key: String = self.value(None)?;
                self.expect(b':')?;
                self.member(&key, st)?;
                match self.peek()? {
                    Some(b',') => self.pos += 1,
                    Some(b'}') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return unexpected(),
                }
            }
        }
        match self.peek()? {
            None => Ok(()),
            Some(_) => unexpected(),
        }
    }

    fn member(&mut self, key: &str, st: &mut State<'_>) -> Step<()> {
        st.before_section(key);
        let value = match key {
            "Jobs" => self.jobs(key, st)?,
            "JobVersions" => self.job_versions(key, st)?,
            "Nodes" => self.each_typed(key, st, State::add_node)?,
            "Allocs" | "Allocations" => self.allocs(key, st)?,
            "Deployments" => self.each_typed(key, st, State::add_deployment)?,
            "Evals" => self.each_typed(key, st, State::add_eval)?,
            "Namespaces" => {
                let listed = self.each(key, |_, ns: NamespaceName| {
                    st.add_namespace(Some(ns.name));
                    Ok(())
                })?;
                if listed {
                    st.add_namespace(None);
                }
                listed
            }
            "SnapshotMeta" => {
                let meta: Option<MetaField> = self.value(None)?;
                st.set_meta(meta);
                true
            }
            "Now" => {
                st.now = self.value::<Option<Time>>(None)?;
                true
            }
            "EvalID" => {
                st.eval_id = self.value(None)?;
                true
            }
            "SupportsDisconnectedClients" => {
                st.supports_disconnected_clients = self.value(None)?;
                true
            }
            "NomadVersion" => {
                st.nomad_version = self.value(None)?;
                true
            }
            "SchedulerConfig" => {
                let config: Option<GoJson<SchedulerConfig>> = self.value(None)?;
                st.scheduler_config = config.map(|c| c.0);
                true
            }
            "NodePools" => {
                let pools: Option<GoJson<Vec<NodePool>>> = self.value(None)?;
                let listed = pools.is_some();
                st.node_pools = pools.map(|p| p.0).unwrap_or_default();
                listed
            }
            "CSIVolumes" => {
                let listed = self.each(key, |_, v: CsiVolume| {
                    st.add_csi_volume(Some(v));
                    Ok(())
                })?;
                if listed {
                    st.add_csi_volume(None);
                }
                listed
            }
            "CSIPlugins" => {
                let listed = self.each(key, |_, p: CsiPlugin| {
                    st.add_csi_plugin(Some(p));
                    Ok(())
                })?;
                if listed {
                    st.add_csi_plugin(None);
                }
                listed
            }
            // Skipped unread but checked, element by element for arrays so
            // that a large one never has to fit in the buffer.
            _ if self.peek()? == Some(b'[') => self.each(key, |_, _: IgnoredAny| Ok(()))?,
            _ => self.value::<IgnoredAny>(None).map(|_| true)?,
        };
        st.keys.saw(key, value);
        Ok(())
    }

    /// Allocations; with a filter, those of other jobs are only scanned.
    /// With more than one thread, what is buffered is parsed in parts by a
    /// pool of that many ([`split`]), and the proven parts are kept in order;
    /// should the pool not start, on this thread alone.
    fn allocs(&mut self, key: &str, st: &mut State<'_>) -> Step<bool> {
        if let Some(pool) = self.pool() {
            let interner = Arc::clone(&st.interner);
            return pool
                .install(|| Interner::install(&interner, || self.parallel_allocs(key, st, &pool)));
        }
        let mut scratch = Spliced::default();
        self.elements(key, |this, index, path| {
            this.alloc(key, index, path, st, &mut scratch)
        })
    }

    /// A pool of [`Self::threads`] threads, if that is more than one and it starts.
    fn pool(&self) -> Option<ThreadPool> {
        (self.threads > 1)
            .then(|| split::pool(self.threads))
            .flatten()
    }

    /// [`Self::allocs`] on the threads of `pool`, from one of them.
    fn parallel_allocs(&mut self, key: &str, st: &mut State<'_>, pool: &ThreadPool) -> Step<bool> {
        if let Some(empty) = self.open_array()? {
            return Ok(empty);
        }
        let mut scratch = Spliced::default();
        // Parsed and proven, added while the next round is parsed.
        let mut pending: Vec<Part> = Vec::new();
        let mut index = 0;
        loop {
            self.top_up()?;
            self.peek()?;
            let filter = st.filter.clone();
            let interner = Arc::clone(&st.interner);
            // The parts look texts up in the set as the round begins; the
            // texts they met are added below, in order.
            let known = std::mem::take(&mut st.job_texts);
            let held = std::mem::take(&mut st.held_sets);
            let with = split::With {
                known: &known,
                filter: &filter,
                interner: &interner,
                held: &held,
            };
            let (mut parts, added) =
                split::parse_parts(pool, &mut self.buf[..self.end], self.pos, &with, || {
                    add_parsed(st, key, &mut index, &mut pending)
                });
            st.job_texts = known;
            st.held_sets = held;
            added?;
            let mut last = None;
            for element in parts.iter_mut().flat_map(|p| &mut p.elements) {
                let entry = match &element.job {
                    Embedded::Known(entry) => Some(*entry),
                    Embedded::New(new) => Some(st.job_texts.add(new)),
                    Embedded::Absent => None,
                };
                if let (Some(entry), Some(hint)) = (entry, element.hint) {
                    st.job_texts.remember(hint, entry);
                }
                if let (Some(alloc), Some(entry)) = (&mut element.alloc, entry) {
                    alloc.job = st.job_texts.job(entry);
                }
                last = Some(element.end);
            }
            // Kept in their parts: each allocation is moved once more, into the snapshot.
            pending.extend(parts);
            match last {
                Some(end) => self.pos = end,
                None => {
                    add_parsed(st, key, &mut index, &mut pending)?;
                    self.alloc(key, index, &|| format!("{key}[{index}]"), st, &mut scratch)?;
                    index += 1;
                }
            }
            if self.separator()? {
                add_parsed(st, key, &mut index, &mut pending)?;
                return Ok(true);
            }
        }
    }

    /// One allocation at the cursor, on this thread.
    fn alloc(
        &mut self,
        key: &str,
        index: usize,
        path: &dyn Fn() -> String,
        st: &mut State<'_>,
        scratch: &mut Spliced,
    ) -> Step<()> {
        if self.alloc_known_job(key, index, st, scratch)? {
            return Ok(());
        }
        if !st.filter.is_empty() {
            self.mark = Some(self.pos);
            let owner: Result<Owner, Stop> = self.value(Some(path));
            let start = self.mark.take().expect("set above");
            let owner = owner?;
            if !st.filter.keeps(&owner.namespace, &owner.job_id) {
                return Ok(());
            }
            self.pos = start;
        }
        let record: AllocRecord = self.value(Some(path))?;
        st.add_alloc(key, index, record).or_else(|_| unexpected())
    }

    /// After an element: `Ok(true)` at the end of the array, past a comma otherwise.
    fn separator(&mut self) -> Step<bool> {
        match self.peek()? {
            Some(b',') => {
                self.pos += 1;
                Ok(false)
            }
            Some(b']') => {
                self.pos += 1;
                Ok(true)
            }
            _ => unexpected(),
        }
    }

    /// Reads until a batch's worth of input is buffered, or the end.
    fn top_up(&mut self) -> Step<()> {
        while !self.eof && self.end - self.pos < BATCH {
            self.fill()?;
        }
        Ok(())
    }

    /// The common case of an allocation whose embedded job is an object: its
    /// text is recognised (or, the first time, checked and remembered) and
    /// only the rest of the allocation is parsed, with the job spliced out
    /// ([`split::parse_element`]). `Ok(false)`, without moving the cursor,
    /// leaves anything else (and every error) to the general path.
    fn alloc_known_job(
        &mut self,
        key: &str,
        index: usize,
        st: &mut State<'_>,
        scratch: &mut Spliced,
    ) -> Step<bool> {
        let (alloc, job, len) = loop {
            let mut texts = Texts::Growing(&mut st.job_texts);
            let bytes = &mut self.buf[self.pos..self.end];
            match split::parse_element(bytes, &mut texts, &st.filter, scratch) {
                Element::Parsed {
                    alloc, job, len, ..
                } => break (alloc, job, len),
                Element::Short if !self.eof => {
                    self.fill()?;
                }
                _ => return Ok(false),
            }
        };
        if let Some(mut alloc) = alloc {
            alloc.job = match job {
                // The job of a text an allocation kept embeds is parsed.
                Embedded::Known(entry) => st.job_texts.job(entry),
                Embedded::Absent => None,
                // Only a part that shares the set hands a text back.
                Embedded::New(_) => return Ok(false),
            };
            let record = AllocRecord { alloc, job: None };
            st.add_alloc(key, index, record).or_else(|_| unexpected())?;
        }
        self.pos += len;
        Ok(true)
    }

    /// An array (or `null`) of `T`, each element handed to `f`; false for `null`.
    fn each<T: DeserializeOwned>(
        &mut self,
        key: &str,
        mut f: impl FnMut(usize, T) -> Result<(), String>,
    ) -> Step<bool> {
        self.elements(key, |this, index, path| {
            let element: T = this.value(Some(path))?;
            f(index, element)
                .map_err(|message| this.refuse(serde::de::Error::custom(message), Some(path())))
        })
    }

    /// An array (or `null`) of values, each handed to `f` as its text from
    /// the buffer, checked to be JSON; false for `null`.
    fn each_text(
        &mut self,
        key: &str,
        mut f: impl FnMut(&[u8]) -> Result<(), serde_json::Error>,
    ) -> Step<bool> {
        self.elements(key, |this, _, path| {
            this.mark = Some(this.pos);
            let checked = this.value::<IgnoredAny>(Some(path));
            let start = this.mark.take().expect("set above");
            checked?;
            f(&this.buf[start..this.pos]).map_err(|error| {
                // A parse error's line and column count from the element's
                // start; any other error is placed after the element.
                if error.line() > 0 {
                    this.pos = start;
                }
                this.refuse(error, Some(path()))
            })
        })
    }

    /// The elements of an array, each handed to `f`; false for `null`.
    fn elements(
        &mut self,
        key: &str,
        mut f: impl FnMut(&mut Self, usize, &dyn Fn() -> String) -> Step<()>,
    ) -> Step<bool> {
        if let Some(empty) = self.open_array()? {
            return Ok(empty);
        }
        let mut index = 0;
        loop {
            self.peek()?;
            f(self, index, &|| format!("{key}[{index}]"))?;
            if self.separator()? {
                return Ok(true);
            }
            index += 1;
        }
    }

    /// Past the opening of an array: `Some(false)` for `null`, `Some(true)`
    /// for an empty array, `None` when elements follow.
    fn open_array(&mut self) -> Step<Option<bool>> {
        match self.peek()? {
            Some(b'n') => return self.value::<()>(None).map(|()| Some(false)),
            Some(b'[') => self.pos += 1,
            _ => return unexpected(),
        }
        if self.peek()? == Some(b']') {
            self.pos += 1;
            return Ok(Some(true));
        }
        Ok(None)
    }

    /// One JSON value at the cursor, parsed from the buffer.
    fn value<T: DeserializeOwned>(&mut self, path: Option<&dyn Fn() -> String>) -> Step<T> {
        self.peek()?;
        let mut retried = false;
        loop {
            let slice = &self.buf[self.pos..self.end];
            let mut values = serde_json::Deserializer::from_slice(slice).into_iter::<GoJson<T>>();
            let result = values.next();
            let used = values.byte_offset();
            match result {
                // A value that ends with the buffer (a number) may go on.
                Some(Ok(GoJson(value))) if used < slice.len() || self.eof => {
                    self.pos += used;
                    return Ok(value);
                }
                // A number cut by the end of the buffer (`1.`, `-`) is
                // invalid rather than unfinished: read a little further once.
                Some(Err(e)) if !e.is_eof() && !self.eof && !retried => {
                    retried = true;
                    let need = slice.len() + 64;
                    while !self.fill()? && self.end - self.pos < need {}
                }
                Some(Err(e)) if !e.is_eof() || self.eof => {
                    return Err(self.refuse(e, path.map(|p| p())));
                }
                None if self.eof => return unexpected(),
                _ => {
                    self.fill()?;
                }
            }
        }
    }

    /// The stop for `error` in the value at the cursor, at `path`.
    fn refuse(&self, error: serde_json::Error, path: Option<String>) -> Stop {
        Stop::Unexpected {
            history: None,
            error: Some(self.locate(Some(error), path)),
        }
    }

    /// The document position of an error in the value at the cursor.
    /// Indexes a bug may have left out of order count as no bytes.
    fn locate(&self, error: Option<serde_json::Error>, path: Option<String>) -> Located {
        let mut at = self.at;
        at.pass(self.buf.get(self.base..self.pos).unwrap_or_default());
        let (line, column) = at.of(error.as_ref().map_or((1, 1), |e| (e.line(), e.column())));
        Located {
            error,
            line,
            column,
            path,
        }
    }

    /// Skips whitespace and returns the next byte, without consuming it.
    fn peek(&mut self) -> Step<Option<u8>> {
        loop {
            while self.pos < self.end {
                match self.buf[self.pos] {
                    b' ' | b'\n' | b'\r' | b'\t' => self.pos += 1,
                    b => return Ok(Some(b)),
                }
            }
            if self.eof {
                return Ok(None);
            }
            self.fill()?;
        }
    }

    fn expect(&mut self, byte: u8) -> Step<()> {
        if self.peek()? == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            unexpected()
        }
    }

    /// Reads more input behind what is buffered; `Ok(true)` at the end of input.
    fn fill(&mut self) -> Step<bool> {
        if self.eof {
            return Ok(true);
        }
        if self.whole && self.end >= HISTORY {
            self.whole = false;
        }
        let keep = self.mark.map_or(self.pos, |m| m.min(self.pos));
        if !self.whole {
            match self.reader.next_block(&self.buf[keep..self.end]) {
                Ok(Next::Block {
                    block,
                    start,
                    lines,
                }) => {
                    self.advance_position(keep);
                    self.block_lines = Some(lines);
                    let done = std::mem::replace(&mut self.buf, block);
                    self.reader.recycle(done);
                    self.pos = self.pos - keep + start;
                    self.mark = self.mark.map(|m| m - keep + start);
                    (self.base, self.end) = (start, self.buf.len());
                    return Ok(false);
                }
                Ok(Next::End) => {
                    self.eof = true;
                    return Ok(true);
                }
                Ok(Next::Copy) => {}
                Err(e) => return Err(Stop::Io(e)),
            }
        }
        self.block_lines = None;
        if !self.whole && keep > 0 {
            self.advance_position(keep);
            self.buf.copy_within(keep..self.end, 0);
            self.end -= keep;
            self.pos -= keep;
            self.mark = self.mark.map(|m| m - keep);
            self.base = 0;
        }
        if self.end == self.buf.len() {
            self.buf.resize(self.buf.len() * 2, 0);
        }
        loop {
            match self.reader.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(true);
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(false);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Stop::Io(e)),
            }
        }
    }

    /// Moves [`Self::offset`] past the bytes before `keep`, about to be
    /// dropped, and counts their lines. In a block taken whole, a stretch
    /// without newlines (all of a compact dump) is known as such from the
    /// block's count and is not scanned.
    fn advance_position(&mut self, keep: usize) {
        self.offset += (keep - self.base) as u64;
        if !self.reader.counts_lines() {
            return;
        }
        match self.block_lines {
            Some(lines) if keep >= ROOM && self.base <= ROOM => {
                self.at.pass(&self.buf[self.base..ROOM]);
                let after = memchr::memchr_iter(b'\n', &self.buf[keep..self.end]).count();
                if lines == after {
                    self.at.column += keep - ROOM;
                } else {
                    self.at.pass(&self.buf[ROOM..keep]);
                }
            }
            _ => self.at.pass(&self.buf[self.base..keep]),
        }
    }
}

/// Adds the parsed elements of the parts in `pending`, their jobs set and
/// their resources shared on their threads, as elements `index`, `index + 1`, ...
fn add_parsed(
    st: &mut State<'_>,
    key: &str,
    index: &mut usize,
    pending: &mut Vec<Part>,
) -> Step<()> {
    for element in pending.drain(..).flat_map(|p| p.elements) {
        if let Some(alloc) = element.alloc {
            let record = AllocRecord { alloc, job: None };
            st.add_shared_alloc(key, *index, record)
                .or_else(|_| unexpected())?;
        }
        *index += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::ReadFilter;
    use crate::read::read_ahead::read_ahead;

    #[test]
    fn a_panic_in_the_walk_is_a_stop_at_the_cursor() {
        let mut st = State::new("snap.json", ReadFilter::default());
        let stop = read_ahead(&b"{\"Nodes\": []}"[..], true, |r| {
            let mut walk = Chunked::new(r, 1);
            // As a bug might leave it: the cursor at the end of the buffer,
            // with more said to be buffered.
            walk.pos = CHUNK;
            walk.end = CHUNK + 1;
            walk.walk(&mut st)
        });
        let Err(Stop::Unexpected {
            history: None,
            error: Some(at),
        }) = stop
        else {
            panic!("not a located stop");
        };
        assert_eq!((at.line, at.column, at.path), (1, CHUNK + 1, None));
        assert_eq!(
            at.error.unwrap().to_string(),
            format!(
                "internal error in the reader (index out of bounds: the len is {CHUNK} but the \
                 index is {CHUNK}); please report it with the snapshot's size and shape; save \
                 the snapshot to a file and pass its path: it is then read again the exact way"
            )
        );
    }
}
