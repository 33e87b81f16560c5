//! The JSON document is a contract: these types mirror docs/json-schema.md
//! and reject unknown fields, so any change to the output shape fails here.
#![allow(dead_code)]

use std::collections::BTreeMap;

use plan_inspect::read::read_snapshot_from;
use plan_inspect::render;
use plan_inspect::replay::{Options, replay};
use plan_inspect::version::{Release, VersionRequest, v};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    schema_version: u32,
    now: String,
    now_source: String,
    eval_id: String,
    eval_priority: Option<i64>,
    supports_disconnected_clients: bool,
    nomad_version: NomadVersion,
    jobs: Vec<Job>,
    warnings: Vec<Warning>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NomadVersion {
    profile: String,
    source: String,
    evidence: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Warning {
    code: String,
    message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Job {
    namespace: String,
    id: String,
    #[serde(rename = "type")]
    job_type: String,
    version: u64,
    priority: i64,
    stopped: bool,
    purged: bool,
    groups: Vec<Group>,
    plan: Plan,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Group {
    name: String,
    count: i64,
    removed: bool,
    buckets: Buckets,
    set_aside: Vec<SetAside>,
    reschedule_now: Vec<String>,
    reschedule_later: Vec<Later>,
    desired_changes: DesiredChanges,
    /// System and sysbatch jobs only.
    #[serde(default)]
    system_diff: Option<SystemDiff>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SystemDiff {
    update: Vec<Entry>,
    migrate: Vec<Entry>,
    stop: Vec<Entry>,
    ignore: Vec<Entry>,
    lost: Vec<Entry>,
    filtered_nodes: Vec<FilteredNode>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FilteredNode {
    node_id: String,
    name: String,
    reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Buckets {
    untainted: Vec<Entry>,
    migrate: Vec<Entry>,
    lost: Vec<Entry>,
    disconnecting: Vec<Entry>,
    reconnecting: Vec<Entry>,
    ignore: Vec<Entry>,
    /// Nomad 1.7.2 on only.
    #[serde(default)]
    expiring: Option<Vec<Entry>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    id: String,
    name: String,
    node_id: String,
    node_status: Option<String>,
    client_status: String,
    desired_status: String,
    reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetAside {
    id: String,
    name: String,
    reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Later {
    id: String,
    at: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DesiredChanges {
    place: u64,
    stop: u64,
    migrate: u64,
    in_place_update: u64,
    destructive_update: u64,
    canary: u64,
    ignore: u64,
    preemptions: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Plan {
    stop: Vec<Stop>,
    place: Vec<Place>,
    destructive_update: Vec<Destructive>,
    in_place_update: Vec<InPlace>,
    disconnect_updates: Vec<FollowupUpdate>,
    reconnect_updates: Vec<Reconnect>,
    attribute_updates: Vec<FollowupUpdate>,
    followup_evals: Vec<FollowupEval>,
    deployment: Option<Deployment>,
    deployment_updates: Vec<DeploymentUpdate>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Stop {
    alloc_id: String,
    name: String,
    task_group: String,
    client_status: Option<String>,
    description: String,
    followup_eval_id: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Place {
    task_group: String,
    name: String,
    canary: bool,
    previous_alloc_id: Option<String>,
    reschedule: bool,
    lost: bool,
    downgrade_non_canary: bool,
    min_job_version: u64,
    /// System and sysbatch placements only.
    #[serde(default)]
    node_id: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Destructive {
    alloc_id: String,
    name: String,
    task_group: String,
    reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InPlace {
    alloc_id: String,
    name: String,
    deployment_id: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FollowupUpdate {
    alloc_id: String,
    followup_eval_id: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Reconnect {
    alloc_id: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FollowupEval {
    id: String,
    triggered_by: String,
    wait_until: String,
    status_description: String,
    task_group: String,
    alloc_ids: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Deployment {
    id: String,
    status: String,
    status_description: String,
    job_version: u64,
    groups: BTreeMap<String, DeploymentGroup>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeploymentGroup {
    desired_total: i64,
    desired_canaries: i64,
    auto_revert: bool,
    auto_promote: bool,
    promoted: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeploymentUpdate {
    deployment_id: String,
    status: String,
    status_description: String,
}

/// The fixtures that together produce every field of the schema.
const FIXTURES: [&str; 6] = [
    "example.json",
    "mixed-cluster.json",
    "rollout.json",
    "evals.json",
    "incidents/rolling-update-canary.json",
    "incidents/failed-alloc-reschedule.json",
];

fn document(fixture: &str) -> Document {
    document_with(fixture, &Options::default())
}

fn document_with(fixture: &str, options: &Options) -> Document {
    let path = format!("{}/fixtures/{fixture}", env!("CARGO_MANIFEST_DIR"));
    let snapshot = read_snapshot_from(std::fs::File::open(path).unwrap(), fixture).unwrap();
    let json = render::json::render(&replay(&snapshot, options).unwrap());
    serde_json::from_str(&json)
        .unwrap_or_else(|e| panic!("{fixture}: output does not match the schema: {e}"))
}

#[test]
fn every_fixture_matches_the_schema() {
    for fixture in FIXTURES {
        let doc = document(fixture);
        assert_eq!(doc.schema_version, 1);
        assert!(!doc.jobs.is_empty());
    }
}

#[test]
fn the_fixtures_cover_every_bucket_and_plan_entry() {
    let with_eval = Options {
        eval: Some("5f2c".to_string()),
        ..Options::default()
    };
    let mut docs: Vec<Document> = FIXTURES.iter().map(|f| document(f)).collect();
    docs.push(document_with("evals.json", &with_eval));
    assert!(docs.iter().any(|d| d.eval_priority == Some(70)));
    assert!(docs.iter().any(|d| d.eval_priority.is_none()));
    let jobs = || docs.iter().flat_map(|d| &d.jobs);
    let groups = || jobs().flat_map(|j| &j.groups);
    assert!(groups().any(|g| !g.buckets.untainted.is_empty()));
    assert!(groups().any(|g| !g.buckets.migrate.is_empty()));
    assert!(groups().any(|g| !g.buckets.lost.is_empty()));
    assert!(groups().any(|g| !g.buckets.disconnecting.is_empty()));
    assert!(groups().any(|g| !g.buckets.reconnecting.is_empty()));
    assert!(groups().any(|g| !g.buckets.ignore.is_empty()));
    assert!(groups().any(|g| g.removed));
    assert!(jobs().any(|j| j.purged));
    let plans = || jobs().map(|j| &j.plan);
    assert!(plans().any(|p| !p.stop.is_empty()));
    assert!(plans().any(|p| p.place.iter().any(|pl| pl.canary)));
    assert!(plans().any(|p| !p.in_place_update.is_empty()));
    assert!(plans().any(|p| !p.disconnect_updates.is_empty()));
    assert!(plans().any(|p| !p.reconnect_updates.is_empty()));
    assert!(plans().any(|p| !p.attribute_updates.is_empty()));
    assert!(plans().any(|p| !p.followup_evals.is_empty()));
    assert!(plans().any(|p| p.deployment.is_some()));
    assert!(plans().any(|p| !p.deployment_updates.is_empty()));
    assert!(plans().any(|p| !p.destructive_update.is_empty()));
    assert!(groups().any(|g| !g.set_aside.is_empty()));
    assert!(groups().any(|g| !g.reschedule_later.is_empty()));
    assert!(groups().any(|g| !g.reschedule_now.is_empty()));
}

#[test]
fn system_jobs_carry_their_diff_and_place_on_nodes_and_others_do_not() {
    let doc = document("mixed-cluster.json");
    for job in &doc.jobs {
        let system = matches!(job.job_type.as_str(), "system" | "sysbatch");
        assert!(
            job.groups.iter().all(|g| g.system_diff.is_some() == system),
            "{}",
            job.id
        );
        assert!(
            job.plan.place.iter().all(|p| p.node_id.is_some() == system),
            "{}",
            job.id
        );
        if system {
            assert!(job.plan.deployment.is_none());
        }
    }
    let groups = || {
        doc.jobs
            .iter()
            .flat_map(|j| &j.groups)
            .filter_map(|g| g.system_diff.as_ref())
    };
    assert!(groups().any(|d| !d.update.is_empty()));
    assert!(groups().any(|d| !d.migrate.is_empty()));
    assert!(groups().any(|d| !d.ignore.is_empty()));
    assert!(groups().any(|d| !d.lost.is_empty()));
    assert!(groups().any(|d| !d.filtered_nodes.is_empty()));
    // The service and batch jobs' documents have neither field.
    let path = format!("{}/fixtures/example.json", env!("CARGO_MANIFEST_DIR"));
    let snapshot = read_snapshot_from(std::fs::File::open(path).unwrap(), "example.json").unwrap();
    let json = render::json::render(&replay(&snapshot, &Options::default()).unwrap());
    assert!(!json.contains("system_diff") && !json.contains("\"node_id\": null"));
}

/// The seventh bucket is a key of every group from 1.7.2 on, and of none
/// before, so that older profiles keep the six keys of the seed.
#[test]
fn the_expiring_bucket_is_a_key_from_1_7_2_on() {
    let as_release = |release| Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    };
    let fixture = "incidents/disconnect-expired.json";
    for release in [Release::Seed, v(1, 7, 1)] {
        let doc = document_with(fixture, &as_release(release));
        let groups = || doc.jobs.iter().flat_map(|j| &j.groups);
        assert!(groups().all(|g| g.buckets.expiring.is_none()), "{release}");
        assert!(groups().any(|g| !g.buckets.lost.is_empty()), "{release}");
    }
    let doc = document_with(fixture, &as_release(v(1, 7, 2)));
    let groups = || doc.jobs.iter().flat_map(|j| &j.groups);
    assert!(groups().all(|g| g.buckets.expiring.is_some()));
    assert!(groups().any(|g| g.buckets.expiring.as_ref().is_some_and(|e| !e.is_empty())));
}

#[test]
fn nomad_version_names_the_profile_its_source_and_the_evidence() {
    let text = r#"{"Now": "2024-06-01T00:00:00Z", "NomadVersion": "1.7",
        "Jobs": [{"ID": "web", "Namespace": "default", "Type": "service",
                  "TaskGroups": [{"Name": "web", "Count": 1,
                                  "Disconnect": {"LostAfter": 900000000000}}]}],
        "Nodes": [], "Allocs": []}"#;
    let snapshot = read_snapshot_from(text.as_bytes(), "snap.json").unwrap();
    let doc = |options: &Options| -> Document {
        serde_json::from_str(&render::json::render(&replay(&snapshot, options).unwrap())).unwrap()
    };
    let v = doc(&Options::default()).nomad_version;
    assert_eq!(
        (v.profile.as_str(), v.source.as_str()),
        ("1.7.7", "snapshot")
    );
    assert_eq!(
        v.evidence.as_deref(),
        Some(
            "Nomad 1.8.0 or later: a task group has a disconnect block (default/web version 0 \
             group web)"
        )
    );
    let flag = Options {
        nomad_version: Some(VersionRequest::Auto),
        ..Options::default()
    };
    let v = doc(&flag).nomad_version;
    assert_eq!((v.profile.as_str(), v.source.as_str()), ("1.8.0", "flag"));
    let v = document("example.json").nomad_version;
    assert_eq!(
        (v.profile.as_str(), v.source.as_str(), v.evidence),
        ("seed", "default", None)
    );
}
