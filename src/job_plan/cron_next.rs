//! `Expression.Next` of hashicorp/cronexpr v1.1.x: the first instant after
//! a time that the expression matches, searched field by field in the
//! time's zone, with Go's `time.Date` normalising what it builds (a day
//! past the month's end is in the next month; a local time a daylight
//! saving change skips or repeats resolves as Go resolves it). On a day
//! whose UTC offset changes, hours and minutes are walked one by one
//! instead (`timeZoneInDay`). An empty minute, second or month list makes
//! the library index an empty slice, which Nomad's `CronParseNext` turns
//! into a parse error; that is [`NoList`].

use super::cron::{Cron, Days};

/// The zone the search runs in: `time.UTC` itself, or a loaded location
/// (even one that is always UTC, for which Go still compares the offsets
/// of the day before and after).
#[derive(Clone, Debug)]
pub(crate) enum Zone {
    Utc,
    Named(jiff::tz::TimeZone),
}

impl Zone {
    /// The UTC offset in seconds at the instant `unix`.
    fn offset(&self, unix: i64) -> i64 {
        match self {
            Zone::Utc => 0,
            Zone::Named(tz) => jiff::Timestamp::from_second(unix)
                .map(|ts| i64::from(tz.to_offset(ts).seconds()))
                .unwrap_or(0),
        }
    }
}

/// The library would panic on an empty list (Nomad reports it as a parse
/// failure).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NoList;

/// A local date and time, each field as Go's accessors give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Civil {
    pub(crate) year: i64,
    pub(crate) month: i64,
    pub(crate) day: i64,
    pub(crate) hour: i64,
    pub(crate) minute: i64,
    pub(crate) second: i64,
}

/// Days from 1970-01-01 to a proleptic Gregorian date (any day number,
/// counted on from the month's first).
pub(crate) fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = year + (month - 1).div_euclid(12);
    let month = (month - 1).rem_euclid(12) + 1;
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468 + (day - 1)
}

/// The date of a day number from 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Day of the week, Sunday 0.
fn weekday(days: i64) -> i64 {
    (days + 4).rem_euclid(7)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    days_from_civil(year, month + 1, 1) - days_from_civil(year, month, 1)
}

impl Zone {
    /// The local fields of `unix`.
    pub(crate) fn civil(&self, unix: i64) -> Civil {
        let local = unix + self.offset(unix);
        let (year, month, day) = civil_from_days(local.div_euclid(86_400));
        let secs = local.rem_euclid(86_400);
        Civil {
            year,
            month,
            day,
            hour: secs / 3600,
            minute: secs / 60 % 60,
            second: secs % 60,
        }
    }

    /// `time.Date(y, mo, d, h, mi, s, 0, loc)`: fields out of range carry
    /// over; a local time in a gap or a fold takes the offset Go's lookup
    /// settles on.
    fn date(&self, y: i64, mo: i64, d: i64, h: i64, mi: i64, s: i64) -> i64 {
        let local = days_from_civil(y, mo, 1) * 86_400 + (d - 1) * 86_400 + h * 3600 + mi * 60 + s;
        local - self.offset(local - self.offset(local))
    }

    /// Whether the offset a day before differs from a day after
    /// (`timeZoneInDay`; never for `time.UTC`).
    fn changes_around(&self, unix: i64) -> bool {
        let Zone::Named(_) = self else { return false };
        let c = self.civil(unix);
        let at = |days| {
            let t = self.date(c.year, c.month, c.day + days, c.hour, c.minute, c.second);
            self.offset(t)
        };
        at(-1) != at(1)
    }
}

/// The first element of `list` not below `v`.
fn at_or_after(list: &[u32], v: i64) -> Option<i64> {
    list.iter().map(|&x| i64::from(x)).find(|&x| x >= v)
}

fn first(list: &[u32]) -> Result<i64, NoList> {
    list.first().map(|&x| i64::from(x)).ok_or(NoList)
}

/// The days of `month` the two day fields select, sorted.
fn month_days(days: &Days, year: i64, month: i64) -> Vec<u32> {
    let last = days_in_month(year, month);
    if !days.dom_restricted && !days.dow_restricted {
        return (1..=last as u32).collect();
    }
    let first_day = days_from_civil(year, month, 1);
    let mut out = std::collections::BTreeSet::new();
    if days.dom_restricted {
        // Saturday moves to Friday and Sunday to Monday, within the month.
        let workday = |dom: i64| match weekday(first_day + dom - 1) {
            6 if dom > 1 => dom - 1,
            6 => dom + 2,
            0 if dom < last => dom + 1,
            0 => dom - 2,
            _ => dom,
        };
        if days.last_dom {
            out.insert(last);
        }
        if days.last_workday {
            out.insert(workday(last));
        }
        out.extend(
            days.dom
                .iter()
                .map(|&d| i64::from(d))
                .filter(|&d| d <= last),
        );
        out.extend(
            days.workdays
                .iter()
                .map(|&d| i64::from(d))
                .filter(|&d| d <= last)
                .map(workday),
        );
    }
    if days.dow_restricted {
        let to_sunday = 7 - weekday(first_day);
        for &d in &days.dow {
            let start = (to_sunday + i64::from(d)) % 7 + 1;
            // The fifth week's day only when the month has it; the first
            // four always (a 28-day month has them all).
            out.extend(
                (0..5)
                    .map(|w| start + 7 * w)
                    .filter(|&x| w_ok(x, start, last)),
            );
        }
        for &v in &days.nth_dow {
            let v = i64::from(v);
            let day = 1 + 7 * (v / 7) + (to_sunday + v) % 7;
            if day <= last {
                out.insert(day);
            }
        }
        let origin = last - 6;
        let to_sunday = 7 - weekday(first_day + origin - 1);
        for &d in &days.last_dow {
            let day = origin + (to_sunday + i64::from(d)) % 7;
            if day <= last {
                out.insert(day);
            }
        }
    }
    out.into_iter().map(|d| d as u32).collect()
}

fn w_ok(day: i64, start: i64, last: i64) -> bool {
    day < start + 28 || day <= last
}

impl Cron {
    /// The first matching instant (Unix seconds) after `from` (Unix
    /// seconds, any fraction dropped), none when no year up to 2099
    /// matches.
    pub(crate) fn next(&self, from: i64, zone: &Zone) -> Result<Option<i64>, NoList> {
        let mut t = from + 1;
        // Each pass moves forward; the bound only stops a pathological walk.
        for _ in 0..2_000_000 {
            match self.step(&mut t, zone)? {
                Step::Found => return Ok(Some(t)),
                Step::None => return Ok(None),
                Step::Again => {}
            }
        }
        Ok(None)
    }

    /// One pass of the search from `t`: a match, no match ever, or a new
    /// `t` to start over from.
    fn step(&self, t: &mut i64, zone: &Zone) -> Result<Step, NoList> {
        let c = zone.civil(*t);
        let Some(year) = at_or_after(&self.years, c.year) else {
            return Ok(Step::None);
        };
        if year != c.year {
            *t = zone.date(year, first(&self.months)?, 1, 0, 0, 0);
        }
        let c = zone.civil(*t);
        match at_or_after(&self.months, c.month) {
            None => {
                *t = zone.date(c.year + 1, first(&self.months)?, 1, 0, 0, 0);
                return Ok(Step::Again);
            }
            Some(m) if m != c.month => *t = zone.date(c.year, m, 1, 0, 0, 0),
            Some(_) => {}
        }
        let c = zone.civil(*t);
        let days = month_days(&self.days, c.year, c.month);
        match at_or_after(&days, c.day) {
            None => {
                *t = zone.date(c.year, c.month + 1, 1, 0, 0, 0);
                return Ok(Step::Again);
            }
            Some(d) if d != c.day => {
                *t = zone.date(c.year, c.month, d, 0, 0, 0);
                // A midnight a DST change skips or repeats: to the nearest
                // whole day boundary.
                let h = zone.civil(*t).hour;
                if h > 12 {
                    *t += (24 - h) * 3600;
                } else {
                    *t -= h * 3600;
                }
            }
            Some(_) => {}
        }
        if zone.changes_around(*t) {
            return self.step_slowly(t, zone);
        }
        let c = zone.civil(*t);
        match at_or_after(&self.hours, c.hour) {
            None => {
                *t = zone.date(c.year, c.month, c.day + 1, 0, 0, 0);
                return Ok(Step::Again);
            }
            Some(h) if h != c.hour => {
                let (mi, s) = (first(&self.minutes)?, first(&self.seconds)?);
                *t = zone.date(c.year, c.month, c.day, h, mi, s);
            }
            Some(_) => {}
        }
        let c = zone.civil(*t);
        match at_or_after(&self.minutes, c.minute) {
            None => {
                *t = zone.date(c.year, c.month, c.day, c.hour + 1, 0, 0);
                return Ok(Step::Again);
            }
            Some(mi) if mi != c.minute => {
                let s = first(&self.seconds)?;
                *t = zone.date(c.year, c.month, c.day, c.hour, mi, s);
            }
            Some(_) => {}
        }
        let c = zone.civil(*t);
        match at_or_after(&self.seconds, c.second) {
            None => {
                *t = zone.date(c.year, c.month, c.day, c.hour, c.minute + 1, 0);
                Ok(Step::Again)
            }
            Some(s) => {
                if s != c.second {
                    *t = zone.date(c.year, c.month, c.day, c.hour, c.minute, s);
                }
                Ok(Step::Found)
            }
        }
    }

    /// The hour and minute walk of a day whose offset changes: an hour may
    /// be skipped or repeated, so hours advance by elapsed time.
    fn step_slowly(&self, t: &mut i64, zone: &Zone) -> Result<Step, NoList> {
        let has = |list: &[u32], v: i64| list.iter().any(|&x| i64::from(x) == v);
        while !has(&self.hours, zone.civil(*t).hour) {
            let before = zone.civil(*t).hour;
            *t += 3600;
            if zone.civil(*t).hour == before {
                *t += 3600;
            }
            *t -= t.rem_euclid(60);
            *t -= zone.civil(*t).minute * 60;
            let c = zone.civil(*t);
            if c.hour == 0 {
                *t = zone.date(c.year, c.month, c.day, 0, 0, 0);
                return Ok(Step::Again);
            }
        }
        while !has(&self.minutes, zone.civil(*t).minute) {
            let before = zone.civil(*t).hour;
            *t = *t - t.rem_euclid(60) + 60;
            if zone.civil(*t).hour != before {
                return Ok(Step::Again);
            }
        }
        let second = zone.civil(*t).second;
        *t -= t.rem_euclid(60);
        match at_or_after(&self.seconds, second) {
            None => {
                *t += 60;
                Ok(Step::Again)
            }
            Some(s) => {
                *t += s;
                Ok(Step::Found)
            }
        }
    }
}

enum Step {
    Found,
    None,
    Again,
}
