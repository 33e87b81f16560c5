//! The values of an embedded job that Nomad's servers change while the job's
//! version stays the same, and texts that differ only there.
//!
//! A job's `ModifyIndex` moves whenever the servers write the job: its
//! `Status` and `StatusDescription` change as it starts, runs and dies, and
//! `Stable` is set once a deployment of the version succeeds. Allocations
//! placed between two such writes embed different texts of one version, and a
//! dump built by a tool that rewrites them can have a text per allocation. No
//! rule reads these fields from an allocation's job (the job of record comes
//! from `Jobs`), so every such text stands for the same job: it is recognised
//! as a variant of a known text and shares its parsed job, rather than being
//! parsed and kept once more.
//!
//! A variant is accepted only when each of its volatile values is a valid
//! value of the kind the known text has there (an index of at most 19 digits,
//! a string without escapes, a boolean), so that it is valid JSON and would
//! parse into the same job but for those fields.

use std::ops::Range;

use xxhash_rust::xxh3::{Xxh3, xxh3_128};

use super::quoted::string_end;

/// The top-level keys of a job whose values the servers change.
const KEYS: [&[u8]; 4] = [b"ModifyIndex", b"Status", b"StatusDescription", b"Stable"];

/// Digits in the largest index accepted: every 19-digit number fits a `u64`.
const INDEX_DIGITS: usize = 19;

/// What a volatile value is; a variant keeps the kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// An unsigned integer without a leading zero.
    Index,
    /// A string without escapes or control characters.
    Text,
    /// `true` or `false`.
    Flag,
}

/// Where one volatile value is in a job text: twelve bytes, not 24, as
/// every distinct text a read meets keeps its spans to the read's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Span {
    start: u32,
    end: u32,
    kind: Kind,
}

impl Span {
    /// A slot of [`Key::spans`] that holds no value.
    const NONE: Span = Span {
        start: 0,
        end: 0,
        kind: Kind::Flag,
    };

    fn start(&self) -> usize {
        self.start as usize
    }

    fn end(&self) -> usize {
        self.end as usize
    }
}

/// What [`variant_len`] found.
#[derive(Debug, PartialEq, Eq)]
enum Near {
    /// The bytes start with a value of the kind this long.
    Variant(usize),
    /// They start with something else.
    Differs,
    /// They end before it could be told.
    Short,
}

/// The volatile values of the job object `text`, in order. Input that is
/// not an object, or that stops being JSON, yields the spans found before;
/// a text of 4 GiB or more yields none (it is then known by its whole text).
pub(super) fn spans(text: &[u8]) -> Vec<Span> {
    if u32::try_from(text.len()).is_err() {
        return Vec::new();
    }
    members(text)
        .filter(|(key, _)| KEYS.contains(key))
        .filter_map(|(_, value)| {
            let kind = kind_of(&text[value.clone()])?;
            Some(Span {
                start: value.start as u32,
                end: value.end as u32,
                kind,
            })
        })
        .collect()
}

/// The top-level members of the object `text`, in order: each key's bytes
/// (escapes left as written) and where its value is. Only strings and
/// nesting are tracked, nothing is validated; the members end where the
/// text stops being an object.
pub(super) fn members(text: &[u8]) -> Members<'_> {
    let open = skip_space(text, 0);
    Members {
        text,
        next: (text.get(open) == Some(&b'{')).then_some(open + 1),
    }
}

/// The iterator of [`members`].
pub(super) struct Members<'t> {
    text: &'t [u8],
    /// Where the next member's key may start, until the members end.
    next: Option<usize>,
}

impl<'t> Iterator for Members<'t> {
    type Item = (&'t [u8], Range<usize>);

    fn next(&mut self) -> Option<Self::Item> {
        let text = self.text;
        let mut i = skip_space(text, self.next.take()?);
        if text.get(i) != Some(&b'"') {
            return None;
        }
        let close = string_end(text, i + 1)?;
        let key = &text[i + 1..close];
        i = skip_space(text, close + 1);
        if text.get(i) != Some(&b':') {
            return None;
        }
        let start = skip_space(text, i + 1);
        let end = value_end(text, start)?;
        let after = skip_space(text, end);
        self.next = (text.get(after) == Some(&b',')).then_some(after + 1);
        Some((key, start..end))
    }
}

/// What a job text is known by: its length, where its volatile values are,
/// and a 128-bit hash of it without them ([`shape`]). A text and its
/// variants share the hash; nothing else does but by a collision (see
/// [`super::job_texts`]).
#[derive(Clone, Debug)]
pub(super) struct Key {
    len: usize,
    shape: u128,
    /// The volatile values, held in the key itself: a text's key is looked
    /// at for every allocation that may embed it, and a list of its own
    /// was one more cache miss each time.
    spans: [Span; KEYS.len()],
    /// How many of `spans` hold a value, or [`MORE_SPANS`].
    span_count: u8,
    /// The text's last bytes (up to 8, after its last volatile value): a
    /// text of another length seldom has them there, which rules it out
    /// before anything is hashed.
    tail: [u8; TAIL],
    tail_len: u8,
}

const TAIL: usize = 8;

/// [`Key::span_count`] of a text with more volatile values than its keys
/// (a key given twice): [`Key::prefix_of`] finds no such text, which is then
/// found by its whole text.
const MORE_SPANS: u8 = u8::MAX;

impl Key {
    /// The key of the complete job text `text`.
    pub(super) fn of(text: &[u8]) -> Key {
        let spans = spans(text);
        let shape = shape(text, &spans);
        let after = spans.last().map_or(0, Span::end);
        let tail_len = (text.len() - after).min(TAIL);
        let mut tail = [0; TAIL];
        tail[..tail_len].copy_from_slice(&text[text.len() - tail_len..]);
        let mut held = [Span::NONE; KEYS.len()];
        let span_count = match held.get_mut(..spans.len()) {
            Some(slots) => {
                slots.copy_from_slice(&spans);
                spans.len() as u8
            }
            None => MORE_SPANS,
        };
        Key {
            len: text.len(),
            shape,
            spans: held,
            span_count,
            tail,
            tail_len: tail_len as u8,
        }
    }

    /// The hash a text and its variants share.
    pub(super) fn shape(&self) -> u128 {
        self.shape
    }

    /// The length of the first text of the key.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The length of the text of this key, or of a variant of it, that
    /// `bytes` start with, if they do: the bytes are laid out as the key's
    /// text (its stretches between volatile values of the same lengths,
    /// each volatile value one of its kind of any length) and hashed.
    pub(super) fn prefix_of(&self, bytes: &[u8]) -> Option<usize> {
        // Where each stretch of the text is in `bytes`.
        let mut stretches = [(0, 0); KEYS.len()];
        let (mut t, mut b) = (0, 0);
        let spans = self.spans.get(..usize::from(self.span_count))?;
        for (i, span) in spans.iter().enumerate() {
            let before = span.start() - t;
            let value = b + before;
            let Near::Variant(n) = variant_len(span.kind, bytes.get(value..)?) else {
                return None;
            };
            stretches[i] = (b, value);
            b = value + n;
            t = span.end();
        }
        let end = b + (self.len - t);
        let tail = usize::from(self.tail_len);
        if bytes.get(end - tail..end)? != &self.tail[..tail] {
            return None;
        }
        let mut hasher = Xxh3::new();
        for (span, &(from, to)) in spans.iter().zip(&stretches) {
            stretch(&mut hasher, &bytes[from..to], Some(span.kind));
        }
        stretch(&mut hasher, &bytes[b..end], None);
        (hasher.digest128() == self.shape).then_some(end)
    }
}

/// A 128-bit hash of `text` with each volatile value (at `spans`) replaced by
/// its kind: a text and its variants share it.
fn shape(text: &[u8], spans: &[Span]) -> u128 {
    let mut hasher = Xxh3::new();
    let mut t = 0;
    for span in spans {
        stretch(&mut hasher, &text[t..span.start()], Some(span.kind));
        t = span.end();
    }
    stretch(&mut hasher, &text[t..], None);
    hasher.digest128()
}

/// Adds to a [`shape`] one stretch between volatile values, by its own
/// 128-bit hash and the kind of the value after it: each stretch is hashed
/// in one call, which for texts of kilobytes is faster than streaming its
/// bytes through a hasher that buffers them.
fn stretch(hasher: &mut Xxh3, bytes: &[u8], kind: Option<Kind>) {
    hasher.update(&xxh3_128(bytes).to_le_bytes());
    hasher.update(&[kind.map_or(0, |k| k as u8 + 1)]);
}

/// Whether `bytes` start with `expected`.
fn same(expected: &[u8], bytes: &[u8]) -> Near {
    match bytes.get(..expected.len()) {
        Some(head) if head == expected => Near::Variant(expected.len()),
        None if expected.starts_with(bytes) => Near::Short,
        _ => Near::Differs,
    }
}

/// The length of the value of `kind` at the start of `bytes`.
fn variant_len(kind: Kind, bytes: &[u8]) -> Near {
    match kind {
        Kind::Index => {
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            if digits == bytes.len() && digits <= INDEX_DIGITS {
                Near::Short
            } else if digits == 0 || digits > INDEX_DIGITS || (digits > 1 && bytes[0] == b'0') {
                Near::Differs
            } else {
                Near::Variant(digits)
            }
        }
        Kind::Text => {
            if bytes.is_empty() {
                return Near::Short;
            }
            if bytes[0] != b'"' {
                return Near::Differs;
            }
            match memchr::memchr2(b'"', b'\\', &bytes[1..]) {
                None => Near::Short,
                Some(q) if bytes[1 + q] == b'"' && plain(&bytes[1..1 + q]) => Near::Variant(q + 2),
                Some(_) => Near::Differs,
            }
        }
        Kind::Flag => ["true", "false"]
            .into_iter()
            .map(|word| same(word.as_bytes(), bytes))
            .find(|near| *near != Near::Differs)
            .unwrap_or(Near::Differs),
    }
}

/// The kind of a value's text, if it is one a variant may change.
fn kind_of(value: &[u8]) -> Option<Kind> {
    match value {
        b"true" | b"false" => Some(Kind::Flag),
        [b'"', inner @ .., b'"'] if !inner.contains(&b'\\') && plain(inner) => Some(Kind::Text),
        [b'0'] => Some(Kind::Index),
        [b'1'..=b'9', rest @ ..]
            if rest.len() < INDEX_DIGITS && rest.iter().all(u8::is_ascii_digit) =>
        {
            Some(Kind::Index)
        }
        _ => None,
    }
}

/// A string's content without escapes: valid UTF-8 without control characters.
fn plain(content: &[u8]) -> bool {
    !content.iter().any(|&b| b < 0x20 || b == b'"') && std::str::from_utf8(content).is_ok()
}

/// The end of the JSON value starting at `start`, tracking only strings and
/// nesting.
fn value_end(text: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = start;
    loop {
        match *text.get(i)? {
            b'"' => {
                i = string_end(text, i + 1)? + 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            b'{' | b'[' => {
                depth += 1;
                i += 1;
            }
            // The object around a value that ends with it.
            b'}' | b']' if depth == 0 => return Some(i),
            b'}' | b']' => {
                depth -= 1;
                i += 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            b',' | b' ' | b'\n' | b'\r' | b'\t' if depth == 0 => return Some(i),
            _ => i += 1,
        }
    }
}

fn skip_space(text: &[u8], mut i: usize) -> usize {
    while text
        .get(i)
        .is_some_and(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
    {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    const JOB: &str = r#"{"ID":"web","TaskGroups":[{"Name":"web","ModifyIndex":3}],"Status":"running","Stable":false,"Version":2,"ModifyIndex":1040,"JobModifyIndex":1004}"#;

    fn variant(of: &str, bytes: &str) -> Option<usize> {
        Key::of(of.as_bytes()).prefix_of(bytes.as_bytes())
    }

    #[test]
    fn finds_the_top_level_volatile_values_only() {
        let spans = spans(JOB.as_bytes());
        let values: Vec<&str> = spans.iter().map(|s| &JOB[s.start()..s.end()]).collect();
        assert_eq!(values, [r#""running""#, "false", "1040"]);
        let pretty = "{ \"Stable\" : true ,\n \"Meta\": {\"Stable\": true}, \"ModifyIndex\" :7 }";
        let values: Vec<&str> = super::spans(pretty.as_bytes())
            .iter()
            .map(|s| &pretty[s.start()..s.end()])
            .collect();
        assert_eq!(values, ["true", "7"]);
    }

    #[test]
    fn values_a_variant_may_not_change() {
        for text in [
            r#"{"ModifyIndex":-1}"#,
            r#"{"ModifyIndex":1.5}"#,
            r#"{"ModifyIndex":01}"#,
            r#"{"ModifyIndex":12345678901234567890}"#,
            r#"{"ModifyIndex":null}"#,
            r#"{"Status":"a\"b"}"#,
            r#"{"Status":["running"]}"#,
            r#"{"Stat\u0075s":"running"}"#,
        ] {
            assert_eq!(spans(text.as_bytes()), [], "{text}");
        }
    }

    #[test]
    fn a_text_with_other_volatile_values_is_a_variant() {
        let other = JOB
            .replace("1040", "98765")
            .replace(r#""running""#, r#""dead""#)
            .replace("false", "true");
        assert_eq!(variant(JOB, &format!("{other},\"x\"")), Some(other.len()));
        assert_eq!(variant(JOB, JOB), Some(JOB.len()));
        let described = r#"{"StatusDescription":"","Version":1}"#;
        let moved = r#"{"StatusDescription":"été 2022","Version":1}"#;
        assert_eq!(variant(described, moved), Some(moved.len()));
    }

    #[test]
    fn any_other_difference_or_an_invalid_value_is_not() {
        for other in [
            JOB.replace("1004", "1005"),
            JOB.replace(r#""ModifyIndex":3"#, r#""ModifyIndex":4"#),
            JOB.replace("1040", "01040"),
            JOB.replace("1040", "1040.0"),
            JOB.replace("1040", "-1040"),
            JOB.replace("1040", "12345678901234567890"),
            JOB.replace("1040", r#""1040""#),
            JOB.replace(r#""running""#, r#""run\"ning""#),
            JOB.replace(r#""running""#, "\"run\u{1}ning\""),
            JOB.replace(r#""running""#, "null"),
            JOB.replace("false", "fals"),
            JOB.replace("false", "0"),
        ] {
            assert_eq!(variant(JOB, &other), None, "{other}");
        }
    }

    #[test]
    fn bytes_that_end_inside_a_variant_are_no_match() {
        let other = JOB.replace("1040", "1041");
        for cut in [
            10,
            JOB.find("\"running").unwrap() + 3,
            other.find("1041").unwrap() + 4,
        ] {
            assert_eq!(variant(JOB, &other[..cut]), None, "{}", &other[..cut]);
        }
        let stable = JOB.find("false").unwrap();
        assert_eq!(variant(JOB, &JOB[..stable + 2]), None);
        assert_eq!(variant(JOB, &JOB[..JOB.len() - 1]), None);
    }

    #[test]
    fn a_text_with_more_volatile_values_than_keys_is_left_to_its_shape() {
        let twice = r#"{"Status":"a","Stable":true,"Status":"b","Stable":false,"ModifyIndex":1,"ModifyIndex":2}"#;
        let key = Key::of(twice.as_bytes());
        assert_eq!(spans(twice.as_bytes()).len(), 6);
        assert_eq!(key.prefix_of(twice.as_bytes()), None);
        let other = twice.replace(r#""a""#, r#""c""#);
        assert_eq!(Key::of(other.as_bytes()).shape(), key.shape());
        let four = r#"{"Status":"a","Stable":true,"StatusDescription":"","ModifyIndex":1}"#;
        assert_eq!(
            variant(four, &four.replace("1}", "22}")),
            Some(four.len() + 1)
        );
    }

    #[test]
    fn variants_share_a_shape_and_other_texts_do_not() {
        let of = |t: &str| Key::of(t.as_bytes()).shape();
        assert_eq!(of(JOB), of(&JOB.replace("1040", "7")));
        assert_ne!(of(JOB), of(&JOB.replace("1004", "7")));
        assert_ne!(of(JOB), of(&JOB.replace("false", "null")));
    }
}
