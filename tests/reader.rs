//! Broken and hostile input, one test per case of `tests/bad_input/` (big
//! inputs are generated into a temporary directory): each malformed input is
//! one message on stderr naming the file, the position and what was expected,
//! exit status 1 (2 for usage errors) and nothing on stdout; each valid but
//! odd input a warning and a correct result.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use assert_cmd::cargo::CommandCargoExt;
use serde_json::Value;

fn bin() -> Command {
    let mut c = Command::cargo_bin("plan-inspect").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

/// Asserts a clean failure: `status`, nothing on stdout, exactly `stderr`.
fn assert_fails(args: &[&str], status: i32, stderr: &str) {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err, stderr, "args {args:?}");
    assert_eq!(out.status.code(), Some(status), "args {args:?}: {err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "", "args {args:?}");
}

/// The hint every not-a-snapshot error ends with.
const GET_A_SNAPSHOT: &str = "expected the cluster state with Jobs, Nodes and Allocs: run \
    `nomad operator snapshot save backup.snap` and `nomad operator snapshot state backup.snap > state.json`, \
    or build it from the HTTP API with contrib/snapshot-from-api.sh (README: Getting a snapshot from a real cluster)";

/// A corpus file must fail with `message` (after the `plan-inspect: ` prefix).
fn bad(file: &str, message: &str) {
    let path = format!("tests/bad_input/{file}");
    assert_fails(&[&path], 1, &format!("plan-inspect: {path}{message}\n"));
}

/// Runs a valid corpus file as JSON: the report, whose warnings stderr must
/// also hold, one wrapped `warning: <message> (<code>)` each, and nothing else.
fn odd(file: &str) -> Value {
    let out = run(&[&format!("tests/bad_input/{file}"), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).replace("\n  ", " ");
    let expected: Vec<String> = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            format!(
                "warning: {} ({})",
                w["message"].as_str().unwrap(),
                w["code"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(stderr.lines().collect::<Vec<_>>(), expected);
    report
}

fn warnings(report: &Value) -> Vec<String> {
    report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            format!(
                "{}: {}",
                w["code"].as_str().unwrap(),
                w["message"].as_str().unwrap()
            )
        })
        .collect()
}

/// IDs in each bucket of group `group` of job `job`, `"bucket:id"`, sorted.
fn buckets(report: &Value, job: &str, group: &str) -> Vec<String> {
    let job = report["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["id"] == job)
        .unwrap();
    let group = job["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == group)
        .unwrap();
    let mut out: Vec<String> = group["buckets"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(b, entries)| {
            entries
                .as_array()
                .unwrap()
                .iter()
                .map(move |e| format!("{b}:{}", e["id"].as_str().unwrap()))
        })
        .collect();
    out.sort();
    out
}

/// A file in a fresh temporary directory, removed on drop.
struct Temp(PathBuf);

impl Temp {
    fn new(name: &str) -> Temp {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("plan-inspect-bad-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Temp(dir.join(name))
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.0.parent().unwrap());
    }
}

#[test]
fn empty_file() {
    bad("empty.json", ": empty input, expected a JSON object");
}

#[test]
fn truncated_in_a_string() {
    bad(
        "truncated_in_string.json",
        ":1:20: at Jobs[0].ID: EOF while parsing a string",
    );
}

#[test]
fn truncated_in_a_number() {
    bad(
        "truncated_in_number.json",
        ":2:30: at Allocs[0]: EOF while parsing an object",
    );
}

#[test]
fn truncated_between_elements() {
    // serde_json counts a position just past a newline as column 0.
    bad(
        "truncated_between_elements.json",
        ":2:0: at Jobs: EOF while parsing a value",
    );
}

#[test]
fn top_level_array() {
    bad(
        "top_level_array.json",
        &format!(
            ":1:1: not a Nomad snapshot: found a JSON array (list endpoints such as /v1/jobs return \
             stubs, not full objects); {GET_A_SNAPSHOT}"
        ),
    );
}

#[test]
fn top_level_scalar() {
    bad(
        "top_level_scalar.json",
        &format!(":1:10: not a Nomad snapshot: found a JSON string; {GET_A_SNAPSHOT}"),
    );
}

#[test]
fn wrong_type_alloc_state_time() {
    bad(
        "wrong_type_alloc_state_time.json",
        ":2:64: at Allocs[3].AllocStates[0].Time: invalid type: integer `1648771200`, expected an RFC 3339 time string",
    );
}

#[test]
fn wrong_type_nodes_an_object() {
    bad(
        "wrong_type_nodes.json",
        ":1:11: at Nodes: invalid type: map, expected an array of nodes or null",
    );
}

#[test]
fn wrong_type_alloc_a_string() {
    bad(
        "wrong_type_alloc.json",
        ":1:30: at Allocs[1]: invalid type: string \"a1\", expected struct Allocation",
    );
}

#[test]
fn wrong_type_group_count() {
    bad(
        "wrong_type_job_count.json",
        ":1:69: at Jobs[0].TaskGroups[0].Count: invalid type: string \"two\", expected i64",
    );
}

#[test]
fn wrong_type_inside_an_embedded_job() {
    // The embedded job is parsed apart from the stream: the path is exact, the
    // position in the file unknown.
    bad(
        "wrong_type_embedded_job.json",
        ": at Allocs[0].Job.TaskGroups[0].Tasks[0].KillTimeout: invalid type: string \"5s\", expected i64",
    );
}

#[test]
fn wrong_type_now() {
    bad(
        "wrong_type_now.json",
        ":1:12: at Now: invalid type: boolean `true`, expected an RFC 3339 time string",
    );
}

#[test]
fn invalid_rfc3339_month() {
    bad(
        "invalid_time_month.json",
        ":1:60: at Allocs[0].AllocStates[0].Time: invalid RFC 3339 time \"2022-13-01T00:00:00Z\": \
         failed to parse two digit integer as month: parameter 'month' is not in the required range of 1..=12",
    );
}

#[test]
fn invalid_rfc3339_without_offset() {
    bad(
        "invalid_time_format.json",
        ":1:29: at Now: invalid RFC 3339 time \"2022-04-01 00:00:00\": \
         failed to find offset component, which is required for parsing a timestamp",
    );
}

#[test]
fn non_utf8_bytes() {
    bad(
        "non_utf8.json",
        ":1:20: at Jobs[0].ID: invalid unicode code point",
    );
}

#[test]
fn integer_beyond_64_bits() {
    // serde_json reads an integer beyond u64 as a float; the message says what was expected.
    bad(
        "integer_beyond_64_bits.json",
        ":1:71: at Allocs[0].CreateIndex: invalid type: floating point `1.2345678901234568e+29`, expected u64",
    );
}

#[test]
fn integer_beyond_i64() {
    bad(
        "integer_beyond_i64.json",
        ":1:59: at Allocs[0].ModifyTime: invalid value: integer `9223372036854775808`, expected i64",
    );
}

#[test]
fn negative_index() {
    bad(
        "negative_index.json",
        ":1:43: at Allocs[0].CreateIndex: invalid value: integer `-1`, expected u64",
    );
}

#[test]
fn corrupt_gzip() {
    bad(
        "corrupt.json.gz",
        ": corrupt gzip input: corrupt deflate stream",
    );
}

#[test]
fn truncated_gzip() {
    bad(
        "truncated.json.gz",
        ": corrupt gzip input: incomplete deflate stream",
    );
}

#[test]
fn a_directory() {
    bad("", ": cannot read: Is a directory (os error 21)");
}

#[test]
fn a_missing_file() {
    bad(
        "absent.json",
        ": cannot read: No such file or directory (os error 2)",
    );
}

/// `chmod 000` stops everyone but root (CI runs tests as root, and root reads
/// anything). Root gets a file whose read fails instead: `/proc/self/mem` opens,
/// but reading its first page (never mapped) is an I/O error.
#[test]
fn an_unreadable_file() {
    use std::os::unix::fs::PermissionsExt;
    let file = Temp::new("unreadable.json");
    std::fs::write(
        &file.0,
        r#"{"Now": "2022-04-01T00:00:00Z", "Jobs": [], "Nodes": [], "Allocs": []}"#,
    )
    .unwrap();
    std::fs::set_permissions(&file.0, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::File::open(&file.0).is_err() {
        assert_fails(
            &[file.path()],
            1,
            &format!(
                "plan-inspect: {}: cannot read: Permission denied (os error 13)\n",
                file.path()
            ),
        );
    } else {
        // Privileged: the mode does not stop us, and the file is read normally.
        assert_eq!(run(&[file.path()]).status.code(), Some(0));
        assert_fails(
            &["/proc/self/mem"],
            1,
            "plan-inspect: /proc/self/mem: cannot read: Input/output error (os error 5)\n",
        );
    }
}

#[test]
fn a_garbage_now_is_a_usage_error() {
    assert_fails(
        &[
            "tests/bad_input/duplicate_alloc_id.json",
            "--now",
            "tomorrow",
        ],
        2,
        "error: invalid value 'tomorrow' for '--now <TIME>': \"tomorrow\" is not a time: give an \
         RFC 3339 time (2022-04-01T03:12:00Z), a Unix timestamp in seconds (1648782720), or a \
         duration from the snapshot's time with its sign (-30m, +1h30m; units ns, us, ms, s, m, h)\n\n\
         For more information, try '--help'.\n",
    );
}

/// `depth` arrays nested inside `key`.
fn nested(key: &str, depth: usize) -> Temp {
    let file = Temp::new("nested.json");
    let mut text = format!(r#"{{"Now": "2022-04-01T00:00:00Z", "{key}": "#);
    text.push_str(&"[".repeat(depth));
    text.push_str(&"]".repeat(depth));
    text.push_str(r#", "Nodes": []}"#);
    std::fs::write(&file.0, text).unwrap();
    file
}

#[test]
fn arrays_nested_a_million_deep_in_a_used_key() {
    let file = nested("Jobs", 1_000_000);
    assert_fails(
        &[file.path()],
        1,
        &format!(
            "plan-inspect: {}:1:43: at Jobs[0][0]: invalid type: sequence, expected a string\n",
            file.path()
        ),
    );
}

#[test]
fn arrays_nested_a_million_deep_in_a_job_spec_value() {
    let file = Temp::new("nested_meta.json");
    let depth = 1_000_000;
    let text = format!(
        r#"{{"Jobs": [{{"ID": "web", "Periodic": {}{}}}]}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    );
    std::fs::write(&file.0, text).unwrap();
    assert_fails(
        &[file.path()],
        1,
        &format!(
            "plan-inspect: {}:1:161: at Jobs[0].Periodic{}: recursion limit exceeded\n",
            file.path(),
            // serde_json stops at a depth of 128.
            "[0]".repeat(124)
        ),
    );
}

#[test]
fn arrays_nested_a_million_deep_in_an_ignored_key_are_skipped() {
    let file = nested("Variables", 1_000_000);
    let out = run(&[file.path(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["jobs"], serde_json::json!([]));
}

#[test]
fn duplicate_allocation_ids_keep_the_last_with_a_warning() {
    let report = odd("duplicate_alloc_id.json");
    assert_eq!(
        warnings(&report),
        [
            "duplicate_alloc_id: allocation a0 appears more than once in Allocs; the last one is kept"
        ]
    );
    // The kept a0 is the stopped one: its slot is placed again.
    assert_eq!(
        buckets(&report, "web", "web"),
        ["untainted:a0", "untainted:a1"]
    );
    let plan = &report["jobs"][0]["plan"];
    assert_eq!(plan["place"][0]["name"], "web.web[0]");
    assert_eq!(plan["place"].as_array().unwrap().len(), 1);
}

#[test]
fn unknown_status_strings_warn_and_count_as_live() {
    let report = odd("unknown_status.json");
    assert_eq!(
        warnings(&report),
        [
            "unknown_status: allocation a0 has unknown ClientStatus \"exploded\"",
            "unknown_status: allocation a1 has unknown DesiredStatus \"maybe\"",
        ]
    );
    assert_eq!(
        buckets(&report, "web", "web"),
        ["untainted:a0", "untainted:a1"]
    );
    assert_eq!(report["jobs"][0]["plan"]["place"], serde_json::json!([]));
}

/// An allocation of a job absent from `Jobs` (and without an embedded job):
/// warned about, its job treated as purged and the allocation stopped.
#[test]
fn an_alloc_of_an_absent_job_is_stopped_with_warnings() {
    let report = odd("absent_job.json");
    assert_eq!(
        warnings(&report),
        [
            "alloc_without_job: allocation a2 embeds no job and job \"old\" in namespace \"default\" \
             is in neither Jobs nor JobVersions; it has no job spec",
            "purged_job: job \"old\" in namespace \"default\" is not in Jobs but has 1 allocation(s); \
             it is treated as purged and its allocations are stopped",
        ]
    );
    let old = &report["jobs"][0];
    assert_eq!(
        (old["id"].as_str(), old["purged"].as_bool()),
        (Some("old"), Some(true))
    );
    assert_eq!(old["plan"]["stop"][0]["alloc_id"], "a2");
    assert_eq!(
        buckets(&report, "web", "web"),
        ["untainted:a0", "untainted:a1"]
    );
}

/// A node absent from `Nodes` is one Nomad has garbage-collected: its
/// allocations are lost and replaced, as Nomad does, with no warning (this is
/// ordinary cluster state, not damage).
#[test]
fn an_alloc_on_an_absent_node_is_lost() {
    let report = odd("absent_node.json");
    let absent = warnings(&report);
    assert_eq!(absent.len(), 1, "{absent:?}");
    assert!(
        absent[0].starts_with(
            "absent_node: 1 allocation(s) not yet terminal run on 1 node(s) absent from Nodes"
        ),
        "{absent:?}"
    );
    assert_eq!(buckets(&report, "web", "web"), ["lost:a0", "untainted:a1"]);
    let plan = &report["jobs"][0]["plan"];
    assert_eq!(plan["stop"][0]["alloc_id"], "a0");
    assert_eq!(plan["stop"][0]["client_status"], "lost");
    assert_eq!(plan["place"][0]["previous_alloc_id"], "a0");
}

/// `MaxClientDisconnect` of `i64::MAX` nanoseconds: unknown since 23:00, it
/// expires 292 years later, as Go's `Time.Add` computes; nothing overflows.
#[test]
fn a_duration_near_i64_max_never_expires() {
    let report = odd("duration_max.json");
    assert_eq!(
        buckets(&report, "web", "web"),
        ["ignore:a0", "untainted:a1"]
    );
    let entry = &report["jobs"][0]["groups"][0]["buckets"]["ignore"][0];
    assert!(
        entry["reason"]
            .as_str()
            .unwrap()
            .ends_with("max_client_disconnect expires 2314-07-11T22:47:16.854775807Z"),
        "{entry}"
    );
}

/// A negative `MaxClientDisconnect` has expired before the client went unknown.
#[test]
fn a_negative_duration_has_already_expired() {
    let report = odd("duration_negative.json");
    assert_eq!(buckets(&report, "web", "web"), ["lost:a0", "untainted:a1"]);
    let entry = &report["jobs"][0]["groups"][0]["buckets"]["lost"][0];
    assert!(
        entry["reason"]
            .as_str()
            .unwrap()
            .ends_with("max_client_disconnect expires 2022-03-31T22:59:59Z: expired"),
        "{entry}"
    );
}

/// A file of the real-world corpus, `<repo>/../shared/realworld/<rel>` (or
/// under `$PLAN_INSPECT_SHARED`); `None`, with a note, where it is absent.
fn realworld(rel: &str) -> Option<String> {
    let root = std::env::var_os("PLAN_INSPECT_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let path = root.join("realworld").join(rel);
    if path.exists() {
        Some(path.to_string_lossy().into_owned())
    } else {
        eprintln!("skipped: {} is absent", path.display());
        None
    }
}

#[test]
fn real_documents_that_are_not_snapshots_are_refused_with_what_they_are() {
    let cases = [
        ("not-snapshots/empty-object.json", "found an empty object"),
        (
            "not-snapshots/job-inspect-output.json",
            "found an object with only a \"Job\" key: `nomad job inspect` output",
        ),
        ("not-snapshots/bare-job.json", "found a single job object"),
        (
            "not-snapshots/lowercase-keys.json",
            "(keys are case-sensitive: Nomad writes Jobs, Allocs, Nodes)",
        ),
        (
            "snapshots/sabbene-inspect-wrapped-0.10.json",
            ":367:5: at Jobs[1]: a job without an ID: is this `nomad job inspect` output",
        ),
    ];
    for (rel, says) in cases {
        let Some(path) = realworld(rel) else { return };
        for format in ["table", "json"] {
            let out = run(&[&path, "--format", format, "--detailed-exitcode"]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{rel}: {err}");
            assert_eq!(String::from_utf8_lossy(&out.stdout), "", "{rel}");
            assert!(err.starts_with(&format!("plan-inspect: {path}")), "{err}");
            assert!(err.contains(says), "{rel}: {err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            if !rel.starts_with("snapshots/") {
                assert!(err.ends_with(&format!("; {GET_A_SNAPSHOT}\n")), "{err}");
            }
        }
    }
}

#[test]
fn a_real_dump_without_nodes_says_so_once_in_both_formats() {
    let Some(path) = realworld("no-nodes.json") else {
        return;
    };
    let expected = "missing_key: the snapshot has no Nodes (the key is absent or null): every node counts as \
                    garbage-collected, so every allocation not yet terminal (7) is lost and replaced; the dump \
                    looks incomplete";
    let out = run(&[&path, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let said: Vec<String> = warnings(&report)
        .into_iter()
        .filter(|w| w.starts_with("missing_key"))
        .collect();
    assert_eq!(said, [expected]);
    // Tables print warnings on stderr too.
    let out = run(&[&path, "--color", "never"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("the snapshot has no Nodes").count(), 1, "{err}");
}
