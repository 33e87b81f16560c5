//! The next launch of a periodic job, as `Job.Plan` computes it
//! (`PeriodicConfig.Next` from the evaluation time in the job's time zone,
//! v1.10.5 nomad/job_endpoint.go:1934) and `nomad job plan` shows it (not
//! for a parameterized job, v1.10.5 command/job_plan.go:423), and the
//! periodic block's validation (`PeriodicConfig.Validate`).
//!
//! Time zones come from the system's time zone database (as Go's
//! `time.LoadLocation` reads it without embedded data); an empty zone and
//! `UTC` are Go's `time.UTC`, and `Local`, the server's own zone, is taken
//! to be UTC, the zone servers run in by default.

use serde_json::{Map, Value};

use super::cron::parse;
use super::cron_next::{Civil, NoList, Zone, days_from_civil};
use crate::model::Release;
use crate::version::{Switch, Switches};

/// Whether a periodic block may list several specs (`crons`, #17858);
/// the earliest next launch of them counts.
fn crons(release: Release) -> bool {
    Switches::of(release).has(Switch::PeriodicCrons)
}

fn text<'m>(m: &'m Map<String, Value>, k: &str) -> &'m str {
    m.get(k).and_then(Value::as_str).unwrap_or_default()
}

fn specs(p: &Map<String, Value>) -> Vec<&str> {
    p.get("Specs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// The zone a name loads as, or Go's `LoadLocation` error text.
pub(crate) fn zone(name: &str) -> Result<Zone, String> {
    match name {
        "" | "UTC" | "Local" => Ok(Zone::Utc),
        // The database's names are matched exactly, as Go opens the file.
        _ => jiff::tz::TimeZone::get(name)
            .ok()
            .filter(|tz| tz.iana_name() == Some(name))
            .map(Zone::Named)
            .ok_or_else(|| format!("unknown time zone {name}")),
    }
}

/// `PeriodicConfig.Validate`'s reasons, empty when it is accepted or
/// disabled.
pub(crate) fn validate(p: &Map<String, Value>, release: Release) -> Vec<String> {
    if p.get("Enabled").and_then(Value::as_bool) != Some(true) {
        return Vec::new();
    }
    let crons = crons(release);
    let (spec, list) = (text(p, "Spec"), if crons { specs(p) } else { vec![] });
    let mut errs = Vec::new();
    if !spec.is_empty() && !list.is_empty() {
        errs.push("Only cron or crons may be used".to_string());
    }
    if spec.is_empty() && list.is_empty() {
        errs.push("Must specify a spec".into());
    }
    let tz = text(p, "TimeZone");
    if let Err(e) = zone(tz) {
        errs.push(format!("Invalid time zone {tz:?}: {e}"));
    }
    match text(p, "SpecType") {
        "cron" => {
            // Before crons the spec is parsed even when empty.
            let single = (!crons || !spec.is_empty()).then_some(spec);
            for s in single.into_iter().chain(list) {
                if let Err(e) = parse(s) {
                    errs.push(format!("Invalid cron spec {s:?}: {e}"));
                }
            }
        }
        "test" => {}
        other => errs.push(format!("Unknown periodic specification type {other:?}")),
    }
    errs
}

/// The next launch as Unix seconds with the zone it is shown in; none when
/// the job is not periodic, disabled or parameterized, or no time matches.
/// The error is Nomad's when the library fails on the spec.
pub(crate) fn next_launch(
    job: &Map<String, Value>,
    now_unix: i64,
    release: Release,
) -> Result<Option<(i64, Zone)>, String> {
    let Some(p) = job.get("Periodic").and_then(Value::as_object) else {
        return Ok(None);
    };
    let parameterized = job.get("ParameterizedJob").is_some_and(|p| !p.is_null())
        && job.get("Dispatched").and_then(Value::as_bool) != Some(true);
    if p.get("Enabled").and_then(Value::as_bool) != Some(true) || parameterized {
        return Ok(None);
    }
    let zone = zone(text(p, "TimeZone")).unwrap_or(Zone::Utc);
    let next = match text(p, "SpecType") {
        "cron" => cron_next(p, now_unix, &zone, release)?,
        "test" => test_next(text(p, "Spec"), now_unix),
        _ => None,
    };
    Ok(next.map(|t| (t, zone)))
}

/// `CronParseNext` for one spec: the library's panic on an empty list is
/// Nomad's parse failure.
fn one(spec: &str, now: i64, zone: &Zone) -> Result<Option<i64>, String> {
    let cron = parse(spec).map_err(|e| format!("failed parsing cron expression: {spec}: {e}"))?;
    cron.next(now, zone)
        .map_err(|NoList| format!("failed parsing cron expression: {spec:?}"))
}

fn cron_next(
    p: &Map<String, Value>,
    now: i64,
    zone: &Zone,
    release: Release,
) -> Result<Option<i64>, String> {
    let spec = text(p, "Spec");
    if !spec.is_empty() || !crons(release) {
        return one(spec, now, zone);
    }
    // A spec without a next launch (Go's zero time) is earlier than any
    // launch, so it replaces the earliest so far, and the next spec with a
    // launch replaces it again.
    let mut earliest: Option<Option<i64>> = None;
    for s in specs(p) {
        let t =
            one(s, now, zone).map_err(|e| format!("failed parsing cron expression {s}: {e}"))?;
        earliest = match (earliest, t) {
            (None | Some(None), t) => Some(t),
            (Some(Some(e)), Some(t)) => Some(Some(e.min(t))),
            (Some(Some(_)), None) => Some(None),
        };
    }
    Ok(earliest.flatten())
}

/// The `test` spec type: a comma-separated list of Unix times, the first
/// after now; an unreadable one ends the search with none.
fn test_next(spec: &str, now: i64) -> Option<i64> {
    let mut times = Vec::new();
    for s in spec.split(',') {
        times.push(s.parse::<i64>().ok()?);
    }
    times.into_iter().find(|&t| t > now)
}

/// RFC 3339 in the zone's offset, as Go writes a time (`Z` for offset 0).
pub(crate) fn rfc3339(unix: i64, zone: &Zone) -> String {
    let Civil {
        year,
        month,
        day,
        hour,
        minute,
        second,
    } = zone.civil(unix);
    let local = days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
    let offset = local - unix;
    let zone_text = if offset == 0 {
        "Z".to_string()
    } else {
        let sign = if offset < 0 { '-' } else { '+' };
        let o = offset.abs();
        format!("{sign}{:02}:{:02}", o / 3600, o / 60 % 60)
    };
    format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}{zone_text}")
}
