//! Times relative to the evaluation ("in 4m30s", "12m ago"): at 3 a.m. the
//! distance from now matters more than the clock. The core keeps times
//! typed; tables write them here, also inside bucket reasons.

use crate::time::Time;

/// `t` relative to `now`, to the second; the zero time (never) as it is.
pub(super) fn time(t: Time, now: Time) -> String {
    if t.is_zero() {
        return t.to_string();
    }
    match round_seconds(t.sub(now)) {
        0 => "now".to_string(),
        d if d > 0 => format!("in {}", compact_duration(d)),
        d => format!("{} ago", compact_duration(d.saturating_neg())),
    }
}

/// Relative times are shown to the second.
fn round_seconds(d: i64) -> i64 {
    let s = crate::time::SECOND;
    d.saturating_add(d.signum() * s / 2) / s * s
}

/// A positive whole-second duration without its zero units: `4m30s`, `12m`, `2h5s`.
fn compact_duration(d: i64) -> String {
    let total = d / crate::time::SECOND;
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60);
    let mut out = String::new();
    for (n, unit) in [(h, "h"), (m, "m"), (s, "s")] {
        if n > 0 {
            out.push_str(&format!("{n}{unit}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> Time {
        Time::parse_rfc3339("2022-04-01T12:00:00Z").unwrap()
    }

    #[test]
    fn times_are_relative_to_the_evaluation() {
        let at = |s: &str| time(Time::parse_rfc3339(s).unwrap(), now());
        assert_eq!(at("2022-04-01T12:04:30Z"), "in 4m30s");
        assert_eq!(at("2022-04-01T11:48:00Z"), "12m ago");
        assert_eq!(at("2022-04-01T14:00:05.6Z"), "in 2h6s");
        assert_eq!(at("2022-04-01T12:00:00.4Z"), "now");
        assert_eq!(at("2022-04-01T11:59:59.5Z"), "1s ago");
        assert_eq!(at("0001-01-01T00:00:00Z"), "0001-01-01T00:00:00Z");
        // Beyond a Duration: Sub saturates, and the distance does not overflow.
        assert_eq!(at("0001-01-01T00:00:01Z"), "2562047h47m16s ago");
        assert_eq!(at("9999-01-01T00:00:00Z"), "in 2562047h47m16s");
    }
}
