//! Workload identities: nomad/structs/workload_id_test.go
//! `TestWorkloadIdentity_Validate` (v2.0.5) as `Task.Validate` reports its
//! cases, from #18123 (1.7.0), with #24038 (1.9.0).

use serde_json::{Value, json};

use super::super::identity_validate::identity_errors;
use super::rules_of;
use crate::model::{Release, v};

fn extra(w: Value, r: Release) -> Vec<String> {
    identity_errors(json!({"Identities": [w]}).as_object().unwrap(), rules_of(r))
}

fn invalid(name: &str, errs: &[&str]) -> Vec<String> {
    let list: String = errs.iter().map(|e| format!("\t* {e}\n")).collect();
    let what = if errs.len() == 1 { "error" } else { "errors" };
    vec![format!(
        "Identity \"{name}\" is invalid: {} {what} occurred:\n{list}\n",
        errs.len()
    )]
}

#[test]
fn workload_id_test_go_v2_0_5_workload_identity_validate() {
    let r = v(2, 0, 5);
    let hour = 3_600_000_000_000_i64;
    let ok = json!({"Name": "foo-id", "Audience": ["http://nomadproject.io/"],
        "ChangeMode": "restart", "Env": true, "File": true, "TTL": hour});
    assert!(extra(ok, r).is_empty());
    let signal = json!({"Name": "foo-id", "ChangeMode": "signal", "ChangeSignal": "SIGHUP",
        "TTL": hour});
    assert!(extra(signal, r).is_empty());
    assert_eq!(
        extra(
            json!({"Name": "foo-id", "ChangeMode": "signal", "TTL": hour}),
            r
        ),
        invalid(
            "foo-id",
            &["change_signal must be specified when using change_mode=\"signal\""]
        )
    );
    assert_eq!(
        extra(
            json!({"Name": "foo-id", "ChangeMode": "restart", "ChangeSignal": "SIGHUP"}),
            r
        ),
        invalid(
            "foo-id",
            &["can only use change_signal=\"SIGHUP\" with change_mode=\"signal\""]
        )
    );
    for name in ["../etc/passwd", "A:\\hacks", &"x".repeat(1025)] {
        let errs = extra(json!({"Name": name}), r);
        assert_eq!(errs.len(), 1, "{name}");
        assert!(
            errs[0].contains(&format!(
                "invalid name {}. Must match regex ^[a-zA-Z0-9-_]{{1,128}}$",
                serde_json::to_string(name).unwrap()
            )),
            "{errs:?}"
        );
    }
    assert_eq!(
        extra(
            json!({"Name": "x", "Audience": ["a", ""], "TTL": -1, "ChangeMode": "bogus"}),
            r
        ),
        invalid(
            "x",
            &[
                "an empty string is an invalid audience (2)",
                "invalid change_mode: bogus",
                "ttl must be >= 0"
            ]
        )
    );
}

/// The default identity is checked from #24038 (1.9.0), with a file path
/// that needs `file`; a second default one among the extra ones is
/// refused from #18123 (1.7.0); nothing before.
#[test]
fn default_and_extra_identities_at_their_releases() {
    let t = json!({"Identity": {"Name": "default", "TTL": 60_000_000_000_i64},
        "Identities": [{"Name": "default"}, {"Name": "vault", "Filepath": "secrets/v.jwt"}]});
    let check = |r: Release| identity_errors(t.as_object().unwrap(), rules_of(r));
    let mut want = invalid("default", &["ttl for default identity not yet supported"]);
    want.push("Duplicate default identities found".into());
    want.extend(invalid(
        "vault",
        &["file parameter must be true in order to specify filepath"],
    ));
    assert_eq!(check(v(1, 9, 0)), want);
    assert_eq!(check(v(1, 8, 4)), ["Duplicate default identities found"]);
    assert!(check(v(1, 6, 10)).is_empty());
}
