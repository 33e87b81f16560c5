//! Why a snapshot could not be read, said so that the operator can find the spot.

use std::any::Any;
use std::fmt;
use std::io;

use serde_path_to_error::{Path, Segment};

use super::internal;

/// A snapshot that cannot be read. `Display` gives the one-line message for
/// stderr, always starting with the input's name (path or `<stdin>`):
///
/// - `<name>:<line>:<col>: at <path>: <message>` for bad JSON or a value of the
///   wrong shape (`at <path>` is left out at the top level, and the position
///   for a fault inside an allocation's embedded `Job`, which is parsed apart
///   from the stream);
/// - `<name>: cannot read: <io error>`;
/// - `<name>: corrupt gzip input: <io error>`;
/// - `<name>: empty input, expected a JSON object`;
/// - `<name>[:<line>:<col>]: not a Nomad snapshot: found <what>; <how to get one>`,
///   for JSON that is not cluster state and for input that is not JSON.
#[derive(Debug)]
pub struct ReadError {
    name: String,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    Io(io::Error),
    Gzip(io::Error),
    Empty,
    /// Well-formed input that is not cluster state, or not JSON at all.
    NotSnapshot {
        position: Option<(usize, usize)>,
        found: String,
    },
    Json {
        position: Option<(usize, usize)>,
        path: Option<String>,
        message: String,
    },
}

impl ReadError {
    pub(crate) fn io(name: &str, err: io::Error) -> ReadError {
        ReadError::new(name, Kind::Io(err))
    }

    /// A read error; from a gzip decoder, bad data means a corrupt stream.
    pub(crate) fn io_or_gzip(name: &str, err: io::Error, gzip: bool) -> ReadError {
        let corrupt = matches!(
            err.kind(),
            io::ErrorKind::InvalidData | io::ErrorKind::InvalidInput | io::ErrorKind::UnexpectedEof
        );
        ReadError::new(
            name,
            if gzip && corrupt {
                Kind::Gzip(err)
            } else {
                Kind::Io(err)
            },
        )
    }

    pub(crate) fn empty(name: &str) -> ReadError {
        ReadError::new(name, Kind::Empty)
    }

    /// JSON that is not cluster state: `found` says what it is.
    pub(crate) fn not_a_snapshot(name: &str, found: String) -> ReadError {
        ReadError::new(
            name,
            Kind::NotSnapshot {
                position: None,
                found,
            },
        )
    }

    /// Input whose top-level value is not an object, or not JSON at all:
    /// `first` is its first byte, `err` serde_json's complaint.
    pub(crate) fn not_an_object(name: &str, err: &serde_json::Error, first: Option<u8>) -> Self {
        use serde_json::error::Category;
        let found = match (err.classify(), first) {
            (Category::Data, Some(b'[')) => {
                "a JSON array (list endpoints such as /v1/jobs return stubs, not full objects)"
                    .to_string()
            }
            (Category::Data, Some(b'"')) => "a JSON string".to_string(),
            (Category::Data, Some(b't' | b'f')) => "a JSON boolean".to_string(),
            (Category::Data, Some(b'n')) => "null".to_string(),
            (Category::Data, _) => "a JSON number".to_string(),
            _ => format!(
                "text that is not JSON ({}): a job file in HCL or YAML?",
                strip_position(err)
            ),
        };
        let position = (err.line() > 0).then(|| (err.line(), err.column()));
        ReadError::new(name, Kind::NotSnapshot { position, found })
    }

    /// A fault that serde_json reported, with the path the tracker recorded.
    pub(crate) fn json(
        name: &str,
        err: serde_json::Error,
        path: Option<&Path>,
        gzip: bool,
    ) -> Self {
        if err.is_io() {
            return ReadError::io_or_gzip(name, io::Error::from(err), gzip);
        }
        let position = (err.line() > 0).then(|| (err.line(), err.column()));
        ReadError::new(
            name,
            Kind::Json {
                position,
                path: path.and_then(format_path),
                message: strip_position(&err),
            },
        )
    }

    /// A fault inside an allocation's embedded job, which is parsed from its own
    /// text: the path is exact, a position in the document is not known.
    pub(crate) fn embedded_job(
        name: &str,
        alloc_path: String,
        err: serde_path_to_error::Error<serde_json::Error>,
    ) -> Self {
        let inner = format_path(err.path());
        let path = match inner {
            Some(inner) if inner.starts_with('[') => format!("{alloc_path}.Job{inner}"),
            Some(inner) => format!("{alloc_path}.Job.{inner}"),
            None => format!("{alloc_path}.Job"),
        };
        ReadError::new(
            name,
            Kind::Json {
                position: None,
                path: Some(path),
                message: strip_position(err.inner()),
            },
        )
    }

    /// A fault the fast walk found in a stream too large to read again:
    /// the position is exact, the path goes down to the array element.
    pub(super) fn located(name: &str, at: Option<super::chunked::Located>) -> Self {
        let Some(at) = at else {
            return ReadError::new(
                name,
                Kind::Json {
                    position: None,
                    path: None,
                    message: "malformed JSON".to_string(),
                },
            );
        };
        ReadError::new(
            name,
            Kind::Json {
                position: Some((at.line, at.column)),
                path: at.path,
                message: at
                    .error
                    .as_ref()
                    .map_or_else(|| "malformed JSON".to_string(), strip_position),
            },
        )
    }

    /// A bug: a panic while reading, caught, with `payload` its message.
    pub(super) fn internal(name: &str, payload: &(dyn Any + Send)) -> Self {
        ReadError::new(
            name,
            Kind::Json {
                position: None,
                path: None,
                message: internal::internal_error(payload),
            },
        )
    }

    fn new(name: &str, kind: Kind) -> ReadError {
        ReadError {
            name: name.to_string(),
            kind,
        }
    }

    /// The input's name: the file path, or `<stdin>`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The 1-based line and column of a JSON fault, where known.
    pub fn position(&self) -> Option<(usize, usize)> {
        match &self.kind {
            Kind::Json { position, .. } | Kind::NotSnapshot { position, .. } => *position,
            _ => None,
        }
    }

    /// The JSON path of a fault (`Allocs[17].AllocStates[0].Time`), where known.
    pub fn path(&self) -> Option<&str> {
        match &self.kind {
            Kind::Json { path, .. } => path.as_deref(),
            _ => None,
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.name;
        match &self.kind {
            Kind::Io(e) => write!(f, "{name}: cannot read: {e}"),
            Kind::Gzip(e) => write!(f, "{name}: corrupt gzip input: {e}"),
            Kind::Empty => write!(f, "{name}: empty input, expected a JSON object"),
            Kind::NotSnapshot { position, found } => {
                f.write_str(name)?;
                if let Some((line, col)) = position {
                    write!(f, ":{line}:{col}")?;
                }
                write!(f, ": not a Nomad snapshot: found {found}; {GET_A_SNAPSHOT}")
            }
            Kind::Json {
                position,
                path,
                message,
            } => {
                f.write_str(name)?;
                if let Some((line, col)) = position {
                    write!(f, ":{line}:{col}")?;
                }
                if let Some(path) = path {
                    write!(f, ": at {path}")?;
                }
                write!(f, ": {message}")
            }
        }
    }
}

/// What to run instead of feeding plan-inspect something else.
const GET_A_SNAPSHOT: &str = "expected the cluster state with Jobs, Nodes and Allocs: run \
    `nomad operator snapshot save backup.snap` and `nomad operator snapshot state backup.snap > state.json`, \
    or build it from the HTTP API with contrib/snapshot-from-api.sh (README: Getting a snapshot from a real cluster)";

/// No `source`: the message already ends with the I/O error, and `{:#}`
/// would print it twice.
impl std::error::Error for ReadError {}

/// The path as `Allocs[17].AllocStates[0].Time`, or `None` at the top level.
fn format_path(path: &Path) -> Option<String> {
    let segments: Vec<&Segment> = path.iter().collect();
    // A fault while reading a key leaves an unknown last segment: drop it.
    let known = segments
        .iter()
        .rposition(|s| !matches!(s, Segment::Unknown))
        .map_or(0, |i| i + 1);
    let mut out = String::new();
    for segment in &segments[..known] {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Unknown => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push('?');
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// serde_json's message without the ` at line L column C` it appends.
fn strip_position(err: &serde_json::Error) -> String {
    let text = err.to_string();
    let suffix = format!(" at line {} column {}", err.line(), err.column());
    match text.strip_suffix(&suffix) {
        Some(message) => message.to_string(),
        None => text,
    }
}
