//! A structural scan of one allocation element that finds its end and its
//! embedded job without parsing either, so that a job text seen before for
//! the same job is skipped with one hash ([`JobTexts::prefix_hinted`]).
//!
//! The scan only tracks strings and nesting; it validates nothing. Whatever
//! it lets through is parsed by serde_json afterwards (the allocation with
//! its job spliced out, and each new job text once), so bad input is still
//! rejected, by the general path that reports it precisely.

use std::hash::{BuildHasher, Hasher};

use foldhash::fast::FixedState;

use super::job_texts::JobTexts;
use super::quoted::string_end;
use super::volatile::members;

/// What the scan of an allocation element found.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Scan {
    /// Where the element's first `Job` object is.
    Job(JobSpan),
    /// The element is not an object, or its `Job` is not an object, or it
    /// ends without one.
    NoJob,
    /// The bytes end before the `Job` object does.
    Incomplete,
}

/// The embedded job object of an allocation element.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct JobSpan {
    pub(super) start: usize,
    pub(super) end: usize,
    /// The known text it is, when it was recognised by its job's hint
    /// rather than scanned.
    pub(super) known: Option<usize>,
    /// A hash of the allocation's `Namespace` and `JobID`, when the
    /// `JobID` comes before its job, as Nomad writes it
    /// ([`JobTexts::prefix_hinted`]).
    pub(super) hint: Option<u64>,
}

/// Scans the allocation object at the start of `bytes` up to the end of its
/// `Job` object, which Nomad writes early (8th of 35 fields).
pub(super) fn scan(bytes: &[u8], texts: &JobTexts) -> Scan {
    if bytes.first() != Some(&b'{') {
        return Scan::NoJob;
    }
    let mut depth = 1usize;
    let mut key_next = true;
    // Where an unrecognised `Job` object started, until it ends.
    let mut open_job: Option<usize> = None;
    let mut namespace: &[u8] = b"";
    let mut hint = None;
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let Some(close) = string_end(bytes, i + 1) else {
                    return Scan::Incomplete;
                };
                let key = (depth == 1 && key_next).then(|| &bytes[i + 1..close]);
                key_next = false;
                i = close + 1;
                match key {
                    Some(b"Namespace") => namespace = string_after(bytes, i).unwrap_or_default(),
                    Some(b"JobID") => {
                        hint = string_after(bytes, i).map(|job| hint_of(namespace, job))
                    }
                    _ => {}
                }
                if key != Some(b"Job") {
                    continue;
                }
                let Some(value) = value_after_colon(bytes, i) else {
                    return Scan::Incomplete;
                };
                if bytes[value] != b'{' {
                    return Scan::NoJob;
                }
                if let Some((entry, len)) = texts.prefix_hinted(&bytes[value..], hint) {
                    return Scan::Job(JobSpan {
                        start: value,
                        end: value + len,
                        known: Some(entry),
                        hint,
                    });
                }
                open_job = Some(value);
                depth += 1;
                i = value + 1;
            }
            b'{' | b'[' => {
                depth += 1;
                i += 1;
            }
            b'}' | b']' => {
                depth -= 1;
                i += 1;
                if depth == 1
                    && let Some(start) = open_job
                {
                    return Scan::Job(JobSpan {
                        start,
                        end: i,
                        known: None,
                        hint,
                    });
                }
                if depth == 0 {
                    return Scan::NoJob;
                }
            }
            b',' => {
                key_next = depth == 1;
                i += 1;
            }
            _ => i += 1,
        }
    }
    Scan::Incomplete
}

/// The hint of a job by its namespace and ID as written ([`JobSpan::hint`]).
fn hint_of(namespace: &[u8], job: &[u8]) -> u64 {
    let mut hash = FixedState::default().build_hasher();
    hash.write(namespace);
    hash.write_u8(0xff);
    hash.write(job);
    hash.finish()
}

/// The hint of the job object `text` ([`JobSpan::hint`]) from its own
/// top-level `Namespace` and `ID`, the first of each: the job an allocation
/// of it names. `None` when either is missing, escaped or not a string.
/// Like [`scan`], it validates nothing.
pub(super) fn job_hint(text: &[u8]) -> Option<u64> {
    let (mut namespace, mut id) = (None, None);
    for (key, value) in members(text) {
        let slot = match key {
            b"Namespace" => &mut namespace,
            b"ID" => &mut id,
            _ => continue,
        };
        if slot.is_none() {
            let quoted = &text[value];
            let content = quoted.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
            if content.contains(&b'\\') {
                return None;
            }
            *slot = Some(content);
        }
        if let (Some(namespace), Some(id)) = (namespace, id) {
            return Some(hint_of(namespace, id));
        }
    }
    None
}

/// The content of the string after the key ending before `i`, if it has
/// no escapes.
fn string_after(bytes: &[u8], i: usize) -> Option<&[u8]> {
    let open = value_after_colon(bytes, i)?;
    if bytes[open] != b'"' {
        return None;
    }
    let close = string_end(bytes, open + 1)?;
    let content = &bytes[open + 1..close];
    (!content.contains(&b'\\')).then_some(content)
}

/// The start of the value after the `:` that follows a key ending before `i`.
fn value_after_colon(bytes: &[u8], mut i: usize) -> Option<usize> {
    let mut colon = false;
    while let Some(&b) = bytes.get(i) {
        match b {
            b' ' | b'\n' | b'\r' | b'\t' => {}
            b':' if !colon => colon = true,
            _ if colon => return Some(i),
            // No colon: not a key after all; the parse will say so.
            _ => return Some(i),
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const JOB: &str = r#"{"ID":"web","TaskGroups":[{"Name":"x\"}"}]}"#;

    fn job(input: &str, texts: &JobTexts) -> JobSpan {
        match scan(input.as_bytes(), texts) {
            Scan::Job(span) => span,
            other => panic!("{other:?} for {input}"),
        }
    }

    #[test]
    fn finds_an_unknown_job() {
        let input = format!(r#"{{"ID":"a","Job" : {JOB},"JobID":"web"}}"#);
        let span = job(&input, &JobTexts::default());
        assert_eq!(&input[span.start..span.end], JOB);
        assert_eq!(span.known, None);
    }

    #[test]
    fn recognises_a_known_text_of_the_job_without_scanning_it() {
        let mut texts = JobTexts::default();
        let (entry, _) = texts.insert(JOB.as_bytes()).unwrap();
        let prefix = r#"{"Namespace":"n","JobID":"web","Job":"#;
        let input = format!("{prefix}{JOB}");
        let hint = job(&format!("{input}}}"), &texts).hint.unwrap();
        texts.remember(hint, entry);
        // Cut right after the job: nothing past it is needed.
        assert_eq!(
            job(&input, &texts),
            JobSpan {
                start: prefix.len(),
                end: prefix.len() + JOB.len(),
                known: Some(entry),
                hint: Some(hint),
            }
        );
        // Without the hint, the job is scanned to its end.
        let unhinted = format!(r#"{{"Job":{JOB}}}"#);
        assert_eq!(job(&unhinted, &texts).known, None);
        assert_eq!(scan(&unhinted.as_bytes()[..20], &texts), Scan::Incomplete);
    }

    #[test]
    fn the_job_id_before_the_job_is_its_hint() {
        let texts = JobTexts::default();
        let hint = |input: &str| job(input, &texts).hint;
        let a = hint(r#"{"Namespace":"n","JobID":"web","Job":{}}"#);
        assert!(a.is_some());
        assert_eq!(
            hint(r#"{"Namespace" : "n","ID":"x","JobID" :"web","Job":{}}"#),
            a
        );
        assert_ne!(hint(r#"{"Namespace":"m","JobID":"web","Job":{}}"#), a);
        assert_ne!(hint(r#"{"Namespace":"n","JobID":"api","Job":{}}"#), a);
        for none in [
            r#"{"Namespace":"n","JobID":null,"Job":{}}"#,
            r#"{"Namespace":"n","JobID":"w\u0065b","Job":{}}"#,
            r#"{"Meta":{"JobID":"web"},"Job":{}}"#,
            r#"{"Job":{},"JobID":"web"}"#,
        ] {
            assert_eq!(hint(none), None, "{none}");
        }
    }

    #[test]
    fn a_job_text_names_the_hint_of_its_allocations() {
        let texts = JobTexts::default();
        let alloc = job(r#"{"Namespace":"n","JobID":"web","Job":{}}"#, &texts).hint;
        assert!(alloc.is_some());
        let hint = |text: &str| job_hint(text.as_bytes());
        // Top-level keys in any order, the first of each; nested ones are not the job's.
        for text in [
            r#"{"ID":"web","Namespace":"n","TaskGroups":[]}"#,
            r#"{"TaskGroups":[{"ID":"x","Namespace":"m"}],"Namespace" : "n","ID":"web"}"#,
            r#"{"Meta":{"ID":"x"},"ID":"web","Namespace":"n","ID":"other"}"#,
        ] {
            assert_eq!(hint(text), alloc, "{text}");
        }
        assert_ne!(hint(r#"{"ID":"web","Namespace":"m"}"#), alloc);
        for none in [
            r#"{"ID":"web"}"#,
            r#"{"ID":"web","Namespace":null}"#,
            r#"{"ID":"w\u0065b","Namespace":"n"}"#,
            r#"{"TaskGroups":[{"ID":"web","Namespace":"n"}]}"#,
            r#"["ID","web"]"#,
            r#"{"ID":"web","Namespace":"#,
        ] {
            assert_eq!(hint(none), None, "{none}");
        }
    }
}
