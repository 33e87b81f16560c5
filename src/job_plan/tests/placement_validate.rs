//! The placement blocks' own checks (`TestConstraint_Validate`,
//! `TestAffinity_Validate`, `TestSpread_Validate` of
//! nomad/structs/structs_test.go at v1.3.0 and v2.0.5) and Go's regexp
//! parser as they meet it. The regexp answers were printed by a standalone
//! Go 1.27.3 program (standard library only) on these patterns.

use serde_json::{Map, Value, json};

use super::super::admission::validate;
use super::super::go_regexp::compile_error;
use super::super::placement_validate::{
    affinity_errors, constraint_errors, spread_errors, task_constraint_errors,
};
use super::endpoint::mock_job;
use super::rules_of;
use crate::model::{Release, v};

#[test]
fn go_regexp_compile_errors_are_go_s_words() {
    let cases: &[(&str, Option<&str>)] = &[
        (
            r#"("#,
            Some(r#"error parsing regexp: missing closing ): `(`"#),
        ),
        (r#")"#, Some(r#"error parsing regexp: unexpected ): `)`"#)),
        (r#"a)"#, Some(r#"error parsing regexp: unexpected ): `a)`"#)),
        (
            r#"(a"#,
            Some(r#"error parsing regexp: missing closing ): `(a`"#),
        ),
        (
            r#"[a"#,
            Some(r#"error parsing regexp: missing closing ]: `[a`"#),
        ),
        (
            r#"[]"#,
            Some(r#"error parsing regexp: missing closing ]: `[]`"#),
        ),
        (r#"[]a]"#, None),
        (r#"[^]a]"#, None),
        (
            r#"[z-a]"#,
            Some(r#"error parsing regexp: invalid character class range: `z-a`"#),
        ),
        (
            r#"[a-\d]"#,
            Some(r#"error parsing regexp: invalid escape sequence: `\d`"#),
        ),
        (r#"[\d-z]"#, None),
        (
            r#"[[:foo:]]"#,
            Some(r#"error parsing regexp: invalid character class range: `[:foo:]`"#),
        ),
        (r#"[[:alpha:]]"#, None),
        (r#"[[:^alpha:]]"#, None),
        (r#"[[:alpha]"#, None),
        (
            r#"*"#,
            Some(r#"error parsing regexp: missing argument to repetition operator: `*`"#),
        ),
        (
            r#"a**"#,
            Some(r#"error parsing regexp: invalid nested repetition operator: `**`"#),
        ),
        (
            r#"a*?*"#,
            Some(r#"error parsing regexp: invalid nested repetition operator: `*?*`"#),
        ),
        (
            r#"a{2}*"#,
            Some(r#"error parsing regexp: invalid nested repetition operator: `{2}*`"#),
        ),
        (
            r#"{2}"#,
            Some(r#"error parsing regexp: missing argument to repetition operator: `{2}`"#),
        ),
        (r#"a{2"#, None),
        (
            r#"a{1001}"#,
            Some(r#"error parsing regexp: invalid repeat count: `{1001}`"#),
        ),
        (
            r#"a{2,1}"#,
            Some(r#"error parsing regexp: invalid repeat count: `{2,1}`"#),
        ),
        (r#"a{01}"#, None),
        (r#"a{,2}"#, None),
        (
            r#"(*)"#,
            Some(r#"error parsing regexp: missing argument to repetition operator: `*`"#),
        ),
        (
            r#"a|*"#,
            Some(r#"error parsing regexp: missing argument to repetition operator: `*`"#),
        ),
        (
            r#"\q"#,
            Some(r#"error parsing regexp: invalid escape sequence: `\q`"#),
        ),
        (
            r#"\8"#,
            Some(r#"error parsing regexp: invalid escape sequence: `\8`"#),
        ),
        (
            r#"\1"#,
            Some(r#"error parsing regexp: invalid escape sequence: `\1`"#),
        ),
        (r#"\01"#, None),
        (
            r#"\x4"#,
            Some(r#"error parsing regexp: invalid escape sequence: `\x4`"#),
        ),
        (
            r#"\xZZ"#,
            Some(r#"error parsing regexp: invalid escape sequence: `\xZZ`"#),
        ),
        (
            r#"\x{}"#,
            Some(r#"error parsing regexp: invalid escape sequence: `\x{}`"#),
        ),
        (
            r#"\x{110000}"#,
            Some(r#"error parsing regexp: invalid escape sequence: `\x{110000`"#),
        ),
        (r#"\x{41}"#, None),
        (
            r#"\"#,
            Some(r#"error parsing regexp: trailing backslash at end of expression: ``"#),
        ),
        (
            r#"a\"#,
            Some(r#"error parsing regexp: trailing backslash at end of expression: ``"#),
        ),
        (r#"\pL"#, None),
        (r#"\p{Greek}"#, None),
        (
            r#"\p{Foo}"#,
            Some(r#"error parsing regexp: invalid character class range: `\p{Foo}`"#),
        ),
        (
            r#"\p{Greek"#,
            Some(r#"error parsing regexp: invalid character class range: `\p{Greek`"#),
        ),
        (
            r#"\p"#,
            Some(r#"error parsing regexp: invalid character class range: `\p`"#),
        ),
        (r#"\p{^Greek}"#, None),
        (r#"\p{Letter}"#, None),
        (r#"\p{greek}"#, None),
        (
            r#"(?i)*"#,
            Some(r#"error parsing regexp: missing argument to repetition operator: `*`"#),
        ),
        (r#"(?i)a*"#, None),
        (
            r#"(?z)"#,
            Some(r#"error parsing regexp: invalid or unsupported Perl syntax: `(?z`"#),
        ),
        (
            r#"(?i"#,
            Some(r#"error parsing regexp: invalid or unsupported Perl syntax: `(?i`"#),
        ),
        (
            r#"(?-)"#,
            Some(r#"error parsing regexp: invalid or unsupported Perl syntax: `(?-)`"#),
        ),
        (r#"(?i-s:a)"#, None),
        (r#"(?P<name>a)"#, None),
        (
            r#"(?P<>a)"#,
            Some(r#"error parsing regexp: invalid named capture: `(?P<>`"#),
        ),
        (
            r#"(?P<na-me>a)"#,
            Some(r#"error parsing regexp: invalid named capture: `(?P<na-me>`"#),
        ),
        (
            r#"(?P<name"#,
            Some(r#"error parsing regexp: invalid named capture: `(?P<name`"#),
        ),
        (r#"(?<name>a)"#, None),
        (
            r#"(?P=name)"#,
            Some(r#"error parsing regexp: invalid or unsupported Perl syntax: `(?P`"#),
        ),
        (r#"(?P<a>x)(?P<a>y)"#, None),
        (
            r#"(?=a)"#,
            Some(r#"error parsing regexp: invalid or unsupported Perl syntax: `(?=`"#),
        ),
        (
            r#"(?!a)"#,
            Some(r#"error parsing regexp: invalid or unsupported Perl syntax: `(?!`"#),
        ),
        (r#"^*"#, None),
        (r#"$*"#, None),
        (r#"\b*"#, None),
        (r#"\Qa*\E*"#, None),
        (
            r#"\Q\E*"#,
            Some(r#"error parsing regexp: missing argument to repetition operator: `*`"#),
        ),
        (
            r#"a++"#,
            Some(r#"error parsing regexp: invalid nested repetition operator: `++`"#),
        ),
        (
            r#"x{2}{3}"#,
            Some(r#"error parsing regexp: invalid nested repetition operator: `{2}{3}`"#),
        ),
        (r#"(?:)*"#, None),
        (r#"()*"#, None),
        (r#"[a-]"#, None),
        (r#"[-a]"#, None),
        (r#"[a-b-c]"#, None),
        (r#"\z"#, None),
        (
            r#"\Z"#,
            Some(r#"error parsing regexp: invalid escape sequence: `\Z`"#),
        ),
        (
            r#"[\p{Foo}]"#,
            Some(r#"error parsing regexp: invalid character class range: `\p{Foo}`"#),
        ),
        (
            r#"[\x{41}-\x{40}]"#,
            Some(r#"error parsing regexp: invalid character class range: `\x{41}-\x{40}`"#),
        ),
    ];
    for (pattern, want) in cases {
        assert_eq!(compile_error(pattern).as_deref(), *want, "{pattern}");
    }
}

fn obj(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

/// The errors of one constraint, as `Constraint N validation failed`.
fn constraint(c: Value, r: Release) -> String {
    constraint_errors(&obj(json!({"Constraints": [c]})), rules_of(r)).join("\n")
}

#[test]
fn structs_test_go_v2_0_5_constraint_validate() {
    let r = v(2, 0, 5);
    let c = |l: &str, rt: &str, op: &str| json!({"LTarget": l, "RTarget": rt, "Operand": op});
    let cases = [
        (json!({}), "Missing constraint operand"),
        (
            c("${attr.kernel.name}", "(foo", "regexp"),
            "missing closing",
        ),
        (
            c("$attr.kernel.name", "~> foo", "version"),
            "malformed constraint",
        ),
        (
            c("$attr.kernel.name", "~> foo", "semver"),
            "Malformed constraint",
        ),
        (
            c("$attr.kernel.name", "0", "distinct_property"),
            "count of 1 or greater",
        ),
        (
            c("$attr.kernel.name", "-1", "distinct_property"),
            "to uint64",
        ),
        (c("", "", "set_contains"), "requires an RTarget"),
        (c("", "", "set_contains_all"), "requires an RTarget"),
        (c("", "", "set_contains_any"), "requires an RTarget"),
        (
            c("", "foo", "regexp"),
            "no attribute provided but is required by operator",
        ),
        (c("", "", "foo"), "Unknown constraint type"),
        (
            c("${platform.aws.placement.availability-zone}", "3", ">"),
            "unsupported attribute",
        ),
    ];
    for (input, want) in cases {
        let got = constraint(input.clone(), r);
        assert!(got.contains(want), "{input}: {want:?} not in {got}");
    }
    for valid in [
        c("${attr.kernel.name}", "linux", "="),
        c("${attr.kernel.name}", ">= 0.6.1", "semver"),
        c("", "", "distinct_hosts"),
    ] {
        assert_eq!(constraint(valid.clone(), r), "", "{valid}");
    }
}

#[test]
fn structs_test_go_v1_3_0_constraint_validate() {
    let r = v(1, 3, 0);
    let c = |l: &str, rt: &str, op: &str| json!({"LTarget": l, "RTarget": rt, "Operand": op});
    assert_eq!(
        constraint(json!({}), r),
        "Constraint 1 validation failed: 2 errors occurred:\n\t* Missing constraint operand\n\t* \
         Unknown constraint type \"\"\n\t* No LTarget provided but is required by constraint\n\n"
            .replace("2 errors", "3 errors")
    );
    // An uninterpolated attribute is accepted before #27355.
    assert_eq!(constraint(c("$attr.kernel.name", "linux", "="), r), "");
    let cases = [
        (c("$attr.kernel.name", "(foo", "regexp"), "missing closing"),
        (
            c("$attr.kernel.name", "~> foo", "version"),
            "Malformed constraint: ~> foo",
        ),
        (
            c("$attr.kernel.name", "~> foo", "semver"),
            "Malformed constraint: ~> foo",
        ),
        (
            c("$attr.kernel.name", "0", "distinct_property"),
            "count of 1 or greater",
        ),
        (
            c("$attr.kernel.name", "-1", "distinct_property"),
            "to uint64",
        ),
        (c("", "foo", "regexp"), "No LTarget"),
        (c("", "", "foo"), "Unknown constraint type"),
    ];
    for (input, want) in cases {
        let got = constraint(input.clone(), r);
        assert!(got.contains(want), "{input}: {want:?} not in {got}");
    }
    assert_eq!(constraint(c("", "", "distinct_hosts"), r), "");
}

#[test]
fn constraint_targets_parsed_by_go_are_worded_as_go_words_them() {
    let c = |rt: &str, op: &str| json!({"LTarget": "${attr.a}", "RTarget": rt, "Operand": op});
    let one = |e: &str| format!("Constraint 1 validation failed: 1 error occurred:\n\t* {e}\n\n");
    let r = v(1, 10, 5);
    assert_eq!(
        constraint(c(">= 1.0, foo", "version"), r),
        one("Version constraint is invalid: Malformed constraint:  foo")
    );
    assert_eq!(
        constraint(c(">= 99999999999999999999", "version"), v(2, 0, 5)),
        one(
            "Version constraint is invalid: error parsing version: strconv.ParseInt: parsing \
             \"99999999999999999999\": value out of range"
        )
    );
    assert_eq!(
        constraint(c("a**", "regexp"), r),
        one(
            "Regular expression failed to compile: error parsing regexp: invalid nested \
             repetition operator: `**`"
        )
    );
    assert_eq!(
        constraint(c("+3", "distinct_property"), r),
        one(
            "Failed to convert RTarget \"+3\" to uint64: strconv.ParseUint: parsing \"+3\": invalid syntax"
        )
    );
    assert_eq!(
        constraint(c("3", "is_set"), r),
        one("Operator \"is_set\" does not support an RTarget")
    );
    // go-version's words are lower case from #27170 (1.11.1, 2.0.0).
    let lower = one("Version constraint is invalid: malformed constraint: ~> foo");
    assert_eq!(constraint(c("~> foo", "version"), v(1, 11, 1)), lower);
    assert_eq!(constraint(c("~> foo", "version"), v(2, 0, 0)), lower);
    assert_ne!(constraint(c("~> foo", "version"), v(1, 11, 0)), lower);
}

#[test]
fn constraint_go_v2_0_5_validate_constraint_attribute() {
    let r = v(2, 0, 5);
    let c = |l: &str| json!({"LTarget": l, "RTarget": "x", "Operand": "="});
    for ok in [
        "literal",
        "${node.unique.id}",
        "${node.pool}",
        "${attr.a}",
        "${meta.b}",
        "${device.c}",
    ] {
        assert_eq!(constraint(c(ok), r), "", "{ok}");
    }
    for (bad, want) in [
        (
            "$attr.a",
            "attribute \"$attr.a\" is missing an opening brace",
        ),
        (
            "${attr.a",
            "attribute \"${attr.a\" is missing a closing brace",
        ),
        ("${node.foo}", "unsupported attribute \"${node.foo}\""),
    ] {
        assert!(constraint(c(bad), r).contains(want), "{bad}");
        assert!(constraint(c(bad), v(1, 11, 2)).contains(want), "{bad}");
        assert_eq!(constraint(c(bad), v(1, 11, 1)), "", "{bad}");
    }
}

#[test]
fn structs_test_go_v2_0_5_affinity_validate() {
    let a = |op: &str, l: &str, rt: &str, w: i64| json!({"Operand": op, "LTarget": l, "RTarget": rt, "Weight": w});
    let cases = [
        (json!({}), "Missing affinity operand"),
        (
            a("foo", "${meta.node_class}", "", 10),
            "Unknown affinity operator \"foo\"",
        ),
        (
            a("=", "${meta.node_class}", "", 10),
            "Operator \"=\" requires an RTarget",
        ),
        (
            a("=", "${meta.node_class}", "c4", 0),
            "Affinity weight cannot be zero",
        ),
        (
            a("=", "${meta.node_class}", "c4", 110),
            "Affinity weight must be within the range [-100,100]",
        ),
        (
            a("=", "${node.class}", "", 10),
            "Operator \"=\" requires an RTarget",
        ),
        (
            a("version", "${meta.os}", ">>2.0", 110),
            "Version affinity is invalid",
        ),
        (
            a("regexp", "${meta.os}", "\\K2.0", 100),
            "Regular expression failed to compile",
        ),
    ];
    for r in [v(1, 3, 0), v(2, 0, 5)] {
        for (input, want) in &cases {
            let owner = obj(json!({"Affinities": [input]}));
            let got = affinity_errors(&owner, "service", rules_of(r)).join("\n");
            assert!(got.contains(want), "{r} {input}: {want:?} not in {got}");
        }
    }
}

#[test]
fn structs_test_go_v2_0_5_spread_validate() {
    let dc = |targets: Value, w: i64| json!({"Attribute": "${node.datacenter}", "Weight": w, "SpreadTarget": targets});
    let t = |value: &str, percent: i64| json!({"Value": value, "Percent": percent});
    let cases = [
        (json!({"Weight": 50}), "Missing spread attribute"),
        (
            dc(json!([]), -1),
            "Spread block must have a positive weight from 0 to 100",
        ),
        (
            dc(json!([]), 110),
            "Spread block must have a positive weight from 0 to 100",
        ),
        (
            dc(json!([t("dc1", 25), t("dc2", 150)]), 50),
            "Spread target percentage for value \"dc2\" must be between 0 and 100",
        ),
        (
            dc(json!([t("dc1", 75), t("dc2", 75)]), 50),
            "Sum of spread target percentages must not be greater than 100%; got 150%",
        ),
        (
            dc(json!([t("dc1", 25), t("dc1", 50)]), 50),
            "Spread target value \"dc1\" already defined",
        ),
    ];
    let spreads = |s: &Value, r: Release| {
        spread_errors(&obj(json!({"Spreads": [s]})), "service", rules_of(r)).join("\n")
    };
    for (input, want) in &cases {
        let got = spreads(input, v(2, 0, 5));
        assert!(got.contains(want), "{input}: {want:?} not in {got}");
    }
    assert_eq!(
        spreads(&dc(json!([t("dc1", 25), t("dc2", 50)]), 50), v(2, 0, 5)),
        ""
    );
    // "stanza" until #15941 (1.3.10, 1.4.5, 1.5.0).
    let bad_weight = dc(json!([]), 0);
    assert!(spreads(&bad_weight, v(1, 3, 9)).contains("Spread stanza must have"));
    assert!(spreads(&bad_weight, v(1, 4, 4)).contains("Spread stanza must have"));
    assert!(spreads(&bad_weight, v(1, 4, 5)).contains("Spread block must have"));
}

/// `TestJob_SystemJob_Validate` (v1.3.0, v2.0.5): affinities and spreads
/// at every level of a system job are refused, `stanza` before #15941.
#[test]
fn structs_test_go_v1_3_0_v2_0_5_system_job_validate() {
    let mut job = mock_job();
    job.insert("Type".into(), json!("system"));
    let g = job["TaskGroups"][0].as_object_mut().unwrap();
    g.insert("Count".into(), json!(1));
    g.remove("ReschedulePolicy");
    let affinity =
        json!([{"Operand": "=", "LTarget": "${meta.rack}", "RTarget": "r1", "Weight": 50}]);
    let spread = json!([{"Attribute": "${node.datacenter}", "Weight": 100}]);
    let clean = job.clone();
    job.insert("Affinities".into(), affinity.clone());
    job.insert("Spreads".into(), spread.clone());
    let g = job["TaskGroups"][0].as_object_mut().unwrap();
    g.insert("Affinities".into(), affinity.clone());
    g.insert("Spreads".into(), spread);
    g["Tasks"][0]
        .as_object_mut()
        .unwrap()
        .insert("Affinities".into(), affinity);
    for (r, word) in [(v(1, 3, 0), "stanza"), (v(2, 0, 5), "block")] {
        assert!(
            validate(&clean, r).is_empty(),
            "{r}: {:?}",
            validate(&clean, r)
        );
        let all = validate(&job, r).join("\n");
        assert!(
            all.contains(&format!("System jobs may not have an affinity {word}")),
            "{all}"
        );
        assert!(
            all.contains(&format!("System jobs may not have a spread {word}")),
            "{all}"
        );
        // Job, group and task each refuse their affinities; job and group
        // their spreads.
        assert_eq!(all.matches("may not have an affinity").count(), 3, "{all}");
        assert_eq!(all.matches("may not have a spread").count(), 2, "{all}");
    }
    // The agent keeps an empty list of affinities and drops an empty list
    // of spreads.
    let mut empty = clean.clone();
    empty.insert("Affinities".into(), json!([]));
    empty.insert("Spreads".into(), json!([]));
    let all = validate(&empty, v(2, 0, 5)).join("\n");
    assert!(
        all.contains("System jobs may not have an affinity block"),
        "{all}"
    );
    assert!(!all.contains("spread"), "{all}");
}

/// `TestTask_Validate` (v2.0.5): a task's constraints are checked and may
/// not use the placement-wide operands.
#[test]
fn structs_test_go_v2_0_5_task_validate_constraints() {
    let t = obj(json!({"Constraints": [
        {"Operand": "distinct_hosts"},
        {"Operand": "distinct_property", "LTarget": "${meta.rack}"},
        {"Operand": "=", "LTarget": "${meta.rack}"}]}));
    assert_eq!(
        task_constraint_errors(&t, rules_of(v(2, 0, 5))),
        [
            "Constraint 1 has disallowed Operand at task level: distinct_hosts",
            "Constraint 2 has disallowed Operand at task level: distinct_property",
            "Constraint 3 validation failed: 1 error occurred:\n\t* Operator \"=\" requires an RTarget\n\n",
        ]
    );
    let mut job = mock_job();
    job["TaskGroups"][0]["Tasks"][0]["Constraints"] = json!([{"Operand": "distinct_hosts"}]);
    let all = validate(&job, v(2, 0, 5)).join("\n");
    assert!(
        all.contains("Task web validation failed: 1 error occurred:\n\t* Constraint 1 has disallowed Operand at task level: distinct_hosts"),
        "{all}"
    );
}
