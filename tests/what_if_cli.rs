//! `--what-if`, `--until` and `--format html` from the command line: the
//! story of the what-if cluster pinned in each format, and bad input.

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

/// An operator's story on tests/what-if/rolling.json, each allocation
/// healthy a minute after it starts: a health request refused (web[2] is
/// not yet in the deployment), a pause and a resume, one allocation set
/// healthy and another unhealthy in one request, which fails the
/// deployment and reverts the job, then a promotion of the job's latest
/// deployment, by then terminal, refused.
pub const OPERATOR_STORY: [&str; 19] = [
    "tests/what-if/rolling.json",
    "--nomad-version",
    "2.0.5",
    "--assume-healthy-after",
    "1m",
    "--until",
    "30m",
    "--what-if",
    "alloc-healthy:web.web[2]@5s",
    "--what-if",
    "deployment-pause:web@20s",
    "--what-if",
    "deployment-resume:web@40s",
    "--what-if",
    "alloc-health:healthy=web.web[1]:unhealthy=web.web[0]@90s",
    "--what-if",
    "deployment-promote:web@10m",
    "--format",
    "html",
];

pub use crate::common::plan_inspect as run;

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

/// The picture marks each operator's request that Nomad took or refused:
/// a deployment's across the lanes, a health request's as a dot on the
/// bar of each allocation it names (red where set unhealthy), a refused
/// one grey and dashed or hollow with Nomad's error. A page without such
/// a request carries none of their style.
#[test]
fn story_html_marks_the_operators_requests() {
    let (code, html, stderr) = run(&OPERATOR_STORY);
    assert_eq!(code, 0, "{stderr}");
    let attr = |line: &str, name: &str| {
        regex::Regex::new(&format!(r#" {name}="([^"]*)""#))
            .unwrap()
            .captures(line)
            .map_or(String::new(), |c| c[1].to_string())
    };
    let marks: Vec<String> = html
        .lines()
        .filter(|l| l.contains("class=\"operator"))
        .map(|l| {
            let tag = &l[1..l.find(' ').unwrap()];
            let title = &l[l.find("<title>").unwrap() + 7..l.find("</title>").unwrap()];
            let on = attr(l, "data-alloc");
            let on = if on.is_empty() {
                attr(l, "data-deployment")
            } else {
                on
            };
            let health = attr(l, "data-health");
            let what = [
                tag,
                &attr(l, "class"),
                &attr(l, "data-event"),
                &on[..8],
                &health,
            ];
            let what: Vec<&str> = what.into_iter().filter(|w| !w.is_empty()).collect();
            format!("{} | {title}", what.join(" "))
        })
        .collect();
    insta::assert_snapshot!(marks.join("\n"), @r#"
    circle operator alloc-health b0e60fdd unhealthy | alloc-health:healthy=web.web[1]:unhealthy=web.web[0]@90s at 2022-04-01T03:13:30Z: set unhealthy
    circle operator alloc-health d4e62ef5 healthy | alloc-health:healthy=web.web[1]:unhealthy=web.web[0]@90s at 2022-04-01T03:13:30Z: set healthy
    circle operator refused alloc-healthy 3c8b5e4a healthy | alloc-healthy:web.web[2]@5s at 2022-04-01T03:12:05Z: refused: alloc &quot;3c8b5e4a-7d2e-4b1f-9a0c-6e5d4c3b2a10&quot; is not part of deployment &quot;078de2a8-4808-5cfe-ac56-37e126ebbd3e&quot;
    line operator deployment-pause 078de2a8 | deployment-pause:web@20s at 2022-04-01T03:12:20Z: paused
    line operator deployment-resume 078de2a8 | deployment-resume:web@40s at 2022-04-01T03:12:40Z: resumed
    line operator refused deployment-promote 3ffb7e2c | deployment-promote:web@10m at 2022-04-01T03:22:00Z: refused: can&#39;t promote terminal deployment
    "#);
    assert!(html.contains("circle.operator.refused{"));
    assert!(!story("html").contains(".operator"));
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
