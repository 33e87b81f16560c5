//! Whether Go's `regexp.Compile` refuses a pattern, and its words when it
//! does (``error parsing regexp: CODE: `TEXT` ``): the checks of Go's
//! `regexp/syntax` parser in Perl mode, in its left-to-right order, so the
//! first fault found is the one Go reports. A constraint's `regexp`
//! target is refused with these words by `Constraint.Validate`.

const INVALID_ESCAPE: &str = "invalid escape sequence";
const INVALID_RANGE: &str = "invalid character class range";
const MISSING_ARGUMENT: &str = "missing argument to repetition operator";

/// Go's error for `pattern`, or `None` when Go compiles it.
pub(crate) fn compile_error(pattern: &str) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut p = Parser {
        s: &chars,
        depth: 0,
        operand: false,
    };
    p.parse()
        .err()
        .map(|(code, text)| format!("error parsing regexp: {code}: `{text}`"))
}

type Fault = (&'static str, String);

struct Parser<'s> {
    s: &'s [char],
    /// Groups open.
    depth: usize,
    /// Whether the top of Go's parse stack is an expression a repetition
    /// may apply to (not nothing, an open group or an alternation).
    operand: bool,
}

impl Parser<'_> {
    fn text(&self, from: usize, to: usize) -> String {
        self.s[from..to.min(self.s.len())].iter().collect()
    }

    fn whole(&self) -> String {
        self.s.iter().collect()
    }

    fn at(&self, i: usize) -> Option<char> {
        self.s.get(i).copied()
    }

    fn parse(&mut self) -> Result<(), Fault> {
        let mut i = 0;
        let mut last_repeat: Option<usize> = None;
        while i < self.s.len() {
            let mut repeat = None;
            match self.s[i] {
                '(' if self.at(i + 1) == Some('?') => i = self.perl_flags(i)?,
                '(' => {
                    self.depth += 1;
                    self.operand = false;
                    i += 1;
                }
                ')' => {
                    if self.depth == 0 {
                        return Err(("unexpected )", self.whole()));
                    }
                    self.depth -= 1;
                    self.operand = true;
                    i += 1;
                }
                '|' => {
                    self.operand = false;
                    i += 1;
                }
                '*' | '+' | '?' => {
                    let start = i;
                    i = self.repeat(i, i + 1, last_repeat)?;
                    repeat = Some(start);
                }
                '{' => match repeat_counts(self.s, i) {
                    Some((min, max, after)) => {
                        if !(0..=1000).contains(&min) || max > 1000 || (max >= 0 && min > max) {
                            return Err(("invalid repeat count", self.text(i, after)));
                        }
                        let start = i;
                        i = self.repeat(i, after, last_repeat)?;
                        repeat = Some(start);
                    }
                    None => {
                        self.operand = true;
                        i += 1;
                    }
                },
                '[' => {
                    i = self.class(i)?;
                    self.operand = true;
                }
                '\\' => i = self.escape_outside_class(i)?,
                _ => {
                    self.operand = true;
                    i += 1;
                }
            }
            last_repeat = repeat;
        }
        if self.depth > 0 {
            return Err(("missing closing )", self.whole()));
        }
        Ok(())
    }

    /// A repetition operator at `op` whose count ends before `after`:
    /// Go's `parser.repeat`. Returns the index after it (and its `?`).
    fn repeat(&mut self, op: usize, after: usize, last: Option<usize>) -> Result<usize, Fault> {
        let after = if self.at(after) == Some('?') {
            after + 1
        } else {
            after
        };
        if let Some(last) = last {
            return Err(("invalid nested repetition operator", self.text(last, after)));
        }
        if !self.operand {
            return Err((MISSING_ARGUMENT, self.text(op, after)));
        }
        Ok(after)
    }

    /// `(?` : a named group or flags, as Go's `parsePerlFlags` reads them.
    fn perl_flags(&mut self, start: usize) -> Result<usize, Fault> {
        let s = self.s;
        let named = (s.len() > start + 4 && s[start + 2] == 'P' && s[start + 3] == '<')
            || (s.len() > start + 3 && s[start + 2] == '<');
        if named {
            let begin = if s[start + 2] == '<' { 3 } else { 4 };
            let Some(end) = s[start..].iter().position(|&c| c == '>') else {
                return Err(("invalid named capture", self.text(start, s.len())));
            };
            let name = &s[start + begin..start + end];
            let valid =
                !name.is_empty() && name.iter().all(|&c| c == '_' || c.is_ascii_alphanumeric());
            if !valid {
                return Err(("invalid named capture", self.text(start, start + end + 1)));
            }
            self.depth += 1;
            self.operand = false;
            return Ok(start + end + 1);
        }
        let (mut negated, mut saw_flag) = (false, false);
        let mut i = start + 2;
        while let Some(c) = self.at(i) {
            i += 1;
            match c {
                'i' | 'm' | 's' | 'U' => saw_flag = true,
                '-' if !negated => {
                    negated = true;
                    saw_flag = false;
                }
                ':' | ')' if !negated || saw_flag => {
                    if c == ':' {
                        self.depth += 1;
                        self.operand = false;
                    }
                    return Ok(i);
                }
                _ => break,
            }
        }
        Err(("invalid or unsupported Perl syntax", self.text(start, i)))
    }

    fn escape_outside_class(&mut self, i: usize) -> Result<usize, Fault> {
        match self.at(i + 1) {
            Some('A' | 'b' | 'B' | 'z' | 'd' | 's' | 'w' | 'D' | 'S' | 'W') => {
                self.operand = true;
                Ok(i + 2)
            }
            Some('Q') => {
                let rest = &self.s[i + 2..];
                let end = rest.windows(2).position(|w| w == ['\\', 'E']);
                let literal = end.unwrap_or(rest.len());
                self.operand |= literal > 0;
                Ok(i + 2 + end.map_or(literal, |e| e + 2))
            }
            Some('p' | 'P') => {
                self.operand = true;
                self.unicode_class(i)
            }
            _ => {
                self.operand = true;
                self.escape(i)
            }
        }
    }

    /// Go's `parseEscape`: one escaped character starting at the `\`.
    fn escape(&self, i: usize) -> Result<usize, Fault> {
        let Some(c) = self.at(i + 1) else {
            return Err(("trailing backslash at end of expression", String::new()));
        };
        let mut t = i + 2;
        let octal = |j: usize| self.at(j).is_some_and(|c| ('0'..='7').contains(&c));
        match c {
            c if c.is_ascii() && !c.is_ascii_alphanumeric() => return Ok(t),
            '1'..='7' if !octal(t) => {}
            '0'..='7' => {
                for _ in 1..3 {
                    if !octal(t) {
                        break;
                    }
                    t += 1;
                }
                return Ok(t);
            }
            'a' | 'f' | 'n' | 'r' | 't' | 'v' => return Ok(t),
            'x' => {
                let hex = |c: Option<char>| c.and_then(|c| c.to_digit(16));
                if self.at(t) == Some('{') {
                    t += 1;
                    let mut value: u32 = 0;
                    let mut digits = 0;
                    while let Some(c) = self.at(t) {
                        t += 1;
                        if c == '}' {
                            if digits > 0 {
                                return Ok(t);
                            }
                            break;
                        }
                        let Some(d) = hex(Some(c)) else { break };
                        value = value.saturating_mul(16).saturating_add(d);
                        if value > 0x10_FFFF {
                            break;
                        }
                        digits += 1;
                    }
                } else if self.at(t).is_some() {
                    let first = hex(self.at(t));
                    t += 1;
                    let second = hex(self.at(t));
                    t = (t + 1).min(self.s.len());
                    if first.is_some() && second.is_some() {
                        return Ok(t);
                    }
                }
            }
            _ => {}
        }
        Err((INVALID_ESCAPE, self.text(i, t)))
    }

    /// `\pL`, `\p{Name}`, `\PL`: Go's `parseUnicodeClass`. A name is
    /// checked against the Unicode tables of Rust's regex crate.
    fn unicode_class(&self, i: usize) -> Result<usize, Fault> {
        let s = self.s;
        let (name, end) = match self.at(i + 2) {
            Some('{') => {
                let Some(close) = s[i..].iter().position(|&c| c == '}') else {
                    return Err((INVALID_RANGE, self.text(i, s.len())));
                };
                (self.text(i + 3, i + close), i + close + 1)
            }
            Some(c) => (c.to_string(), i + 3),
            None => (String::new(), i + 2),
        };
        let name = name.strip_prefix('^').unwrap_or(&name);
        let known = name == "Any"
            || (!name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && regex::Regex::new(&format!(r"\p{{{name}}}")).is_ok());
        if known {
            Ok(end)
        } else {
            Err((INVALID_RANGE, self.text(i, end)))
        }
    }

    /// A bracketed class starting at `[`: Go's `parseClass`.
    fn class(&self, start: usize) -> Result<usize, Fault> {
        let s = self.s;
        let mut t = start + 1;
        if self.at(t) == Some('^') {
            t += 1;
        }
        let mut first = true;
        while first || self.at(t) != Some(']') {
            first = false;
            if s.len() > t + 2
                && s[t] == '['
                && s[t + 1] == ':'
                && let Some(end) = self.named_class(t)?
            {
                t = end;
                continue;
            }
            match (self.at(t), self.at(t + 1)) {
                (Some('\\'), Some('p' | 'P')) => {
                    t = self.unicode_class(t)?;
                    continue;
                }
                (Some('\\'), Some('d' | 's' | 'w' | 'D' | 'S' | 'W')) => {
                    t += 2;
                    continue;
                }
                _ => {}
            }
            let range = t;
            let (lo, next) = self.class_char(t, start)?;
            t = next;
            if self.at(t) == Some('-') && self.at(t + 1).is_some_and(|c| c != ']') {
                let (hi, next) = self.class_char(t + 1, start)?;
                t = next;
                if hi < lo {
                    return Err((INVALID_RANGE, self.text(range, t)));
                }
            }
        }
        Ok(t + 1)
    }

    /// `[:alpha:]` and its negation, or `None` when `[:` starts no name.
    fn named_class(&self, t: usize) -> Result<Option<usize>, Fault> {
        const POSIX: &[&str] = &[
            "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print",
            "punct", "space", "upper", "word", "xdigit",
        ];
        let rest = &self.s[t + 2..];
        let Some(close) = rest.windows(2).position(|w| w == [':', ']']) else {
            return Ok(None);
        };
        let name = self.text(t + 2, t + 2 + close);
        let end = t + 2 + close + 2;
        if POSIX.contains(&name.strip_prefix('^').unwrap_or(&name)) {
            Ok(Some(end))
        } else {
            Err((INVALID_RANGE, self.text(t, end)))
        }
    }

    /// One character of a class and the index after it, as Go's
    /// `parseClassChar` reads it.
    fn class_char(&self, t: usize, class: usize) -> Result<(u32, usize), Fault> {
        match self.at(t) {
            None => Err(("missing closing ]", self.text(class, self.s.len()))),
            Some('\\') => {
                let end = self.escape(t)?;
                Ok((escaped_value(&self.s[t + 1..end]), end))
            }
            Some(c) => Ok((c as u32, t + 1)),
        }
    }
}

/// The character an escape (without its `\`) stands for.
fn escaped_value(e: &[char]) -> u32 {
    let text: String = e.iter().collect();
    match e.first() {
        Some('0'..='7') => u32::from_str_radix(&text, 8).unwrap_or(0),
        Some('x') => {
            let digits = text.trim_start_matches("x{").trim_start_matches('x');
            u32::from_str_radix(digits.trim_end_matches('}'), 16).unwrap_or(0)
        }
        Some('a') => 7,
        Some('f') => 12,
        Some('n') => 10,
        Some('r') => 13,
        Some('t') => 9,
        Some('v') => 11,
        Some(&c) => c as u32,
        None => 0,
    }
}

/// `{min}`, `{min,}` or `{min,max}` at `i` as Go's `parseRepeat` reads
/// it: the counts (-1 for a number above 10^8, or for no maximum) and the
/// index after `}`; `None` makes the `{` a literal.
fn repeat_counts(s: &[char], i: usize) -> Option<(i64, i64, usize)> {
    let int = |mut j: usize| -> Option<(i64, usize)> {
        let begin = j;
        while s.get(j).is_some_and(char::is_ascii_digit) {
            j += 1;
        }
        if j == begin || (j - begin >= 2 && s[begin] == '0') {
            return None;
        }
        let digits: String = s[begin..j].iter().collect();
        let n = if j - begin > 8 {
            -1
        } else {
            digits.parse().ok()?
        };
        Some((n, j))
    };
    let (mut min, mut j) = int(i + 1)?;
    let max;
    match s.get(j) {
        Some(',') => {
            j += 1;
            match s.get(j) {
                Some('}') => max = -1,
                Some(_) => {
                    let (m, next) = int(j)?;
                    j = next;
                    max = m;
                    if m < 0 {
                        min = -1;
                    }
                }
                None => return None,
            }
        }
        Some(_) => max = min,
        None => return None,
    }
    (s.get(j) == Some(&'}')).then_some((min, max, j + 1))
}
