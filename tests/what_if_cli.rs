//! `--what-if`, `--until` and `--format html` from the command line: the
//! story of the what-if cluster pinned in each format, and bad input.

use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;

const CLUSTER: &str = "tests/what-if/cluster.json";

/// The story the goldens and the browser test read: client-2 misses its
/// heartbeat 5 minutes in and comes back 10 minutes later.
pub const STORY: [&str; 6] = [
    "--what-if",
    "node-down:client-2@5m",
    "--what-if",
    "node-up:client-2@15m",
    "--until",
    "1h",
];

pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("plan-inspect")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("COLUMNS", "100")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn story(format: &str) -> String {
    let mut args = vec![CLUSTER, "--format", format];
    args.extend(STORY);
    let (code, stdout, stderr) = run(&args);
    assert_eq!(code, 0, "{stderr}");
    stdout
}

#[test]
fn story_json() {
    insta::assert_snapshot!(story("json"));
}

#[test]
fn story_table() {
    insta::assert_snapshot!(story("table"));
}

#[test]
fn story_html() {
    let html = story("html");
    // Self-contained: no script, stylesheet or image is fetched.
    for fetch in ["<script", "src=", "<link", "@import", "url("] {
        assert!(!html.contains(fetch), "{fetch}");
    }
    insta::assert_snapshot!(html);
}

#[test]
fn bad_events_exit_one_with_nothing_on_stdout() {
    for (args, says) in [
        (
            vec!["--what-if", "node-down:client-9"],
            "no node has the ID, name or ID prefix \"client-9\"",
        ),
        (vec!["--what-if", "node-down:client-9"], "client-1"),
        (
            vec!["--what-if", "alloc-fail:zz"],
            "no allocation ID starts with \"zz\"",
        ),
        (
            vec!["--what-if", "node-up:client-1@2022-04-01T03:00:00Z"],
            "before the evaluation time",
        ),
        (
            vec!["--until", "2022-04-01T03:00:00Z"],
            "--until 2022-04-01T03:00:00Z is before",
        ),
    ] {
        let mut all = vec![CLUSTER];
        all.extend(&args);
        let (code, stdout, stderr) = run(&all);
        assert_eq!(code, 1, "{args:?}: {stderr}");
        assert_eq!(stdout, "", "{args:?}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

#[test]
fn an_unknown_event_kind_is_a_usage_error() {
    let (code, stdout, stderr) = run(&[CLUSTER, "--what-if", "node-explode:client-1"]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("unknown event kind \"node-explode\""),
        "{stderr}"
    );
    assert!(stderr.contains("node-drain:NODE[:DEADLINE]"), "{stderr}");
}

#[test]
fn detailed_exitcode_counts_the_timeline() {
    let mut args = vec![CLUSTER, "--detailed-exitcode"];
    args.extend(STORY);
    assert_eq!(run(&args).0, 2);
    let quiet = [
        CLUSTER,
        "--detailed-exitcode",
        "--what-if",
        "node-ineligible:client-3",
    ];
    assert_eq!(run(&quiet).0, 0);
}
