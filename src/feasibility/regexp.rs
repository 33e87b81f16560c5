//! Go's `regexp` syntax (RE2) on the `regex` crate, for the `regexp`
//! operand. The two differ where a node's value can tell: Go's `\d`, `\w`,
//! `\s` and `\b` are ASCII, the crate's Unicode ("é" is a word character
//! only to the crate); Go reads `\Q...\E` as a literal, `[` inside a
//! class as itself and `\<` as `<`, where the crate has no `\Q`, nests
//! classes and reads `\<` as a word boundary. The
//! pattern is rewritten into the crate's syntax with Go's meaning before it
//! is compiled.

use regex::{Regex, RegexBuilder};

/// `regexp.Compile`: `None` where Go's parser would refuse the pattern (or
/// the crate cannot express it).
pub fn compile(pattern: &str) -> Option<Regex> {
    RegexBuilder::new(&translate(pattern))
        .octal(true)
        .build()
        .ok()
}

/// Go's Perl classes, ASCII as RE2 defines them (`\s` has no `\v`).
fn perl_class(c: char) -> Option<&'static str> {
    Some(match c {
        'd' => "[0-9]",
        'D' => "[^0-9]",
        'w' => "[0-9A-Za-z_]",
        'W' => "[^0-9A-Za-z_]",
        's' => r"[\t\n\x0C\r ]",
        'S' => r"[^\t\n\x0C\r ]",
        _ => return None,
    })
}

fn translate(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut chars = pattern.chars().peekable();
    // Inside a bracket class, and whether its first member is still to come
    // (a `]` there is a literal).
    let mut class: Option<bool> = None;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                None => out.push('\\'),
                Some(e) => {
                    if let Some(ascii) = perl_class(e) {
                        out.push_str(ascii);
                    } else if matches!(e, 'b' | 'B') && class.is_none() {
                        out.push_str("(?-u:\\");
                        out.push(e);
                        out.push(')');
                    } else if matches!(e, '<' | '>') {
                        // Go: an escaped punctuation mark is itself; the
                        // crate reads these two as word boundaries.
                        out.push(e);
                    } else if e == 'Q' {
                        let mut literal = String::new();
                        while let Some(l) = chars.next() {
                            if l == '\\' && chars.peek() == Some(&'E') {
                                chars.next();
                                break;
                            }
                            literal.push(l);
                        }
                        out.push_str(&regex::escape(&literal));
                    } else {
                        out.push('\\');
                        out.push(e);
                    }
                }
            },
            '[' if class.is_none() => {
                out.push('[');
                if chars.peek() == Some(&'^') {
                    chars.next();
                    out.push('^');
                }
                class = Some(true);
                continue;
            }
            '[' if chars.peek() == Some(&':') => {
                // A POSIX class `[:alpha:]`, ASCII in both.
                out.push('[');
                for p in chars.by_ref() {
                    out.push(p);
                    if p == ']' {
                        break;
                    }
                }
            }
            '[' | '&' | '~' if class.is_some() => {
                out.push('\\');
                out.push(c);
            }
            ']' if class == Some(true) => out.push_str(r"\]"),
            ']' if class.is_some() => {
                out.push(']');
                class = None;
                continue;
            }
            _ => out.push(c),
        }
        if class.is_some() {
            class = Some(false);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, text: &str) -> Option<bool> {
        compile(pattern).map(|re| re.is_match(text))
    }

    #[test]
    fn perl_classes_are_ascii_as_in_go() {
        assert_eq!(matches(r"^\w+$", "hello_1"), Some(true));
        assert_eq!(matches(r"^\w+$", "héllo"), Some(false));
        assert_eq!(matches(r"^[\w]+$", "héllo"), Some(false));
        assert_eq!(matches(r"^\W$", "é"), Some(true));
        assert_eq!(matches(r"\d", "٣"), Some(false));
        assert_eq!(matches(r"^[^\d]+$", "abc"), Some(true));
        assert_eq!(matches(r"\s", "\u{a0}"), Some(false));
        assert_eq!(matches(r"\s", "\u{b}"), Some(false), "Go's \\s has no \\v");
        assert_eq!(matches(r"\s", "a b"), Some(true));
        assert_eq!(matches(r"\bé", "é"), Some(false), "é is no word character");
        assert_eq!(matches(r"\bfoo\b", "a foo b"), Some(true));
        assert_eq!(
            matches(r"\pL", "é"),
            Some(true),
            "Unicode classes stay Unicode"
        );
    }

    #[test]
    fn go_literals_and_classes() {
        assert_eq!(matches(r"^\Qa.b\E$", "a.b"), Some(true));
        assert_eq!(matches(r"^\Qa.b\E$", "axb"), Some(false));
        assert_eq!(matches(r"^\Qa.b$", "a.b$"), Some(true), "\\Q to the end");
        assert_eq!(matches(r"^[[]$", "["), Some(true), "[ in a class is itself");
        assert_eq!(matches(r"^[]a]+$", "]a"), Some(true), "] first is a member");
        assert_eq!(matches(r"^[^]]$", "x"), Some(true));
        assert_eq!(
            matches(r"^[a&&b]+$", "a&b"),
            Some(true),
            "no class intersection"
        );
        assert_eq!(matches(r"^[[:alpha:]]+$", "abc"), Some(true));
        assert_eq!(matches(r"^[[:alpha:]]+$", "é"), Some(false));
        assert_eq!(matches(r"\\d", r"\d"), Some(true), "an escaped backslash");
        assert_eq!(matches(r"\101", "A"), Some(true), "octal");
        assert_eq!(
            matches(r"^\<a\>$", "<a>"),
            Some(true),
            "escaped punctuation"
        );
        assert_eq!(matches(r"(", "("), None);
        assert_eq!(matches(r"a\", "a"), None, "a trailing backslash");
    }
}
