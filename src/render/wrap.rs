//! Free text folded to a line width: words move to the next line, and a
//! word wider than a line (a long job name) is broken after its last
//! punctuation that fits, else where the line ends.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Word-wraps free text (warnings, headers, one-line summaries) to `width`
/// columns, with continuation lines indented; a word wider than a line (a
/// long job name) is broken as [`split_at_width`] says.
pub(crate) fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let fits = line.width() + 1 + word.width() <= width;
        if !line.trim().is_empty() && !fits {
            out.push_str(line.trim_end());
            out.push('\n');
            line = "  ".to_string();
        } else if !line.is_empty() && !line.ends_with("  ") {
            line.push(' ');
        }
        let mut rest = word;
        while !rest.is_empty() && line.width() + rest.width() > width {
            let (head, tail) = split_at_width(rest, width.saturating_sub(line.width()));
            line.push_str(head);
            out.push_str(line.trim_end());
            out.push('\n');
            line = "  ".to_string();
            rest = tail;
        }
        line.push_str(rest);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// `s` split after as many characters as fit in `width` columns, at least
/// one: after the last punctuation among them (`-`, `/`, `.`, `_`, `:`) when
/// there is one, so that a name breaks between its parts.
fn split_at_width(s: &str, width: usize) -> (&str, &str) {
    let mut used = 0;
    let cut = s
        .char_indices()
        .find(|&(i, c)| {
            used += c.width().unwrap_or(0);
            i > 0 && used > width
        })
        .map_or(s.len(), |(i, _)| i);
    let cut = match s[..cut].rfind(['-', '/', '.', '_', ':']) {
        Some(p) if cut < s.len() && p + 1 < cut => p + 1,
        _ => cut,
    };
    s.split_at(cut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_text_wraps_at_the_width() {
        let text = format!("warning: {}", "word ".repeat(40));
        for width in [60, 100, 160] {
            let wrapped = wrap(text.trim_end(), width);
            assert!(wrapped.lines().all(|l| l.chars().count() <= width));
            assert!(wrapped.lines().skip(1).all(|l| l.starts_with("  word")));
            assert_eq!(wrapped.split_whitespace().count(), 41);
        }
    }

    #[test]
    fn a_word_wider_than_the_line_is_broken_at_its_last_punctuation() {
        let name = format!("default/{}", "é".repeat(30));
        assert_eq!(
            wrap(&format!("{name}  service"), 20),
            "default/\n  éééééééééééééééééé\n  éééééééééééé\n  service\n"
        );
        assert_eq!(split_at_width("abc", 0), ("a", "bc"));
        assert_eq!(split_at_width("abc", 5), ("abc", ""));
    }

    /// Issue 33: `max_client_disc` / `onnect` was broken mid-word.
    #[test]
    fn a_long_word_breaks_after_its_last_punctuation_that_fits() {
        assert_eq!(
            split_at_width("max_client_disconnect", 15),
            ("max_client_", "disconnect")
        );
        assert_eq!(
            split_at_width("default/payments", 12),
            ("default/", "payments")
        );
    }
}
