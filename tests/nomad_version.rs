//! `--nomad-version` and the snapshot's `NomadVersion`: accepted values,
//! precedence, what the output says about the replayed release, and the
//! warnings for what that release does not read.

use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;

use crate::common::piped;

/// Runs the binary laid out for 100 columns, where the version lines these
/// tests compare keep to one line.
fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut c = Command::cargo_bin("plan-inspect").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("COLUMNS", "100")
        .args(args);
    piped(&mut c, stdin.unwrap_or("").as_bytes())
}

/// A service group with `disconnect { lost_after = "15m" }` whose only
/// allocation sits on a disconnected node.
fn disconnect_block_snapshot(extra: &str) -> String {
    format!(
        r#"{{"Now": "2024-06-01T00:10:00Z", {extra}
        "Jobs": [{{"ID": "web", "Namespace": "default", "Type": "service", "Version": 0,
                  "TaskGroups": [{{"Name": "web", "Count": 1,
                                  "Disconnect": {{"LostAfter": 900000000000}}}}]}}],
        "Nodes": [{{"ID": "n1", "Status": "disconnected"}}],
        "Allocs": [{{"ID": "a1", "Namespace": "default", "JobID": "web", "TaskGroup": "web",
                    "Name": "web.web[0]", "NodeID": "n1", "ClientStatus": "running",
                    "DesiredStatus": "run", "DesiredTransition": {{}}}}]}}"#
    )
}

fn json(args: &[&str], stdin: &str) -> serde_json::Value {
    let (code, stdout, stderr) = run(args, Some(stdin));
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

fn warnings(doc: &serde_json::Value) -> Vec<(String, String)> {
    doc["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["code"] != "alloc_without_job")
        .map(|w| {
            (
                w["code"].as_str().unwrap().to_string(),
                w["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_bad_value_is_a_usage_error_listing_the_accepted_forms() {
    let (code, stdout, stderr) = run(&["fixtures/example.json", "--nomad-version", "1.2.9"], None);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.starts_with(
            "error: invalid value '1.2.9' for '--nomad-version <VERSION>': not a Nomad version \
             plan-inspect replays; expected auto, seed (commit 8ac3e642e6), head (commit \
             aa026cc99c), a series 1.3 ... 2.0 (its latest patch) or a release (1.3.0-1.3.16, \
             1.4.0-1.4.14, 1.5.0-1.5.17, 1.6.0-1.6.10, 1.7.0-1.7.7, 1.8.0-1.8.4, 1.9.0-1.9.7, \
             1.10.0-1.10.5, 1.11.0-1.11.3, 2.0.0-2.0.5)\n"
        ),
        "{stderr}"
    );
}

#[test]
fn a_bad_snapshot_key_is_an_input_error() {
    let (code, stdout, stderr) = run(&["-"], Some(r#"{"Jobs": [], "NomadVersion": "latest"}"#));
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(
        stderr.starts_with(
            "plan-inspect: <stdin>:1:38: at NomadVersion: \"latest\" is not a Nomad version \
             plan-inspect replays; expected auto,"
        ),
        "{stderr}"
    );
}

#[test]
fn seed_and_auto_without_evidence_give_the_default_output_byte_for_byte() {
    for fixture in ["fixtures/example.json", "fixtures/rollout.json"] {
        for format in ["table", "json"] {
            let default = run(&[fixture, "--format", format], None);
            assert_eq!(default.0, 0);
            assert!(default.1.contains("seed"), "{}", default.1);
            for version in ["seed", "auto"] {
                let asked = run(
                    &[fixture, "--format", format, "--nomad-version", version],
                    None,
                );
                let expected = if version == "seed" && format == "json" {
                    default
                        .1
                        .replace(r#""source": "default""#, r#""source": "flag""#)
                } else if version == "seed" {
                    default.1.replace(
                        "the default: the snapshot shows no later release",
                        "as --nomad-version asks",
                    )
                } else if format == "json" {
                    default
                        .1
                        .replace(r#""source": "default""#, r#""source": "flag""#)
                } else {
                    default.1.clone()
                };
                assert_eq!(asked.1, expected, "{fixture} {format} {version}");
            }
        }
    }
}

#[test]
fn the_flag_wins_over_the_snapshot_key() {
    let snap = disconnect_block_snapshot(r#""NomadVersion": "1.5.3","#);
    let doc = json(&["-", "--format", "json"], &snap);
    assert_eq!(doc["nomad_version"]["profile"], "1.5.3");
    assert_eq!(doc["nomad_version"]["source"], "snapshot");
    let doc = json(&["-", "--format", "json", "--nomad-version", "1.4"], &snap);
    assert_eq!(doc["nomad_version"]["profile"], "1.4.14");
    assert_eq!(doc["nomad_version"]["source"], "flag");
}

#[test]
fn auto_replays_the_release_the_evidence_proves_and_says_it_is_a_lower_bound() {
    let doc = json(&["-", "--format", "json"], &disconnect_block_snapshot(""));
    assert_eq!(doc["nomad_version"]["profile"], "1.8.0");
    assert_eq!(doc["nomad_version"]["source"], "default");
    let w = warnings(&doc);
    assert!(
        w.contains(&(
            "nomad_version_lower_bound".into(),
            "replaying Nomad 1.8.0, the oldest release that writes what the snapshot holds (a task \
             group has a disconnect block (default/web version 0 group web)); the servers may run \
             a newer release: pass --nomad-version to replay it"
                .into()
        )),
        "{w:?}"
    );
    let (_, table, _) = run(&["-"], Some(&disconnect_block_snapshot("")));
    assert!(
        table.starts_with(
            "Replaying Nomad 1.8.0, auto: a task group has a disconnect block (default/web \
             version 0 group web).\n"
        ),
        "{table}"
    );
}

#[test]
fn a_client_agent_version_is_evidence() {
    let snap = r#"{"Now": "2024-06-01T00:00:00Z", "Jobs": [], "Allocs": [],
        "Nodes": [{"ID": "n2", "Status": "ready", "Attributes": {"nomad.version": "1.9.3"}},
                  {"ID": "n1", "Status": "ready", "Attributes": {"nomad.version": "1.10.1+ent"}}]}"#;
    let doc = json(&["-", "--format", "json"], snap);
    assert_eq!(doc["nomad_version"]["profile"], "1.10.1");
    assert_eq!(
        doc["nomad_version"]["evidence"],
        "Nomad 1.10.1 or later: client node n1 reports nomad.version 1.10.1+ent"
    );
}

#[test]
fn a_disconnect_block_replayed_with_the_seed_is_named_as_ignored() {
    let doc = json(
        &["-", "--format", "json", "--nomad-version", "seed"],
        &disconnect_block_snapshot(""),
    );
    let w = warnings(&doc);
    assert_eq!(
        w,
        [
            (
                "input_ignored".to_string(),
                "the disconnect block of default/web group web (lost_after = 15m0s) ignored: \
                 replaying Nomad seed semantics, which read it only from Nomad 1.8.0 on (D-4a)"
                    .to_string()
            ),
            (
                "nomad_version_older_than_evidence".to_string(),
                "replaying Nomad seed as asked, but the snapshot was written by Nomad 1.8.0 or \
                 later (a task group has a disconnect block (default/web version 0 group web))"
                    .to_string()
            ),
        ]
    );
    // What the seed does with it: no disconnect support, so the allocation
    // is stopped and replaced.
    let group = &doc["jobs"][0]["groups"][0];
    assert_eq!(group["buckets"]["disconnecting"][0]["id"], "a1");
    let stop = &doc["jobs"][0]["plan"]["stop"][0];
    assert_eq!(stop["alloc_id"], "a1");
    assert_eq!(
        stop["description"],
        "alloc was rescheduled because it failed"
    );
}

#[test]
fn a_later_profile_replays_every_catalogued_change() {
    let codes = |version: &str| {
        let doc = json(
            &["-", "--format", "json", "--nomad-version", version],
            &disconnect_block_snapshot(""),
        );
        warnings(&doc)
    };
    // Every switch is replayed, F-4 (1.10.5) since the placement stage.
    assert_eq!(codes("1.10.4"), []);
    assert_eq!(codes("1.10.5"), []);
    assert_eq!(codes("2.0.5"), []);
}

/// A reconcile strategy Nomad knows is replayed (no warning from 1.8.0 on);
/// a name its job validation rejects is named, and replayed as best_score.
#[test]
fn only_a_reconcile_strategy_nomad_rejects_is_named_as_ignored() {
    let with = |strategy: &str| {
        let snapshot = disconnect_block_snapshot("").replace(
            r#""LostAfter": 900000000000"#,
            &format!(r#""LostAfter": 900000000000, "Reconcile": "{strategy}""#),
        );
        let doc = json(
            &["-", "--format", "json", "--nomad-version", "1.8.0"],
            &snapshot,
        );
        warnings(&doc)
            .into_iter()
            .filter(|(code, _)| code == "input_ignored")
            .map(|(_, m)| m)
            .collect::<Vec<_>>()
    };
    assert!(with("keep_original").is_empty());
    assert!(with("longest_running").is_empty());
    assert_eq!(
        with("newest"),
        [
            "the disconnect block's reconcile strategy of default/web group web (reconcile = \
             newest) ignored: Nomad knows only best_score, keep_original, keep_replacement, \
             longest_running (its job validation rejects any other), so it is replayed as \
             best_score"
        ]
    );
}

/// From 1.10.0 the legacy disconnect fields are named as no longer read.
#[test]
fn the_legacy_disconnect_fields_are_named_as_ignored_from_1_10() {
    let snapshot = disconnect_block_snapshot("").replace(
        r#""Disconnect": {"LostAfter": 900000000000}"#,
        r#""MaxClientDisconnect": 3600000000000"#,
    );
    let warned = |version: &str| {
        let doc = json(
            &["-", "--format", "json", "--nomad-version", version],
            &snapshot,
        );
        warnings(&doc)
            .into_iter()
            .filter(|(code, _)| code == "input_ignored")
            .map(|(_, m)| m)
            .collect::<Vec<_>>()
    };
    assert!(warned("1.9.7").is_empty());
    assert_eq!(
        warned("1.10.0"),
        [
            "max_client_disconnect and stop_after_client_disconnect of default/web group web \
          ignored: Nomad 1.10.0 no longer reads it (F-1)"
        ]
    );
}

/// `fixtures/example.json` (no evidence of its own) with `NodePools` set to
/// `pools`, read from standard input.
fn example_with_pools(pools: &str) -> String {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/example.json"
    ))
    .unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    if !pools.is_empty() {
        doc["NodePools"] = serde_json::from_str(pools).unwrap();
    }
    doc.to_string()
}

/// A listed pool besides the built-in `all` and `default` proves 1.6.0; the
/// built-ins alone, which any 1.6 state store creates, prove nothing, so
/// auto replays the seed byte for byte as without the key.
#[test]
fn a_node_pool_besides_the_built_ins_is_evidence_of_1_6_0() {
    let without = example_with_pools("");
    for format in ["table", "json"] {
        let seed = run(&["-", "--format", format], Some(&without));
        assert_eq!(seed.0, 0, "{}", seed.2);
        assert!(seed.1.contains("seed"), "{}", seed.1);
        for pools in [
            "[]",
            r#"[{"Name": "default"}]"#,
            r#"[{"Name": "all"}, {"Name": "default"}]"#,
        ] {
            let got = run(&["-", "--format", format], Some(&example_with_pools(pools)));
            assert_eq!(got.1, seed.1, "{pools} {format}");
        }
    }
    let pools = r#"[{"Name": "all"}, {"Name": "default"}, {"Name": "gpu"}, {"Name": "batch"}]"#;
    let listed = example_with_pools(pools);
    let doc = json(&["-", "--format", "json"], &listed);
    assert_eq!(doc["nomad_version"]["profile"], "1.6.0");
    assert_eq!(
        doc["nomad_version"]["evidence"],
        "Nomad 1.6.0 or later: a node pool besides the built-in all and default is listed \
         (node pool batch, and 1 more node pools)"
    );
    // Either side of the release the evidence proves.
    let older = |version: &str| {
        warnings(&json(
            &["-", "--format", "json", "--nomad-version", version],
            &listed,
        ))
        .into_iter()
        .any(|(code, _)| code == "nomad_version_older_than_evidence")
    };
    assert!(older("1.5.17"));
    assert!(!older("1.6.0"));
}
