//! Cron expressions as Nomad reads them: `github.com/hashicorp/cronexpr`
//! v1.1.1 (Nomad 1.3 to 1.5), v1.1.2 (1.6 to 1.9) and v1.1.3 (1.10 on),
//! whose parsing and matching are one behaviour (the releases differ only
//! in licence files). Five fields are minute to day-of-week, six add the
//! year, seven put seconds first; `@yearly`, `@annually`, `@monthly`,
//! `@weekly`, `@daily` and `@hourly` stand for their seven-field forms
//! wherever they occur in the text. Entries are `*` or `?`, a value, a
//! range, each with an optional `/step`, and in the day fields `L`, `LW`,
//! `15W`, `5L` and `5#3`. The library's oddities are kept:
//! - a day-of-week span ending on Sunday (`5-7`, `fri-sun`, `0-0`) ends on
//!   Saturday instead (v1.1.3 cronexpr_parse.go `dowFieldHandler`);
//! - a zero-padded day of week other than `00` and `07` (`01` .. `06`) is
//!   Sunday, as its table lacks those spellings;
//! - a step is read from the table of values (0 to 59, `00` to `09`, 1970
//!   to 2099), so `*/60` and `*/007` are invalid, and a step above the
//!   field's maximum is refused;
//! - an inverted range (`50-10`) selects nothing, without an error;
//! - after a `*` entry the rest of a seconds to month or year field is not
//!   read.

use std::collections::BTreeSet;

/// A parsed expression: the values each field allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Cron {
    pub(super) seconds: Vec<u32>,
    pub(super) minutes: Vec<u32>,
    pub(super) hours: Vec<u32>,
    pub(super) months: Vec<u32>,
    pub(super) years: Vec<u32>,
    pub(super) days: Days,
}

/// The day-of-month and day-of-week fields, which together decide the
/// days of a month (`calculateActualDaysOfMonth`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Days {
    pub(super) dom_restricted: bool,
    pub(super) dow_restricted: bool,
    pub(super) dom: BTreeSet<u32>,
    pub(super) workdays: BTreeSet<u32>,
    pub(super) last_dom: bool,
    pub(super) last_workday: bool,
    pub(super) dow: BTreeSet<u32>,
    /// `5#3` as `(week - 1) * 7 + day`.
    pub(super) nth_dow: BTreeSet<u32>,
    pub(super) last_dow: BTreeSet<u32>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    Second,
    Minute,
    Hour,
    Dom,
    Month,
    Dow,
    Year,
}

impl Field {
    fn name(self) -> &'static str {
        match self {
            Field::Second => "second",
            Field::Minute => "minute",
            Field::Hour => "hour",
            Field::Dom => "day-of-month",
            Field::Month => "month",
            Field::Dow => "day-of-week",
            Field::Year => "year",
        }
    }

    fn bounds(self) -> (u32, u32) {
        match self {
            Field::Second | Field::Minute => (0, 59),
            Field::Hour => (0, 23),
            Field::Dom => (1, 31),
            Field::Month => (1, 12),
            Field::Dow => (0, 6),
            Field::Year => (1970, 2099),
        }
    }

    /// The value a lowercased token spells in this field, or none when the
    /// field does not accept it.
    fn value(self, tok: &str) -> Option<u32> {
        const MONTHS: [&str; 12] = [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ];
        const DAYS: [&str; 7] = [
            "sunday",
            "monday",
            "tuesday",
            "wednesday",
            "thursday",
            "friday",
            "saturday",
        ];
        let named = |names: &[&str], base: u32| {
            names
                .iter()
                .position(|n| tok == *n || tok == &n[..3])
                .map(|i| i as u32 + base)
        };
        match self {
            Field::Month => named(&MONTHS, 1).or_else(|| small(tok, 1, 12)),
            Field::Dow => named(&DAYS, 0).or_else(|| {
                let n = small(tok, 0, 7)?;
                // The table knows "0" to "7" only; a padded "0N" reads as 0.
                Some(if tok.len() == 2 { 0 } else { n % 7 })
            }),
            Field::Year => {
                let n: u32 = tok.parse().ok()?;
                (tok.len() == 4 && (1970..=2099).contains(&n)).then_some(n)
            }
            _ => {
                let (lo, hi) = self.bounds();
                small(tok, lo, hi)
            }
        }
    }
}

/// One or two digits (two only with a leading zero below 10) within
/// `lo..=hi`.
fn small(tok: &str, lo: u32, hi: u32) -> Option<u32> {
    let digits = tok.bytes().all(|b| b.is_ascii_digit());
    if !digits || tok.is_empty() || tok.len() > 2 {
        return None;
    }
    let n: u32 = tok.parse().ok()?;
    (lo..=hi).contains(&n).then_some(n)
}

/// A step as the library reads it: any digits, looked up in its table of
/// values, unknown spellings being 0.
fn step_value(tok: &str) -> Option<u32> {
    if tok.is_empty() || !tok.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let known = small(tok, 0, 59).is_some() || Field::Year.value(tok).is_some();
    Some(if known { tok.parse().unwrap_or(0) } else { 0 })
}

/// One comma-separated entry of a field.
enum Entry {
    All,
    One(u32),
    Span {
        first: u32,
        last: u32,
        step: u32,
    },
    /// No generic form: a day field's `L`, `W` or `#`, or an error.
    Other,
}

fn entry(field: Field, raw: &str) -> Result<Entry, String> {
    let s = raw.to_ascii_lowercase();
    if s == "*" || s == "?" {
        return Ok(Entry::All);
    }
    if let Some(v) = field.value(&s) {
        return Ok(Entry::One(v));
    }
    let (lo, hi) = field.bounds();
    let (body, step) = match s.split_once('/') {
        Some((body, step)) => match step_value(step) {
            Some(n) => (body, Some(n)),
            None => return Ok(Entry::Other),
        },
        None => (s.as_str(), None),
    };
    let range = body
        .split_once('-')
        .and_then(|(a, b)| Some((field.value(a)?, field.value(b)?)));
    let span = match (range, step) {
        (Some((first, last)), step) => (first, last, step.unwrap_or(1)),
        (None, Some(step)) if body == "*" => (lo, hi, step),
        (None, Some(step)) => match field.value(body) {
            Some(first) => (first, hi, step),
            None => return Ok(Entry::Other),
        },
        (None, None) => return Ok(Entry::Other),
    };
    if step.is_some() && (span.2 < 1 || span.2 > hi) {
        return Err(format!("invalid interval {s}"));
    }
    Ok(Entry::Span {
        first: span.0,
        last: span.1,
        step: span.2,
    })
}

/// Every entry of a field; an invalid step anywhere refuses the field.
fn entries(field: Field, text: &str) -> Result<Vec<(&str, Entry)>, String> {
    let raws: Vec<&str> = text.split(',').filter(|e| !e.is_empty()).collect();
    if raws.is_empty() {
        return Err(format!("{} field: missing directive", field.name()));
    }
    raws.into_iter()
        .map(|raw| Ok((raw, entry(field, raw)?)))
        .collect()
}

fn spread(set: &mut BTreeSet<u32>, first: u32, last: u32, step: u32) {
    set.extend((first..=last).step_by(step.max(1) as usize));
}

/// A seconds to month or year field: its sorted values.
fn plain(field: Field, text: &str) -> Result<Vec<u32>, String> {
    let mut set = BTreeSet::new();
    for (raw, e) in entries(field, text)? {
        match e {
            Entry::All => {
                let (lo, hi) = field.bounds();
                return Ok((lo..=hi).collect());
            }
            Entry::One(v) => {
                set.insert(v);
            }
            Entry::Span { first, last, step } => spread(&mut set, first, last, step),
            Entry::Other => {
                return Err(format!("syntax error in {} field: '{raw}'", field.name()));
            }
        }
    }
    Ok(set.into_iter().collect())
}

fn day_of_month(days: &mut Days, text: &str) -> Result<(), String> {
    days.dom_restricted = true;
    for (raw, e) in entries(Field::Dom, text)? {
        match e {
            Entry::All => {
                spread(&mut days.dom, 1, 31, 1);
                days.dom_restricted = false;
            }
            Entry::One(v) => {
                days.dom.insert(v);
            }
            Entry::Span { first, last, step } => spread(&mut days.dom, first, last, step),
            Entry::Other => {
                let s = raw.to_ascii_lowercase();
                let work = s.strip_suffix('w').and_then(|d| Field::Dom.value(d));
                match (s.as_str(), work) {
                    ("l", _) => days.last_dom = true,
                    ("lw", _) => days.last_workday = true,
                    (_, Some(d)) => {
                        days.workdays.insert(d);
                    }
                    _ => return Err(format!("syntax error in day-of-month field: '{raw}'")),
                }
            }
        }
    }
    Ok(())
}

fn day_of_week(days: &mut Days, text: &str) -> Result<(), String> {
    days.dow_restricted = true;
    for (raw, e) in entries(Field::Dow, text)? {
        match e {
            Entry::All => {
                spread(&mut days.dow, 0, 6, 1);
                days.dow_restricted = false;
            }
            Entry::One(v) => {
                days.dow.insert(v);
            }
            Entry::Span { first, last, step } => {
                let last = if last == 0 { 6 } else { last };
                spread(&mut days.dow, first, last, step);
            }
            Entry::Other => {
                let s = raw.to_ascii_lowercase();
                let last = s.strip_suffix('l').and_then(|d| Field::Dow.value(d));
                let nth = s.split_once('#').and_then(|(d, w)| {
                    let week = w.parse::<u32>().ok().filter(|w| (1..=5).contains(w));
                    Some((Field::Dow.value(d)?, week.filter(|_| w.len() == 1)?))
                });
                match (last, nth) {
                    (Some(d), _) => {
                        days.last_dow.insert(d);
                    }
                    (None, Some((d, week))) => {
                        days.nth_dow.insert((week - 1) * 7 + d % 7);
                    }
                    _ => return Err(format!("syntax error in day-of-week field: '{raw}'")),
                }
            }
        }
    }
    Ok(())
}

/// The seven-field forms of the shorthands.
const SHORTHANDS: [(&str, &str); 6] = [
    ("@yearly", "0 0 0 1 1 * *"),
    ("@annually", "0 0 0 1 1 * *"),
    ("@monthly", "0 0 0 1 * * *"),
    ("@weekly", "0 0 0 * * 0 *"),
    ("@daily", "0 0 0 * * * *"),
    ("@hourly", "0 0 * * * * *"),
];

/// `cronexpr.Parse`: the expression, or the library's error text.
pub(crate) fn parse(spec: &str) -> Result<Cron, String> {
    let mut text = spec.to_string();
    for (short, long) in SHORTHANDS {
        text = text.replace(short, long);
    }
    let fields: Vec<&str> = text.split_ascii_whitespace().take(7).collect();
    if fields.len() < 5 {
        return Err("missing field(s)".into());
    }
    let (seconds, rest) = if fields.len() == 7 {
        (plain(Field::Second, fields[0])?, &fields[1..])
    } else {
        (vec![0], &fields[..])
    };
    let minutes = plain(Field::Minute, rest[0])?;
    let hours = plain(Field::Hour, rest[1])?;
    let mut days = Days::default();
    day_of_month(&mut days, rest[2])?;
    let months = plain(Field::Month, rest[3])?;
    day_of_week(&mut days, rest[4])?;
    let years = match rest.get(5) {
        Some(f) => plain(Field::Year, f)?,
        None => (1970..=2099).collect(),
    };
    Ok(Cron {
        seconds,
        minutes,
        hours,
        months,
        years,
        days,
    })
}
