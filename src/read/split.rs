//! The allocation array parsed in parts (pieces of a round's buffer) on
//! several threads, from one buffer.
//!
//! A JSON array cannot be cut at an element boundary without scanning it
//! from the start, so the cut is guessed: past each piece's offset in the
//! buffer ([`piece_offsets`]), the first `{` that follows a `,` and opens
//! with the key the first element opens with (`"ID"`). Each part is parsed element by element from its
//! guess. A guess is proven right when the part before it, itself proven,
//! ends exactly there; the parts after the first unproven one are dropped.
//! A proven part was parsed from a true element start with the texts the
//! one-thread walk would know, so the result is the same as that walk's.
//!
//! The parts are many more than the threads, and each thread takes the next
//! part no one has taken ([`pieces`]): with one fixed share per thread, the
//! walking thread waited at the end of every round for a share whose thread
//! the kernel had not run yet, which on a machine busy with other work cost
//! more than the second thread gave.
//!
//! Every thread, the caller's among them, looks job texts up in the set as
//! it was when the round began, shared by all (it holds hashes, not texts,
//! and is not copied). A text the set does not know is checked, and its job
//! parsed, on the thread, once per thread and round, and handed back
//! ([`Embedded::New`]); the reader adds them in order after the round,
//! keeping the first of a text two parts met, as one thread would. Where jobs
//! are many, one allocation in six embeds a version not seen before, so the
//! parse of new versions is spread over the threads rather than left to the
//! one that walks the array.

use std::collections::HashMap;
use std::sync::Arc;

use foldhash::fast::FixedState;
use memchr::memmem;
use rayon::{ThreadPool, ThreadPoolBuilder};
use serde::de::DeserializeOwned;

use super::ReadFilter;
use super::alloc_decode;
use super::alloc_record::{AllocRecord, FastRecord};
use super::job_texts::{Found, JobTexts, Lookup, NewText};
use super::owner::Owner;
use super::scan::{JobSpan, Scan, scan};
use super::volatile::Key;
use crate::model::{self, Allocation, Interner};

mod held_sets;
mod pieces;

pub(super) use held_sets::HeldSets;

/// Bytes of a piece at most: a round's buffer is cut into pieces, at least
/// one per thread, taken by the threads one at a time ([`piece_offsets`]).
const PIECE: usize = 256 << 10;

/// Bytes of a piece at least, unless the round is too short to give each
/// thread one that long.
const LEAST_PIECE: usize = 64 << 10;

/// Bytes of an allocation element without its job, about the least a real
/// one takes.
const ELEMENT_GUESS: usize = 2 << 10;

/// One allocation element a part parsed.
pub(super) struct Parsed {
    /// Where the element ends in the buffer.
    pub(super) end: usize,
    /// The allocation; `None` when the filter drops it.
    pub(super) alloc: Option<Allocation>,
    /// Its job text.
    pub(super) job: Embedded,
    /// A hash of its job's ID ([`JobSpan::hint`]).
    pub(super) hint: Option<u64>,
}

/// The job text an allocation embeds.
#[derive(Clone)]
pub(super) enum Embedded {
    /// A known text's entry.
    Known(usize),
    /// A text the shared set did not know, one valid JSON value, with its
    /// job parsed if the allocation is kept.
    New(Arc<NewText>),
    /// `"Job": null`, or no `Job` key.
    Absent,
}

/// What one part parsed, in order.
pub(super) struct Part {
    pub(super) elements: Vec<Parsed>,
    /// Whether the element after the last one starts exactly where the next
    /// part was guessed to start.
    pub(super) reached: bool,
}

/// The job texts a part may use.
pub(super) enum Texts<'a> {
    /// The reader's own, on one thread: a new text is checked, parsed and
    /// added at once.
    Growing(&'a mut JobTexts),
    /// The set as the round began, shared by the parts: a new text is
    /// checked and parsed once per part (`met`), and handed back.
    Shared {
        known: &'a JobTexts,
        met: HashMap<u128, Arc<NewText>, FixedState>,
    },
}

impl Texts<'_> {
    fn get(&self) -> &JobTexts {
        match self {
            Texts::Growing(t) => t,
            Texts::Shared { known, .. } => known,
        }
    }

    /// Notes the job's text in the reader's own texts.
    fn remember(&mut self, hint: u64, entry: usize) {
        if let Texts::Growing(t) = self {
            t.remember(hint, entry);
        }
    }

    /// The job text `text`, which the scan recognised as `known` or did not,
    /// of an allocation the filter keeps or not (`keep`): its entry, or, if
    /// it is JSON, the text added or handed back as new. The job of an
    /// allocation kept is parsed.
    fn admit(&mut self, text: &[u8], known: Option<usize>, keep: bool) -> Option<Embedded> {
        let found = known.map_or_else(|| self.get().lookup(text), Lookup::Known);
        let key = match found {
            Lookup::Known(entry) if !keep || self.get().parsed(entry).is_some() => {
                return Some(Embedded::Known(entry));
            }
            // Only allocations the filter dropped embedded it so far.
            Lookup::Known(entry) => match self {
                Texts::Growing(t) => {
                    let prepared = Found::Unparsed(entry).prepare(text).ok()?;
                    t.settle(prepared);
                    return Some(Embedded::Known(entry));
                }
                Texts::Shared { .. } => Key::of(text),
            },
            Lookup::New(key) => key,
        };
        if let Texts::Shared { met, .. } = self
            && let Some(new) = met.get(&key.shape())
            && (!keep || new.parsed().is_some())
        {
            return Some(Embedded::New(Arc::clone(new)));
        }
        let new = NewText::check(text, key, keep).ok()?;
        Some(match self {
            Texts::Growing(t) => Embedded::Known(t.add(&new)),
            Texts::Shared { met, .. } => {
                let new = Arc::new(new);
                met.insert(new.shape(), Arc::clone(&new));
                Embedded::New(new)
            }
        })
    }
}

/// What the threads of a round read with.
#[derive(Clone, Copy)]
pub(super) struct With<'a> {
    /// The job texts as the round began.
    pub(super) known: &'a JobTexts,
    pub(super) filter: &'a ReadFilter,
    pub(super) interner: &'a Arc<Interner>,
    /// Each thread's copies of plain resources ([`held_sets`]).
    pub(super) held: &'a HeldSets,
}

/// Parses the complete allocation elements of `buf[start..]` in pieces on
/// the threads of `pool`, and returns the proven pieces, the first one first,
/// with what `own` returned. `start` must be an element start.
///
/// The caller runs `own` (adding the last round's allocations) while the
/// pool's other threads start on the pieces, then takes pieces itself: the
/// threads take the next piece not yet taken ([`pieces`]), so that none waits
/// on another's share while a piece is left, whether another thread is slow
/// to start, or does not run at all on a machine busy with other work. Each
/// thread looks job texts up in `known`. Called on a thread of `pool`.
pub(super) fn parse_parts<R>(
    pool: &ThreadPool,
    buf: &mut [u8],
    start: usize,
    with: &With<'_>,
    own: impl FnOnce() -> R,
) -> (Vec<Part>, R) {
    let With {
        known,
        filter,
        interner,
        held,
    } = *with;
    let threads = pool.current_num_threads();
    let starts = guess_starts(buf, start, &piece_offsets(buf.len() - start, threads));
    let mut regions = Vec::with_capacity(starts.len());
    let mut rest = &mut buf[start..];
    for (i, &at) in starts.iter().enumerate() {
        let (region, after) = match starts.get(i + 1) {
            Some(&next) => rest.split_at_mut(next - at),
            None => (rest, &mut [][..]),
        };
        regions.push(Region {
            bytes: region,
            offset: at,
            last: i + 1 == starts.len(),
        });
        rest = after;
    }
    let pieces = pieces::Pieces::new(regions);
    let work = || {
        let mut texts = Texts::Shared {
            known,
            met: HashMap::default(),
        };
        held.with(|held| {
            pieces.work(|region| {
                let mut part = parse_part(region, &mut texts, filter);
                let allocs = part.elements.iter_mut().filter_map(|e| e.alloc.as_mut());
                held_sets::share(held, allocs);
                let reached = part.reached;
                (part, reached)
            });
        });
    };
    let result = pool.in_place_scope(|scope| {
        for _ in 1..threads {
            scope.spawn(|_| Interner::install(interner, work));
        }
        let result = own();
        work();
        result
    });
    (pieces.proven(), result)
}

/// The threads that parse the parts, one per part, kept for the whole
/// allocation array: a thread started for each round took longer to start
/// than a round's parse on a small VM. `None` when no thread can be started.
pub(super) fn pool(threads: usize) -> Option<ThreadPool> {
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("plan-inspect-read-{i}"))
        .build()
        .ok()
}

/// One part's stretch of the buffer, at `offset` in it.
pub(super) struct Region<'b> {
    bytes: &'b mut [u8],
    offset: usize,
    last: bool,
}

/// Where the pieces of a round of `len` bytes start, from its start: a
/// piece is a share of what is left after it, between [`LEAST_PIECE`] and
/// [`PIECE`], so that they shrink towards the end. The round ends when the
/// last piece taken does, and the other threads wait for it: a short one
/// keeps that wait short, and the long ones before keep the pieces few.
/// At least one piece per thread.
fn piece_offsets(len: usize, threads: usize) -> Vec<usize> {
    let threads = threads.max(1);
    let least = len.div_ceil(threads).clamp(1, LEAST_PIECE);
    let mut offsets = vec![0];
    let mut at = 0;
    loop {
        let left = len - at;
        let size = (left / (2 * threads)).clamp(least, PIECE);
        if size >= left {
            return offsets;
        }
        at += size;
        offsets.push(at);
    }
}

/// The start of the first piece, then a guessed element start near each
/// further offset from it, increasing; fewer when none is found.
fn guess_starts(buf: &[u8], start: usize, offsets: &[usize]) -> Vec<usize> {
    let mut starts = vec![start];
    let Some(key) = first_key(buf, start) else {
        return starts;
    };
    let finder = memmem::Finder::new(key);
    for &offset in offsets.iter().skip(1) {
        let from = (start + offset).max(starts[starts.len() - 1] + 1);
        match next_start(buf, from, &finder) {
            Some(at) => starts.push(at),
            None => break,
        }
    }
    starts
}

/// The first key of the object at `at`, with its quotes, if it has no escapes.
fn first_key(buf: &[u8], at: usize) -> Option<&[u8]> {
    if buf.get(at) != Some(&b'{') {
        return None;
    }
    let open = at + 1 + buf[at + 1..].iter().position(|&b| !is_space(b))?;
    if buf[open] != b'"' {
        return None;
    }
    let close = open + 1 + memchr::memchr2(b'"', b'\\', &buf[open + 1..])?;
    (buf[close] == b'"').then(|| &buf[open..=close])
}

/// The first `{` at or after `from` that follows a `,` and opens with the
/// key `finder` looks for, followed by a `:`.
///
/// In valid JSON such a `{` is never inside a string: its key's opening
/// quote would have to be escaped there. It may still open a nested object,
/// which the proof of the part before rules out.
fn next_start(buf: &[u8], from: usize, finder: &memmem::Finder<'_>) -> Option<usize> {
    let mut i = from;
    while i < buf.len() {
        let key = i + finder.find(&buf[i..])?;
        i = key + 1;
        let Some(brace) = before_space(buf, key) else {
            continue;
        };
        if buf[brace] != b'{' || before_space(buf, brace).is_none_or(|c| buf[c] != b',') {
            continue;
        }
        let after = key + finder.needle().len();
        if buf[after..].iter().find(|&&b| !is_space(b)) == Some(&b':') {
            return Some(brace);
        }
    }
    None
}

/// The index of the last byte before `at` that is not whitespace.
fn before_space(buf: &[u8], at: usize) -> Option<usize> {
    buf[..at].iter().rposition(|&b| !is_space(b))
}

/// Parses the elements of `region`, which starts with one, at its `offset`
/// in the buffer; the next part's region follows unless it is the `last`.
fn parse_part(region: Region<'_>, texts: &mut Texts<'_>, filter: &ReadFilter) -> Part {
    let Region {
        bytes: region,
        offset,
        last,
    } = region;
    // Room for the elements of a piece of small allocations, so that the
    // list is not grown, and moved, element by element.
    let mut elements = Vec::with_capacity(region.len() / ELEMENT_GUESS + 1);
    let mut scratch = Spliced::default();
    let mut at = 0;
    let reached = loop {
        if !last && at >= region.len() {
            break at == region.len();
        }
        let Element::Parsed {
            alloc,
            job,
            hint,
            len,
        } = parse_element(&mut region[at..], texts, filter, &mut scratch)
        else {
            break false;
        };
        let end = at + len;
        elements.push(Parsed {
            end: offset + end,
            alloc,
            job,
            hint,
        });
        // A comma and the next element, or the part ends here.
        let Some(comma) = region[end..].iter().position(|&b| !is_space(b)) else {
            break false;
        };
        if region[end + comma] != b',' {
            break false;
        }
        let next = end + comma + 1;
        let Some(space) = region[next..].iter().position(|&b| !is_space(b)) else {
            break !last;
        };
        at = next + space;
    };
    Part { elements, reached }
}

/// What [`parse_element`] made of the bytes at an element start. Returned
/// at once: boxing the allocation would cost an allocation per element.
#[allow(clippy::large_enum_variant)]
pub(super) enum Element {
    /// The allocation (`None` when the filter drops it), its job text and
    /// the hash of its job's ID, and the element's length.
    Parsed {
        alloc: Option<Allocation>,
        job: Embedded,
        hint: Option<u64>,
        len: usize,
    },
    /// The bytes end before the element does.
    Short,
    /// Anything else: no job object, a text the caller may not add, or
    /// something that does not parse (the exact walk says what).
    Unusual,
}

/// The allocation element at the start of `bytes`, its job spliced out.
pub(super) fn parse_element(
    bytes: &mut [u8],
    texts: &mut Texts<'_>,
    filter: &ReadFilter,
    scratch: &mut Spliced,
) -> Element {
    let job = match scan(bytes, texts.get()) {
        Scan::Job(job) => job,
        Scan::Incomplete => return Element::Short,
        Scan::NoJob => return parse_without_job(bytes, filter),
    };
    let mut dropped = None;
    if !filter.is_empty() {
        match scratch.parse::<Owner>(bytes, &job) {
            Splice::Value(owner, len) if !filter.keeps(&owner.namespace, &owner.job_id) => {
                dropped = Some(len);
            }
            Splice::Value(..) => {}
            Splice::Short => return Element::Short,
            Splice::Bad => return Element::Unusual,
        }
    }
    let text = &bytes[job.start..job.end];
    let Some(embedded) = texts.admit(text, job.known, dropped.is_none()) else {
        return Element::Unusual;
    };
    if let (Embedded::Known(entry), Some(hint)) = (&embedded, job.hint) {
        texts.remember(hint, *entry);
    }
    if let Some(len) = dropped {
        return Element::Parsed {
            alloc: None,
            job: embedded,
            hint: job.hint,
            len,
        };
    }
    let owner = match &embedded {
        Embedded::Known(entry) => texts.get().parsed(*entry),
        Embedded::New(new) => new.parsed(),
        Embedded::Absent => None,
    };
    if let Some((alloc, len)) = alloc_decode::decode(bytes, Some(&job), owner) {
        return Element::Parsed {
            alloc: Some(alloc),
            job: embedded,
            hint: job.hint,
            len,
        };
    }
    // A record, not an `Allocation`, so that a second `Job` key is still a duplicate.
    match scratch.parse::<FastRecord>(bytes, &job) {
        Splice::Value(FastRecord(AllocRecord { alloc, job: None }), len) => Element::Parsed {
            alloc: Some(alloc),
            job: embedded,
            hint: job.hint,
            len,
        },
        Splice::Short => Element::Short,
        _ => Element::Unusual,
    }
}

/// An element the scan found no job object in: parsed whole, it is an
/// allocation without a job (`"Job": null` or no `Job` key), or unusual.
fn parse_without_job(bytes: &[u8], filter: &ReadFilter) -> Element {
    if !filter.is_empty() {
        match first_value::<Owner>(bytes) {
            Ok((owner, len)) if !filter.keeps(&owner.namespace, &owner.job_id) => {
                return Element::Parsed {
                    alloc: None,
                    job: Embedded::Absent,
                    hint: None,
                    len,
                };
            }
            Ok(_) => {}
            Err(e) if e.is_eof() => return Element::Short,
            Err(_) => return Element::Unusual,
        }
    }
    if let Some((alloc, len)) = alloc_decode::decode(bytes, None, None) {
        return Element::Parsed {
            alloc: Some(alloc),
            job: Embedded::Absent,
            hint: None,
            len,
        };
    }
    match first_value::<FastRecord>(bytes) {
        Ok((FastRecord(AllocRecord { alloc, job: None }), len)) => Element::Parsed {
            alloc: Some(alloc),
            job: Embedded::Absent,
            hint: None,
            len,
        },
        Err(e) if e.is_eof() => Element::Short,
        _ => Element::Unusual,
    }
}

/// The copy of an allocation element with its job spliced out, reused from
/// one element to the next.
#[derive(Default)]
pub(super) struct Spliced {
    text: Vec<u8>,
    /// The length of the last element after its job.
    tail: usize,
}

/// What [`Spliced::parse`] made of an element.
enum Splice<T> {
    /// The value and the element's length.
    Value(T, usize),
    /// The element goes on past the bytes given.
    Short,
    /// It does not parse.
    Bad,
}

impl Spliced {
    /// The element at the start of `bytes` with `job` replaced by `null`.
    ///
    /// Where the job is longer than what comes before it, that is moved
    /// into the job's place, next to a `null`, and the job's end, kept
    /// aside, is put back after the parse: only a few hundred bytes move.
    /// Otherwise a copy is parsed, of a little more than the rest of the
    /// element, guessed from the last one: the element ends where the
    /// parse ends.
    fn parse<T: DeserializeOwned>(&mut self, bytes: &mut [u8], job: &JobSpan) -> Splice<T> {
        if job.end - job.start >= job.start + 4 {
            let from = job.end - 4 - job.start;
            self.text.clear();
            self.text.extend_from_slice(&bytes[from..job.end]);
            bytes.copy_within(..job.start, from);
            bytes[job.end - 4..job.end].copy_from_slice(b"null");
            let parsed = first_value(&bytes[from..]);
            bytes[from..job.end].copy_from_slice(&self.text);
            return match parsed {
                Ok((value, len)) => Splice::Value(value, from + len),
                Err(e) if e.is_eof() => Splice::Short,
                Err(_) => Splice::Bad,
            };
        }
        let available = bytes.len() - job.end;
        let mut guess = self.tail + self.tail / 4 + 512;
        loop {
            let take = guess.min(available);
            self.text.clear();
            self.text.extend_from_slice(&bytes[..job.start]);
            self.text.extend_from_slice(b"null");
            self.text.extend_from_slice(&bytes[job.end..job.end + take]);
            match first_value::<T>(&self.text) {
                Ok((value, len)) => {
                    let tail = len - job.start - 4;
                    self.tail = tail;
                    return Splice::Value(value, job.end + tail);
                }
                Err(e) if !e.is_eof() => return Splice::Bad,
                _ if take < available => guess = guess.saturating_mul(2),
                _ => return Splice::Short,
            }
        }
    }
}

/// The first JSON value in `bytes` and its length ([`model::first_value`]).
fn first_value<T: DeserializeOwned>(bytes: &[u8]) -> Result<(T, usize), serde_json::Error> {
    model::first_value(serde_json::Deserializer::from_slice(bytes))
}

/// JSON's whitespace.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

#[cfg(test)]
mod tests {
    use super::*;

    const JOB: &str = r#"{"ID":"web","TaskGroups":[{"Name":"web"}]}"#;

    fn alloc(id: &str, extra: &str) -> String {
        format!(r#"{{"ID":"{id}","Job":{JOB},"JobID":"web","TaskGroup":"web"{extra}}}"#)
    }

    /// `[a0,a1,...]` with the array's opening bracket at 0.
    fn array(allocs: &[String], separator: &str) -> String {
        format!("[{}]", allocs.join(separator))
    }

    /// The parts of `text` on `threads` threads, with the texts `known`;
    /// the buffer must come back unchanged.
    fn parts_knowing(text: &str, threads: usize, known: &[&str]) -> (Vec<Part>, JobTexts) {
        let mut texts = JobTexts::default();
        for t in known {
            texts.insert(t.as_bytes()).unwrap();
        }
        let filter = ReadFilter::default();
        let interner = Arc::new(Interner::default());
        let mut buf = text.as_bytes().to_vec();
        let pool = pool(threads).unwrap();
        let held = HeldSets::default();
        let with = With {
            known: &texts,
            filter: &filter,
            interner: &interner,
            held: &held,
        };
        let (parts, ()) = pool.install(|| parse_parts(&pool, &mut buf, 1, &with, || ()));
        assert_eq!(buf, text.as_bytes());
        (parts, texts)
    }

    fn parts(text: &str, threads: usize) -> Vec<Part> {
        parts_knowing(text, threads, &[]).0
    }

    /// The one part of `text` read with the reader's own texts.
    fn grown(text: &str) -> (Part, JobTexts) {
        let mut texts = JobTexts::default();
        let mut buf = text.as_bytes().to_vec();
        let region = Region {
            bytes: &mut buf[1..],
            offset: 1,
            last: true,
        };
        let part = parse_part(
            region,
            &mut Texts::Growing(&mut texts),
            &ReadFilter::default(),
        );
        (part, texts)
    }

    fn ids(parts: &[Part]) -> Vec<String> {
        parts
            .iter()
            .flat_map(|p| &p.elements)
            .map(|e| e.alloc.as_ref().unwrap().id.to_string())
            .collect()
    }

    fn texts_of(parts: &[Part]) -> Vec<&Embedded> {
        parts
            .iter()
            .flat_map(|p| &p.elements)
            .map(|e| &e.job)
            .collect()
    }

    #[test]
    fn guesses_land_on_element_starts_in_compact_and_indented_arrays() {
        let allocs: Vec<String> = (0..8).map(|i| alloc(&format!("a{i}"), "")).collect();
        for separator in [",", ",\n    ", " , "] {
            let text = array(&allocs, separator);
            let starts = guess_starts(text.as_bytes(), 1, &piece_offsets(text.len() - 1, 3));
            assert_eq!(starts.len(), 3, "{text}");
            for &s in &starts[1..] {
                assert!(text[s..].starts_with(r#"{"ID":"a"#), "{}", &text[s..]);
            }
        }
    }

    #[test]
    fn pieces_shrink_towards_the_end_of_a_round_and_each_thread_gets_one() {
        let sizes = |len: usize, threads: usize| {
            let mut offsets = piece_offsets(len, threads);
            offsets.push(len);
            offsets.windows(2).map(|w| w[1] - w[0]).collect::<Vec<_>>()
        };
        let round = sizes(2 << 20, 2);
        assert_eq!(round.iter().sum::<usize>(), 2 << 20);
        assert_eq!(round[0], PIECE);
        assert!(round.windows(2).all(|w| w[1] <= w[0]), "{round:?}");
        assert!(round[round.len() - 2] == LEAST_PIECE, "{round:?}");
        assert!(round.len() < (2 << 20) / LEAST_PIECE / 2, "{round:?}");
        for threads in [1, 2, 3, 7] {
            assert_eq!(sizes(4096, threads).len(), threads);
            assert!(sizes(1 << 20, threads).len() > threads);
        }
        assert_eq!(sizes(1, 4), [1]);
    }

    #[test]
    fn a_key_inside_a_string_is_no_element_start() {
        // The only `{"ID":` after a comma is inside a string, where its quotes are escaped.
        let text = array(
            &[alloc("a0", r#","Note":",{\"ID\":1}""#), alloc("a1", "")],
            ",",
        );
        let finder = memmem::Finder::new(r#""ID""#);
        let next = next_start(text.as_bytes(), 2, &finder).unwrap();
        assert!(text[next..].starts_with(r#"{"ID":"a1""#));
    }

    #[test]
    fn every_part_after_the_first_is_proven_by_the_one_before() {
        let allocs: Vec<String> = (0..40).map(|i| alloc(&format!("a{i:02}"), "")).collect();
        let text = array(&allocs, ",");
        let want: Vec<String> = (0..40).map(|i| format!("a{i:02}")).collect();
        // The text is new: every part hands it back.
        let first = parts(&text, 2);
        assert_eq!(ids(&first), want);
        assert!(
            texts_of(&first)
                .iter()
                .all(|e| matches!(e, Embedded::New(_)))
        );
        for threads in [2, 3, 7] {
            let (parts, _) = parts_knowing(&text, threads, &[JOB]);
            assert_eq!(parts.len(), threads, "{threads} threads");
            assert_eq!(ids(&parts), want, "{threads} threads");
            let known = texts_of(&parts);
            assert!(known.iter().all(|e| matches!(e, Embedded::Known(0))));
        }
    }

    #[test]
    fn parts_go_on_past_new_texts_and_allocations_without_a_job() {
        let api = r#"{"ID":"api","TaskGroups":[{"Name":"api"}]}"#;
        let allocs: Vec<String> = (0..60)
            .map(|i| match i % 3 {
                0 => alloc(&format!("a{i:02}"), ""),
                1 => format!(r#"{{"ID":"a{i:02}","Job":{api},"JobID":"api","TaskGroup":"api"}}"#),
                _ => format!(r#"{{"ID":"a{i:02}","Job":null,"JobID":"web","TaskGroup":"web"}}"#),
            })
            .collect();
        let text = array(&allocs, ",");
        // No text is known: each part checks and parses each new text once
        // and hands it back; the reader adds them in order.
        let parts = parts(&text, 3);
        assert_eq!(parts.len(), 3);
        assert_eq!(ids(&parts).len(), 60);
        let mut texts = JobTexts::default();
        for part in &parts {
            let new: Vec<&Arc<NewText>> = part
                .elements
                .iter()
                .filter_map(|e| match &e.job {
                    Embedded::New(new) => Some(new),
                    _ => None,
                })
                .collect();
            assert!(new.len() > 2);
            let distinct = new.iter().filter(|n| !Arc::ptr_eq(n, new[0])).count();
            assert!(
                distinct > 0
                    && new
                        .iter()
                        .all(|n| Arc::ptr_eq(n, new[0]) || Arc::ptr_eq(n, new[1]))
            );
            for n in new {
                texts.add(n);
            }
            assert!(
                part.elements
                    .iter()
                    .any(|e| matches!(e.job, Embedded::Absent))
            );
        }
        assert_eq!(texts.len(), 2);
        let versions: Vec<String> = (0..2)
            .map(|e| texts.job(e).unwrap().id.to_string())
            .collect();
        assert_eq!(versions, ["web", "api"]);
    }

    #[test]
    fn the_reader_remembers_each_jobs_texts() {
        let text = array(&[alloc("a0", ""), alloc("a1", "")], ",");
        let (first, texts) = grown(&text);
        assert_eq!(ids(&[first]), ["a0", "a1"]);
        let input = r#"{"Namespace":"default","JobID":"web","Job":{}}"#;
        let Scan::Job(JobSpan {
            hint: Some(hint), ..
        }) = scan(input.as_bytes(), &texts)
        else {
            panic!("no hint");
        };
        assert_eq!(texts.hints_to(hint), [] as [usize; 0]);
        let with_id = |id: &str| {
            format!(r#"{{"ID":"{id}","Namespace":"default","JobID":"web","Job":{JOB}}}"#)
        };
        let text = array(&[with_id("a0"), with_id("a1")], ",");
        let (_, texts) = grown(&text);
        assert_eq!(texts.hints_to(hint), [0]);
    }

    #[test]
    fn a_guess_inside_an_element_is_dropped() {
        // A nested list of objects that open with "ID" after a comma looks
        // like an element start.
        let nested = format!(
            r#","Events":[{}]"#,
            (0..200)
                .map(|i| format!(r#"{{"ID":"e{i}"}}"#))
                .collect::<Vec<_>>()
                .join(",")
        );
        let text = array(&[alloc("a0", &nested), alloc("a1", "")], ",");
        let starts = guess_starts(text.as_bytes(), 1, &piece_offsets(text.len() - 1, 2));
        assert!(text[starts[1]..].starts_with(r#"{"ID":"e"#));
        // The first part's stretch ends inside `a0`: it parses nothing, and
        // the worker's part is gone; the reader takes `a0` on its own.
        let parts = parts(&text, 2);
        assert_eq!(parts.len(), 1);
        assert!(!parts[0].reached);
        assert!(ids(&parts).is_empty());
    }

    #[test]
    fn a_job_shorter_than_what_precedes_it_is_spliced_in_a_copy() {
        let short = r#"{"ID":"w"}"#;
        let long_prefix = format!(r#""Name":"{}","#, "x".repeat(200));
        let allocs: Vec<String> = (0..6)
            .map(|i| {
                let job = if i % 2 == 0 { short } else { JOB };
                format!(r#"{{"ID":"a{i}",{long_prefix}"Job":{job},"TaskGroup":"web"}}"#)
            })
            .collect();
        let text = array(&allocs, ",");
        let (parts, _) = parts_knowing(&text, 2, &[short, JOB]);
        assert_eq!(ids(&parts), ["a0", "a1", "a2", "a3", "a4", "a5"]);
        let first = &parts[0].elements[0];
        assert_eq!(&text[1..first.end], allocs[0]);
    }

    #[test]
    fn the_last_element_cut_by_the_buffer_end_is_left_for_the_next_round() {
        let full = array(&[alloc("a0", ""), alloc("a1", "")], ",");
        let cut = &full[..full.len() - 10];
        let parts = parts(cut, 1);
        assert_eq!(ids(&parts), ["a0"]);
        let end = parts[0].elements[0].end;
        assert_eq!(&cut[end..end + 1], ",");
    }
}
