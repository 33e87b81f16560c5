//! `--now`: the time to evaluate at, as an operator types it in an
//! incident review: an RFC 3339 time, a Unix timestamp, or an offset from
//! the snapshot's own time ("half an hour before the dump": `-30m`).

use std::fmt;
use std::str::FromStr;

use crate::time::{Duration, SECOND, Time};

/// What `--now` asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NowRequest {
    /// This instant.
    At(Time),
    /// The snapshot's time (`Now`, else `SnapshotMeta`) moved by this much.
    FromSnapshot(Duration),
}

/// A `--now` that is none of the three forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadNow(String);

impl fmt::Display for BadNow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a time: give an RFC 3339 time (2022-04-01T03:12:00Z), a Unix timestamp \
             in seconds (1648782720), or a duration from the snapshot's time with its sign \
             (-30m, +1h30m; units ns, us, ms, s, m, h)",
            self.0
        )
    }
}

impl std::error::Error for BadNow {}

impl FromStr for NowRequest {
    type Err = BadNow;

    fn from_str(s: &str) -> Result<NowRequest, BadNow> {
        let bad = || BadNow(s.to_string());
        if let Some(rest) = s.strip_prefix('-') {
            return Ok(NowRequest::FromSnapshot(
                -parse_duration(rest).ok_or_else(bad)?,
            ));
        }
        if let Some(rest) = s.strip_prefix('+') {
            return Ok(NowRequest::FromSnapshot(
                parse_duration(rest).ok_or_else(bad)?,
            ));
        }
        if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
            let seconds: i64 = s.parse().map_err(|_| bad())?;
            return Ok(NowRequest::At(Time::from_unix_nanos(
                i128::from(seconds) * i128::from(SECOND),
            )));
        }
        Time::parse_rfc3339(s)
            .map(NowRequest::At)
            .map_err(|_| bad())
    }
}

impl From<Time> for NowRequest {
    fn from(t: Time) -> NowRequest {
        NowRequest::At(t)
    }
}

/// A Go duration without its sign (`1h30m`, `90s`, `1.5h`, `250ms`);
/// `None` when malformed or beyond `Duration`.
pub fn parse_duration(s: &str) -> Option<Duration> {
    if s == "0" {
        return Some(0);
    }
    if s.is_empty() {
        return None;
    }
    let mut rest = s;
    let mut total: i128 = 0;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(rest.len());
        let (number, tail) = rest.split_at(digits);
        let unit_len = tail
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(tail.len());
        let (unit, tail) = tail.split_at(unit_len);
        let scale: i128 = match unit {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60 * 1_000_000_000,
            "h" => 3_600 * 1_000_000_000,
            _ => return None,
        };
        total += scaled(number, scale)?;
        if total > i128::from(i64::MAX) {
            return None;
        }
        rest = tail;
    }
    Some(total as Duration)
}

/// `number` (digits with an optional fraction) times `scale`, truncated to
/// whole nanoseconds as Go does.
fn scaled(number: &str, scale: i128) -> Option<i128> {
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty() || fraction.contains('.') {
        return None;
    }
    let whole: i128 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let mut value = whole.checked_mul(scale)?;
    let mut unit = scale;
    for digit in fraction.bytes().take(30) {
        unit /= 10;
        value += i128::from(digit - b'0') * unit;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<NowRequest, String> {
        s.parse().map_err(|e: BadNow| e.to_string())
    }

    #[test]
    fn the_three_forms() {
        let t = Time::parse_rfc3339("2022-04-01T03:12:00Z").unwrap();
        assert_eq!(parse("2022-04-01T03:12:00Z"), Ok(NowRequest::At(t)));
        assert_eq!(parse("1648782720"), Ok(NowRequest::At(t)));
        assert_eq!(parse("0"), Ok(NowRequest::At(Time::from_unix_nanos(0))));
        assert_eq!(
            parse("-30m"),
            Ok(NowRequest::FromSnapshot(-30 * 60 * SECOND))
        );
        assert_eq!(
            parse("+1h30m"),
            Ok(NowRequest::FromSnapshot(90 * 60 * SECOND))
        );
        assert_eq!(
            parse("-1.5h"),
            Ok(NowRequest::FromSnapshot(-90 * 60 * SECOND))
        );
        assert_eq!(parse("+250ms"), Ok(NowRequest::FromSnapshot(250_000_000)));
        assert_eq!(parse("-0"), Ok(NowRequest::FromSnapshot(0)));
        assert_eq!(
            parse("+2h0m0.5s").unwrap(),
            NowRequest::FromSnapshot(7_200_500_000_000)
        );
    }

    #[test]
    fn anything_else_names_the_three_forms() {
        for bad in [
            "",
            "yesterday",
            "-30",
            "30m",
            "-m",
            "-30d",
            "-1..5h",
            "-.h",
            "+",
            "99999999999999999999",
            "-3000000h",
        ] {
            assert_eq!(
                parse(bad),
                Err(format!(
                    "{bad:?} is not a time: give an RFC 3339 time (2022-04-01T03:12:00Z), a Unix \
                     timestamp in seconds (1648782720), or a duration from the snapshot's time with \
                     its sign (-30m, +1h30m; units ns, us, ms, s, m, h)"
                )),
                "{bad}"
            );
        }
    }
}
