//! `--job-file` end to end on the bundled example (examples/job-plan), as
//! the README's CI recipe runs it: exit codes, the golden JSON, bad job files.

use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;

use crate::common::piped;
use serde_json::Value;

const SNAPSHOT: &str = "examples/job-plan/snapshot.json";

fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut c = Command::cargo_bin("plan-inspect").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR")).args(args);
    piped(&mut c, stdin.unwrap_or("").as_bytes())
}

fn plan_json(job_file: &str) -> (i32, Value) {
    let (code, out, err) = run(
        &[
            SNAPSHOT,
            "--job-file",
            job_file,
            "--format",
            "json",
            "--detailed-exitcode",
        ],
        None,
    );
    assert!(!out.is_empty(), "{err}");
    (code, serde_json::from_str(&out).unwrap())
}

#[test]
fn an_unchanged_job_plans_nothing_and_exits_zero() {
    let (code, doc) = plan_json("examples/job-plan/web-unchanged.json");
    assert_eq!(code, 0);
    let plan = &doc["job_plan"];
    assert_eq!(plan["diff"]["type"], "None");
    assert_eq!(plan["job_modify_index"], 4200);
    assert_eq!(
        plan["diff"]["task_groups"][0]["updates"],
        serde_json::json!({"ignore": 3})
    );
    assert_eq!(
        doc["jobs"][0]["version"], 3,
        "the spec did not change: no new version"
    );
}

#[test]
fn a_new_image_is_one_destructive_update_and_exits_two() {
    let (code, doc) = plan_json("examples/job-plan/web.json");
    assert_eq!(code, 2);
    let golden: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/job-plan/web.plan.json"
        ))
        .unwrap(),
    )
    .unwrap();
    assert!(
        doc == golden,
        "examples/job-plan/web.plan.json is out of date: run `cargo run -- {SNAPSHOT} \
         --job-file examples/job-plan/web.json --format json > examples/job-plan/web.plan.json` \
         and check the difference"
    );
    let task = &doc["job_plan"]["diff"]["task_groups"][0]["tasks"][0];
    assert_eq!(
        task["annotations"],
        serde_json::json!(["forces create/destroy update"])
    );
    assert_eq!(doc["jobs"][0]["version"], 4);
    assert_eq!(
        doc["supports_disconnected_clients"], false,
        "the plan endpoint's bare planner"
    );
}

#[test]
fn scaling_up_creates_and_updates_in_place() {
    let (code, doc) = plan_json("examples/job-plan/web-scale.json");
    assert_eq!(code, 2);
    let group = &doc["job_plan"]["diff"]["task_groups"][0];
    assert_eq!(
        group["updates"],
        serde_json::json!({"create": 2, "in-place update": 3})
    );
    assert_eq!(group["fields"][0]["name"], "Count");
    assert_eq!(
        group["fields"][0]["annotations"],
        serde_json::json!(["forces create"])
    );
}

#[test]
fn the_table_mirrors_nomad_job_plan() {
    let (code, out, _) = run(
        &[
            SNAPSHOT,
            "--job-file",
            "examples/job-plan/web.json",
            "--color",
            "never",
        ],
        None,
    );
    assert_eq!(code, 0);
    let expected = "\
+/- Job: \"web\"
+/- Task Group: \"web\" (1 create/destroy update, 2 ignore)
  +/- Task: \"server\" (forces create/destroy update)
    +/- Config {
      +/- image:    \"example/web:1.4.2\" => \"example/web:1.5.0\"
          ports[0]: \"http\"
        }

Scheduler dry-run:
- All tasks successfully allocated.

Job Modify Index: 4200
To submit the job with version verification run:

nomad job run -check-index 4200 examples/job-plan/web.json
";
    assert!(out.starts_with(expected), "{out}");
}

#[test]
fn a_new_job_is_all_added_at_index_zero() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/job-plan/web.json"
    ))
    .unwrap()
    .replace("\"ID\": \"web\"", "\"ID\": \"api\"");
    let (code, out, err) = run(
        &[
            SNAPSHOT,
            "--job-file",
            "-",
            "--format",
            "json",
            "--detailed-exitcode",
        ],
        Some(&text),
    );
    assert_eq!(code, 2, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let plan = &doc["job_plan"];
    assert_eq!(plan["job_modify_index"], 0);
    assert_eq!(plan["diff"]["type"], "Added");
    assert_eq!(
        plan["diff"]["task_groups"][0]["updates"],
        serde_json::json!({"create": 3})
    );
    assert_eq!(
        plan["diff"]["task_groups"][0]["tasks"][0]["annotations"],
        serde_json::json!(["forces create"])
    );
    assert_eq!(doc["jobs"][0]["plan"]["place"].as_array().unwrap().len(), 3);
}

#[test]
fn hcl_is_refused_with_the_command_that_converts_it() {
    let (code, out, err) = run(
        &[SNAPSHOT, "--job-file", "-"],
        Some("job \"web\" {\n  group \"web\" {}\n}\n"),
    );
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert_eq!(
        err.trim_end(),
        "plan-inspect: <stdin>:1:1: not JSON (HCL?): plan-inspect reads a job as Nomad's API JSON; \
         convert it with `nomad job run -output job.nomad.hcl > job.json`"
    );
}

#[test]
fn a_job_nomad_rejects_is_an_error_with_nomads_message() {
    let job = r#"{"Job": {"ID": "web", "Datacenters": ["dc1"], "TaskGroups": [{"Name": "web", "Tasks": [{"Name": "server"}]}]}}"#;
    let (code, out, err) = run(
        &[SNAPSHOT, "--job-file", "-", "--detailed-exitcode"],
        Some(job),
    );
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.contains("Task group web validation failed: 1 error occurred:\n\t* Task server validation failed: 1 error occurred:\n\t* Missing task driver"),
        "{err}"
    );
}

#[test]
fn a_snapshot_is_not_a_job_file() {
    let (code, out, err) = run(&[SNAPSHOT, "--job-file", SNAPSHOT], None);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.contains("examples/job-plan/snapshot.json:1:1: found an object with"),
        "{err}"
    );
}

#[test]
fn stdin_feeds_the_snapshot_or_the_job_file_not_both() {
    let (code, _, err) = run(&["-", "--job-file", "-"], Some("{}"));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("give the snapshot or the job file as a path"),
        "{err}"
    );
    let (code, _, _) = run(&["-", "--job-file", "-", "--detailed-exitcode"], Some("{}"));
    assert_eq!(code, 1);
}

/// contrib/ci-job-plan.sh, the README's CI recipe, on the bundled example
/// (skipped with a note without jq).
#[test]
fn the_ci_recipe_gates_on_the_exit_code_and_the_golden_plan() {
    if Command::new("jq").arg("--version").output().is_err() {
        eprintln!("jq is not installed: the CI recipe is not checked");
        return;
    }
    let bin = Command::cargo_bin("plan-inspect").unwrap();
    let bin = bin.get_program().to_str().unwrap().to_string();
    let dir = tempfile_dir();
    let script = |job: &str, golden: &str, update: bool| {
        let out = Command::new("sh")
            .arg("contrib/ci-job-plan.sh")
            .args([SNAPSHOT, job, golden])
            .env("PLAN_INSPECT", &bin)
            .env("UPDATE_GOLDEN", if update { "1" } else { "0" })
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
        )
    };
    let committed = "examples/job-plan/web.plan-summary.json";
    assert_eq!(script("examples/job-plan/web.json", committed, false).0, 2);
    let unchanged = dir.join("unchanged.json");
    let unchanged = unchanged.to_str().unwrap();
    assert_eq!(
        script("examples/job-plan/web-unchanged.json", unchanged, true).0,
        0
    );
    assert_eq!(
        script("examples/job-plan/web-unchanged.json", unchanged, false).0,
        0
    );
    let (code, diff) = script("examples/job-plan/web.json", unchanged, false);
    assert_eq!(code, 1, "a stale golden file fails the gate");
    let added = |text: &str| diff.lines().any(|l| l.starts_with('+') && l.contains(text));
    assert!(added("\"destructive_update\": 1,"), "{diff}");
    assert!(added("\"forces create/destroy update\""), "{diff}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A fresh directory under the target directory.
fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("ci-job-plan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `--diff-verbose` expands an added group's fields and tasks, as
/// `nomad job plan -verbose` does; without it only their headers show.
#[test]
fn diff_verbose_expands_added_tasks() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/job-plan/web.json"
    ))
    .unwrap()
    .replace("\"ID\": \"web\"", "\"ID\": \"api\"");
    let plan = |verbose: bool| {
        let mut args = vec![SNAPSHOT, "--job-file", "-", "--color", "never"];
        if verbose {
            args.push("--diff-verbose");
        }
        run(&args, Some(&text)).1
    };
    let (terse, verbose) = (plan(false), plan(true));
    assert!(terse.starts_with("+ Job: \"api\"\n+ Task Group: \"web\" (3 create)\n  + Task: \"server\" (forces create)\n\n"), "{terse}");
    assert!(
        verbose.contains("\n    + Driver:         \"docker\"\n"),
        "{verbose}"
    );
    assert!(
        verbose.contains("\n  + Count: \"3\" (forces create)\n"),
        "{verbose}"
    );
}

/// A periodic batch job: `next_periodic_launch` is the spec's next time
/// after `--now` in the job's zone, and the dry-run says it as `nomad job
/// plan` does; a service job may not be periodic (Nomad's message).
#[test]
fn a_periodic_job_shows_its_next_launch() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/job-plan/web.json"
    ))
    .unwrap()
    .replace("\"ID\": \"web\"", "\"ID\": \"nightly\"");
    let mut job: Value = serde_json::from_str(&text).unwrap();
    let job = job.get_mut("Job").unwrap_or(&mut Value::Null).take();
    let mut job = if job.is_null() {
        serde_json::from_str(&text).unwrap()
    } else {
        job
    };
    job["Type"] = "batch".into();
    job["Update"] = Value::Null;
    for g in job["TaskGroups"].as_array_mut().unwrap() {
        g["Update"] = Value::Null;
    }
    job["Periodic"] = serde_json::json!({"Enabled": true, "Spec": "30 2 * * *",
        "TimeZone": "Europe/Berlin"});
    let now = "2026-03-28T12:00:00Z";
    let args = [SNAPSHOT, "--job-file", "-", "--now", now];
    let (code, out, err) = run(
        &[&args[..], &["--format", "json"]].concat(),
        Some(&job.to_string()),
    );
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        doc["job_plan"]["next_periodic_launch"], "2026-03-30T02:30:00+02:00",
        "02:30 does not exist on 29 March in Berlin: cronexpr skips the day"
    );
    let (_, table, _) = run(
        &[&args[..], &["--color", "never"]].concat(),
        Some(&job.to_string()),
    );
    assert!(
        table.contains("- If submitted now, next periodic launch would be at 2026-03-30T02:30:00+02:00 (36h30m0s from now).\n"),
        "{table}"
    );
    job["Type"] = "service".into();
    let (code, out, err) = run(&args, Some(&job.to_string()));
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.contains("Periodic can only be used with \"batch\" or \"sysbatch\" scheduler"),
        "{err}"
    );
}

/// The bundled Connect job (examples/job-plan/countdash.json): admitted as
/// a 1.10.5 server would, with the sidecar task and the exposed check's
/// port named from the check's SHA-1 hash, as the stored job has them.
#[test]
fn a_connect_job_gets_its_sidecar_and_exposed_check_port() {
    let (code, doc) = plan_json("examples/job-plan/countdash.json");
    assert_eq!(code, 2);
    let diff = &doc["job_plan"]["diff"];
    assert_eq!(diff["type"], "Added");
    let text = diff.to_string();
    for wanted in [
        "connect-proxy-count-api",
        "svc_count-api_ck_aaeca5",
        "LocalPathPort",
    ] {
        assert!(text.contains(wanted), "{wanted} not in {text}");
    }
}

fn countdash_with(from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/job-plan/countdash.json"
    ))
    .unwrap();
    assert!(text.contains(from));
    text.replace(from, to)
}

/// Nomad's Connect validator refuses a sidecar outside a bridge network:
/// exit 1, nothing on stdout, Nomad's words on stderr. With the check still
/// exposed the expose-check mutator refuses the network first, as Nomad's
/// mutators run before its validators.
#[test]
fn a_connect_job_nomad_refuses_is_an_error_with_nomads_message() {
    let host = countdash_with(r#""Mode": "bridge""#, r#""Mode": "host""#);
    let (code, out, err) = run(&[SNAPSHOT, "--job-file", "-"], Some(&host));
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains(
            "error in job mutator expose-check: group \"api\" must use bridge network for exposing service check(s)"
        ),
        "{err}"
    );
    let job = host.replace(r#""Expose": true"#, r#""Expose": false"#);
    let (code, out, err) = run(
        &[SNAPSHOT, "--job-file", "-", "--detailed-exitcode"],
        Some(&job),
    );
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.contains(
            "1 error occurred:\n\t* Consul Connect sidecar requires bridge network, found \"host\" in group \"api\""
        ),
        "{err}"
    );
}

/// The expose-check mutator fails on a service port it cannot resolve (a
/// dynamic port has no value at registration); the error names it.
#[test]
fn an_exposed_check_without_a_local_port_is_refused_by_the_mutator() {
    let job = countdash_with(r#""PortLabel": "9001""#, r#""PortLabel": "http""#);
    let (code, out, err) = run(&[SNAPSHOT, "--job-file", "-"], Some(&job));
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.contains(
            "error in job mutator expose-check: unable to determine local service port for service check api->count-api->api-health"
        ),
        "{err}"
    );
}

/// `TaskGroup.Validate`'s group-wide rules end to end: an update block
/// whose healthy deadline passes its progress deadline, and two group
/// services alike but for their provider, refused at the snapshot's
/// release (1.10.5) with Nomad's words: exit 1, nothing on stdout.
#[test]
fn a_group_nomad_refuses_is_an_error_with_nomads_words() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/job-plan/web.json"
    ))
    .unwrap();
    let mut job: Value = serde_json::from_str(&text).unwrap();
    let group = &mut job["Job"]["TaskGroups"][0];
    group["Update"] = serde_json::json!({"HealthyDeadline": 600_000_000_000_i64,
                                         "ProgressDeadline": 300_000_000_000_i64});
    group["Services"] = serde_json::json!([{"Name": "web", "PortLabel": "http"},
        {"Name": "web", "PortLabel": "http", "Provider": "nomad"}]);
    let (code, out, err) = run(
        &[SNAPSHOT, "--job-file", "-", "--detailed-exitcode"],
        Some(&job.to_string()),
    );
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains(
            "Task group web validation failed: 2 errors occurred:\n\t* Healthy deadline must be \
             less than progress deadline: 10m0s > 5m0s\n\t* Task group service validation \
             failed: 2 errors occurred:\n\t* Services are not unique: [group->web:http]\n\t* \
             Multiple service providers used: task group services must use the same provider\n"
        ),
        "{err}"
    );
}

/// The placement blocks' and disconnect block's checks end to end at the
/// snapshot's release (1.10.5): a job constraint whose regexp Go cannot
/// compile, a group affinity of weight zero and a disconnect block with a
/// bad reconcile option are refused with Nomad's words, exit 1, nothing on
/// stdout.
#[test]
fn placement_blocks_nomad_refuses_are_an_error_with_nomads_words() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/job-plan/web.json"
    ))
    .unwrap();
    let mut job: Value = serde_json::from_str(&text).unwrap();
    job["Job"]["Constraints"] = serde_json::json!([{"LTarget": "${attr.os.name}",
        "Operand": "regexp", "RTarget": "linux(64"}]);
    let group = &mut job["Job"]["TaskGroups"][0];
    group["Affinities"] = serde_json::json!([{"LTarget": "${node.class}", "Operand": "=",
        "RTarget": "large", "Weight": 0}]);
    group["Disconnect"] = serde_json::json!({"LostAfter": 60_000_000_000_i64,
        "Reconcile": "newest"});
    let (code, out, err) = run(
        &[SNAPSHOT, "--job-file", "-", "--detailed-exitcode"],
        Some(&job.to_string()),
    );
    assert_eq!((code, out.as_str()), (1, ""));
    for want in [
        "\t* Constraint 1 validation failed: 1 error occurred:\n\t* Regular expression failed \
         to compile: error parsing regexp: missing closing ): `linux(64`\n",
        "\t* Task group web validation failed: 2 errors occurred:\n\t* reconcile option is \
         invalid: newest\n\t* Affinity 1 validation failed: 1 error occurred:\n\t* Affinity \
         weight cannot be zero\n",
    ] {
        assert!(err.contains(want), "{want:?} not in {err}");
    }
}

/// Volume requests, volume mounts and task resources end to end at the
/// snapshot's release (1.10.5): a CSI volume without modes shared by three
/// allocations, a mount of a volume the group does not define, a
/// `memory_max` below the memory, refused with Nomad's words, exit 1,
/// nothing on stdout.
#[test]
fn volumes_and_resources_nomad_refuses_are_an_error_with_nomads_words() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/job-plan/web.json"
    ))
    .unwrap();
    let mut job: Value = serde_json::from_str(&text).unwrap();
    let group = &mut job["Job"]["TaskGroups"][0];
    group["Volumes"] = serde_json::json!({"data": {"Name": "data", "Type": "csi",
        "Source": "data", "AccessMode": "single-node-writer",
        "AttachmentMode": "file-system", "PerAlloc": true, "Sticky": true}});
    let task = &mut group["Tasks"][0];
    task["VolumeMounts"] = serde_json::json!([{"Volume": "data", "Destination": "/srv"},
        {"Volume": "cache", "Destination": "/cache", "SELinuxLabel": "y"}]);
    task["Resources"]["MemoryMaxMB"] = serde_json::json!(128);
    let (code, out, err) = run(
        &[SNAPSHOT, "--job-file", "-", "--detailed-exitcode"],
        Some(&job.to_string()),
    );
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains(
            "Task group web validation failed: 2 errors occurred:\n\t* Task group volume \
             validation for data failed: 1 error occurred:\n\t* volume cannot be per_alloc and \
             sticky at the same time\n\n\n\t* Task server validation failed: 3 errors \
             occurred:\n\t* 1 error occurred:\n\t* MemoryMaxMB value (128) should be larger \
             than MemoryMB value (256)\n\n\n\t* Volume Mount (1) references undefined volume \
             cache\n\t* Volume Mount (1) is invalid: \"1 error occurred:\n\t* volume mount has \
             an invalid SELinux label: \"y\"\n\n\"\n"
        ),
        "{err}"
    );
}

/// From 1.6.0 a job in a node pool the snapshot's `NodePools` does not list
/// is refused with the node pool hook's words (#17386); the built-in pools
/// count as listed, and a snapshot whose key is `null` checks nothing.
#[test]
fn a_job_in_a_node_pool_the_snapshot_does_not_list_is_refused() {
    let read = |path: &str| -> Value {
        let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")));
        serde_json::from_str(&text.unwrap()).unwrap()
    };
    let dir = tempfile_dir().join("node-pools");
    std::fs::create_dir_all(&dir).unwrap();
    let plan = |pools: Value, pool: &str| {
        let mut snapshot = read(SNAPSHOT);
        snapshot["NodePools"] = pools;
        let path = dir.join("snapshot.json");
        std::fs::write(&path, snapshot.to_string()).unwrap();
        let mut job = read("examples/job-plan/web.json");
        job["Job"]["NodePool"] = serde_json::json!(pool);
        let (code, _, err) = run(
            &[path.to_str().unwrap(), "--job-file", "-"],
            Some(&job.to_string()),
        );
        (code, err)
    };
    let listed = serde_json::json!([{"Name": "gpu", "Description": "GPUs"}]);
    let (code, err) = plan(listed.clone(), "cpu");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(
            "Nomad would reject the job: 1 error occurred:\n\t* job \"web\" is in nonexistent \
             node pool \"cpu\""
        ),
        "{err}"
    );
    for (pools, pool) in [
        (listed.clone(), "gpu"),
        (listed, "default"),
        (Value::Null, "cpu"),
    ] {
        let (code, err) = plan(pools.clone(), pool);
        assert_eq!(code, 0, "{pools} {pool}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
