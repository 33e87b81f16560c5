use std::io::Write;
use std::sync::Arc;

use serde_json::json;

use super::*;
use crate::time::Time;
use document::EMPTY_JOB_ID;

fn read(text: &str) -> Result<Snapshot, ReadError> {
    read_snapshot_from(text.as_bytes(), "snap.json")
}

fn ok(text: &str) -> Snapshot {
    read(text).unwrap_or_else(|e| panic!("{e}"))
}

fn err(text: &str) -> String {
    read(text).expect_err("expected an error").to_string()
}

fn codes(s: &Snapshot) -> Vec<(&str, &str)> {
    s.warnings
        .iter()
        .map(|w| (w.code.as_str(), w.message.as_str()))
        .collect()
}

fn job(id: &str, version: u64) -> serde_json::Value {
    json!({"ID": id, "Namespace": "default", "Type": "service", "Version": version,
           "TaskGroups": [{"Name": "web", "Count": 1}]})
}

fn alloc(id: &str, job: serde_json::Value) -> serde_json::Value {
    json!({"ID": id, "Namespace": "default", "JobID": "web", "TaskGroup": "web",
           "Name": "web.web[0]", "NodeID": "n1", "ClientStatus": "running",
           "DesiredStatus": "run", "Job": job})
}

fn node(id: &str, status: &str) -> serde_json::Value {
    json!({"ID": id, "Status": status})
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

#[test]
fn key_order_does_not_matter() {
    let allocs = json!([alloc("a1", job("web", 1))]);
    let jobs = json!([job("web", 2)]);
    let nodes = json!([node("n1", "ready")]);
    let first = json!({"Allocs": allocs, "Jobs": jobs, "Nodes": nodes}).to_string();
    let last = json!({"Nodes": nodes, "Jobs": jobs, "Allocs": allocs}).to_string();
    for text in [first, last] {
        let s = ok(&text);
        assert_eq!(s.jobs.len(), 1);
        assert_eq!(s.nodes.len(), 1);
        assert_eq!(s.allocs.len(), 1);
        assert_eq!(s.allocs[0].job_version(), 1);
        assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    }
}

#[test]
fn gzip_is_detected() {
    let text = json!({"Jobs": [job("web", 3)], "Allocs": [alloc("a1", job("web", 3))]});
    let s = read_snapshot_from(&gzip(text.to_string().as_bytes())[..], "snap.json.gz").unwrap();
    assert_eq!(s.jobs[0].version, 3);
    assert_eq!(s.allocs.len(), 1);
}

#[test]
fn concatenated_gzip_members_are_one_stream() {
    let text = json!({"Jobs": [job("web", 3)]}).to_string();
    let (head, tail) = text.split_at(10);
    let mut bytes = gzip(head.as_bytes());
    bytes.extend(gzip(tail.as_bytes()));
    let s = read_snapshot_from(&bytes[..], "snap.json.gz").unwrap();
    assert_eq!(s.jobs.len(), 1);
}

#[test]
fn corrupt_gzip_is_an_error() {
    let mut bytes = gzip(b"{\"Jobs\": []}");
    let n = bytes.len();
    bytes[10..n - 8].fill(0xff);
    let e = read_snapshot_from(&bytes[..], "snap.json.gz").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("snap.json.gz: corrupt gzip input: "),
        "{e}"
    );
}

#[test]
fn allocations_is_an_alias_of_allocs() {
    let s = ok(
        &json!({"Jobs": [job("web", 1)], "Allocations": [alloc("a1", job("web", 1))]}).to_string(),
    );
    assert_eq!(s.allocs.len(), 1);
}

#[test]
fn null_arrays_are_empty() {
    let s = ok(
        r#"{"Jobs": null, "JobVersions": null, "Nodes": null, "Allocs": null,
                   "Deployments": null, "Evals": null, "SnapshotMeta": null, "Now": null,
                   "EvalID": null, "SupportsDisconnectedClients": null}"#,
    );
    assert!(s.jobs.is_empty() && s.nodes.is_empty() && s.allocs.is_empty());
    assert!(s.now.is_none() && s.eval_id.is_none() && s.meta_time.is_none());
    let effect = |w: &crate::warning::Warning| w.message.split(':').next().unwrap().to_string();
    assert_eq!(
        s.warnings.iter().map(effect).collect::<Vec<_>>(),
        [
            "the snapshot has no Allocs (the key is absent or null)",
            "the snapshot has no Jobs (the key is absent or null)",
            "the snapshot has no Nodes (the key is absent or null)",
        ]
    );
}

#[test]
fn identical_embedded_jobs_share_one_arc() {
    let s = ok(&json!({
        "Jobs": [job("web", 2)],
        "Allocs": [alloc("a1", job("web", 1)), alloc("a2", job("web", 1)),
                   alloc("a3", job("web", 2)), alloc("a4", serde_json::Value::Null)],
    })
    .to_string());
    let job_of = |i: usize| s.allocs[i].job.clone();
    let (a1, a2, a3) = (job_of(0).unwrap(), job_of(1).unwrap(), job_of(2).unwrap());
    assert!(Arc::ptr_eq(&a1, &a2));
    assert!(!Arc::ptr_eq(&a1, &a3));
    assert_eq!((a1.version, a3.version), (1, 2));
    // A null Job is no embedded job: the current one is used, with a warning.
    assert!(Arc::ptr_eq(&job_of(3).unwrap(), &s.jobs[0]));
}

#[test]
fn job_versions_and_jobs_share_the_jobs_of_embedded_texts() {
    let at = |version: u64, modify: u64| {
        let mut j = job("web", version);
        j["ModifyIndex"] = json!(modify);
        j
    };
    let read = |current: serde_json::Value| {
        ok(&json!({
            "Allocs": [alloc("a1", at(1, 5)), alloc("a2", at(2, 6))],
            "JobVersions": [at(1, 90), at(2, 6)],
            "Jobs": [current],
        })
        .to_string())
    };
    let s = read(at(2, 6));
    let embedded = |i: usize| s.allocs[i].job.as_ref().unwrap();
    // A variant in its modify index, and the same text.
    assert!(Arc::ptr_eq(&s.job_versions[0], embedded(0)));
    assert!(Arc::ptr_eq(&s.job_versions[1], embedded(1)));
    assert!(Arc::ptr_eq(&s.jobs[0], embedded(1)));
    // The job of record is never a variant: its own modify index is read.
    let s = read(at(2, 7));
    assert!(!Arc::ptr_eq(&s.jobs[0], s.allocs[1].job.as_ref().unwrap()));
    assert_eq!(s.jobs[0].modify_index, 7);
}

#[test]
fn alloc_without_job_falls_back_with_a_warning() {
    let mut bare = alloc("a1", serde_json::Value::Null);
    bare.as_object_mut().unwrap().remove("Job");
    // Every stored allocation has a DesiredTransition; without it, a stub.
    bare["DesiredTransition"] = json!({});
    let mut orphan = bare.clone();
    orphan["ID"] = json!("a2");
    orphan["JobID"] = json!("old");
    let mut lost = bare.clone();
    lost["ID"] = json!("a3");
    lost["JobID"] = json!("gone");
    let s = ok(&json!({
        "Allocs": [bare, orphan, lost],
        "Jobs": [job("web", 4)],
        "Nodes": [node("n1", "ready")],
        "JobVersions": [job("web", 1), job("old", 2), job("old", 7), job("old", 3)],
    })
    .to_string());
    assert!(Arc::ptr_eq(s.allocs[0].job.as_ref().unwrap(), &s.jobs[0]));
    assert_eq!(s.allocs[1].job_version(), 7);
    assert!(s.allocs[2].job.is_none());
    assert_eq!(
        codes(&s),
        [
            (
                "alloc_without_job",
                "allocation a1 embeds no job; using the current version 4 of job \"web\" in namespace \"default\" from Jobs"
            ),
            (
                "alloc_without_job",
                "allocation a2 embeds no job and job \"old\" in namespace \"default\" is not in Jobs; using its latest version 7 from JobVersions"
            ),
            (
                "alloc_without_job",
                "allocation a3 embeds no job and job \"gone\" in namespace \"default\" is in neither Jobs nor JobVersions; it has no job spec"
            ),
            (
                "purged_job",
                "job \"gone\" in namespace \"default\" is not in Jobs but has 1 allocation(s); it is treated as purged and its allocations are stopped"
            ),
            (
                "purged_job",
                "job \"old\" in namespace \"default\" is not in Jobs but has 1 allocation(s); it is treated as purged and its allocations are stopped"
            ),
        ]
    );
}

#[test]
fn list_stubs_are_counted_in_one_warning_and_take_their_job_version() {
    let stub = |id: &str, version: Option<u64>| {
        let mut a = json!({"ID": id, "Namespace": "default", "JobID": "web", "TaskGroup": "web",
                           "Name": "web.web[0]", "NodeID": "n1", "ClientStatus": "running",
                           "DesiredStatus": "run"});
        if let Some(v) = version {
            a["JobVersion"] = json!(v);
            a["DesiredTransition"] = json!({});
        }
        a
    };
    let allocs: Vec<_> = (0..30).map(|i| stub(&format!("s{i:02}"), None)).collect();
    let mut allocs = allocs;
    allocs.push(stub("v3", Some(3)));
    let s = ok(&json!({
        "Allocs": allocs,
        "Jobs": [job("web", 4)],
        "JobVersions": [job("web", 3), job("web", 4)],
        "Nodes": [node("n1", "ready")],
    })
    .to_string());
    assert_eq!(s.allocs[0].job_version(), 4);
    assert_eq!(s.allocs[30].job_version(), 3);
    assert_eq!(
        codes(&s),
        [(
            "alloc_list_stub",
            "31 allocation(s) look like list stubs (AllocListStub: no Job, no DesiredTransition), as \
             /v1/allocations and /v1/job/:id/allocations return them (e.g. s00, s01, s02, ...): each takes \
             its job version from JobVersions, else the current job from Jobs, and lacks what a stub leaves \
             out; read them with /v1/allocation/:id for a faithful replay"
        )]
    );
}

/// `"Nodes": []` beside running allocations is as suspicious as no `Nodes`.
#[test]
fn empty_nodes_with_running_allocations_are_warned_once_with_a_count() {
    let mut on_n2 = alloc("a2", job("web", 1));
    on_n2["NodeID"] = json!("n2");
    let mut done = alloc("a3", job("web", 1));
    done["ClientStatus"] = json!("complete");
    let allocs = json!([
        alloc("a1", job("web", 1)),
        on_n2,
        alloc("a4", job("web", 1)),
        done.clone()
    ]);
    let s = ok(&json!({"Jobs": [job("web", 1)], "Nodes": [], "Allocs": allocs}).to_string());
    assert_eq!(
        codes(&s),
        [(
            "absent_node",
            "the snapshot's Nodes is empty but 3 allocation(s) not yet terminal run on 2 node(s) \
             (e.g. n1, n2): the dump looks incomplete; every one is replayed as lost on a \
             garbage-collected node and replaced"
        )]
    );
    // Some nodes there and some not: counted as well.
    let s = ok(
        &json!({"Jobs": [job("web", 1)], "Nodes": [node("n1", "ready")], "Allocs": allocs})
            .to_string(),
    );
    assert_eq!(
        codes(&s),
        [(
            "absent_node",
            "1 allocation(s) not yet terminal run on 1 node(s) absent from Nodes (e.g. n2): Nomad \
             collects a node only once its allocations are terminal, so the dump looks incomplete; \
             each is replayed as lost on a garbage-collected node and replaced"
        )]
    );
    // Only terminal allocations on collected nodes: what Nomad leaves, nothing said.
    let s = ok(&json!({"Jobs": [job("web", 1)], "Nodes": [], "Allocs": [done]}).to_string());
    assert_eq!(codes(&s), []);
}

#[test]
fn missing_parts_of_the_state_are_warned_once_by_name() {
    let mut a = alloc("a1", job("web", 1));
    a["DeploymentID"] = json!("d1");
    let mut b = alloc("a2", job("web", 1));
    b["DeploymentID"] = json!("d1");
    let stub = json!({"ID": "api", "Namespace": "default", "Type": "service", "Status": "running"});
    let s = ok(&json!({"Jobs": [job("web", 1), stub], "Allocs": [a, b]}).to_string());
    assert_eq!(
        codes(&s),
        [
            (
                "job_list_stub",
                "1 job(s) in Jobs have no TaskGroups, like the /v1/jobs list stubs (e.g. default/api): \
                 their allocations count as of removed groups and are stopped; read each job with /v1/job/:id"
            ),
            (
                "missing_key",
                "the snapshot has no Deployments (the key is absent or null) but allocations name 1 deployment(s) \
                 (e.g. d1): the replay sees no deployment, so a rolling update may look unstarted"
            ),
            (
                "missing_key",
                "the snapshot has no Nodes (the key is absent or null): every node counts as garbage-collected, so \
                 every allocation not yet terminal (2) is lost and replaced; the dump looks incomplete"
            ),
        ]
    );
    // With the deployments there, nothing is said about them.
    let s = ok(
        r#"{"Jobs": [], "Nodes": [], "Allocs": [{"ID": "a", "DeploymentID": "d1",
                   "DesiredTransition": {}}], "Deployments": []}"#,
    );
    assert!(
        !codes(&s).iter().any(|(_, m)| m.contains("Deployments")),
        "{:?}",
        codes(&s)
    );
}

#[test]
fn what_is_not_a_snapshot_is_an_error_saying_what_it_is() {
    const HINT: &str = "expected the cluster state with Jobs, Nodes and Allocs: run \
        `nomad operator snapshot save backup.snap` and `nomad operator snapshot state backup.snap > state.json`, \
        or build it from the HTTP API with contrib/snapshot-from-api.sh (README: Getting a snapshot from a real cluster)";
    let cases = [
        (
            "{}",
            "snap.json: not a Nomad snapshot: found an empty object",
        ),
        (
            r#"{"Job": {"ID": "web", "TaskGroups": []}}"#,
            "snap.json: not a Nomad snapshot: found an object with only a \"Job\" key: `nomad job inspect` \
             output (one job, not the cluster's state)",
        ),
        (
            r#"{"ID": "web", "Type": "service", "TaskGroups": []}"#,
            "snap.json: not a Nomad snapshot: found a single job object (it has TaskGroups): `GET /v1/job/:id` \
             or a job file's JSON, not the cluster's state",
        ),
        (
            r#"{"jobs": [], "nodes": []}"#,
            "snap.json: not a Nomad snapshot: found an object with the keys jobs, nodes but none of Jobs, \
             Allocs (or Allocations), Nodes (keys are case-sensitive: Nomad writes Jobs, Nodes)",
        ),
        (
            "job \"web\" {\n  group \"web\" {}\n}\n",
            "snap.json:1:1: not a Nomad snapshot: found text that is not JSON (expected value): a job file \
             in HCL or YAML?",
        ),
        (
            "[{\"ID\": \"web\"}]",
            "snap.json:1:1: not a Nomad snapshot: found a JSON array (list endpoints such as /v1/jobs \
             return stubs, not full objects)",
        ),
    ];
    for (text, found) in cases {
        assert_eq!(err(text), format!("{found}; {HINT}"), "{text}");
        // The fast walk and the exact walk agree.
        let e = exact(text.as_bytes(), "snap.json", &ReadFilter::default()).unwrap_err();
        assert_eq!(e.to_string(), format!("{found}; {HINT}"), "{text}");
    }
}

#[test]
fn a_job_without_an_id_is_an_error_at_its_position() {
    let text = "{\"Jobs\": [\n  {\"ID\": \"web\", \"TaskGroups\": [{\"Name\": \"web\"}]},\n  {\"Job\": {\"ID\": \"api\"}}\n]}";
    let expected = "snap.json:4:1: at Jobs[1]: a job without an ID: is this `nomad job inspect` output \
                    ({\"Job\": {...}})? Put its \"Job\" object in Jobs (jq '.Job')";
    assert_eq!(err(text), expected);
    let e = exact(text.as_bytes(), "snap.json", &ReadFilter::default()).unwrap_err();
    assert_eq!(e.to_string(), expected);
}

#[test]
fn snapshot_meta_dates_the_snapshot() {
    let s = ok(r#"{"Jobs": [], "Nodes": [], "Allocs": [],
            "SnapshotMeta": {"ID": "2-1234-1648771200000", "Index": 1234, "Term": 2}}"#);
    assert_eq!(
        s.meta_time,
        Some(Time::parse_rfc3339("2022-04-01T00:00:00Z").unwrap())
    );
    let s =
        ok(r#"{"Jobs": [], "Nodes": [], "Allocs": [], "SnapshotMeta": {"ID": "not-a-snapshot"}}"#);
    assert_eq!(s.meta_time, None);
    assert_eq!(
        codes(&s),
        [(
            "snapshot_meta",
            "SnapshotMeta ID \"not-a-snapshot\" is not a raft snapshot ID term-index-unixmillis; it does not date the snapshot"
        )]
    );
}

#[test]
fn snapshot_meta_as_snapshot_state_writes_it() {
    // `nomad operator snapshot state` writes a one-element array.
    let s = ok(
        r#"{"Jobs": [], "SnapshotMeta": [{"Version": 1, "ID": "2-1234-1648771200000", "Index": 1234}]}"#,
    );
    assert_eq!(
        s.meta_time,
        Some(Time::parse_rfc3339("2022-04-01T00:00:00Z").unwrap())
    );
}

#[test]
fn alloc_state_fields_are_numbers_in_real_dumps() {
    let s = ok(r#"{"Allocs": [{"ID": "a", "AllocStates": [
        {"Field": 0, "Value": "unknown", "Time": "2022-04-01T00:00:00Z"},
        {"Field": 7, "Value": "unknown", "Time": "2022-04-02T00:00:00Z"}]}]}"#);
    assert_eq!(
        s.allocs[0].last_unknown(),
        Time::parse_rfc3339("2022-04-01T00:00:00Z").unwrap()
    );
}

#[test]
fn extensions_are_read() {
    let s = ok(
        r#"{"Jobs": [], "Now": "2022-04-01T00:00:30+00:00", "EvalID": "", "SupportsDisconnectedClients": false}"#,
    );
    assert_eq!(
        s.now,
        Some(Time::parse_rfc3339("2022-04-01T00:00:30Z").unwrap())
    );
    assert_eq!(s.eval_id.as_deref(), Some(""));
    assert_eq!(s.supports_disconnected_clients, Some(false));
    let s = ok(r#"{"Jobs": [], "EvalID": "e1"}"#);
    assert_eq!(s.eval_id.as_deref(), Some("e1"));
    assert_eq!(s.now, None);
    assert_eq!(s.supports_disconnected_clients, None);
}

/// `NodePools` is a list only when it holds one: absent and `null` are
/// the same, an empty list is a list; both walks agree.
#[test]
fn a_node_pool_list_is_told_from_none() {
    for (pools, listed, names) in [
        ("", false, vec![]),
        (r#", "NodePools": null"#, false, vec![]),
        (r#", "NodePools": []"#, true, vec![]),
        (r#", "NodePools": [{"Name": "gpu"}]"#, true, vec!["gpu"]),
    ] {
        let text = format!(r#"{{"Jobs": []{pools}}}"#);
        let fast = ok(&text);
        let slow = exact(text.as_bytes(), "snap.json", &ReadFilter::default()).unwrap();
        for s in [fast, slow] {
            let got: Vec<&str> = s.node_pools.iter().map(|p| p.name.as_str()).collect();
            assert_eq!(
                (s.node_pools_listed, got),
                (listed, names.clone()),
                "{text}"
            );
        }
    }
}

#[test]
fn evals_and_deployments_are_kept() {
    let s = ok(
        r#"{"Jobs": [], "Evals": [{"ID": "e1", "JobID": "web", "TriggeredBy": "job-register"}],
                   "Deployments": [{"ID": "d1", "JobID": "web", "Status": "running",
                                    "TaskGroups": {"web": {"DesiredTotal": 3}}}]}"#,
    );
    assert_eq!(s.evals[0].triggered_by, "job-register");
    assert_eq!(s.deployments[0].task_groups["web"].desired_total, 3);
}

#[test]
fn unknown_keys_are_skipped_and_never_kept() {
    let text = r#"{"ACLTokens": [{"AccessorID": "a", "SecretID": "SECRET-MARKER",
                                  "Deep": [[[{"x": "SECRET-MARKER"}]]]}],
                   "Jobs": [], "SomethingNew": {"SECRET-MARKER": 1}}"#;
    let s = ok(text);
    assert!(!format!("{s:?}").contains("SECRET-MARKER"));
    assert!(!format!("{s:#?}").contains("SECRET"));
}

#[test]
fn duplicates_keep_the_last_one() {
    let mut second = alloc("a1", job("web", 1));
    second["ClientStatus"] = json!("failed");
    let s = ok(&json!({
        "Jobs": [job("web", 1), job("web", 2)],
        "Nodes": [node("n1", "ready"), node("n1", "down")],
        "Allocs": [alloc("a1", job("web", 1)), second],
    })
    .to_string());
    assert_eq!(s.allocs.len(), 1);
    assert_eq!(
        s.allocs[0].client_status,
        crate::model::ClientStatus::Failed
    );
    assert_eq!(s.jobs.len(), 1);
    assert_eq!(s.jobs[0].version, 2);
    assert_eq!(s.nodes.len(), 1);
    assert_eq!(s.nodes[0].status, "down");
    assert_eq!(
        codes(&s),
        [
            (
                "duplicate_alloc_id",
                "allocation a1 appears more than once in Allocs; the last one is kept"
            ),
            (
                "duplicate_job",
                "job \"web\" in namespace \"default\" appears more than once in Jobs; the last one is kept"
            ),
            (
                "duplicate_node_id",
                "node n1 appears more than once in Nodes; the last one is kept"
            ),
        ]
    );
}

#[test]
fn unknown_statuses_warn_and_terminal_allocations_on_gc_nodes_do_not() {
    let mut a = alloc("a1", job("web", 1));
    a["ClientStatus"] = json!("exploded");
    a["DesiredStatus"] = json!("maybe");
    let mut b = alloc("a2", job("web", 1));
    b["ClientStatus"] = json!("failed");
    b["NodeID"] = json!("gone-node");
    let s = ok(
        &json!({"Jobs": [job("web", 1)], "Nodes": [node("n1", "sleepy")], "Allocs": [a, b]})
            .to_string(),
    );
    assert_eq!(
        codes(&s),
        [
            (
                "unknown_node_status",
                "node n1 has unknown Status \"sleepy\""
            ),
            (
                "unknown_status",
                "allocation a1 has unknown ClientStatus \"exploded\""
            ),
            (
                "unknown_status",
                "allocation a1 has unknown DesiredStatus \"maybe\""
            ),
        ]
    );
}

#[test]
fn warnings_are_bounded_per_code() {
    let allocs: Vec<_> = (0..30)
        .map(|i| {
            let mut a = alloc(&format!("a{i:02}"), job("web", 1));
            a["ClientStatus"] = json!("weird");
            a
        })
        .collect();
    let s = ok(
        &json!({"Jobs": [job("web", 1)], "Allocs": allocs, "Nodes": [node("n1", "ready")]})
            .to_string(),
    );
    assert_eq!(s.warnings.len(), MAX_PER_CODE + 1);
    assert_eq!(s.warnings.last().unwrap().message, "... and 10 more");
}

#[test]
fn warnings_do_not_depend_on_array_order() {
    let mut allocs: Vec<_> = (0..5)
        .map(|i| {
            let mut a = alloc(&format!("a{i}"), serde_json::Value::Null);
            a["JobID"] = json!(format!("job{i}"));
            a["ClientStatus"] = json!("?");
            a
        })
        .collect();
    let forward = ok(&json!({"Allocs": allocs}).to_string());
    allocs.reverse();
    let backward = ok(&json!({"Allocs": allocs}).to_string());
    assert_eq!(forward.warnings, backward.warnings);
}

// Errors, asserted verbatim.

#[test]
fn wrong_type_deep_in_an_alloc_names_the_path() {
    let text = "{\"Allocs\": [\n  {\"ID\": \"a0\"},\n  {\"ID\": \"a1\", \"AllocStates\": [{\"Field\": \"ClientStatus\", \"Time\": 5}]}\n]}";
    assert_eq!(
        err(text),
        "snap.json:3:67: at Allocs[1].AllocStates[0].Time: invalid type: integer `5`, expected an RFC 3339 time string"
    );
}

#[test]
fn wrong_type_in_an_embedded_job_names_the_path() {
    let text =
        r#"{"Allocs": [{"ID": "a0", "Job": {"ID": "web", "TaskGroups": [{"Count": "three"}]}}]}"#;
    assert_eq!(
        err(text),
        "snap.json: at Allocs[0].Job.TaskGroups[0].Count: invalid type: string \"three\", expected i64"
    );
}

#[test]
fn truncated_input() {
    assert_eq!(
        err(r#"{"Jobs": [{"ID": "web", "#),
        "snap.json:1:24: at Jobs[0]: EOF while parsing a value"
    );
}

#[test]
fn empty_input() {
    assert_eq!(err(""), "snap.json: empty input, expected a JSON object");
    assert_eq!(
        err(" \n\t"),
        "snap.json: empty input, expected a JSON object"
    );
}

#[test]
fn truncated_literal_is_not_empty_input() {
    assert_eq!(err(" nul"), "snap.json:1:4: EOF while parsing a value");
}

#[test]
fn empty_gzip_is_empty_input() {
    let e = read_snapshot_from(&gzip(b"\n")[..], "snap.json.gz").unwrap_err();
    assert_eq!(
        e.to_string(),
        "snap.json.gz: empty input, expected a JSON object"
    );
}

#[test]
fn top_level_must_be_an_object() {
    assert_eq!(
        err("[1, 2]").split(';').next().unwrap(),
        "snap.json:1:1: not a Nomad snapshot: found a JSON array (list endpoints such as /v1/jobs return stubs, not full objects)"
    );
}

#[test]
fn an_array_key_must_hold_an_array() {
    assert_eq!(
        err(r#"{"Nodes": {"n1": {}}}"#),
        "snap.json:1:11: at Nodes: invalid type: map, expected an array of nodes or null"
    );
}

#[test]
fn trailing_garbage() {
    assert_eq!(
        err("{\"Jobs\": []}\n{}"),
        "snap.json:2:1: trailing characters"
    );
}

#[test]
fn invalid_rfc3339_time() {
    assert_eq!(
        err(r#"{"Now": "yesterday"}"#),
        "snap.json:1:19: at Now: invalid RFC 3339 time \"yesterday\": failed to parse four digit integer as year: invalid digit, expected 0-9 but got y"
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let depth = 10_000;
    let text = format!(
        "{{\"Jobs\": [{{\"Periodic\": {}1{}}}]}}",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let e = err(&text);
    assert!(e.contains("recursion limit exceeded"), "{e}");
    let text = format!(
        "{{\"Allocs\": [{{\"Job\": {{\"Periodic\": {}1{}}}}}]}}",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let e = err(&text);
    assert!(e.contains("recursion limit exceeded"), "{e}");
}

#[test]
fn missing_file() {
    let e = read_snapshot(&Source::Path("/nonexistent/snap.json".into())).unwrap_err();
    assert_eq!(
        e.to_string(),
        "/nonexistent/snap.json: cannot read: No such file or directory (os error 2)"
    );
}

#[test]
fn directory_is_an_error() {
    let e = read_snapshot(&Source::Path("/".into())).unwrap_err();
    assert_eq!(
        e.to_string(),
        "/: cannot read: Is a directory (os error 21)"
    );
}

#[test]
fn reads_a_file() {
    let path = std::env::temp_dir().join(format!("plan-inspect-read-{}.json", std::process::id()));
    std::fs::write(&path, json!({"Jobs": [job("web", 1)]}).to_string()).unwrap();
    let s = read_snapshot(&Source::Path(path.clone()));
    std::fs::remove_file(&path).unwrap();
    assert_eq!(s.unwrap().jobs.len(), 1);
}

#[test]
fn dash_is_stdin() {
    assert_eq!(Source::from_arg("-"), Source::Stdin);
    assert_eq!(Source::from_arg("-").name(), "<stdin>");
    assert_eq!(Source::from_arg("a.json"), Source::Path("a.json".into()));
}

/// A JSON object with its keys in the order given (`json!` sorts them).
fn object(pairs: &[(&str, serde_json::Value)]) -> String {
    let members: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{}:{v}", serde_json::Value::from(*k)))
        .collect();
    format!("{{{}}}", members.join(","))
}

/// A snapshot of `count` allocations, over 16 MiB so that the fast walk can
/// neither keep it whole nor hold it in one chunk: five job versions of
/// different sizes, tails (task states) from empty to long, keys in Nomad's
/// order or with the job last, escapes, a null and a missing job, and every
/// top-level key the reader takes, and one it skips.
fn big_snapshot(count: usize) -> String {
    let version = |v: usize| {
        let mut j = job("web", v as u64);
        j["Meta"] = json!({ "padding": "x".repeat(2000 * v), "quote": "a\"}{b" });
        j
    };
    // What the servers change without a new version, of varying lengths.
    let variant = |v: usize, i: usize| {
        let mut j = version(v);
        j["Status"] = json!(["pending", "running", "dead"][i % 3]);
        j["Stable"] = json!(i.is_multiple_of(4));
        j["ModifyIndex"] = json!(1000 + (i % 7) * 3000);
        j
    };
    let allocs: Vec<String> = (0..count)
        .map(|i| {
            let id = format!("a{i:05}");
            let events: Vec<_> = (0..(i * 7) % 40)
                .map(|e| json!({"Type": if e % 9 == 0 { "Reconnected" } else { "Started" }, "Time": e, "Message": "}\\\"{"}))
                .collect();
            let states = json!({"app": {"State": "running", "Events": events}});
            let job = match i % 97 {
                0 => serde_json::Value::Null,
                _ => variant(1 + i % 5, i / 5),
            };
            let mut pairs = vec![
                ("ID", json!(id)),
                ("Namespace", json!("default")),
                ("JobID", json!("web")),
                ("TaskStates", states),
                ("TaskGroup", json!("web")),
                ("Name", json!(format!("web.web[{i}]"))),
                ("NodeID", json!("n1")),
                ("ClientStatus", json!("running")),
                ("DesiredStatus", json!("run")),
                ("Job", job),
            ];
            if i % 3 != 0 {
                // The job third, the task states last.
                pairs.swap(3, 9);
            }
            if i % 101 == 0 {
                pairs.retain(|(k, _)| *k != "Job");
            }
            object(&pairs)
        })
        .collect();
    let text = object(&[
        ("ACLTokens", json!([{"SecretID": "s"}])),
        ("Allocs", serde_json::Value::Null),
        ("Allocations", json!([alloc("b1", variant(2, 11))])),
        (
            "Deployments",
            json!([{"ID": "d1", "JobID": "web", "Namespace": "default", "Status": "running",
                    "TaskGroups": {"web": {"DesiredTotal": 3}}}]),
        ),
        ("EvalID", json!("e1")),
        (
            "Evals",
            json!([{"ID": "e1", "JobID": "web", "Namespace": "default", "Priority": 70}]),
        ),
        ("JobVersions", json!([version(4), version(5)])),
        ("Jobs", json!([version(5)])),
        ("Nodes", json!([node("n1", "ready")])),
        ("Now", json!("2022-04-01T00:00:30Z")),
        ("SnapshotMeta", json!([{"ID": "2-1234-1648771200000"}])),
        ("SupportsDisconnectedClients", json!(false)),
    ])
    .replacen(
        "\"Allocs\":null",
        &format!("\"Allocs\":[{}]", allocs.join(",")),
        1,
    );
    assert!(text.len() > 16 << 20, "{} bytes", text.len());
    text
}

#[test]
fn the_fast_walk_reads_what_the_exact_walk_reads_on_any_thread_count() {
    let text = big_snapshot(3000);
    let exact =
        |filter: &ReadFilter| format!("{:?}", exact(text.as_bytes(), "snap.json", filter).unwrap());
    let fast = |filter: &ReadFilter, threads: usize| {
        let s = super::read(text.as_bytes(), "snap.json", filter, threads, None).unwrap();
        // One job per embedded version, whatever its texts' volatile
        // values, and the current one from Jobs for allocations without.
        let mut jobs: Vec<_> = s
            .allocs
            .iter()
            .filter_map(|a| a.job.as_ref().map(Arc::as_ptr))
            .collect();
        jobs.sort();
        jobs.dedup();
        assert_eq!(jobs.len(), 6);
        format!("{s:?}")
    };
    let all = ReadFilter::default();
    let web = ReadFilter {
        job: Some("web".into()),
        ..ReadFilter::default()
    };
    let other = ReadFilter {
        job: Some("api".into()),
        ..ReadFilter::default()
    };
    for threads in [1, 2, 4] {
        assert_eq!(fast(&all, threads), exact(&all), "{threads} threads");
        assert_eq!(fast(&web, threads), exact(&web), "{threads} threads");
        let s = super::read(text.as_bytes(), "snap.json", &other, threads, None).unwrap();
        assert!(s.allocs.is_empty());
    }
}

/// The error the fast walk gives on `text` read as a stream (no file to read
/// again) on `threads` threads.
fn stream_error(text: &str, threads: usize) -> String {
    let filter = ReadFilter::default();
    let read = super::read(text.as_bytes(), "snap.json", &filter, threads, None);
    read.unwrap_err().to_string()
}

#[test]
fn a_bad_allocation_deep_in_a_large_stream_is_located_on_any_thread_count() {
    let good = big_snapshot(3000);
    // Allocation 2500 (an embedded job seen before), broken after its job.
    let at = good.find("\"ID\":\"a02500\"").unwrap();
    let status = at + good[at..].find("\"ClientStatus\":\"running\"").unwrap();
    let bad = format!(
        "{}\"ClientStatus\":5{}",
        &good[..status],
        &good[status + 24..]
    );
    // A second Job key is an error, not a second chance.
    let job = at + good[at..].find("\"TaskGroup\":").unwrap();
    let twice = format!("{}\"Job\":null,{}", &good[..job], &good[job..]);
    for threads in [1, 2, 4] {
        let read = |text: &str| stream_error(text, threads);
        assert_eq!(
            read(&bad),
            format!(
                "snap.json:1:{}: at Allocs[2500]: invalid type: integer `5`, expected a string",
                status + 16
            ),
            "{threads} threads"
        );
        let e = read(&twice);
        assert!(e.contains("at Allocs[2500]: duplicate field `Job`"), "{e}");
    }
}

#[test]
fn a_bad_job_or_job_version_deep_in_a_large_stream_is_located() {
    let good = big_snapshot(3000);
    // Job versions and jobs are read as texts, shared with the allocations'.
    let versions = good.find("\"JobVersions\":").unwrap();
    let count = versions + good[versions..].find("\"Count\":1").unwrap();
    let bad = format!("{}\"Count\":\"x\"{}", &good[..count], &good[count + 9..]);
    assert_eq!(
        stream_error(&bad, 2),
        format!(
            "snap.json:1:{}: at JobVersions[0]: invalid type: string \"x\", expected i64",
            count + 11
        )
    );
    let jobs = good.find("\"Jobs\":[").unwrap() + 8;
    let id = jobs + good[jobs..].find("\"ID\":\"web\"").unwrap();
    let anonymous = format!("{}\"ID\":\"\"{}", &good[..id], &good[id + 10..]);
    let end = jobs + anonymous[jobs..].find("],\"Nodes\"").unwrap();
    let e = stream_error(&anonymous, 2);
    assert_eq!(
        e,
        format!("snap.json:1:{}: at Jobs[0]: {EMPTY_JOB_ID}", end)
    );
}

#[test]
fn a_bad_allocation_deep_in_a_large_indented_stream_is_located_by_line() {
    // Newlines in a third of the places between keys, as an indenting dump
    // writes them (and none inside the embedded jobs' texts, at random).
    let good = big_snapshot(3000).replace(",\"Client", ",\n  \"Client");
    let at = good.find("\"ID\":\"a02900\"").unwrap();
    let status = at + good[at..].find("\"ClientStatus\":\"running\"").unwrap();
    let bad = format!(
        "{}\"ClientStatus\":5{}",
        &good[..status],
        &good[status + 24..]
    );
    let line = 1 + bad[..status].matches('\n').count();
    let column = status - bad[..status].rfind('\n').unwrap() + 15;
    for threads in [1, 2] {
        assert_eq!(
            stream_error(&bad, threads),
            format!(
                "snap.json:{line}:{column}: at Allocs[2900]: invalid type: integer `5`, expected a string"
            ),
            "{threads} threads"
        );
    }
}

/// 3000 nodes of about 6 KB, over 16 MiB, each with a hundred attributes
/// (a few its own), meta, drivers and a status; every third one indented.
fn big_nodes() -> String {
    let nodes: Vec<String> = (0..3000)
        .map(|i| {
            let mut attrs = serde_json::Map::new();
            for k in 0..100 {
                let value = match k % 10 {
                    0 => format!("own-{i}-{k}"),
                    _ => format!("shared-value-{}-of-the-fleet", (k + i) % 3),
                };
                attrs.insert(format!("fingerprint.attribute.{k:03}"), json!(value));
            }
            let status = ["ready", "down"][i % 2];
            let node = json!({"ID": format!("n{i:05}"), "Status": status,
                "Datacenter": "dc1", "Attributes": attrs, "Meta": {"rack": format!("r{}", i % 7)},
                "Drivers": {"docker": {"Detected": true, "Healthy": i % 5 != 0}, "raw_exec": null},
                "NodeResources": {"Networks": [{"Mode": "host"}]}});
            match i % 3 {
                0 => serde_json::to_string_pretty(&node).unwrap(),
                _ => node.to_string(),
            }
        })
        .collect();
    let text = format!(
        "{{\"Allocs\":[],\"Jobs\":[],\"Nodes\":[{}],\"Now\":\"2022-04-01T00:00:30Z\"}}",
        nodes.join(",\n")
    );
    assert!(text.len() > 16 << 20, "{} bytes", text.len());
    text
}

#[test]
fn nodes_read_on_several_threads_are_the_ones_read_on_one() {
    let text = big_nodes();
    let exact = format!(
        "{:?}",
        exact(text.as_bytes(), "snap.json", &ReadFilter::default()).unwrap()
    );
    for threads in [1, 2, 4] {
        let s = super::read(
            text.as_bytes(),
            "snap.json",
            &ReadFilter::default(),
            threads,
            None,
        )
        .unwrap();
        assert_eq!(s.nodes.len(), 3000);
        assert_eq!(format!("{s:?}"), exact, "{threads} threads");
    }
}

#[test]
fn a_bad_node_deep_in_a_large_stream_is_located_as_on_one_thread() {
    let good = big_nodes();
    let read = stream_error;
    // Keys in order: Attributes, Datacenter, Drivers, ID, Meta, ..., Status.
    let id = good.find("\"n02501\"").unwrap();
    let status = id + good[id..].find("\"Status\":\"down\"").unwrap();
    let dc = good[..id].rfind("\"Datacenter\":\"dc1\"").unwrap();
    // A wrong type, found only by the thread that parses the node.
    let wrong = format!("{}\"Status\":5{}", &good[..status], &good[status + 15..]);
    let line = 1 + good[..status].matches('\n').count();
    let column = status - good[..status].rfind('\n').unwrap() + 9;
    assert_eq!(
        read(&wrong, 2),
        format!(
            "snap.json:{line}:{column}: at Nodes[2501]: invalid type: integer `5`, expected a string"
        )
    );
    // Bad JSON after a wrong type in the same node: the wrong type is said.
    let both = format!(
        "{}\"Datacenter\":5{}\"Status\":tru{}",
        &good[..dc],
        &good[dc + 18..status],
        &good[status + 15..]
    );
    // Bad JSON in a later, indented node: the earlier wrong type is said.
    let indented = wrong.find("\"n02700\"").unwrap() + 8;
    let later = format!("{} x{}", &wrong[..indented], &wrong[indented..]);
    // Bad JSON alone.
    let indented = good.find("\"n02700\"").unwrap() + 8;
    let broken = format!("{} x{}", &good[..indented], &good[indented..]);
    for text in [&wrong, &both, &later, &broken] {
        let one = read(text, 1);
        for threads in [2, 4] {
            assert_eq!(read(text, threads), one, "{threads} threads");
        }
    }
    assert!(read(&both, 2).contains("at Nodes[2501]: invalid type: integer `5`"));
    assert!(read(&later, 2).contains("at Nodes[2501]: invalid type: integer `5`"));
    assert!(
        read(&broken, 2).contains("at Nodes[2700]"),
        "{}",
        read(&broken, 2)
    );
}

/// A cluster of many small jobs over 16 MiB: 600 jobs of 5 versions in
/// `JobVersions`, about 6 KB each (one of 2 MB), the allocations embedding the last two
/// of each job (one of them as a variant), `Jobs` holding the latest; every
/// fourth version indented.
fn many_versions() -> String {
    let version = |j: usize, v: usize| {
        let mut job = job(&format!("j{j:03}"), v as u64);
        // One version of 2 MB, more than a batch: read where it lies.
        let times = if (j, v) == (7, 1) { 200_000 } else { 600 };
        job["Meta"] = json!({ "padding": format!("{j}-{v}-").repeat(times) });
        job["Status"] = json!("pending");
        job
    };
    let text = |job: &serde_json::Value, i: usize| match i % 4 {
        0 => serde_json::to_string_pretty(job).unwrap(),
        _ => job.to_string(),
    };
    let allocs: Vec<String> = (0..1200)
        .map(|i| {
            let (j, v) = (i / 2, 3 + i % 2);
            let mut embedded = version(j, v);
            if i % 3 == 0 {
                embedded["Status"] = json!("running");
            }
            let mut a = alloc(&format!("a{i:05}"), embedded);
            a["JobID"] = json!(format!("j{j:03}"));
            a.to_string()
        })
        .collect();
    let versions: Vec<String> = (0..3000)
        .map(|i| text(&version(i / 5, 4 - i % 5), i))
        .collect();
    let jobs: Vec<String> = (0..600).map(|j| text(&version(j, 4), j)).collect();
    let text = format!(
        "{{\"Allocs\":[{}],\"JobVersions\":[{}],\"Jobs\":[{}],\"Nodes\":[],\"Now\":\"2022-04-01T00:00:30Z\"}}",
        allocs.join(","),
        versions.join(",\n"),
        jobs.join(",")
    );
    assert!(text.len() > 16 << 20, "{} bytes", text.len());
    text
}

#[test]
fn job_versions_read_on_several_threads_are_the_ones_read_on_one() {
    let text = many_versions();
    let read = |threads: usize| {
        let filter = ReadFilter::default();
        super::read(text.as_bytes(), "snap.json", &filter, threads, None).unwrap()
    };
    // The exact walk parses each version apart; the fast walk shares an
    // embedded text's job with its variants, on any thread count.
    let one = format!("{:?}", read(1));
    for threads in [2, 4] {
        let s = read(threads);
        assert_eq!((s.job_versions.len(), s.jobs.len()), (3000, 600));
        // Compared by length and hash: a difference printed whole is megabytes.
        let many = format!("{s:?}");
        assert!(many.len() == one.len() && many == one, "{threads} threads");
        let embedded = |i: usize| s.allocs[i].job.clone().unwrap();
        let listed = |j: usize, v: usize| Arc::clone(&s.job_versions[j * 5 + 4 - v]);
        // Every fourth version is indented: its own text.
        for (i, shared) in [(0, true), (1, false), (3, true), (600, true), (601, false)] {
            let (j, v) = (i / 2, 3 + i % 2);
            let same = Arc::ptr_eq(&embedded(i), &listed(j, v));
            assert_eq!(same, shared, "{threads} threads, {i}");
        }
    }
}

#[test]
fn a_bad_job_version_deep_in_a_large_stream_is_located_as_on_one_thread() {
    let good = many_versions();
    let versions = good.find("\"JobVersions\":").unwrap();
    // Version 2 of j500 (JobVersions[2502]), parsed by a thread of the pool.
    let at = versions + good[versions..].find("\"j500\"").unwrap();
    let at = at + good[at..].find("\"Version\":2").unwrap();
    let wrong = format!("{}\"Version\":\"2\"{}", &good[..at], &good[at + 11..]);
    // Bad JSON in a later version.
    let later = at + good[at..].find("\"j520\"").unwrap();
    let broken = format!("{} x{}", &good[..later], &good[later..]);
    for text in [&wrong, &broken] {
        let one = stream_error(text, 1);
        for threads in [2, 4] {
            assert_eq!(stream_error(text, threads), one, "{threads} threads");
        }
    }
    let e = stream_error(&wrong, 2);
    assert!(
        e.contains("at JobVersions[2502].Version: invalid type: string \"2\""),
        "{e}"
    );
    let e = stream_error(&broken, 2);
    assert!(e.contains("at JobVersions[2600]"), "{e}");
}

/// The tests run the library as it ships: a dev-dependency that turned on
/// serde_json's `preserve_order` would change every `Map` under test.
#[test]
fn serde_json_is_built_as_it_ships() {
    let v: serde_json::Value = serde_json::from_str(r#"{"b": 1, "a": 2}"#).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["a", "b"]);
}

/// The inputs of later Nomad releases, read alike by both walks.
fn later_version_snapshot() -> String {
    let mut j = job("web", 1);
    j["NodePool"] = json!("default");
    j["VersionTag"] = json!({"Name": "golden", "Description": "", "TaggedTime": 0});
    j["TaskGroups"][0]["PreventRescheduleOnLost"] = json!(true);
    j["TaskGroups"][0]["MaxRunDuration"] = json!(3_600_000_000_000i64);
    j["TaskGroups"][0]["Disconnect"] = json!({"LostAfter": 900_000_000_000i64, "Replace": false,
        "Reconcile": "keep_original", "StopOnClientAfter": null});
    let mut a = alloc("a1", j.clone());
    a["RescheduleTracker"] = json!({"Events": null, "LastReschedule": "no placement"});
    a["DesiredTransition"] = json!({"Reschedule": true, "MigrateDisablePlacement": true});
    json!({"Jobs": [j], "Allocs": [a], "NomadVersion": "1.8",
           "Nodes": [{"ID": "n1", "Status": "ready", "NodePool": "gpu",
                      "Attributes": {"nomad.version": "1.8.2", "os.name": "ubuntu"}}]})
    .to_string()
}

#[test]
fn the_inputs_of_later_releases_are_read() {
    let text = later_version_snapshot();
    let s = ok(&text);
    let tg = &s.jobs[0].task_groups[0];
    assert!(tg.prevent_reschedule_on_lost);
    assert_eq!(tg.max_run_duration, Some(3_600 * crate::time::SECOND));
    let d = tg.disconnect.as_ref().unwrap();
    assert_eq!(d.lost_after, 900 * crate::time::SECOND);
    assert_eq!(d.replace, Some(false));
    assert_eq!(d.reconcile, "keep_original");
    assert_eq!(d.stop_on_client_after, None);
    assert_eq!(s.jobs[0].node_pool, "default");
    assert!(!s.jobs[0].version_tag.is_null());
    assert_eq!(s.nodes[0].node_pool, "gpu");
    assert_eq!(s.nodes[0].agent_version(), Some("1.8.2"));
    let a = &s.allocs[0];
    assert_eq!(
        a.reschedule_tracker.as_ref().unwrap().last_reschedule,
        "no placement"
    );
    assert!(a.desired_transition.should_disable_migration_placement());
    assert_eq!(
        s.nomad_version,
        Some(crate::version::VersionRequest::Release(crate::version::v(
            1, 8, 4
        )))
    );
    let fast = super::read(
        text.as_bytes(),
        "snap.json",
        &ReadFilter::default(),
        2,
        None,
    )
    .unwrap();
    let exact = exact(text.as_bytes(), "snap.json", &ReadFilter::default()).unwrap();
    assert_eq!(format!("{fast:?}"), format!("{exact:?}"));
}

#[test]
fn a_bad_nomad_version_key_is_located_and_lists_the_accepted_forms() {
    assert_eq!(
        err(r#"{"NomadVersion": "1.2"}"#),
        format!(
            "snap.json:1:23: at NomadVersion: \"1.2\" is not a Nomad version plan-inspect \
             replays; {}",
            crate::version::accepted()
        )
    );
}

/// A negative `Count` is one Nomad's validation refuses, and one past the
/// replay's bound would exhaust memory (2^40 once aborted the process):
/// both are refused where they stand, on any path.
#[test]
fn impossible_group_counts_are_refused_at_the_count() {
    let with_count = |count: &str| {
        format!(
            r#"{{"Jobs": [{{"ID": "web", "Namespace": "default", "Type": "service",
"TaskGroups": [{{"Name": "web", "Count": {count}}}]}}], "Nodes": [], "Allocs": []}}"#
        )
    };
    assert_eq!(
        err(&with_count("-1")),
        "snap.json:2:43: at Jobs[0].TaskGroups[0].Count: Count -1 is negative, which Nomad's job \
         validation refuses: the snapshot is damaged or edited; give the group a count of 0 or more"
    );
    assert_eq!(
        err(&with_count("1099511627776")),
        "snap.json:2:54: at Jobs[0].TaskGroups[0].Count: Count 1099511627776 is more than \
         plan-inspect replays (at most 4194304 allocations per task group); no Nomad scheduler \
         places that many in one evaluation"
    );
    assert_eq!(
        ok(&with_count("4194304")).jobs[0].task_groups[0].count,
        4194304
    );
    // In an allocation's embedded job, too.
    let mut bad = job("web", 1);
    bad["TaskGroups"][0]["Count"] = json!(-2);
    let e = err(&json!({"Jobs": [], "Nodes": [], "Allocs": [alloc("a1", bad)]}).to_string());
    assert!(e.contains("Count -2 is negative"), "{e}");
    assert!(e.contains("at Allocs[0]"), "{e}");
}

#[test]
fn nodes_after_a_copying_refill_of_a_file_read_on_several_threads() {
    // Read as a file (lines not counted), on two threads: a node longer
    // than the room before a block cannot be kept in it, so the block is
    // compacted in place and only partly filled; the node that then runs
    // past its end is kept at index 0 of the same block. Below 16 MiB the
    // input is kept whole and never compacted, so this is about the smallest
    // input that shows it: the long node across the first block boundary
    // after 16 MiB, and the next block's worth of short nodes.
    const BLOCK: usize = read_ahead::BLOCK;
    let boundary = 9 * BLOCK;
    let long_start = boundary - (read_ahead::ROOM + 24 * 1024);
    let node = |i: usize, pad: usize| {
        json!({"ID": format!("n{i:05}"), "Status": "ready", "Meta": {"pad": "m".repeat(pad)}})
            .to_string()
    };
    let mut text = format!("{{\"Nodes\":[{},", node(0, 10));
    text.push_str(&" ".repeat(long_start - text.len()));
    text.push_str(&node(1, 300 << 10));
    let mut i = 2;
    while text.len() < long_start + BLOCK + (512 << 10) {
        text.push(',');
        text.push_str(&node(i, 300));
        i += 1;
    }
    text.push_str("]}");
    let filter = ReadFilter::default();
    let reread: Reread<'_> = &|| panic!("the input is well-formed");
    let one = super::read(text.as_bytes(), "snap.json", &filter, 1, Some(reread)).unwrap();
    let two = super::read(text.as_bytes(), "snap.json", &filter, 2, Some(reread)).unwrap();
    assert_eq!(two.nodes.len(), i);
    assert_eq!(format!("{two:?}"), format!("{one:?}"));
}

/// Gives the start of a snapshot, then panics.
struct Faulty(bool);

impl Read for Faulty {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        assert!(!std::mem::replace(&mut self.0, true), "a faulty reader");
        buf[..11].copy_from_slice(b"{\"Nodes\": [");
        Ok(11)
    }
}

#[test]
fn a_panic_while_reading_is_an_error() {
    let e = read_snapshot_from(Faulty(false), "snap.json").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("snap.json: internal error in the reader (a scoped thread panicked)"),
        "{e}"
    );
}

/// Go's encoding/json reads a member that is `null` as a missing one; Nomad
/// 1.5.4 and later print `"LogConfig": {"Enabled": null, ...}`.
#[test]
fn a_null_member_reads_as_a_missing_one() {
    let mut j = job("web", 1);
    j["Stop"] = json!(null);
    j["Dispatched"] = json!(null);
    j["TaskGroups"][0]["Networks"] = json!([{"Mode": null,
        "ReservedPorts": [{"Label": "http", "Value": null, "To": null}]}]);
    j["TaskGroups"][0]["Tasks"] = json!([{"Name": "app", "Driver": null, "User": null,
        "LogConfig": {"Enabled": null, "Disabled": null, "MaxFiles": 10, "MaxFileSizeMB": 10}}]);
    let mut a = alloc("a1", j.clone());
    a["DesiredStatus"] = json!(null);
    a["AllocStates"] = json!([{"Field": null, "Value": "unknown", "Time": null}]);
    let with_nulls = json!({"Jobs": [j], "Allocs": [a],
        "Nodes": [{"ID": "n1", "Status": "ready", "Drain": null, "SchedulingEligibility": null}]})
    .to_string();
    let without = drop_nulls(serde_json::from_str(&with_nulls).unwrap()).to_string();
    assert!(!without.contains("null"));
    let reads = |text: &str| {
        let fast = super::read(text.as_bytes(), "s", &ReadFilter::default(), 2, None);
        let exact = exact(text.as_bytes(), "s", &ReadFilter::default());
        (
            format!("{:?}", fast.unwrap()),
            format!("{:?}", exact.unwrap()),
        )
    };
    let (fast, exact) = reads(&with_nulls);
    assert_eq!(fast, exact);
    assert_eq!((fast, exact), reads(&without));
}

/// `value` with every object member that is `null` removed.
fn drop_nulls(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Object(m) => m
            .into_iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| (k, drop_nulls(v)))
            .collect(),
        Value::Array(a) => a.into_iter().map(drop_nulls).collect(),
        v => v,
    }
}
