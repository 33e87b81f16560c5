//! nomad/structs/diff_test.go `TestJobDiff` (v1.10.5), the job-level cases.
//! v2.0.5's test has the same text, so each case is checked at both tags.

use serde_json::{Value, json};

use super::super::job_diff;
use super::{expect, go_job, lines};
use crate::job_plan::DiffType;
use crate::model::v;

/// The diff at v1.10.5, which v2.0.5 gives too.
fn diff(old: Option<Value>, new: Value, contextual: bool) -> (DiffType, Vec<String>) {
    let at = |release| {
        let d = job_diff(
            old.clone().map(go_job).as_ref(),
            &go_job(new.clone()),
            contextual,
            super::rules_of(release),
        );
        let mut out = Vec::new();
        lines(&d.fields, &d.objects, 0, &mut out);
        (d.kind, out)
    };
    let got = at(v(1, 10, 5));
    assert_eq!(at(v(2, 0, 5)), got, "v2.0.5 differs");
    got
}

fn primitive_job(
    region: &str,
    name: &str,
    kind: &str,
    priority: i64,
    all: bool,
    meta: &str,
) -> Value {
    json!({"Region": region, "ID": "foo", "Name": name, "Type": kind, "Priority": priority,
           "AllAtOnce": all, "Meta": {"foo": meta}})
}

#[test]
fn diff_test_go_v1_10_5_job_diff_unchanged_primitives() {
    let j = primitive_job("foo", "foo", "batch", 10, true, "bar");
    assert_eq!(diff(Some(j.clone()), j, false), (DiffType::None, vec![]));
}

#[test]
fn diff_test_go_v1_10_5_job_diff_edited_primitives() {
    let old = primitive_job("foo", "foo", "batch", 10, true, "bar");
    let new = primitive_job("bar", "bar", "system", 100, false, "baz");
    let (kind, got) = diff(Some(old), new, false);
    assert_eq!(kind, DiffType::Edited);
    assert_eq!(
        got,
        expect(
            r#"
            Edited AllAtOnce: "true" => "false"
            Edited Meta[foo]: "bar" => "baz"
            Edited Name: "foo" => "bar"
            Edited Priority: "10" => "100"
            Edited Region: "foo" => "bar"
            Edited Type: "batch" => "system"
            "#
        )
    );
}

#[test]
fn diff_test_go_v1_10_5_job_diff_added() {
    let (kind, got) = diff(
        None,
        primitive_job("foo", "foo", "batch", 10, true, "bar"),
        false,
    );
    assert_eq!(kind, DiffType::Added);
    assert_eq!(
        got,
        expect(
            r#"
            Added AllAtOnce: "" => "true"
            Added Dispatched: "" => "false"
            Added Meta[foo]: "" => "bar"
            Added Name: "" => "foo"
            Added Priority: "" => "10"
            Added Region: "" => "foo"
            Added Stop: "" => "false"
            Added Type: "" => "batch"
            "#
        )
    );
}

#[test]
fn diff_test_go_v1_10_5_job_diff_meta() {
    let old = json!({"Meta": {"foo": "foo", "bar": "bar"}});
    let new = json!({"Meta": {"bar": "bar", "baz": "baz"}});
    let (kind, got) = diff(Some(old), new, false);
    assert_eq!(kind, DiffType::Edited);
    assert_eq!(
        got,
        expect(
            r#"
            Added Meta[baz]: "" => "baz"
            Deleted Meta[foo]: "foo" => ""
            "#
        )
    );
}

#[test]
fn diff_test_go_v1_10_5_job_diff_datacenters() {
    let dcs = |l: &[&str]| json!({"Datacenters": l});
    let cases: [(&[&str], &[&str], bool, &str); 5] = [
        (
            &["foo", "bar"],
            &["baz", "bar"],
            false,
            r#"
            Edited Datacenters {
              Added Datacenters: "" => "baz"
              Deleted Datacenters: "foo" => ""
            }"#,
        ),
        (
            &["foo", "bar"],
            &["foo", "bar", "baz"],
            false,
            r#"
            Added Datacenters {
              Added Datacenters: "" => "baz"
            }"#,
        ),
        (
            &["foo", "bar"],
            &["foo"],
            false,
            r#"
            Deleted Datacenters {
              Deleted Datacenters: "bar" => ""
            }"#,
        ),
        (&["foo", "bar"], &["foo", "bar"], true, ""),
        (
            &["foo", "bar"],
            &["foo", "bar", "baz"],
            true,
            r#"
            Added Datacenters {
              Added Datacenters: "" => "baz"
              None Datacenters: "bar" => "bar"
              None Datacenters: "foo" => "foo"
            }"#,
        ),
    ];
    for (old, new, contextual, want) in cases {
        let (_, got) = diff(Some(dcs(old)), dcs(new), contextual);
        assert_eq!(got, expect(want), "{old:?} -> {new:?}");
    }
}

#[test]
fn diff_test_go_v1_10_5_job_diff_node_pool() {
    let pool = |p: &str| json!({"NodePool": p});
    let cases = [
        ("", "default", r#"Added NodePool: "" => "default""#),
        ("default", "", r#"Deleted NodePool: "default" => """#),
        ("default", "foo", r#"Edited NodePool: "default" => "foo""#),
        ("foo", "foo", ""),
    ];
    for (old, new, want) in cases {
        let (_, got) = diff(Some(pool(old)), pool(new), false);
        assert_eq!(got, expect(want), "{old:?} -> {new:?}");
    }
}

#[test]
fn diff_test_go_v1_10_5_job_diff_periodic_added() {
    let new = json!({"Periodic": {"Enabled": false, "Spec": "*/15 * * * * *", "SpecType": "foo",
                     "ProhibitOverlap": false, "TimeZone": "Europe/Minsk"}});
    let (kind, got) = diff(Some(json!({})), new, false);
    assert_eq!(kind, DiffType::Edited);
    assert_eq!(
        got,
        expect(
            r#"
            Added Periodic {
              Added Enabled: "" => "false"
              Added ProhibitOverlap: "" => "false"
              Added Spec: "" => "*/15 * * * * *"
              Added SpecType: "" => "foo"
              Added TimeZone: "" => "Europe/Minsk"
            }"#
        )
    );
}

#[test]
fn diff_test_go_v1_10_5_job_diff_constraints_edited() {
    let c = |l: &str| json!({"LTarget": l, "RTarget": l, "Operand": l});
    let old = json!({"Constraints": [c("foo"), c("bar")]});
    let new = json!({"Constraints": [c("foo"), c("baz")]});
    let (_, got) = diff(Some(old), new, false);
    assert_eq!(
        got,
        expect(
            r#"
            Added Constraint {
              Added LTarget: "" => "baz"
              Added Operand: "" => "baz"
              Added RTarget: "" => "baz"
            }
            Deleted Constraint {
              Deleted LTarget: "bar" => ""
              Deleted Operand: "bar" => ""
              Deleted RTarget: "bar" => ""
            }"#
        )
    );
}
