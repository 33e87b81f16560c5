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
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(i128);

impl Time {
    /// Go's zero `time.Time` (0001-01-01T00:00:00Z): "not set".
    pub const ZERO: Time = Time(-62_135_596_800 * 1_000_000_000);

    /// From Unix nanoseconds, as Go's `time.Unix(0, n)`.
    pub const fn from_unix_nanos(nanos: i128) -> Time {
        Time(nanos)
    }

    /// Nanoseconds since the Unix epoch.
    pub const fn unix_nanos(self) -> i128 {
        self.0
    }

    /// Go's `UnixNano`, which saturates nothing: we clamp to the `i64` range,
    /// which is what Go yields for any instant within 1678..2262.
    pub fn unix_nanos_i64(self) -> i64 {
        self.0.clamp(i64::MIN as i128, i64::MAX as i128) as i64
    }

    pub fn is_zero(self) -> bool {
        self == Time::ZERO
    }

    /// `t.Add(d)`.
    // Named after Go's methods; `sub` returns a `Duration`, so `ops` traits fit poorly.
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, d: Duration) -> Time {
        Time(self.0 + d as i128)
    }

    /// `t.Sub(u)`, saturating at the `Duration` range as Go does.
    #[allow(clippy::should_implement_trait)]
    pub fn sub(self, other: Time) -> Duration {
        (self.0 - other.0).clamp(i64::MIN as i128, i64::MAX as i128) as Duration
    }

    /// Parses an RFC 3339 timestamp (with or without fractional seconds).
    pub fn parse_rfc3339(s: &str) -> Result<Time, String> {
        let ts: jiff::Timestamp = s
            .parse()
            .map_err(|e| format!("invalid RFC 3339 time {s:?}: {e}"))?;
        Ok(Time(ts.as_nanosecond()))
    }

    /// RFC 3339 in UTC with as many fractional digits as needed (Go's `RFC3339Nano`).
    pub fn to_rfc3339(self) -> String {
        match jiff::Timestamp::from_nanosecond(self.0) {
            Ok(ts) => ts.to_string(),
            // Outside jiff's range (years beyond ±9999): clamp to the range.
            Err(_) if self.0 < 0 => jiff::Timestamp::MIN.to_string(),
            Err(_) => jiff::Timestamp::MAX.to_string(),
        }
    }
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
    fn durations_format_like_go() {
        assert_eq!(format_duration(0), "0s");
        assert_eq!(format_duration(90 * SECOND), "1m30s");
        assert_eq!(format_duration(3600 * SECOND + 5 * SECOND), "1h0m5s");
        assert_eq!(format_duration(1_500_000), "1.5ms");
        assert_eq!(format_duration(-5 * SECOND), "-5s");
    }
}
