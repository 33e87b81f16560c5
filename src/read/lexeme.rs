//! The JSON tokens the allocation decoder reads by hand ([`super::alloc_decode`]):
//! whitespace, keys and plain strings, integers, and whole values stepped
//! over unread.
//!
//! Each takes a little less than JSON allows: what serde_json would accept
//! but these do not (an escape in a key, an integer with a fraction) ends in
//! `None`, and the caller gives the element to serde_json, which decides. A
//! value stepped over is checked as strictly as serde_json checks a value it
//! ignores (strings without control characters, valid escapes, numbers by
//! JSON's grammar, literals), and its strings are also UTF-8, so nothing
//! serde_json would refuse gets through.

/// Nesting a skipped value may have: far past any Nomad object, far below
/// serde_json's own limit.
const MAX_DEPTH: usize = 64;

/// The index of the first byte at or after `at` that is not JSON whitespace.
pub(super) fn skip_space(bytes: &[u8], mut at: usize) -> Option<usize> {
    loop {
        match *bytes.get(at)? {
            b' ' | b'\n' | b'\r' | b'\t' => at += 1,
            _ => return Some(at),
        }
    }
}

/// The content of the string whose opening quote is at `at`, and the index
/// after its closing quote, if it has no escapes and is valid UTF-8.
pub(super) fn plain_string(bytes: &[u8], at: usize) -> Option<(&str, usize)> {
    let (content, end) = unescaped(bytes, at)?;
    Some((std::str::from_utf8(content).ok()?, end))
}

/// [`plain_string`] as bytes, checked to be UTF-8 without making a `str`:
/// a key is only compared.
pub(super) fn plain_key(bytes: &[u8], at: usize) -> Option<(&[u8], usize)> {
    let (key, end) = unescaped(bytes, at)?;
    (key.is_ascii() || std::str::from_utf8(key).is_ok()).then_some((key, end))
}

/// The content of the string whose opening quote is at `at`, and the index
/// after its closing quote, if it has no escapes or control characters.
fn unescaped(bytes: &[u8], at: usize) -> Option<(&[u8], usize)> {
    let from = at + 1;
    let stop = string_stop(bytes, from)?;
    (bytes[stop] == b'"').then(|| (&bytes[from..stop], stop + 1))
}

/// A string whose opening quote is at `at`, escapes allowed; the index after it.
fn skip_string(bytes: &[u8], at: usize) -> Option<usize> {
    let mut from = at + 1;
    loop {
        let stop = string_stop(bytes, from)?;
        let run = &bytes[from..stop];
        if !run.is_ascii() && std::str::from_utf8(run).is_err() {
            return None;
        }
        match bytes[stop] {
            b'"' => return Some(stop + 1),
            b'\\' => {}
            _ => return None,
        }
        from = match *bytes.get(stop + 1)? {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => stop + 2,
            b'u' => {
                let hex = bytes.get(stop + 2..stop + 6)?;
                if !hex.iter().all(u8::is_ascii_hexdigit) {
                    return None;
                }
                stop + 6
            }
            _ => return None,
        };
    }
}

/// The index of the first quote, backslash or control character at or
/// after `from` inside a string: eight bytes at a time, since most strings
/// here are IDs and names of a few dozen bytes, too short for `memchr`'s
/// setup to pay.
fn string_stop(bytes: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    // A set high bit for each byte of `v` that is zero (the lowest is exact).
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let mut i = from;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let x = u64::from_le_bytes(chunk.try_into().ok()?);
        let stops = zero(x ^ (ONES * u64::from(b'"')))
            | zero(x ^ (ONES * u64::from(b'\\')))
            | (x.wrapping_sub(ONES * 0x20) & !x & HIGH);
        if stops != 0 {
            return Some(i + stops.trailing_zeros() as usize / 8);
        }
        i += 8;
    }
    let rest = bytes.get(i..)?;
    rest.iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        .map(|p| i + p)
}

/// A number by JSON's grammar at `at`; the index after it.
fn skip_number(bytes: &[u8], at: usize) -> Option<usize> {
    let digits = |from: usize| {
        let n = bytes
            .get(from..)
            .map_or(0, |b| b.iter().take_while(|b| b.is_ascii_digit()).count());
        (n > 0).then_some(from + n)
    };
    let mut i = at + usize::from(bytes.get(at) == Some(&b'-'));
    i = match bytes.get(i)? {
        b'0' => i + 1,
        b'1'..=b'9' => digits(i)?,
        _ => return None,
    };
    if bytes.get(i) == Some(&b'.') {
        i = digits(i + 1)?;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        i = digits(i)?;
    }
    // serde_json ends a number at anything else, and refuses what is left.
    match bytes.get(i) {
        Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') => None,
        _ => Some(i),
    }
}

/// An integer at `at`, without fraction or exponent, as its sign and
/// magnitude (`None` past `u64`), as serde_json reads one into an integer
/// field; the index after it.
pub(super) fn integer(bytes: &[u8], at: usize) -> Option<(bool, u64, usize)> {
    let negative = bytes.get(at) == Some(&b'-');
    let from = at + usize::from(negative);
    let n = bytes
        .get(from..)?
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    // A leading zero is only `0` itself.
    if n == 0 || (n > 1 && bytes[from] == b'0') {
        return None;
    }
    let end = from + n;
    if matches!(bytes.get(end), Some(b'.' | b'e' | b'E')) {
        return None;
    }
    let mut value = 0u64;
    for &d in &bytes[from..end] {
        value = value.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
    }
    Some((negative, value, end))
}

/// An integer at `at` for a `u64` field; the index after it.
pub(super) fn unsigned(bytes: &[u8], at: usize) -> Option<(u64, usize)> {
    match integer(bytes, at)? {
        (false, n, end) => Some((n, end)),
        (true, ..) => None,
    }
}

/// An integer at `at` for an `i64` field; the index after it. serde_json
/// reads `-0` as a float, which an integer field refuses.
pub(super) fn signed(bytes: &[u8], at: usize) -> Option<(i64, usize)> {
    let (negative, n, end) = integer(bytes, at)?;
    let n = i64::try_from(n).ok()?;
    match (negative, n) {
        (false, n) => Some((n, end)),
        (true, 0) => None,
        (true, n) => Some((-n, end)),
    }
}

/// The literal `word` at `at`; the index after it.
fn skip_literal(bytes: &[u8], at: usize, word: &[u8]) -> Option<usize> {
    bytes
        .get(at..)?
        .starts_with(word)
        .then_some(at + word.len())
}

/// Whether the value at `at` is `null`; the index after it.
pub(super) fn null(bytes: &[u8], at: usize) -> Option<usize> {
    skip_literal(bytes, at, b"null")
}

/// Steps over the JSON value at `at`, checking it; the index after it.
pub(super) fn skip_value(bytes: &[u8], at: usize) -> Option<usize> {
    skip_nested(bytes, at, 0)
}

fn skip_nested(bytes: &[u8], at: usize, depth: usize) -> Option<usize> {
    match *bytes.get(at)? {
        b'"' => skip_string(bytes, at),
        b'{' => skip_members(bytes, at, depth + 1),
        b'[' => skip_elements(bytes, at, depth + 1),
        b't' => skip_literal(bytes, at, b"true"),
        b'f' => skip_literal(bytes, at, b"false"),
        b'n' => null(bytes, at),
        _ => skip_number(bytes, at),
    }
}

fn skip_members(bytes: &[u8], at: usize, depth: usize) -> Option<usize> {
    if depth > MAX_DEPTH {
        return None;
    }
    let mut i = skip_space(bytes, at + 1)?;
    if bytes[i] == b'}' {
        return Some(i + 1);
    }
    loop {
        if bytes[i] != b'"' {
            return None;
        }
        i = skip_space(bytes, skip_string(bytes, i)?)?;
        if bytes[i] != b':' {
            return None;
        }
        i = skip_space(bytes, i + 1)?;
        i = skip_space(bytes, skip_nested(bytes, i, depth)?)?;
        match bytes[i] {
            b',' => i = skip_space(bytes, i + 1)?,
            b'}' => return Some(i + 1),
            _ => return None,
        }
    }
}

fn skip_elements(bytes: &[u8], at: usize, depth: usize) -> Option<usize> {
    if depth > MAX_DEPTH {
        return None;
    }
    let mut i = skip_space(bytes, at + 1)?;
    if bytes[i] == b']' {
        return Some(i + 1);
    }
    loop {
        i = skip_space(bytes, skip_nested(bytes, i, depth)?)?;
        match bytes[i] {
            b',' => i = skip_space(bytes, i + 1)?,
            b']' => return Some(i + 1),
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `text` is stepped over whole.
    fn skips(text: &str) -> bool {
        skip_value(text.as_bytes(), 0) == Some(text.len())
    }

    #[test]
    fn valid_values_are_stepped_over_whole() {
        for text in [
            r#"{"a": [1, -2.5e+3, true, false, null, "x\"y\u00e9\n"], "b": {}}"#,
            "[]",
            "0",
            "-0.0E7",
            r#""Ünï""#,
            "[ [ ] , { \"k\" :\t\"v\" } ]",
        ] {
            assert!(skips(text), "{text}");
        }
    }

    #[test]
    fn what_serde_json_refuses_is_refused() {
        for text in [
            "01",
            "1.",
            "-",
            "1e",
            "+1",
            "[1,]",
            "{\"a\" 1}",
            "{\"a\":1,}",
            "tru",
            "nul",
            "\"a\u{1}\"",
            r#""\x""#,
            r#""\u12G4""#,
            "[1 2]",
            "{1:2}",
        ] {
            assert!(!skips(text), "{text}");
            let serde = serde_json::from_str::<serde::de::IgnoredAny>(text);
            assert!(serde.is_err(), "{text}");
        }
        assert!(!skips(&"[".repeat(100)));
        assert_eq!(skip_value(b"[1, 2", 0), None);
    }

    #[test]
    fn integers_are_read_only_when_plain() {
        assert_eq!(unsigned(b"123,", 0), Some((123, 3)));
        assert_eq!(signed(b"-7}", 0), Some((-7, 2)));
        assert_eq!(unsigned(b"0 ", 0), Some((0, 1)));
        assert_eq!(signed(b"-0 ", 0), None);
        assert!(serde_json::from_str::<i64>("-0").is_err());
        assert_eq!(
            signed(b"1648716000000000000,", 0),
            Some((1_648_716_000_000_000_000, 19))
        );
        assert_eq!(unsigned(b"18446744073709551615", 0), Some((u64::MAX, 20)));
        assert_eq!(unsigned(b"18446744073709551616", 0), None);
        assert_eq!(signed(b"9223372036854775808", 0), None);
        assert_eq!(unsigned(b"-1", 0), None);
        for text in ["01", "1.5", "1e3", "-", "x"] {
            assert_eq!(integer(text.as_bytes(), 0), None, "{text}");
        }
    }

    #[test]
    fn a_string_stops_at_its_first_quote_backslash_or_control_character() {
        for len in 0..20 {
            for stop in [b'"', b'\\', 0x1f, 0x00] {
                let mut text = vec![b'a'; len];
                text.extend_from_slice(&[0xc3, 0xa9]);
                text.push(stop);
                text.extend_from_slice(b"\"x\\");
                assert_eq!(string_stop(&text, 0), Some(len + 2), "{len} {stop}");
            }
            assert_eq!(string_stop(&vec![b' '; len], 0), None);
        }
    }

    #[test]
    fn plain_strings_have_no_escapes_nor_control_characters() {
        assert_eq!(plain_string(br#""web" "#, 0), Some(("web", 5)));
        assert_eq!(plain_string(br#""w\"b""#, 0), None);
        assert_eq!(plain_string(b"\"a\tb\"", 0), None);
        assert_eq!(plain_string(b"\"\xff\"", 0), None);
    }
}
