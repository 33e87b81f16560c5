//! `--explain` in a story (`--what-if`, `--until`): the subject explained in
//! the last evaluation of the story that decided it, on the cluster as the
//! story had left it then, with the evaluations before it that decided it
//! too; an allocation the story placed is explained as the placement that
//! made it; a subject no evaluation of the story decides is an error.

use serde_json::{Value, json};

use crate::what_if_cli::{STORY, run};

const CLUSTER: &str = "tests/what-if/cluster.json";

/// web.web[1] on client-2, which misses its heartbeat at +5m and is back at +15m.
const WEB_1: &str = "2b7a4d3f";

/// `--explain subject` in the story of `story` on `snapshot`: exit code,
/// stdout, stderr.
fn explain_in(
    snapshot: &str,
    story: &[&str],
    subject: &str,
    more: &[&str],
) -> (i32, String, String) {
    let mut args = vec![snapshot, "--explain", subject, "--color", "never"];
    args.extend(story);
    args.extend(more);
    run(&args)
}

fn json_of(snapshot: &str, story: &[&str], subject: &str) -> Value {
    let (code, stdout, stderr) = explain_in(snapshot, story, subject, &["--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

/// The evaluations of `doc`'s `story.decided_in`: (trigger, time).
fn decided_in(doc: &Value) -> Vec<(String, String)> {
    doc["explain"]["story"]["decided_in"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["triggered_by"].as_str().unwrap().to_string(),
                e["at"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn an_allocation_is_explained_in_the_last_evaluation_that_decided_it_table() {
    let (code, stdout, stderr) = explain_in(CLUSTER, &STORY, WEB_1, &[]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!(stdout);
}

/// Disconnected by the node-update evaluation at +5m, reconnected by the
/// one at +15m: the story to 1h explains the reconnect, with the
/// disconnect listed before it; the story to 10m explains the disconnect.
#[test]
fn the_last_deciding_evaluation_until_the_story_ends() {
    let whole = json_of(CLUSTER, &STORY, WEB_1);
    let e = &whole["explain"];
    assert_eq!(
        decided_in(&whole),
        [
            (
                "node-update".to_string(),
                "2022-04-01T03:17:00Z".to_string()
            ),
            (
                "node-update".to_string(),
                "2022-04-01T03:27:00Z".to_string()
            ),
        ]
    );
    assert_eq!(e["story"]["evaluation"], e["story"]["decided_in"][1]);
    assert_eq!(e["eval_id"], e["story"]["evaluation"]["id"]);
    assert_eq!(e["now"], "2022-04-01T03:27:00Z");
    assert_eq!(e["bucket"], "reconnecting");
    assert_eq!(e["fate"], json!(["reconnect update: resumes on its node"]));
    assert_eq!(e["story"].get("placed_alloc_id"), None);

    let early = json_of(
        CLUSTER,
        &["--what-if", "node-down:client-2@5m", "--until", "10m"],
        WEB_1,
    );
    let e = &early["explain"];
    assert_eq!(
        decided_in(&early),
        [(
            "node-update".to_string(),
            "2022-04-01T03:17:00Z".to_string()
        )]
    );
    assert_eq!(e["bucket"], "disconnecting");
    let fate = e["fate"][0].as_str().unwrap();
    assert!(
        fate.starts_with("disconnect update: client status unknown"),
        "{fate}"
    );
}

/// The explanation without a story carries no `story` key: the JSON of
/// `--explain` alone is unchanged.
#[test]
fn without_a_story_the_explanation_has_no_story_key() {
    let (code, stdout, stderr) = run(&[CLUSTER, "--explain", WEB_1, "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["explain"].get("story"), None);
}

const MIXED: &str = "fixtures/mixed-cluster.json";

/// Node 00000001 down at +5m (web's two allocations there are lost and
/// replaced elsewhere) and back at +20m.
const MIXED_STORY: [&str; 6] = [
    "--what-if",
    "node-down:00000001@5m",
    "--what-if",
    "node-up:00000001@20m",
    "--until",
    "2h",
];

#[test]
fn a_placement_is_explained_in_the_evaluation_that_placed_it() {
    let doc = json_of(MIXED, &MIXED_STORY, "web.web[0]");
    let e = &doc["explain"];
    assert_eq!(e["subject"]["kind"], "placement");
    assert_eq!(
        decided_in(&doc),
        [(
            "node-update".to_string(),
            "2022-04-01T12:05:00Z".to_string()
        )]
    );
    assert_eq!(
        e["fate"],
        json!([
            "replacement placed (lost): web.web[0] on node 00000002-aaaa-bbbb-cccc-000000000002"
        ])
    );
}

/// The allocation the story placed for web.web[0] (its ID is the story's
/// deterministic one for that placement) is explained as the placement
/// that made it, and says so.
#[test]
fn an_allocation_the_story_placed_is_explained_as_its_placement() {
    let doc = json_of(MIXED, &MIXED_STORY, "05080b69");
    let e = &doc["explain"];
    assert_eq!(e["subject"]["kind"], "placement");
    assert_eq!(e["subject"]["name"], "web.web[0]");
    assert_eq!(
        e["story"]["placed_alloc_id"],
        "05080b69-d41f-5e35-be63-81159be26fc8"
    );
    let (code, stdout, _) = explain_in(MIXED, &MIXED_STORY, "05080b69", &[]);
    assert_eq!(code, 0);
    let head: Vec<&str> = stdout.lines().take(3).collect();
    assert_eq!(
        head,
        [
            "Placement web.web[0] of default/web (version 0), group web",
            "In the story: decided last in eval ba4ddb32-56c2-5d8b-a10e-b79090f945ea (node-update) at",
            "  2022-04-01T12:05:00Z, which placed allocation 05080b69-d41f-5e35-be63-81159be26fc8",
        ]
    );
}

#[test]
fn a_system_placement_on_a_node_is_explained_where_that_node_got_it() {
    let doc = json_of(MIXED, &MIXED_STORY, "node-exporter.exporter[0]@00000001");
    assert_eq!(
        decided_in(&doc),
        [(
            "node-update".to_string(),
            "2022-04-01T12:20:00Z".to_string()
        )]
    );
}

#[test]
fn a_subject_no_evaluation_decides_is_an_error() {
    for (subject, says) in [
        (
            "1a6f3c2e",
            "plan-inspect: --explain \"1a6f3c2e\": no evaluation of the story changes allocation \
             1a6f3c2e-0b4d-4e8f-a1c2-3d4e5f6a7b01 (8 evaluation(s) replayed); without --what-if \
             and --until, --explain explains it in the snapshot's evaluation\n",
        ),
        (
            "web.web[7]",
            "plan-inspect: --explain \"web.web[7]\": no allocation ID starts with it, and no \
             evaluation of the story places it (8 evaluation(s) replayed); without --what-if and \
             --until, --explain explains it in the snapshot's evaluation\n",
        ),
    ] {
        let (code, stdout, stderr) = explain_in(CLUSTER, &STORY, subject, &[]);
        assert_eq!(code, 1, "{subject}");
        assert_eq!(stdout, "", "{subject}");
        let last = stderr
            .lines()
            .filter(|l| l.starts_with("plan-inspect:"))
            .count();
        assert_eq!(last, 1, "{stderr}");
        assert!(stderr.ends_with(says), "{subject}: {stderr}");
    }
}

#[test]
fn detailed_exitcode_is_the_deciding_evaluations_change() {
    let (code, _, stderr) = explain_in(CLUSTER, &STORY, WEB_1, &["--detailed-exitcode"]);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn html_is_refused_with_explain() {
    let (code, stdout, stderr) = explain_in(CLUSTER, &STORY, WEB_1, &["--format", "html"]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("--explain prints table or json"),
        "{stderr}"
    );
}

/// `--job` narrows the story; an allocation of another job is an error
/// naming both, as without a story.
#[test]
fn an_allocation_of_another_job_than_job_is_an_error_naming_both() {
    let (code, stdout, stderr) = explain_in(CLUSTER, &STORY, WEB_1, &["--job", "logs"]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
    assert!(
        stderr.ends_with(
            "plan-inspect: \"2b7a4d3f\" is of job default/web, not of --job \"logs\"; drop --job \
             to explain it\n"
        ),
        "{stderr}"
    );
}
