//! Reading a snapshot: the crate's input edge (the core never reads files).
//!
//! Dumps of big clusters run to gigabytes, so the document is streamed: one
//! serde_json pass over a buffered reader, the top-level object and its arrays
//! walked by hand-written visitors that decode one element at a time. No
//! `serde_json::Value` of the document is ever built and the input is never
//! held whole. Gzip input is recognised by its magic bytes.
//!
//! Keys may come in any order (real dumps sort them, so `Allocs` comes before
//! `Jobs`); everything that needs more than one key is settled after the walk.
//! Unknown keys, notably `ACLTokens` with their secrets, are skipped unread.
//!
//! Every allocation embeds its job version, usually the same text as thousands
//! of others: each distinct text is parsed once, and those allocations share
//! one `Arc<Job>`. The fast walk does not even scan a text it has seen for the
//! same job: it recognises it by a 128-bit hash of the bytes ahead
//! (`job_texts`, which keeps hashes, not texts), then parses the allocation
//! with the job spliced out (`scan`). Texts that differ only in values the
//! servers change without a new version are one text (`volatile`).
//!
//! Suspicious but usable input becomes warnings (duplicate IDs, unknown status
//! strings, allocations without an embedded job or of a purged job), at most
//! [`MAX_PER_CODE`] examples per code plus a count, sorted, independent of the
//! order of the input arrays (except which of two duplicates is kept: the last).
//!
//! Errors name the input, the line and column, the JSON path
//! (`Allocs[17].AllocStates[0].Time`) and what was expected; see [`ReadError`].

mod alloc_decode;
mod alloc_record;
mod chunked;
mod csi;
mod document;
mod error;
mod filter;
mod held;
mod id_index;
mod internal;
mod job_entry;
mod job_file;
mod job_texts;
mod lexeme;
mod observer;
mod owner;
mod quoted;
mod read_ahead;
mod resolve;
mod scan;
mod split;
mod top_keys;
mod volatile;
mod warnings;
mod workers;

#[cfg(test)]
mod alloc_decode_tests;
#[cfg(test)]
mod csi_tests;
#[cfg(test)]
mod tests;

use std::fs::File;
use std::io::{self, BufReader, Cursor, Read};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;

use serde::de::DeserializeSeed;

pub use error::ReadError;
pub use filter::ReadFilter;
pub use job_file::{JobFileError, parse_job_file, read_job_file};
pub use observer::Observer;
pub use warnings::MAX_PER_CODE;
pub use workers::thread_count;

use crate::model::{Interner, Snapshot};
use chunked::{Chunked, Stop};
use document::{Document, State};
use observer::UNOBSERVED;
use read_ahead::{ReadAhead, read_ahead};

/// Where the snapshot comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Path(PathBuf),
    /// Standard input (`-` on the command line), named `<stdin>` in messages.
    Stdin,
}

impl Source {
    /// The command-line argument: `-` is standard input, anything else a path.
    pub fn from_arg(arg: impl Into<PathBuf>) -> Source {
        let path = arg.into();
        if path.as_os_str() == "-" {
            Source::Stdin
        } else {
            Source::Path(path)
        }
    }

    /// The name messages use: the path as given, or `<stdin>`.
    pub fn name(&self) -> String {
        match self {
            Source::Path(p) => p.display().to_string(),
            Source::Stdin => "<stdin>".to_string(),
        }
    }
}

/// serde_json reads byte by byte; a large buffer keeps that off the syscalls.
const BUFFER: usize = 1 << 20;

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Reads the snapshot from a file or standard input.
pub fn read_snapshot(source: &Source) -> Result<Snapshot, ReadError> {
    read_snapshot_filtered(source, &ReadFilter::default())
}

/// Reads the snapshot, keeping only the allocations `filter` keeps.
pub fn read_snapshot_filtered(source: &Source, filter: &ReadFilter) -> Result<Snapshot, ReadError> {
    read_snapshot_observed(source, filter, 0, UNOBSERVED)
}

/// Like [`read_snapshot_filtered`], parsing allocations on `threads`
/// threads ([`thread_count`]: 0 is one per core, 1 only the caller's) and
/// telling `progress` how many bytes of the input were just read and each
/// allocation parsed. The snapshot is the same on any count.
pub fn read_snapshot_observed(
    source: &Source,
    filter: &ReadFilter,
    threads: usize,
    progress: &dyn Observer,
) -> Result<Snapshot, ReadError> {
    let threads = thread_count(threads);
    let name = source.name();
    match source {
        Source::Path(path) => {
            let open = || File::open(path).map_err(|e| ReadError::io(&name, e));
            read_observed(
                Observed {
                    inner: open()?,
                    progress,
                },
                &name,
                filter,
                threads,
                Some(&|| exact(open()?, &name, filter)),
                progress,
            )
        }
        Source::Stdin => {
            let stdin = io::stdin();
            widen_pipe(&stdin);
            read_observed(
                Observed {
                    inner: stdin,
                    progress,
                },
                &name,
                filter,
                threads,
                None,
                progress,
            )
        }
    }
}

/// A pipe holds 64 KiB by default, so the writer and this reader take turns
/// every 64 KiB: some 20,000 context switches for a 700 MB snapshot. With
/// 1 MiB (the most an unprivileged process may ask for by default) each
/// side runs longer; measured with `cat`, the switches fell to 3,000.
/// Nothing changes when stdin is not a pipe or the request is refused.
#[cfg(target_os = "linux")]
fn widen_pipe(stdin: &io::Stdin) {
    let _ = rustix::pipe::fcntl_setpipe_size(stdin, 1 << 20);
}

#[cfg(not(target_os = "linux"))]
fn widen_pipe(_: &io::Stdin) {}

/// A reader that reports each read's size.
struct Observed<'p, R> {
    inner: R,
    progress: &'p dyn Observer,
}

impl<R: Read> Read for Observed<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.bytes(n as u64);
        Ok(n)
    }
}

/// Reads the snapshot from any reader; `name` is used in messages.
pub fn read_snapshot_from(reader: impl Read + Send, name: &str) -> Result<Snapshot, ReadError> {
    read(reader, name, &ReadFilter::default(), thread_count(0), None)
}

type Reread<'a> = &'a dyn Fn() -> Result<Snapshot, ReadError>;

/// The fast walk; where it gives up, the exact walk says what is wrong.
/// A panic anywhere in either (a bug) is an error, never the end of the
/// process.
fn read(
    reader: impl Read + Send,
    name: &str,
    filter: &ReadFilter,
    threads: usize,
    reread: Option<Reread<'_>>,
) -> Result<Snapshot, ReadError> {
    read_observed(reader, name, filter, threads, reread, UNOBSERVED)
}

/// [`read`], telling `observer` of each allocation the fast walk parses.
fn read_observed(
    reader: impl Read + Send,
    name: &str,
    filter: &ReadFilter,
    threads: usize,
    reread: Option<Reread<'_>>,
    observer: &dyn Observer,
) -> Result<Snapshot, ReadError> {
    let walks = || fast_then_exact(reader, name, filter, threads, reread, observer);
    panic::catch_unwind(AssertUnwindSafe(walks))
        .unwrap_or_else(|payload| Err(ReadError::internal(name, payload.as_ref())))
}

/// [`read`], unguarded.
fn fast_then_exact(
    reader: impl Read + Send,
    name: &str,
    filter: &ReadFilter,
    threads: usize,
    reread: Option<Reread<'_>>,
    observer: &dyn Observer,
) -> Result<Snapshot, ReadError> {
    let mut input = BufReader::with_capacity(BUFFER, reader);
    let gzip = starts_with(&mut input, &GZIP_MAGIC).map_err(|e| ReadError::io(name, e))?;
    let mut state = State::new(name, filter.clone());
    state.observer = observer;
    let interner = Arc::clone(&state.interner);
    let walk = |r: &mut ReadAhead| {
        Interner::install(&interner, || Chunked::new(r, threads).walk(&mut state))
    };
    // A file is read again to say where an error is: only a stream needs
    // the fast walk to keep count of lines.
    let lines = reread.is_none();
    let stop = if gzip {
        read_ahead(flate2::read::MultiGzDecoder::new(input), lines, walk)
    } else {
        read_ahead(input, lines, walk)
    };
    drop(interner);
    match stop {
        Ok(()) => state.finish(),
        Err(Stop::Io(e)) => Err(ReadError::io_or_gzip(name, e, gzip)),
        Err(Stop::Unexpected {
            history: Some(bytes),
            ..
        }) => parse(BufReader::new(Cursor::new(bytes)), name, gzip, filter),
        Err(Stop::Unexpected { error, .. }) => match (state.pending.take(), reread) {
            (Some(pending), _) => Err(pending),
            (None, Some(reread)) => reread(),
            (None, None) => Err(ReadError::located(name, error)),
        },
    }
}

/// The exact walk from the start: slower, but every error names its path.
fn exact(reader: impl Read, name: &str, filter: &ReadFilter) -> Result<Snapshot, ReadError> {
    let mut input = BufReader::with_capacity(BUFFER, reader);
    let gzip = starts_with(&mut input, &GZIP_MAGIC).map_err(|e| ReadError::io(name, e))?;
    if gzip {
        let decoded = flate2::read::MultiGzDecoder::new(input);
        parse(
            BufReader::with_capacity(BUFFER, decoded),
            name,
            true,
            filter,
        )
    } else {
        parse(input, name, false, filter)
    }
}

/// Whether the input starts with `magic`, consuming nothing. Errors on empty input
/// come later, from the parse; a read error comes here.
fn starts_with<R: Read>(input: &mut BufReader<R>, magic: &[u8]) -> io::Result<bool> {
    use std::io::BufRead;
    loop {
        match input.fill_buf() {
            // A first read shorter than the magic (a slow pipe) cannot be
            // extended without consuming; JSON never starts with 0x1f anyway.
            Ok(buf) => return Ok(buf.len() >= magic.len() && buf.starts_with(magic)),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

/// The first byte of the first buffered chunk that is not whitespace; `None`
/// when that chunk is only whitespace (or nothing), so that an end of input
/// before the top-level value means the input is empty.
fn first_byte<R: Read>(input: &mut BufReader<R>) -> io::Result<Option<u8>> {
    use std::io::BufRead;
    loop {
        match input.fill_buf() {
            Ok(buf) => {
                return Ok(buf
                    .iter()
                    .copied()
                    .find(|b| !matches!(b, b' ' | b'\n' | b'\r' | b'\t')));
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

fn parse<R: Read>(
    mut input: BufReader<R>,
    name: &str,
    gzip: bool,
    filter: &ReadFilter,
) -> Result<Snapshot, ReadError> {
    let first = first_byte(&mut input).map_err(|e| ReadError::io_or_gzip(name, e, gzip))?;
    let mut de = serde_json::Deserializer::from_reader(input);
    let mut state = State::new(name, filter.clone());
    let mut track = serde_path_to_error::Track::new();
    let interner = Arc::clone(&state.interner);
    let result = Interner::install(&interner, || {
        Document(&mut state)
            .deserialize(serde_path_to_error::Deserializer::new(&mut de, &mut track))
    });
    if let Err(err) = result {
        if let Some(pending) = state.pending.take() {
            return Err(pending);
        }
        if first.is_none() && !state.started && err.is_eof() {
            return Err(ReadError::empty(name));
        }
        if !state.started && !err.is_io() && !err.is_eof() {
            return Err(ReadError::not_an_object(name, &err, first));
        }
        return Err(ReadError::json(name, err, Some(&track.path()), gzip));
    }
    de.end().map_err(|e| ReadError::json(name, e, None, gzip))?;
    state.finish()
}
