//! hashicorp/cronexpr `cronexpr_test.go` (v1.1.3, the library of Nomad
//! 1.10 on; v1.1.1 and v1.1.2 behave alike) and the periodic next launch
//! of Nomad's `PeriodicConfig.Next` (nomad/structs/structs_test.go).

use super::super::cron::parse;
use super::super::cron_next::{Zone, days_from_civil};
use super::super::periodic::{next_launch, rfc3339, validate, zone};
use crate::model::v;
use serde_json::{Map, Value, json};

/// Unix seconds of a UTC time `YYYY-MM-DD HH:MM:SS`.
fn utc(s: &str) -> i64 {
    let n = |a: usize, b: usize| s[a..b].parse::<i64>().unwrap();
    days_from_civil(n(0, 4), n(5, 7), n(8, 10)) * 86_400
        + n(11, 13) * 3600
        + n(14, 16) * 60
        + n(17, 19)
}

fn next_utc(spec: &str, from: &str) -> String {
    let t = parse(spec).unwrap().next(utc(from), &Zone::Utc).unwrap();
    t.map_or_else(|| "zero".into(), |t| rfc3339(t, &Zone::Utc))
}

fn check(spec: &str, cases: &[(&str, &str)]) {
    for (from, want) in cases {
        let want = format!("{}T{}Z", &want[..10], &want[11..]);
        assert_eq!(next_utc(spec, from), want, "{spec} from {from}");
    }
}

#[test]
fn cronexpr_test_go_v1_1_3_expressions_seconds() {
    let cases = [
        ("2013-01-01 00:00:00", "2013-01-01 00:00:01"),
        ("2013-01-01 00:00:59", "2013-01-01 00:01:00"),
        ("2013-01-01 00:59:59", "2013-01-01 01:00:00"),
        ("2013-01-01 23:59:59", "2013-01-02 00:00:00"),
        ("2013-02-28 23:59:59", "2013-03-01 00:00:00"),
        ("2016-02-28 23:59:59", "2016-02-29 00:00:00"),
        ("2012-12-31 23:59:59", "2013-01-01 00:00:00"),
    ];
    check("* * * * * * *", &cases);
    let mut every5 = cases;
    every5[0].1 = "2013-01-01 00:00:05";
    check("*/5 * * * * * *", &every5);
}

#[test]
fn cronexpr_test_go_v1_1_3_expressions_minutes() {
    check(
        "* * * * *",
        &[
            ("2013-01-01 00:00:00", "2013-01-01 00:01:00"),
            ("2013-01-01 00:00:59", "2013-01-01 00:01:00"),
            ("2013-01-01 00:59:00", "2013-01-01 01:00:00"),
            ("2013-01-01 23:59:00", "2013-01-02 00:00:00"),
            ("2013-02-28 23:59:00", "2013-03-01 00:00:00"),
            ("2016-02-28 23:59:00", "2016-02-29 00:00:00"),
            ("2012-12-31 23:59:00", "2013-01-01 00:00:00"),
        ],
    );
    check(
        "17-43/5 * * * *",
        &[
            ("2013-01-01 00:00:00", "2013-01-01 00:17:00"),
            ("2013-01-01 00:16:59", "2013-01-01 00:17:00"),
            ("2013-01-01 00:30:00", "2013-01-01 00:32:00"),
            ("2013-01-01 00:50:00", "2013-01-01 01:17:00"),
            ("2013-01-01 23:50:00", "2013-01-02 00:17:00"),
            ("2013-02-28 23:50:00", "2013-03-01 00:17:00"),
            ("2016-02-28 23:50:00", "2016-02-29 00:17:00"),
            ("2012-12-31 23:50:00", "2013-01-01 00:17:00"),
        ],
    );
    check(
        "15-30/4,55 * * * *",
        &[
            ("2013-01-01 00:00:00", "2013-01-01 00:15:00"),
            ("2013-01-01 00:16:00", "2013-01-01 00:19:00"),
            ("2013-01-01 00:30:00", "2013-01-01 00:55:00"),
            ("2013-01-01 00:55:00", "2013-01-01 01:15:00"),
            ("2013-01-01 23:55:00", "2013-01-02 00:15:00"),
            ("2013-02-28 23:55:00", "2013-03-01 00:15:00"),
            ("2016-02-28 23:55:00", "2016-02-29 00:15:00"),
            ("2012-12-31 23:54:00", "2012-12-31 23:55:00"),
            ("2012-12-31 23:55:00", "2013-01-01 00:15:00"),
        ],
    );
}

#[test]
fn cronexpr_test_go_v1_1_3_expressions_days_of_week() {
    let weekly = |spec, a: &str, b: &str, c: &str| {
        check(
            spec,
            &[
                ("2013-01-01 00:00:00", a),
                ("2013-01-28 00:00:00", b),
                ("2013-12-30 00:30:00", c),
            ],
        )
    };
    let t = |d: &str| format!("{d} 00:00:00");
    weekly(
        "0 0 * * MON",
        &t("2013-01-07"),
        &t("2013-02-04"),
        &t("2014-01-06"),
    );
    weekly(
        "0 0 * * friday",
        &t("2013-01-04"),
        &t("2013-02-01"),
        &t("2014-01-03"),
    );
    weekly(
        "0 0 * * 6,7",
        &t("2013-01-05"),
        &t("2013-02-02"),
        &t("2014-01-04"),
    );
    // 5-7 ends on Saturday (the library's oddity): Friday comes first anyway.
    weekly(
        "0 0 * * 5-7",
        &t("2013-01-04"),
        &t("2013-02-01"),
        &t("2014-01-03"),
    );
    check(
        "0 0 * * 6#5",
        &[("2013-09-02 00:00:00", "2013-11-30 00:00:00")],
    );
}

#[test]
fn cronexpr_test_go_v1_1_3_expressions_days_of_month() {
    check(
        "0 0 14W * *",
        &[
            ("2013-03-31 00:00:00", "2013-04-15 00:00:00"),
            ("2013-08-31 00:00:00", "2013-09-13 00:00:00"),
        ],
    );
    check(
        "0 0 30W * *",
        &[
            ("2013-03-02 00:00:00", "2013-03-29 00:00:00"),
            ("2013-06-02 00:00:00", "2013-06-28 00:00:00"),
            ("2013-09-02 00:00:00", "2013-09-30 00:00:00"),
            ("2013-11-02 00:00:00", "2013-11-29 00:00:00"),
        ],
    );
    check(
        "0 0 L * *",
        &[
            ("2013-09-02 00:00:00", "2013-09-30 00:00:00"),
            ("2014-01-01 00:00:00", "2014-01-31 00:00:00"),
            ("2014-02-01 00:00:00", "2014-02-28 00:00:00"),
            ("2016-02-15 00:00:00", "2016-02-29 00:00:00"),
        ],
    );
    check(
        "0 0 LW * *",
        &[
            ("2013-09-02 00:00:00", "2013-09-30 00:00:00"),
            ("2013-11-02 00:00:00", "2013-11-29 00:00:00"),
            ("2014-08-15 00:00:00", "2014-08-29 00:00:00"),
        ],
    );
    // Six fields: the last is the year.
    check(
        "0 0 * 04 * *",
        &[
            ("2013-09-02 00:00:00", "2014-04-01 00:00:00"),
            ("2014-04-03 03:00:00", "2014-04-04 00:00:00"),
            ("2014-08-15 00:00:00", "2015-04-01 00:00:00"),
        ],
    );
}

#[test]
fn cronexpr_test_go_v1_1_3_zero() {
    assert_eq!(next_utc("* * * * * 1980", "2013-08-31 00:00:00"), "zero");
    assert_ne!(next_utc("* * * * * 2050", "2013-08-31 00:00:00"), "zero");
}

/// `TestNextN` and `TestNextN_every5min`: successive launches.
#[test]
fn cronexpr_test_go_v1_1_3_next_n() {
    let series = |spec: &str, from: &str| {
        let cron = parse(spec).unwrap();
        let mut t = utc(from);
        (0..5)
            .map(|_| {
                t = cron.next(t, &Zone::Utc).unwrap().unwrap();
                rfc3339(t, &Zone::Utc)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        series("0 0 * * 6#5", "2013-09-02 08:44:30"),
        [
            "2013-11-30T00:00:00Z",
            "2014-03-29T00:00:00Z",
            "2014-05-31T00:00:00Z",
            "2014-08-30T00:00:00Z",
            "2014-11-29T00:00:00Z"
        ]
    );
    assert_eq!(
        series("*/5 * * * *", "2013-09-02 08:44:32"),
        [
            "2013-09-02T08:45:00Z",
            "2013-09-02T08:50:00Z",
            "2013-09-02T08:55:00Z",
            "2013-09-02T09:00:00Z",
            "2013-09-02T09:05:00Z"
        ]
    );
}

/// `TestPeriodicConfig_DSTChange_Transitions` in America/Los_Angeles:
/// 2019-03-10 02:00 PST jumps to 03:00 PDT, 2019-11-03 02:00 PDT falls
/// back to 01:00 PST.
#[test]
fn cronexpr_test_go_v1_1_3_dst_change_transitions() {
    let la = zone("America/Los_Angeles").unwrap();
    let series = |spec: &str, from: &str, n: usize| {
        let cron = parse(spec).unwrap();
        let mut t = utc(from);
        (0..n)
            .map(|_| {
                t = cron.next(t, &la).unwrap().unwrap();
                rfc3339(t, &la)
            })
            .collect::<Vec<_>>()
    };
    // Starting times are given in UTC: 01:00 PST is 09:00Z.
    assert_eq!(
        series("0 2 * * * 2019", "2019-02-07 09:00:00", 3),
        [
            "2019-02-07T02:00:00-08:00",
            "2019-02-08T02:00:00-08:00",
            "2019-02-09T02:00:00-08:00"
        ]
    );
    assert_eq!(
        series("0 4 * * * 2019", "2019-03-09 09:00:00", 3),
        [
            "2019-03-09T04:00:00-08:00",
            "2019-03-10T04:00:00-07:00",
            "2019-03-11T04:00:00-07:00"
        ]
    );
    // 02:02 does not exist on March 10.
    assert_eq!(
        series("2 2 * * * 2019", "2019-03-09 09:00:00", 3),
        [
            "2019-03-09T02:02:00-08:00",
            "2019-03-11T02:02:00-07:00",
            "2019-03-12T02:02:00-07:00"
        ]
    );
    assert_eq!(
        series("0 2 * * * 2019", "2019-03-09 09:00:00", 3),
        [
            "2019-03-09T02:00:00-08:00",
            "2019-03-11T02:00:00-07:00",
            "2019-03-12T02:00:00-07:00"
        ]
    );
    // From midnight PST (08:00Z).
    assert_eq!(
        series("0 1 * * * 2019", "2019-03-09 08:00:00", 4),
        [
            "2019-03-09T01:00:00-08:00",
            "2019-03-10T01:00:00-08:00",
            "2019-03-11T01:00:00-07:00",
            "2019-03-12T01:00:00-07:00"
        ]
    );
    // Fall back, from midnight PDT (07:00Z).
    assert_eq!(
        series("30 0 * * * 2019", "2019-11-03 07:00:00", 3),
        [
            "2019-11-03T00:30:00-07:00",
            "2019-11-04T00:30:00-08:00",
            "2019-11-05T00:30:00-08:00"
        ]
    );
    assert_eq!(
        series("30 3 * * * 2019", "2019-11-03 07:00:00", 2),
        ["2019-11-03T03:30:00-08:00", "2019-11-04T03:30:00-08:00"]
    );
    // From 01:10 PST, the second 01:10 of the day (09:10Z).
    assert_eq!(
        series("30 3 * * * 2019", "2019-11-03 09:10:00", 2),
        ["2019-11-03T03:30:00-08:00", "2019-11-04T03:30:00-08:00"]
    );
    // 01:30 happens twice on November 3.
    assert_eq!(
        series("30 1 * * * 2019", "2019-11-03 07:00:00", 3),
        [
            "2019-11-03T01:30:00-07:00",
            "2019-11-03T01:30:00-08:00",
            "2019-11-04T01:30:00-08:00"
        ]
    );
}

/// `TestNext_DaylightSaving_Property*`: over four hours around each change,
/// minute by minute, the next launch is later than the start, never earlier
/// than the one before, and `* *` specs launch the next minute.
#[test]
fn cronexpr_test_go_v1_1_3_daylight_saving_property() {
    let cases = [
        (
            "America/Los_Angeles",
            ["2019-03-10 08:00:00", "2019-11-03 07:00:00"],
            &["* * * * *", "0 2 * * *", "* 1 * * *"][..],
        ),
        (
            "Australia/Lord_Howe",
            ["2019-04-06 13:30:00", "2019-10-05 13:30:00"],
            &[
                "* * * * *",
                "0 2 * * *",
                "* 1 * * *",
                "35 1 * * *",
                "5 2 * * *",
            ][..],
        ),
        (
            "America/Sao_Paulo",
            ["2018-11-03 03:00:00", "2019-02-16 02:00:00"],
            &["* * * * *", "0 0 * * *", "* 0 * * *"][..],
        ),
    ];
    for (name, starts, specs) in cases {
        let tz = zone(name).unwrap();
        for spec in specs {
            let cron = parse(spec).unwrap();
            for day in 0..3 {
                let init = utc(starts[0]) + day * 86_400;
                for init in [init, utc(starts[1]) + day * 86_400] {
                    let mut prev = init;
                    for start in (init..init + 4 * 3600).step_by(60) {
                        let next = cron.next(start, &tz).unwrap().unwrap();
                        assert!(next > start, "{name} {spec} {start}");
                        assert!(next >= prev, "{name} {spec} {start}: {next} < {prev}");
                        if spec.starts_with("* * ") {
                            assert_eq!(next - start, 60, "{name} {spec} {start}");
                        }
                        prev = next;
                    }
                }
            }
        }
    }
}

#[test]
fn cronexpr_v1_1_3_parse_errors_are_the_library_s() {
    let err = |s: &str| parse(s).unwrap_err();
    assert_eq!(err("* * * *"), "missing field(s)");
    assert_eq!(err("@HOURLY"), "missing field(s)");
    assert_eq!(err("*/60 * * * *"), "invalid interval */60");
    assert_eq!(err("* * */32 * *"), "invalid interval */32");
    assert_eq!(err("61 * * * *"), "syntax error in minute field: '61'");
    assert_eq!(err("* * * * Mo"), "syntax error in day-of-week field: 'Mo'");
    assert_eq!(err("* * 0 * *"), "syntax error in day-of-month field: '0'");
    assert_eq!(err(", * * * *"), "minute field: missing directive");
    assert_eq!(err("* * * * * 1969"), "syntax error in year field: '1969'");
    // Accepted oddities.
    assert!(parse("* * * * * * * extra fields").is_ok());
    assert!(parse("@hourly").is_ok());
    assert!(parse("50-10 * * * *").is_ok());
}

#[test]
fn cronexpr_v1_1_3_oddities_are_kept() {
    // A padded day of week other than 00 and 07 is Sunday.
    assert_eq!(
        next_utc("0 0 * * 01", "2013-01-01 00:00:00"),
        "2013-01-06T00:00:00Z"
    );
    // A span ending on Sunday stops on Saturday.
    assert_eq!(
        next_utc("0 0 * * 6-7", "2013-01-06 00:00:00"),
        "2013-01-12T00:00:00Z"
    );
    // Either day field may match when both are restricted.
    assert_eq!(
        next_utc("0 0 13 * fri", "2013-01-01 00:00:00"),
        "2013-01-04T00:00:00Z"
    );
    // An inverted minute range matches nothing, and the library indexes
    // the empty list as soon as an hour does not match.
    let cron = parse("50-10 3 * * *").unwrap();
    assert!(cron.next(utc("2013-01-01 00:00:00"), &Zone::Utc).is_err());
    // An empty day list runs to the end of the years.
    assert_eq!(next_utc("0 0 30 2 *", "2013-01-01 00:00:00"), "zero");
    assert_eq!(
        next_utc("@weekly", "2013-01-01 00:00:00"),
        "2013-01-06T00:00:00Z"
    );
}

fn periodic(p: Value) -> Map<String, Value> {
    json!({"Type": "batch", "Periodic": p})
        .as_object()
        .unwrap()
        .clone()
}

/// nomad/structs/structs_test.go `TestPeriodicConfig_ValidCron`,
/// `TestPeriodicConfig_InvalidCron`, `TestPeriodicConfig_InvalidTimeZone`
/// and `TestPeriodicConfig_ValidTimeZone` (v1.10.5).
#[test]
fn structs_test_go_v1_10_5_periodic_config_validate() {
    let errs = |p: Value| {
        validate(
            &periodic(p)["Periodic"].as_object().unwrap().clone(),
            v(1, 10, 5),
        )
    };
    let cron = |spec: &str, tz: &str| json!({"Enabled": true, "SpecType": "cron", "Spec": spec, "TimeZone": tz});
    for spec in ["0 0 29 2 * 1980", "*/5 * * * *", "@hourly", "0 0 * * 6#5"] {
        assert_eq!(errs(cron(spec, "UTC")), Vec::<String>::new(), "{spec}");
    }
    for spec in ["foo", "* *", "@foo"] {
        assert_eq!(errs(cron(spec, "")).len(), 1, "{spec}");
    }
    assert_eq!(
        errs(cron("0 0 29 2 * 1980", "FooBar")),
        ["Invalid time zone \"FooBar\": unknown time zone FooBar"]
    );
    for tz in ["America/Los_Angeles", "Europe/Minsk", "Asia/Seoul"] {
        assert!(errs(cron("0 0 29 2 * 1980", tz)).is_empty(), "{tz}");
    }
    assert_eq!(
        errs(
            json!({"Enabled": true, "SpecType": "cron", "Spec": "* * * * *", "Specs": ["@daily"]})
        ),
        ["Only cron or crons may be used"]
    );
    // Before crons (1.6.2, 1.7.0) the list is not read.
    let only_list = json!({"Enabled": true, "SpecType": "cron", "Specs": ["@daily"]});
    let p = periodic(only_list.clone());
    let p = p["Periodic"].as_object().unwrap();
    assert!(validate(p, v(1, 7, 0)).is_empty());
    assert_eq!(
        validate(p, v(1, 6, 1)),
        [
            "Must specify a spec",
            "Invalid cron spec \"\": missing field(s)"
        ]
    );
}

/// `TestPeriodicConfig_NextCron` and `_DSTChange` style: the next launch of
/// the plan, from `--now`, in the job's zone; crons take the earliest.
#[test]
fn structs_test_go_v1_10_5_periodic_config_next() {
    let now = utc("2026-12-06 13:45:30");
    let at = |p: Value| {
        next_launch(&periodic(p), now, v(1, 10, 5))
            .unwrap()
            .map(|(t, z)| rfc3339(t, &z))
    };
    let p = |spec: &str, tz: &str| json!({"Enabled": true, "SpecType": "cron", "Spec": spec, "TimeZone": tz});
    assert_eq!(
        at(p("@daily", "UTC")).as_deref(),
        Some("2026-12-07T00:00:00Z")
    );
    assert_eq!(
        at(p("0 9 * * *", "America/New_York")).as_deref(),
        Some("2026-12-06T09:00:00-05:00")
    );
    assert_eq!(
        at(p("*/15 * * * *", "")).as_deref(),
        Some("2026-12-06T14:00:00Z")
    );
    assert_eq!(at(p("* * * * * 2020", "UTC")), None);
    let crons = json!({"Enabled": true, "SpecType": "cron", "Specs": ["0 18 * * *", "0 14 * * *"], "TimeZone": "UTC"});
    assert_eq!(at(crons).as_deref(), Some("2026-12-06T14:00:00Z"));
    // A spec without a later launch replaces the earliest so far.
    let zero_last =
        json!({"Enabled": true, "SpecType": "cron", "Specs": ["0 14 * * *", "* * * * * 2020"]});
    assert_eq!(at(zero_last), None);
    let zero_first =
        json!({"Enabled": true, "SpecType": "cron", "Specs": ["* * * * * 2020", "0 14 * * *"]});
    assert_eq!(at(zero_first).as_deref(), Some("2026-12-06T14:00:00Z"));
    assert_eq!(
        at(json!({"Enabled": false, "SpecType": "cron", "Spec": "@daily"})),
        None
    );
    let test =
        json!({"Enabled": true, "SpecType": "test", "Spec": format!("{},{}", now - 5, now + 90)});
    assert_eq!(at(test).as_deref(), Some("2026-12-06T13:47:00Z"));
    let mut parameterized = periodic(p("@daily", "UTC"));
    parameterized.insert("ParameterizedJob".into(), json!({}));
    assert!(
        next_launch(&parameterized, now, v(1, 10, 5))
            .unwrap()
            .is_none()
    );
    let broken = p("50-10 3 * * *", "UTC");
    assert_eq!(
        next_launch(&periodic(broken), now, v(1, 10, 5))
            .map(|n| n.map(|(t, _)| t))
            .unwrap_err(),
        "failed parsing cron expression: \"50-10 3 * * *\""
    );
}
