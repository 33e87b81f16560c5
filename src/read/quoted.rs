//! JSON strings found by their quotes alone, without decoding them: what
//! the byte scans of allocations and job texts step over.

/// The index of the quote closing the string whose content starts at `from`.
pub(super) fn string_end(bytes: &[u8], mut from: usize) -> Option<usize> {
    loop {
        let at = from + memchr::memchr2(b'"', b'\\', bytes.get(from..)?)?;
        if bytes[at] == b'"' {
            return Some(at);
        }
        from = at + 2;
    }
}
