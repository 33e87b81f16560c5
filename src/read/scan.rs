//! A structural scan of one allocation element that finds its end and its
//! embedded job without parsing either, so that a job text seen before is
//! skipped with one comparison ([`JobTexts::prefix_of`]).
//!
//! The scan only tracks strings and nesting; it validates nothing. Whatever
//! it lets through is parsed by serde_json afterwards (the allocation with
//! its job spliced out, and each new job text once), so bad input is still
//! rejected, by the general path that reports it precisely.

use super::job_texts::{JobTexts, Prefix};
use super::quoted::string_end;

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
    /// The known text it is, when it was recognised rather than scanned.
    pub(super) known: Option<usize>,
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
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let Some(close) = string_end(bytes, i + 1) else {
                    return Scan::Incomplete;
                };
                let is_job_key = depth == 1 && key_next && &bytes[i + 1..close] == b"Job";
                key_next = false;
                i = close + 1;
                if !is_job_key {
                    continue;
                }
                let Some(value) = value_after_colon(bytes, i) else {
                    return Scan::Incomplete;
                };
                if bytes[value] != b'{' {
                    return Scan::NoJob;
                }
                match texts.prefix_of(&bytes[value..]) {
                    Prefix::Known { entry, len } => {
                        return Scan::Job(JobSpan {
                            start: value,
                            end: value + len,
                            known: Some(entry),
                        });
                    }
                    Prefix::Unknown => {
                        open_job = Some(value);
                        depth += 1;
                        i = value + 1;
                    }
                    Prefix::Short => return Scan::Incomplete,
                }
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
    fn recognises_a_known_job_without_scanning_it() {
        let mut texts = JobTexts::default();
        let entry = texts.insert(JOB.as_bytes());
        // Cut right after the job: nothing past it is needed.
        let input = format!(r#"{{"Job":{JOB}"#);
        assert_eq!(
            job(&input, &texts),
            JobSpan {
                start: 7,
                end: 7 + JOB.len(),
                known: Some(entry)
            }
        );
    }

    #[test]
    fn nested_and_value_strings_named_job_are_not_the_job() {
        let input = r#"{"Name":"Job","Meta":{"Job":{"a":1}},"X":["Job",{"Job":{}}],"Job":{"c":3}}"#;
        let span = job(input, &JobTexts::default());
        assert_eq!(&input[span.start..span.end], r#"{"c":3}"#);
        let escaped = r#"{"Jo\"b":{"a":"\\"},"Job":{"b":2}}"#;
        let span = job(escaped, &JobTexts::default());
        assert_eq!(&escaped[span.start..span.end], r#"{"b":2}"#);
    }

    #[test]
    fn no_job_object_and_cut_input() {
        let texts = JobTexts::default();
        for none in [
            r#"{"Job":null}"#,
            r#"{"Job":7,"JobID":"a"}"#,
            r#"{"ID":"a"}"#,
            "[1]",
        ] {
            assert_eq!(scan(none.as_bytes(), &texts), Scan::NoJob, "{none}");
        }
        for cut in [
            r#"{"Job":{"a":"#,
            r#"{"ID":"ab"#,
            r#"{"Job""#,
            r#"{"a":[1,2]"#,
            "{",
        ] {
            assert_eq!(scan(cut.as_bytes(), &texts), Scan::Incomplete, "{cut}");
        }
    }
}
