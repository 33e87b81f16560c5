//! The binary's manners: exit codes, colors, pipes, completions, secrets.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use assert_cmd::cargo::CommandCargoExt;

use crate::common::piped;

fn bin() -> Command {
    let mut c = Command::cargo_bin("plan-inspect").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR");
    c
}

fn run(args: &[&str]) -> (i32, String, String) {
    run_with(bin().args(args))
}

/// [`run`] laid out for `columns`.
fn run_at(columns: &str, args: &[&str]) -> (i32, String, String) {
    run_with(bin().env("COLUMNS", columns).args(args))
}

fn run_with(command: &mut Command) -> (i32, String, String) {
    let out = command.output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn json_output_parses_and_exits_zero() {
    let (code, stdout, _) = run(&["fixtures/example.json", "--format", "json"]);
    assert_eq!(code, 0);
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["schema_version"], 1);
}

/// The JSON is written as the replay goes and its warnings after it: a
/// reader that stops early (`| head`) still gets them, and exit status 0.
#[test]
fn json_warnings_are_said_when_stdout_closes_early() {
    let snapshot = r#"{"Jobs": [{"ID": "web", "Namespace": "default", "Type": "service",
        "Version": 1, "TaskGroups": [{"Name": "web", "Count": 20000}]}],
        "Nodes": [], "Allocs": []}"#;
    let (code, first, stderr) = closed_after(snapshot.as_bytes(), 64);
    assert_eq!(code, Some(0));
    assert!(first.starts_with(b"{\n  \"schema_version\": 1,"));
    assert!(stderr.contains("(now_from_clock)"), "{stderr}");
}

/// Runs `--format json` on `snapshot` from stdin and closes stdout after
/// its first `read` bytes: the exit status, those bytes and stderr.
fn closed_after(snapshot: &[u8], read: usize) -> (Option<i32>, Vec<u8>, String) {
    let mut child = bin()
        .args(["-", "--format", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(snapshot).unwrap();
    let mut first = vec![0; read];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // stdout is dropped (closed) here, before the binary has written it all.
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        first,
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn detailed_exitcode_is_two_when_the_plan_changes_something() {
    assert_eq!(run(&["fixtures/example.json", "--detailed-exitcode"]).0, 2);
    // The batch job only gets an attribute update (its follow-up eval ID):
    // Nomad's Plan.IsNoOp counts that as a change.
    assert_eq!(
        run(&[
            "fixtures/example.json",
            "--job",
            "report",
            "--detailed-exitcode"
        ])
        .0,
        2
    );
    let (code, stdout, _) = run(&[
        "fixtures/incidents/node-down.json",
        "--job",
        "cache",
        "--detailed-exitcode",
    ]);
    assert_eq!(code, 0, "{stdout}");
}

#[test]
fn usage_errors_exit_one_under_detailed_exitcode_and_help_stays_zero() {
    let (code, stdout, stderr) = run(&["fixtures/example.json", "--detailed-exitcode", "--jbo"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(stderr.contains("unexpected argument '--jbo'"), "{stderr}");
    assert_eq!(run(&["fixtures/example.json", "--jbo"]).0, 2);
    for flag in ["--help", "--version"] {
        let (code, stdout, _) = run(&["--detailed-exitcode", flag]);
        assert_eq!(code, 0, "{flag}");
        assert!(!stdout.is_empty(), "{flag}");
    }
    // A runtime error is 1 too.
    assert_eq!(run(&["fixtures/absent.json", "--detailed-exitcode"]).0, 1);
}

#[test]
fn detailed_exitcode_with_explain_is_the_explained_allocations_fate() {
    let code = |subject: &str| {
        run(&[
            "fixtures/example.json",
            "--explain",
            subject,
            "--detailed-exitcode",
        ])
        .0
    };
    // Untouched, and reconnected (a reconnect update is not in Nomad's plan).
    assert_eq!(code("10a1"), 0);
    assert_eq!(code("65f7"), 0);
    // Lost: stopped and replaced; a placement is always a change.
    assert_eq!(code("32c3"), 2);
    assert_eq!(code("web.web[2]"), 2);
    // Without the flag, always 0.
    assert_eq!(run(&["fixtures/example.json", "--explain", "32c3"]).0, 0);
}

#[test]
fn a_missing_file_is_one_message_and_status_one() {
    let (code, stdout, stderr) = run(&["fixtures/absent.json"]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
    assert!(
        stderr.starts_with("plan-inspect: fixtures/absent.json: cannot read:"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
}

#[test]
fn an_unknown_job_is_an_error() {
    let (code, stdout, stderr) = run(&["fixtures/example.json", "--job", "nope"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(stderr, "plan-inspect: no job \"nope\" in the snapshot\n");
}

/// Runs with `snapshot` on stdin.
fn run_stdin(snapshot: &str, args: &[&str]) -> (i32, String, String) {
    piped(bin().arg("-").args(args), snapshot.as_bytes())
}

/// Jobs `web` in `prod` and `api` in `default`, and the allocation of a
/// purged job in `batch`.
const NAMESPACES: &str = r#"{"Jobs": [
    {"ID": "web", "Namespace": "prod", "Type": "service", "Version": 0,
     "TaskGroups": [{"Name": "web", "Count": 0}]},
    {"ID": "api", "Namespace": "default", "Type": "service", "Version": 0,
     "TaskGroups": [{"Name": "api", "Count": 0}]}],
  "Allocs": [{"ID": "a1", "Namespace": "batch", "JobID": "gone", "TaskGroup": "g",
     "Name": "gone.g[0]", "NodeID": "n1", "DesiredStatus": "stop",
     "ClientStatus": "complete"}],
  "Nodes": [{"ID": "n1", "Status": "ready"}]}"#;

/// A typo in `--namespace` must not pass a CI gate with an empty result.
#[test]
fn an_unknown_namespace_is_an_error_that_lists_the_namespaces() {
    for args in [
        &["--namespace", "nope"][..],
        &["--namespace", "nope", "--detailed-exitcode"],
        &["--namespace", "nope", "--format", "json"],
        &["--namespace", "nope", "--job", "web"],
    ] {
        let (code, stdout, stderr) = run_stdin(NAMESPACES, args);
        assert_eq!((code, stdout.as_str()), (1, ""), "{args:?}");
        assert_eq!(
            stderr,
            "plan-inspect: no job or allocation in namespace \"nope\"; the snapshot's \
             namespaces: \"default\", \"prod\"\n",
            "{args:?}"
        );
    }
    // The list names the namespaces of jobs: the reader skipped the other
    // namespaces' allocations. A namespace that only a purged job's
    // allocation is in is still found when named.
    assert_eq!(run_stdin(NAMESPACES, &["--namespace", "batch"]).0, 0);
}

#[test]
fn a_job_in_another_namespace_is_named_there() {
    let (code, stdout, stderr) = run_stdin(NAMESPACES, &["--namespace", "default", "--job", "web"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        "plan-inspect: no job \"web\" in namespace \"default\"; the snapshot has it in \
         \"prod\": pass that --namespace, or drop it\n"
    );
}

/// A healthy allocation's explanation says only what decided its fate;
/// `--verbose` adds the background (issue 33: no "fail time" for an
/// allocation that never failed, no list of rules that did not match).
#[test]
fn explain_shows_background_only_when_verbose() {
    let args = [
        "fixtures/example.json",
        "--explain",
        "76108192",
        "--color",
        "never",
    ];
    let (code, short, _) = run(&args);
    assert_eq!(code, 0);
    assert!(
        short.contains("6. Rescheduling: not rescheduled: client running, never failed\n"),
        "{short}"
    );
    for hidden in [
        "fail time",
        "next reschedule",
        "eligible",
        "rules not matched",
    ] {
        assert!(!short.contains(hidden), "{hidden}: {short}");
    }
    let (_, long, _) = run(&[&args[..], &["--verbose"]].concat());
    for shown in [
        "fail time",
        "next reschedule",
        "eligible",
        "rules not matched",
    ] {
        assert!(long.contains(shown), "{shown}: {long}");
    }
    // The JSON always has every fact.
    let (_, json, _) = run(&[&args[..], &["--format", "json"]].concat());
    assert!(json.contains("\"rules not matched\"") && json.contains("\"fail time\""));
}

#[test]
fn usage_errors_exit_two() {
    assert_eq!(run(&["--format", "yaml", "fixtures/example.json"]).0, 2);
    assert_eq!(run(&[]).0, 2);
    let (code, _, stderr) = run(&["fixtures/example.json", "--now", "yesterday"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains(
            "\"yesterday\" is not a time: give an RFC 3339 time (2022-04-01T03:12:00Z), a Unix \
             timestamp in seconds (1648782720), or a duration from the snapshot's time with its \
             sign (-30m, +1h30m; units ns, us, ms, s, m, h)"
        ),
        "{stderr}"
    );
}

/// `--now` as RFC 3339, as Unix seconds, and as an offset from the
/// snapshot's time typed without `=`.
#[test]
fn now_takes_a_time_a_timestamp_or_an_offset_from_the_snapshot() {
    let now = |args: &[&str]| {
        let mut all = vec!["fixtures/example.json", "--format", "json"];
        all.extend_from_slice(args);
        let (code, stdout, _) = run(&all);
        assert_eq!(code, 0, "{args:?}");
        let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        (
            doc["now"].as_str().unwrap().to_string(),
            doc["now_source"].clone(),
        )
    };
    let (snapshot_time, _) = now(&[]);
    assert_eq!(snapshot_time, "2022-04-01T12:00:00Z");
    assert_eq!(now(&["--now", "-30m"]).0, "2022-04-01T11:30:00Z");
    assert_eq!(now(&["--now=+1h30m"]).0, "2022-04-01T13:30:00Z");
    assert_eq!(now(&["--now", "1648782720"]).0, "2022-04-01T03:12:00Z");
    assert_eq!(
        now(&["--now", "2022-04-01T03:12:00Z"]),
        (
            "2022-04-01T03:12:00Z".to_string(),
            serde_json::json!("flag")
        )
    );
    // Nothing to be relative to: refused, not taken from the clock.
    let (code, stdout, stderr) = run_stdin(NAMESPACES, &["--now", "-30m"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        "plan-inspect: --now -30m0s is an offset from the snapshot's time, and nothing dates this \
         snapshot (no Now key, no SnapshotMeta): give an RFC 3339 time or a Unix timestamp\n"
    );
}

#[test]
fn color_follows_the_flag_and_no_color() {
    let ansi = |s: &str| s.contains('\u{1b}');
    assert!(ansi(
        &run(&["fixtures/example.json", "--color", "always"]).1
    ));
    assert!(!ansi(
        &run(&["fixtures/example.json", "--color", "never"]).1
    ));
    // Piped output is not a terminal: auto means no color.
    assert!(!ansi(&run(&["fixtures/example.json"]).1));
    let out = bin()
        .args(["fixtures/example.json"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!ansi(&String::from_utf8(out.stdout).unwrap()));
    // JSON is never colored.
    assert!(!ansi(
        &run(&[
            "fixtures/example.json",
            "--format",
            "json",
            "--color",
            "always"
        ])
        .1
    ));
}

#[test]
fn secrets_never_reach_the_output() {
    for format in ["table", "json"] {
        let (_, stdout, stderr) = run(&["fixtures/example.json", "--format", format, "--verbose"]);
        assert!(!stdout.contains("secret-token") && !stderr.contains("secret-token"));
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    // Enough allocations that the output overflows the pipe buffer.
    let text = std::fs::read_to_string(format!(
        "{}/fixtures/example.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let template = doc["Allocs"][0].clone();
    let allocs = doc["Allocs"].as_array_mut().unwrap();
    for i in 0..3000 {
        let mut a = template.clone();
        a["ID"] = format!("{i:08x}-1111-4000-8000-000000000000").into();
        a["Name"] = format!("web.web[{}]", i + 10).into();
        allocs.push(a);
    }
    let (code, _, stderr) = closed_after(doc.to_string().as_bytes(), 1);
    assert_eq!(code, Some(0));
    assert_eq!(stderr, "");
}

#[test]
fn committed_completions_match_the_cli() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (code, stdout, _) = run(&["--completions", shell]);
        assert_eq!(code, 0);
        let path = format!(
            "{}/completions/plan-inspect.{shell}",
            env!("CARGO_MANIFEST_DIR")
        );
        let committed = std::fs::read_to_string(&path).unwrap();
        assert!(
            committed == stdout,
            "{path} is out of date: run `cargo run -- --completions {shell} > completions/plan-inspect.{shell}`"
        );
    }
}

/// `--help` and the man page say what the product does now, list the
/// exit statuses (usage errors included) and give examples.
#[test]
fn help_is_current_with_exit_statuses_and_examples() {
    let (code, help, _) = run(&["--help"]);
    assert_eq!(code, 0);
    let (_, man, _) = run(&["--man"]);
    for text in [&help, &man] {
        assert!(!text.contains("PR #12333"), "{text}");
        assert!(text.contains("1.3.0 to 2.0"), "{text}");
        assert!(text.contains("system and sysbatch jobs"), "{text}");
    }
    let examples = help.split("Examples:").nth(1).expect("an Examples section");
    assert!(
        examples.matches("\n  plan-inspect ").count() >= 3,
        "{examples}"
    );
    assert!(help.contains("without it: a usage error"), "{help}");
    // The releases are completed, not listed.
    assert!(!help.contains("1.3.16"), "{help}");
    let (_, bash, _) = run(&["--completions", "bash"]);
    assert!(bash.contains("1.3.16") && bash.contains("2.0.5"), "{bash}");
}

#[test]
fn the_man_page_renders() {
    let (code, stdout, _) = run(&["--man"]);
    assert_eq!(code, 0);
    assert!(stdout.contains(".TH plan-inspect"));
    let exit = stdout
        .find(".SH \"EXIT STATUS\"")
        .expect("an EXIT STATUS section");
    let env = stdout
        .find(".SH \"ENVIRONMENT\"")
        .expect("an ENVIRONMENT section");
    assert!(exit < env);
    assert!(
        stdout[exit..env]
            .contains("\\fB2\\fR\nWith \\-\\-detailed\\-exitcode: the plan changes something")
    );
    assert!(stdout[exit..env].contains("nomad job plan exits 0"));
    assert!(stdout[env..].contains("\\fBCOLUMNS\\fR"));
}

#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    // Over the 50 MiB threshold: trailing whitespace is valid JSON.
    let text = std::fs::read_to_string(format!(
        "{}/fixtures/example.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("large-snapshot.json");
    let mut file = std::fs::File::create(&path).unwrap();
    file.write_all(text.as_bytes()).unwrap();
    file.write_all(&vec![b' '; 51 << 20]).unwrap();
    drop(file);
    let out = bin()
        .args([path.to_str().unwrap(), "--job", "report"])
        .output()
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert!(String::from_utf8_lossy(&out.stdout).contains("\n\ndefault/report  batch"));
}

#[test]
fn verbose_shows_full_ids_and_jobs_with_nothing_to_do() {
    let (code, stdout, _) = run(&["fixtures/incidents/node-down.json"]);
    assert_eq!(code, 0);
    assert!(stdout.contains(" 2b7a4d3f  web.web[1]"), "{stdout}");
    assert!(stdout.ends_with("Nothing to do for 1 more job (--verbose shows them).\n"));
    let (_, stdout, _) = run(&["fixtures/incidents/node-down.json", "--verbose"]);
    assert!(stdout.contains(" 2b7a4d3f-1c5e-4f90-b2d3-4e5f6a7b8c02  web.web[1]"));
    assert!(stdout.contains("default/cache  service"));
    assert!(!stdout.contains("Nothing to do"));
}

#[test]
fn a_snapshot_with_nothing_to_do_says_so_in_one_line() {
    let args = [
        "fixtures/incidents/node-down.json",
        "--job",
        "cache",
        "--detailed-exitcode",
    ];
    let (code, stdout, stderr) = run_at("100", &args);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(
        stdout,
        "Replaying Nomad seed (8ac3e642e6), the default: the snapshot shows no later release.\n\n\
         Nothing to do: 1 job evaluated at 2022-04-01T03:12:00Z (snapshot Now); no allocation changes.\n"
    );
}

#[test]
fn term_dumb_still_honours_color_always() {
    let out = bin()
        .args(["fixtures/example.json", "--color", "always"])
        .env("TERM", "dumb")
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains('\u{1b}'));
    let out = bin()
        .args(["fixtures/example.json"])
        .env("TERM", "dumb")
        .output()
        .unwrap();
    assert!(!String::from_utf8(out.stdout).unwrap().contains('\u{1b}'));
}

#[test]
fn explain_finds_an_allocation_by_prefix() {
    let (code, stdout, _) = run(&[
        "fixtures/example.json",
        "--explain",
        "21b2",
        "--color",
        "never",
    ]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with("Allocation 21b2c3d4-0000-4000-8000-000000000002 (web.web[1])"),
        "{stdout}"
    );
    assert!(stdout.contains("Bucket: disconnecting"));
    let (code, stdout, _) = run(&[
        "fixtures/example.json",
        "--explain",
        "21b2",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["schema_version"], 1);
}

#[test]
fn explain_without_a_match_is_an_error() {
    let (code, stdout, stderr) = run(&["fixtures/example.json", "--explain", "zz"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        "plan-inspect: no allocation ID starts with \"zz\", and no job's task group has a placement of that name\n"
    );
}

#[test]
fn eval_takes_a_unique_prefix_and_shows_its_id_and_priority() {
    let (code, stdout, stderr) = run_at(
        "100",
        &["fixtures/evals.json", "--eval", "5f2c", "--color", "never"],
    );
    assert_eq!(code, 0, "{stderr}");
    let head: Vec<&str> = stdout.lines().skip(2).take(2).collect();
    assert_eq!(
        head,
        [
            "default/web  service  version 2  evaluated at 2022-04-01T03:12:00Z (snapshot Now)",
            "eval 5f2c1a9b (--eval), priority 70",
        ]
    );
    let (_, json, _) = run(&["fixtures/evals.json", "--eval", "5f2c", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["eval_id"], "5f2c1a9b-3d4e-4f60-8a7b-9c0d1e2f3a4b");
    assert_eq!(doc["eval_priority"], 70);
}

#[test]
fn an_ambiguous_or_foreign_eval_is_an_error_never_a_silent_choice() {
    let (code, stdout, stderr) = run(&["fixtures/evals.json", "--eval", "5f2"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        "plan-inspect: \"5f2\" matches 2 evaluations: 5f2c1a9b-3d4e-4f60-8a7b-9c0d1e2f3a4b (default/web), \
         5f2d7e00-1a2b-4c3d-8e4f-5a6b7c8d9e0f (default/web); give more of the ID\n"
    );
    let (code, stdout, stderr) = run(&[
        "fixtures/evals.json",
        "--eval",
        "5f2c",
        "--job",
        "cache",
        "--detailed-exitcode",
    ]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        "plan-inspect: evaluation 5f2c1a9b-3d4e-4f60-8a7b-9c0d1e2f3a4b is of job \"default/web\", not of \
         --job \"cache\"; drop --job, or pick an evaluation of that job\n"
    );
    // The same job is fine.
    assert_eq!(
        run(&["fixtures/evals.json", "--eval", "5f2c", "--job", "web"]).0,
        0
    );
}

#[test]
fn explain_under_another_job_is_an_error_naming_both() {
    for subject in ["web.web[2]", "32c3"] {
        let (code, stdout, stderr) = run(&[
            "fixtures/example.json",
            "--explain",
            subject,
            "--job",
            "api",
        ]);
        assert_eq!((code, stdout.as_str()), (1, ""), "{subject}");
        assert_eq!(
            stderr,
            format!(
                "plan-inspect: \"{subject}\" is of job default/web, not of --job \"api\"; drop --job to \
                 explain it\n"
            )
        );
    }
    let (code, _, stderr) = run(&["fixtures/example.json", "--explain", "32c3", "--job", "web"]);
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn a_now_before_the_snapshot_is_warned_about_on_stderr() {
    let (code, stdout, stderr) = run(&[
        "fixtures/evals.json",
        "--now",
        "2022-04-01T03:00:00Z",
        "--color",
        "never",
    ]);
    assert_eq!(code, 0);
    assert!(!stdout.contains("warning"), "{stdout}");
    assert_eq!(
        stderr.replace("\n  ", " "),
        "warning: --now 2022-04-01T03:00:00Z is earlier than the snapshot's own time 2022-04-01T03:06:00Z \
         (the newest time recorded in it): a later snapshot cannot reconstruct earlier state, so the replay \
         may use facts from after --now (now_before_snapshot)\n"
    );
    let (_, _, stderr) = run(&["fixtures/evals.json", "--now", "2022-04-01T03:12:00Z"]);
    assert_eq!(stderr, "");
}
