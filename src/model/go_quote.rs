//! Go's `%q` and `%+q` of a string, as Nomad's messages and `nomad job
//! plan`'s diff print values: plan-inspect's words must match Nomad's.

/// Go's `%q`: double quotes, `"` and `\` escaped, control characters as
/// `\n`-style, `\x` or `\u` escapes, everything else kept.
pub fn go_quote(s: &str) -> String {
    quote(s, false)
}

/// Go's `%+q`: as [`go_quote`], with every non-ASCII character escaped too.
pub fn go_plus_quote(s: &str) -> String {
    quote(s, true)
}

fn quote(s: &str, ascii_only: bool) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_ascii_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_ascii() => out.push(c),
            c if !ascii_only && !c.is_control() => out.push(c),
            c if (c as u32) <= 0xFFFF => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_as_go_does() {
        assert_eq!(
            go_quote("a\"b\\c\n\t\r\x01\x7f"),
            r#""a\"b\\c\n\t\r\x01\x7f""#
        );
        assert_eq!(go_quote("é\u{85}"), "\"é\\u0085\"");
        assert_eq!(go_plus_quote("é😀"), "\"\\u00e9\\U0001f600\"");
    }
}
