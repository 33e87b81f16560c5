//! Times relative to the evaluation ("in 4m30s", "12m ago"): at 3 a.m. the
//! distance from now matters more than the clock. The core writes exact
//! RFC 3339 times, also inside bucket reasons; tables rewrite them here.

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

/// `text` with every RFC 3339 time in it shown as [`time`] does.
pub(super) fn times_in(text: &str, now: Time) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some((start, len)) = find_timestamp(rest) {
        let stamp = &rest[start..start + len];
        out.push_str(&rest[..start]);
        match Time::parse_rfc3339(stamp) {
            Ok(t) => out.push_str(&time(t, now)),
            Err(_) => out.push_str(stamp),
        }
        rest = &rest[start + len..];
    }
    out.push_str(rest);
    out
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

/// The first `YYYY-MM-DDTHH:MM:SS[.fff]Z` in `text`, as (start, length): the
/// form the core writes times in.
fn find_timestamp(text: &str) -> Option<(usize, usize)> {
    const SHAPE: &[u8] = b"dddd-dd-ddTdd:dd:dd";
    let b = text.as_bytes();
    (0..b.len()).find_map(|start| {
        let rest = &b[start..];
        let shaped = rest.len() > SHAPE.len()
            && SHAPE.iter().zip(rest).all(|(&want, &got)| match want {
                b'd' => got.is_ascii_digit(),
                c => got == c,
            });
        if !shaped || (start > 0 && b[start - 1].is_ascii_alphanumeric()) {
            return None;
        }
        let mut end = SHAPE.len();
        if rest[end] == b'.' {
            end += 1 + rest[end + 1..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
        }
        (rest.get(end) == Some(&b'Z')).then_some((start, end + 1))
    })
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

    #[test]
    fn times_inside_reasons_are_rewritten() {
        let reason = "unknown since 2022-04-01T11:58:00Z, max_client_disconnect expires \
                      2022-04-01T12:03:00.25Z";
        assert_eq!(
            times_in(reason, now()),
            "unknown since 2m ago, max_client_disconnect expires in 3m"
        );
        for untouched in [
            "node ready",
            "v2022-04-01T11:58:00Z",
            "2022-04-01T11:58:00",
            "2022-04-01T11:58Z",
        ] {
            assert_eq!(times_in(untouched, now()), untouched);
        }
    }
}
