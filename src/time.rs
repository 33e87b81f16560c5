//! Instants and durations with Go's `time` semantics.
//!
//! Nomad compares `time.Time` values whose zero is 0001-01-01T00:00:00Z and adds
//! `time.Duration`s (int64 nanoseconds) to them. An `i128` count of nanoseconds
//! since the Unix epoch holds every Go instant and every sum of an instant and a
//! duration without overflow, so arithmetic here never wraps or panics.

use std::fmt;

/// A Go `time.Duration`: signed nanoseconds.
pub type Duration = i64;

/// One second, in nanoseconds.
pub const SECOND: Duration = 1_000_000_000;

/// A point in time, nanoseconds since 1970-01-01T00:00:00Z.
///
/// The `i128` is kept as its two halves, high (signed) first, so that the
/// derived order is the number's and `Time` is aligned to 8 bytes, not 16:
/// the structs that hold one (several per allocation) carry no padding.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time {
    high: i64,
    low: u64,
}

impl fmt::Debug for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Time").field(&self.unix_nanos()).finish()
    }
}

impl Time {
    /// Go's zero `time.Time` (0001-01-01T00:00:00Z): "not set".
    pub const ZERO: Time = Time::from_unix_nanos(-62_135_596_800 * 1_000_000_000);

    /// From Unix nanoseconds, as Go's `time.Unix(0, n)`.
    pub const fn from_unix_nanos(nanos: i128) -> Time {
        Time {
            high: (nanos >> 64) as i64,
            low: nanos as u64,
        }
    }

    /// Nanoseconds since the Unix epoch.
    pub const fn unix_nanos(self) -> i128 {
        ((self.high as i128) << 64) | self.low as i128
    }

    /// Go's `UnixNano`: exact within 1678..2262; outside, Go's int64
    /// arithmetic wraps, and so does this (the low 64 bits of the exact value).
    pub fn unix_nanos_i64(self) -> i64 {
        self.low as i64
    }

    pub fn is_zero(self) -> bool {
        self == Time::ZERO
    }

    /// `t.Add(d)`.
    // Named after Go's methods; `sub` returns a `Duration`, so `ops` traits fit poorly.
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, d: Duration) -> Time {
        Time::from_unix_nanos(self.unix_nanos() + d as i128)
    }

    /// `t.Sub(u)`, saturating at the `Duration` range as Go does.
    #[allow(clippy::should_implement_trait)]
    pub fn sub(self, other: Time) -> Duration {
        (self.unix_nanos() - other.unix_nanos()).clamp(i64::MIN as i128, i64::MAX as i128)
            as Duration
    }

    /// Parses an RFC 3339 timestamp (with or without fractional seconds).
    ///
    /// Go writes any time of years 0000..=9999; jiff's `Timestamp` stops a day
    /// short of both ends, so the ends are computed from the civil date-time.
    pub fn parse_rfc3339(s: &str) -> Result<Time, String> {
        if let Some(t) = parse_utc_second(s) {
            return Ok(t);
        }
        let err = match s.parse::<jiff::Timestamp>() {
            Ok(ts) => return Ok(Time::from_unix_nanos(ts.as_nanosecond())),
            Err(e) => format!("invalid RFC 3339 time {s:?}: {e}"),
        };
        parse_civil(s).ok_or(err)
    }

    /// RFC 3339 in UTC with as many fractional digits as needed (Go's
    /// `RFC3339Nano`); beyond jiff's civil range (years ±9999) it clamps there.
    pub fn to_rfc3339(self) -> String {
        let nanos = self.unix_nanos();
        if let Ok(ts) = jiff::Timestamp::from_nanosecond(nanos) {
            return ts.to_string();
        }
        let days = nanos.div_euclid(DAY);
        let nanos = nanos.rem_euclid(DAY) as i64;
        let date = i32::try_from(days)
            .ok()
            .and_then(|d| EPOCH.checked_add(jiff::Span::new().days(d)).ok());
        let datetime = match date {
            Some(date) => date.to_datetime(
                jiff::civil::Time::MIN
                    .checked_add(jiff::SignedDuration::from_nanos(nanos))
                    .unwrap_or(jiff::civil::Time::MAX),
            ),
            None if days < 0 => jiff::civil::DateTime::MIN,
            None => jiff::civil::DateTime::MAX,
        };
        format!("{datetime}Z")
    }
}

const DAY: i128 = 86_400 * SECOND as i128;
const EPOCH: jiff::civil::Date = jiff::civil::date(1970, 1, 1);

/// `YYYY-MM-DDTHH:MM:SS[.f…]Z` in years 1 to 9998, with up to nine
/// fractional digits: what Go writes for a time in UTC (a task state holds
/// three, the zero time among them), without jiff's general parser; `None`
/// for anything else, which jiff then reads or refuses.
fn parse_utc_second(s: &str) -> Option<Time> {
    let b = s.as_bytes();
    let seps = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if b.len() < 20 || seps.iter().any(|&(i, c)| b[i] != c) || b[b.len() - 1] != b'Z' {
        return None;
    }
    let fraction = match &b[19..b.len() - 1] {
        [] => 0,
        [b'.', digits @ ..] if (1..=9).contains(&digits.len()) => {
            let n = digits.iter().try_fold(0i128, |n, &c| {
                c.is_ascii_digit().then(|| n * 10 + i128::from(c - b'0'))
            })?;
            n * 10i128.pow(9 - digits.len() as u32)
        }
        _ => return None,
    };
    let num = |from: usize, to: usize| {
        b[from..to].iter().try_fold(0i64, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0'))
        })
    };
    let (year, month, day) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let (hour, minute, second) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let month_days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => return None,
    };
    let valid = (1..=9998).contains(&year)
        && (1..=month_days).contains(&day)
        && hour < 24
        && minute < 60
        && second < 60;
    if !valid {
        return None;
    }
    // Days since 1970-01-01 of the proleptic Gregorian date, counted in
    // 400-year eras of years that start in March.
    let y = if month <= 2 { year - 1 } else { year };
    let (era, of_era) = (y.div_euclid(400), y.rem_euclid(400));
    let of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let of_era = of_era * 365 + of_era / 4 - of_era / 100 + of_year;
    let days = era * 146_097 + of_era - 719_468;
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second;
    Some(Time::from_unix_nanos(
        i128::from(seconds) * SECOND as i128 + fraction,
    ))
}

/// `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)` through jiff's civil types, for the
/// instants its `Timestamp` cannot hold.
fn parse_civil(s: &str) -> Option<Time> {
    let (civil, offset) = if let Some(rest) = s.strip_suffix(['Z', 'z']) {
        (rest, 0)
    } else {
        let (rest, off) = s.split_at_checked(s.len().checked_sub(6)?)?;
        let sign = match off.as_bytes()[0] {
            b'+' => 1,
            b'-' => -1,
            _ => return None,
        };
        let (h, m) = off[1..].split_once(':')?;
        (
            rest,
            sign * (h.parse::<i128>().ok()? * 60 + m.parse::<i128>().ok()?),
        )
    };
    let dt: jiff::civil::DateTime = civil.parse().ok()?;
    let days = EPOCH.until(dt.date()).ok()?.get_days() as i128;
    let t = dt.time();
    let seconds =
        i128::from(t.hour()) * 3600 + i128::from(t.minute()) * 60 + i128::from(t.second());
    let nanos = seconds * SECOND as i128 + i128::from(t.subsec_nanosecond());
    Some(Time::from_unix_nanos(
        days * DAY + nanos - offset * 60 * SECOND as i128,
    ))
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_rfc3339())
    }
}

impl Default for Time {
    fn default() -> Time {
        Time::ZERO
    }
}

impl serde::Serialize for Time {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_rfc3339())
    }
}

impl<'de> serde::Deserialize<'de> for Time {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Time, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Time;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an RFC 3339 time string")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Time, E> {
                Time::parse_rfc3339(s).map_err(E::custom)
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Time, E> {
                Ok(Time::ZERO)
            }
        }
        d.deserialize_any(V)
    }
}

/// Formats a duration the way Go's `Duration.String` does for whole units
/// (`1h2m3s`, `500ms`, `0s`), used in reasons and explanations.
pub fn format_duration(d: Duration) -> String {
    if d == 0 {
        return "0s".into();
    }
    let neg = d < 0;
    let mut n = d.unsigned_abs();
    let mut out = String::new();
    if n < SECOND as u64 {
        let (unit, div) = if n < 1_000 {
            ("ns", 1)
        } else if n < 1_000_000 {
            ("µs", 1_000)
        } else {
            ("ms", 1_000_000)
        };
        out.push_str(&trim_fraction(n, div));
        out.push_str(unit);
    } else {
        let h = n / (3600 * SECOND as u64);
        n -= h * 3600 * SECOND as u64;
        let m = n / (60 * SECOND as u64);
        n -= m * 60 * SECOND as u64;
        if h > 0 {
            out.push_str(&format!("{h}h"));
        }
        if h > 0 || m > 0 {
            out.push_str(&format!("{m}m"));
        }
        out.push_str(&trim_fraction(n, SECOND as u64));
        out.push('s');
    }
    if neg { format!("-{out}") } else { out }
}

fn trim_fraction(n: u64, div: u64) -> String {
    let whole = n / div;
    let frac = n % div;
    if frac == 0 {
        return whole.to_string();
    }
    let width = div.ilog10() as usize;
    let digits = format!("{frac:0width$}");
    format!("{whole}.{}", digits.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_seconds_in_utc_read_as_jiff_reads_them() {
        let jiff = |s: &str| {
            let ts = s.parse::<jiff::Timestamp>().ok()?;
            Some(Time::from_unix_nanos(ts.as_nanosecond()))
        };
        let mut n: u64 = 1;
        for _ in 0..200_000 {
            n = n.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let f = |shift: u32, m: u64| (n >> shift) % m;
            let digits = f(46, 11) as usize;
            let fraction = format!(".{:09}", n % 1_000_000_000);
            let fraction = &fraction[..if digits == 0 { 0 } else { 1 + digits.min(9) }];
            let s = format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{fraction}Z",
                f(1, 10_000),
                f(15, 13),
                f(20, 32),
                f(26, 25),
                f(32, 61),
                f(40, 61)
            );
            let fast = parse_utc_second(&s);
            assert!(fast.is_none() || fast == jiff(&s), "{s}");
            // Left to jiff: the years at its ends, and a leap second.
            let left = s.starts_with("0000") || s.starts_with("9999") || s[17..19] == *"60";
            if jiff(&s).is_some() && !left {
                assert_eq!(fast, jiff(&s), "{s}");
            }
        }
        assert_eq!(parse_utc_second("0001-01-01T00:00:00Z"), Some(Time::ZERO));
        for s in [
            "2024-02-29T00:00:00Z",
            "1970-01-01T00:00:00Z",
            "2022-03-20T09:04:47.000000001Z",
            "2022-03-20T09:04:47.5Z",
        ] {
            assert_eq!(parse_utc_second(s), jiff(s), "{s}");
        }
        for s in [
            "2023-02-29T00:00:00Z",
            "2024-01-01T00:00:60Z",
            "2024-01-01 00:00:00Z",
            "2024-01-01T00:00:00.Z",
            "2024-01-01T00:00:00.1234567890Z",
            "2024-01-01T00:00:00+00:00",
        ] {
            assert_eq!(parse_utc_second(s), None, "{s}");
        }
    }

    #[test]
    fn the_halves_keep_the_number_and_its_order() {
        let nanos = [
            i128::MIN,
            -(1 << 64) - 1,
            -(1 << 64),
            -1,
            0,
            1,
            u64::MAX as i128,
            1 << 64,
            i128::MAX,
        ];
        for (i, &a) in nanos.iter().enumerate() {
            assert_eq!(Time::from_unix_nanos(a).unix_nanos(), a);
            for &b in &nanos[i..] {
                assert_eq!(
                    Time::from_unix_nanos(a).cmp(&Time::from_unix_nanos(b)),
                    a.cmp(&b)
                );
            }
        }
        assert_eq!(format!("{:?}", Time::from_unix_nanos(-5)), "Time(-5)");
        assert_eq!(align_of::<Time>(), 8);
    }

    #[test]
    fn zero_time_round_trips() {
        let t = Time::parse_rfc3339("0001-01-01T00:00:00Z").unwrap();
        assert!(t.is_zero());
        assert_eq!(t.to_rfc3339(), "0001-01-01T00:00:00Z");
    }

    #[test]
    fn offsets_are_normalised_to_utc() {
        let t = Time::parse_rfc3339("2022-04-01T02:00:00.5+02:00").unwrap();
        assert_eq!(t.to_rfc3339(), "2022-04-01T00:00:00.5Z");
    }

    #[test]
    fn arithmetic_never_overflows() {
        let t = Time::ZERO.add(i64::MIN).add(i64::MIN);
        assert!(t < Time::ZERO);
        assert_eq!(
            Time::ZERO.sub(Time::from_unix_nanos(i128::MAX / 2)),
            i64::MIN
        );
    }

    #[test]
    fn the_ends_of_go_json_times_parse_and_print() {
        for s in [
            "9999-12-31T23:59:59.999999999Z",
            "0000-01-01T00:00:00Z",
            "0001-01-01T00:00:00Z",
        ] {
            assert_eq!(Time::parse_rfc3339(s).unwrap().to_rfc3339(), s);
        }
        let end = Time::parse_rfc3339("9999-12-31T23:59:59.999999999Z").unwrap();
        assert_eq!(end.unix_nanos(), 253_402_300_799_999_999_999);
        assert_eq!(
            Time::parse_rfc3339("9999-12-31T23:00:00-01:00").unwrap(),
            end.add(1)
        );
        // Beyond the civil range: clamped for display only.
        assert_eq!(
            end.add(i64::MAX).to_rfc3339(),
            "9999-12-31T23:59:59.999999999Z"
        );
        assert_eq!(
            Time::ZERO.add(i64::MIN).to_rfc3339(),
            "-000292-09-22T00:12:43.145224192Z"
        );
    }

    #[test]
    fn unix_nanos_wrap_like_go() {
        let t = Time::parse_rfc3339("2022-04-01T00:00:00Z").unwrap();
        assert_eq!(t.unix_nanos_i64(), 1_648_771_200_000_000_000);
        // Go: time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC).UnixNano()
        let end = Time::parse_rfc3339("9999-12-31T00:00:00Z").unwrap();
        assert_eq!(end.unix_nanos_i64(), -4_852_202_631_933_722_624);
    }

    #[test]
    fn durations_format_like_go() {
        assert_eq!(format_duration(0), "0s");
        assert_eq!(format_duration(90 * SECOND), "1m30s");
        assert_eq!(format_duration(3600 * SECOND + 5 * SECOND), "1h0m5s");
        assert_eq!(format_duration(1_500_000), "1.5ms");
        assert_eq!(format_duration(-5 * SECOND), "-5s");
    }
}
