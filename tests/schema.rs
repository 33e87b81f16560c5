//! The JSON document is a contract: these types mirror docs/json-schema.md
//! and reject unknown fields, and each document read into them must write
//! back as the same JSON, so any change to the output shape fails here.

use std::collections::{BTreeMap, BTreeSet};

use plan_inspect::read::read_snapshot_from;
use plan_inspect::render;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::version::{Release, VersionRequest, v};
use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Deserialize, Serialize)]
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

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct NomadVersion {
    profile: String,
    source: String,
    evidence: Option<String>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Warning {
    code: String,
    message: String,
}

#[derive(Deserialize, Serialize)]
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

#[derive(Deserialize, Serialize)]
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    system_diff: Option<SystemDiff>,
    allocations: Vec<Allocation>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Allocation {
    id: String,
    name: String,
    bucket: String,
    fate: String,
    reason: String,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct SystemDiff {
    update: Vec<Entry>,
    migrate: Vec<Entry>,
    stop: Vec<Entry>,
    ignore: Vec<Entry>,
    lost: Vec<Entry>,
    filtered_nodes: Vec<FilteredNode>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct FilteredNode {
    node_id: String,
    name: String,
    reason: String,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Buckets {
    untainted: Vec<Entry>,
    migrate: Vec<Entry>,
    lost: Vec<Entry>,
    disconnecting: Vec<Entry>,
    reconnecting: Vec<Entry>,
    ignore: Vec<Entry>,
    /// Nomad 1.7.2 on only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    expiring: Option<Vec<Entry>>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    id: String,
    name: String,
    node_id: String,
    node_status: Option<String>,
    client_status: String,
    desired_status: String,
    job_version: u64,
    canary: bool,
    reason: String,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct SetAside {
    id: String,
    name: String,
    job_version: u64,
    canary: bool,
    reason: String,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Later {
    id: String,
    at: String,
}

#[derive(Deserialize, Serialize)]
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
    disconnect: u64,
    reconnect: u64,
    reschedule_now: u64,
    reschedule_later: u64,
}

#[derive(Deserialize, Serialize)]
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
    failed_placements: Vec<FailedPlacement>,
    blocked_eval: Option<BlockedEval>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    more_blocked_evals: Vec<BlockedEval>,
    queued_allocations: BTreeMap<String, u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    preemptions: Vec<Preemption>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scheduler_config: Option<SchedulerConfig>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct SchedulerConfig {
    node_pool: String,
    scheduler_algorithm: String,
    memory_oversubscription_enabled: bool,
    set_by_node_pool: Vec<String>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Preemption {
    alloc_id: String,
    name: String,
    node_id: String,
    namespace: String,
    job_id: String,
    job_priority: i64,
    preempted_by: String,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct FailedPlacement {
    task_group: String,
    count: u64,
    metrics: AllocMetric,
    nearest_miss: Option<NearestMiss>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct AllocMetric {
    nodes_evaluated: u64,
    nodes_filtered: u64,
    nodes_in_pool: u64,
    nodes_available: BTreeMap<String, u64>,
    class_filtered: BTreeMap<String, u64>,
    constraint_filtered: BTreeMap<String, u64>,
    nodes_exhausted: u64,
    class_exhausted: BTreeMap<String, u64>,
    dimension_exhausted: BTreeMap<String, u64>,
    quota_exhausted: Vec<String>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct NearestMiss {
    node_id: String,
    node_name: String,
    dimension: String,
    lacks: Option<i64>,
    unit: Option<String>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct BlockedEval {
    id: String,
    status: String,
    triggered_by: String,
    status_description: String,
    class_eligibility: BTreeMap<String, bool>,
    escaped_computed_class: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    node_id: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    reblocked: bool,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Stop {
    alloc_id: String,
    name: String,
    task_group: String,
    client_status: Option<String>,
    description: String,
    followup_eval_id: Option<String>,
}

#[derive(Deserialize, Serialize)]
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
    /// Only for a placement made with an older job version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    job_version: Option<u64>,
    /// Null exactly for a failed placement.
    node_id: Option<String>,
    /// Null for a failed placement and for system placements.
    score: Option<f64>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Destructive {
    alloc_id: String,
    name: String,
    task_group: String,
    reason: String,
    /// From Nomad 1.5.2 on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    label: Option<String>,
    /// Null when the replacement found no node.
    node_id: Option<String>,
    score: Option<f64>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct InPlace {
    alloc_id: String,
    name: String,
    deployment_id: Option<String>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct FollowupUpdate {
    alloc_id: String,
    followup_eval_id: String,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Reconnect {
    alloc_id: String,
    /// From C-1 (1.3.8, 1.4.3, 1.5.0) on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    alloc_state: Option<AllocState>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct AllocState {
    field: String,
    value: String,
    time: String,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct FollowupEval {
    id: String,
    triggered_by: String,
    wait_until: String,
    status_description: String,
    task_group: String,
    alloc_ids: Vec<String>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Deployment {
    id: String,
    status: String,
    status_description: String,
    job_version: u64,
    groups: BTreeMap<String, DeploymentGroup>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct DeploymentGroup {
    desired_total: i64,
    desired_canaries: i64,
    auto_revert: bool,
    auto_promote: bool,
    promoted: bool,
}

#[derive(Deserialize, Serialize)]
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

/// The document of `fixture` replaying `release`.
fn document_at(fixture: &str, release: Release) -> Document {
    let options = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    };
    document_with(fixture, &options)
}

fn document_with(fixture: &str, options: &Options) -> Document {
    let path = format!("{}/fixtures/{fixture}", env!("CARGO_MANIFEST_DIR"));
    let snapshot = read_snapshot_from(std::fs::File::open(path).unwrap(), fixture).unwrap();
    let json = render::json::render(&Replay::new(&snapshot, options).unwrap().report());
    typed(fixture, &json)
}

/// The document read into the mirror types, which must hold all of it: it
/// writes back as the same JSON.
fn typed(name: &str, json: &str) -> Document {
    let doc: Document = serde_json::from_str(json)
        .unwrap_or_else(|e| panic!("{name}: output does not match the schema: {e}"));
    let original: Value = serde_json::from_str(json).unwrap();
    assert_eq!(serde_json::to_value(&doc).unwrap(), original, "{name}");
    doc
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
    let changes = || groups().map(|g| &g.desired_changes);
    assert!(changes().any(|c| c.disconnect > 0));
    assert!(changes().any(|c| c.reconnect > 0));
    assert!(changes().any(|c| c.reschedule_now > 0));
    assert!(changes().any(|c| c.reschedule_later > 0));
    let entries = || {
        groups().flat_map(|g| {
            let b = &g.buckets;
            [
                &b.untainted,
                &b.migrate,
                &b.lost,
                &b.disconnecting,
                &b.reconnecting,
                &b.ignore,
            ]
            .into_iter()
            .flatten()
        })
    };
    assert!(entries().any(|e| e.canary));
    assert!(entries().any(|e| !e.canary));
    assert!(entries().any(|e| e.job_version > 0));
    assert!(
        entries()
            .map(|e| e.job_version)
            .collect::<BTreeSet<_>>()
            .len()
            > 1
    );
    let set_aside = || groups().flat_map(|g| &g.set_aside);
    assert!(set_aside().any(|s| s.job_version > 0));
}

/// The extra counts are those of the plan and the reschedule lists, and the
/// entry's version and canary mark are its allocation's.
#[test]
fn desired_changes_count_the_plan_and_entries_carry_version_and_canary() {
    for fixture in FIXTURES {
        for job in document(fixture).jobs {
            for g in &job.groups {
                let c = &g.desired_changes;
                assert_eq!(c.reschedule_now, g.reschedule_now.len() as u64, "{fixture}");
                assert_eq!(
                    c.reschedule_later,
                    g.reschedule_later.len() as u64,
                    "{fixture}"
                );
            }
            let sum = |f: fn(&DesiredChanges) -> u64| -> u64 {
                job.groups.iter().map(|g| f(&g.desired_changes)).sum()
            };
            assert_eq!(
                sum(|c| c.disconnect),
                job.plan.disconnect_updates.len() as u64,
                "{fixture}"
            );
            assert_eq!(
                sum(|c| c.reconnect),
                job.plan.reconnect_updates.len() as u64,
                "{fixture}"
            );
        }
    }
    let doc = document("incidents/rolling-update-canary.json");
    let entries: Vec<(&str, u64, bool)> = doc.jobs[0].groups[0]
        .buckets
        .untainted
        .iter()
        .map(|e| (e.name.as_str(), e.job_version, e.canary))
        .collect();
    assert_eq!(
        entries,
        [
            ("web.web[0]", 1, false),
            ("web.web[1]", 1, false),
            ("web.web[2]", 1, false),
            ("web.web[0]", 2, true),
        ]
    );
}

/// Where each allocation of a group sits, as (ID, bucket or set): the
/// buckets, the system diff's sets and the set-aside list.
fn placed_entries(g: &Group) -> BTreeSet<(String, String)> {
    let b = &g.buckets;
    let mut sets: Vec<(&str, &Vec<Entry>)> = vec![
        ("untainted", &b.untainted),
        ("migrate", &b.migrate),
        ("lost", &b.lost),
        ("disconnecting", &b.disconnecting),
        ("reconnecting", &b.reconnecting),
        ("ignore", &b.ignore),
    ];
    sets.extend(b.expiring.iter().map(|e| ("expiring", e)));
    if let Some(d) = &g.system_diff {
        sets.extend([
            ("update", &d.update),
            ("migrate", &d.migrate),
            ("stop", &d.stop),
            ("ignore", &d.ignore),
            ("lost", &d.lost),
        ]);
    }
    let mut out: BTreeSet<(String, String)> = sets
        .into_iter()
        .flat_map(|(set, es)| es.iter().map(move |e| (e.id.clone(), set.to_string())))
        .collect();
    out.extend(
        g.set_aside
            .iter()
            .map(|s| (s.id.clone(), "set_aside".to_string())),
    );
    out
}

/// `allocations` lists each allocation of a group once, sorted, with the
/// bucket it sits in, and its fate is untouched exactly when no plan list
/// names it; service, batch, system and sysbatch jobs alike.
#[test]
fn allocations_list_every_allocation_once_with_its_bucket_and_fate() {
    let mut fates = BTreeSet::new();
    let mut types = BTreeSet::new();
    for fixture in FIXTURES {
        for release in [v(1, 3, 0), v(1, 7, 2), v(2, 0, 5)] {
            for job in document_at(fixture, release).jobs {
                let p = &job.plan;
                let named: BTreeSet<&str> = p
                    .stop
                    .iter()
                    .map(|s| s.alloc_id.as_str())
                    .chain(
                        p.place
                            .iter()
                            .filter_map(|x| x.previous_alloc_id.as_deref()),
                    )
                    .chain(p.destructive_update.iter().map(|d| d.alloc_id.as_str()))
                    .chain(p.in_place_update.iter().map(|u| u.alloc_id.as_str()))
                    .chain(p.disconnect_updates.iter().map(|u| u.alloc_id.as_str()))
                    .chain(p.attribute_updates.iter().map(|u| u.alloc_id.as_str()))
                    .chain(p.reconnect_updates.iter().map(|u| u.alloc_id.as_str()))
                    .collect();
                for g in &job.groups {
                    let listed: Vec<(String, String)> = g
                        .allocations
                        .iter()
                        .map(|a| (a.id.clone(), a.bucket.clone()))
                        .collect();
                    let placed = placed_entries(g);
                    assert_eq!(listed.len(), placed.len(), "{fixture} {}", job.id);
                    assert_eq!(
                        listed.into_iter().collect::<BTreeSet<_>>(),
                        placed,
                        "{fixture} {}",
                        job.id
                    );
                    assert!(g.allocations.is_sorted_by(|a, b| a.id <= b.id));
                    for a in &g.allocations {
                        assert_eq!(
                            a.fate == "untouched",
                            !named.contains(a.id.as_str()),
                            "{fixture} {} {}",
                            job.id,
                            a.name
                        );
                        fates.insert(a.fate.clone());
                    }
                    if !g.allocations.is_empty() {
                        types.insert(job.job_type.clone());
                    }
                }
            }
        }
    }
    assert_eq!(
        types,
        ["batch", "service", "sysbatch", "system"]
            .map(String::from)
            .into()
    );
    // `reschedule_now` and `replace` are in no fixture: the unit tests of
    // `report::fate` cover them.
    for fate in [
        "untouched",
        "stop",
        "lost",
        "migrate",
        "reschedule_later",
        "destructive_update",
        "in_place_update",
        "disconnect",
        "reconnect",
    ] {
        assert!(
            fates.contains(fate),
            "no fixture's allocation is {fate}: {fates:?}"
        );
    }
}

#[test]
fn system_jobs_carry_their_diff_and_only_other_placements_a_score() {
    let doc = document("mixed-cluster.json");
    for job in &doc.jobs {
        let system = matches!(job.job_type.as_str(), "system" | "sysbatch");
        assert!(
            job.groups.iter().all(|g| g.system_diff.is_some() == system),
            "{}",
            job.id
        );
        // System placements are on nodes and unranked; the others carry
        // a score exactly when a node took them.
        assert!(
            job.plan.place.iter().all(|p| match system {
                true => p.node_id.is_some() && p.score.is_none(),
                false => p.node_id.is_some() == p.score.is_some(),
            }),
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
    let json = render::json::render(
        &Replay::new(&snapshot, &Options::default())
            .unwrap()
            .report(),
    );
    assert!(!json.contains("system_diff"));
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

/// A reconnect update carries the state it appends from C-1 on (1.3.8,
/// 1.4.3, 1.5.0): the allocation's client status at the evaluation time.
#[test]
fn a_reconnect_update_carries_its_alloc_state_from_c_1_on() {
    let states = |release| {
        let doc = document_at("incidents/client-reconnected.json", release);
        let now = doc.now.clone();
        let all: Vec<Option<(String, String, bool)>> = doc
            .jobs
            .iter()
            .flat_map(|j| &j.plan.reconnect_updates)
            .map(|u| {
                u.alloc_state
                    .as_ref()
                    .map(|s| (s.field.clone(), s.value.clone(), s.time == now))
            })
            .collect();
        assert!(!all.is_empty(), "{release}");
        all
    };
    assert!(states(Release::Seed).iter().all(Option::is_none));
    let running = Some(("ClientStatus".to_string(), "running".to_string(), true));
    for release in [v(1, 3, 8), v(1, 4, 3), v(1, 5, 0)] {
        assert!(states(release).iter().all(|s| *s == running), "{release}");
    }
}

/// `label` is Nomad's name for the difference, which it gives from 1.5.2 on.
#[test]
fn a_destructive_update_carries_nomad_s_label_from_1_5_2_on() {
    let labels = |release| {
        let doc = document_at("incidents/rolling-update-canary.json", release);
        let all: Vec<(String, Option<String>)> = doc
            .jobs
            .iter()
            .flat_map(|j| &j.plan.destructive_update)
            .map(|d| (d.reason.clone(), d.label.clone()))
            .collect();
        assert!(!all.is_empty(), "{release}");
        all
    };
    for release in [Release::Seed, v(1, 5, 1)] {
        assert!(
            labels(release).iter().all(|(_, l)| l.is_none()),
            "{release}"
        );
    }
    for release in [v(1, 5, 2), v(1, 6, 0), Release::Head] {
        for (reason, label) in labels(release) {
            assert!(reason.ends_with(": config changed"), "{reason}");
            assert_eq!(label.as_deref(), Some("task config"), "{release}");
        }
    }
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
        typed(
            "snap.json",
            &render::json::render(&Replay::new(&snapshot, options).unwrap().report()),
        )
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

/// A field as docs/json-schema.md describes it: a value, an object of named
/// fields (named by its section, or by where it is defined inline), or a map
/// whose keys are data (task group names).
#[derive(Clone, Debug)]
enum Shape {
    Leaf,
    Object(String, BTreeMap<String, Shape>),
    Map(Box<Shape>),
}

type Tables = BTreeMap<String, Vec<(Vec<String>, String)>>;

/// The field tables of docs/json-schema.md by section heading (the type
/// name): for each row, the field names and the type column.
fn schema_tables() -> Tables {
    let page = include_str!("../docs/json-schema.md");
    let name = Regex::new(r"`([a-z_]+)`").unwrap();
    let mut tables = Tables::new();
    let mut section = String::new();
    for line in page.lines() {
        if let Some(heading) = line.strip_prefix("## ").or(line.strip_prefix("### ")) {
            section = heading.trim().to_string();
        } else if line.starts_with("| `") {
            let cells: Vec<&str> = line.split('|').collect();
            let names = name.captures_iter(cells[1]).map(|c| c[1].to_string());
            let row = (names.collect(), cells[2].trim().to_string());
            tables.entry(section.clone()).or_default().push(row);
        }
    }
    tables
}

/// The shape of the type `name` (a section of the page).
fn schema_shape(tables: &Tables, name: &str) -> Shape {
    schema_shape_within(tables, name, 0)
}

/// How deep a type may nest in itself (an ObjectDiff's objects) before the
/// shape stops: deeper than any document the tests walk.
const NESTING: usize = 6;

fn schema_shape_within(tables: &Tables, name: &str, depth: usize) -> Shape {
    let mut fields = BTreeMap::new();
    if depth > NESTING {
        return Shape::Leaf;
    }
    for (names, ty) in &tables[name] {
        for n in names {
            let shape = type_column_shape(tables, ty, &format!("{name}.{n}"), depth + 1);
            fields.insert(n.clone(), shape);
        }
    }
    Shape::Object(name.to_string(), fields)
}

/// A type column: a type the page defines (`array of Entry`), inline fields
/// (`{id, at}`, optionally `plus `node_id``, each of a named type if one is
/// given: `{untainted, ...}, each an array of Entry`), a `map of` such or of
/// plain values, or a plain value. `at` names an inline object.
fn type_column_shape(tables: &Tables, ty: &str, at: &str, depth: usize) -> Shape {
    let word = Regex::new(r"\b[A-Z][A-Za-z]+\b").unwrap();
    let named = word
        .find_iter(ty)
        .map(|m| m.as_str())
        .find(|w| tables.contains_key(*w))
        .map(|w| schema_shape_within(tables, w, depth));
    let Some(inline) = Regex::new(r"\{([^}]*)\}").unwrap().captures(ty) else {
        let shape = named.unwrap_or(Shape::Leaf);
        return if ty.starts_with("map of") {
            Shape::Map(Box::new(shape))
        } else {
            shape
        };
    };
    let each = named.unwrap_or(Shape::Leaf);
    let mut fields: BTreeMap<String, Shape> = inline[1]
        .split(',')
        .map(|f| (f.trim().to_string(), each.clone()))
        .collect();
    let plus = Regex::new(r"plus `([a-z_]+)`").unwrap();
    for extra in plus.captures_iter(ty) {
        fields.insert(extra[1].to_string(), Shape::Leaf);
    }
    let object = Shape::Object(at.to_string(), fields);
    if ty.starts_with("map of") {
        Shape::Map(Box::new(object))
    } else {
        object
    }
}

/// Walks `value` along `shape` (arrays are transparent), recording each
/// field met, as (object, field), and each field the page does not describe.
fn walk(
    path: &str,
    value: &Value,
    shape: &Shape,
    met: &mut BTreeSet<(String, String)>,
    odd: &mut BTreeSet<String>,
) {
    match (value, shape) {
        (Value::Array(items), _) => {
            for item in items {
                walk(path, item, shape, met, odd);
            }
        }
        (Value::Object(map), Shape::Object(object, fields)) => {
            for (key, v) in map {
                let p = format!("{path}.{key}");
                match fields.get(key) {
                    Some(s) => {
                        walk(&p, v, s, met, odd);
                        met.insert((object.clone(), key.clone()));
                    }
                    None => {
                        odd.insert(format!("{p} is not documented"));
                    }
                }
            }
        }
        (Value::Object(map), Shape::Map(inner)) => {
            for v in map.values() {
                walk(&format!("{path}.*"), v, inner, met, odd);
            }
        }
        (Value::Object(_), Shape::Leaf) => {
            odd.insert(format!("{path} is an undocumented object"));
        }
        _ => {}
    }
}

/// Every field the page documents, as (object, field).
fn documented(shape: &Shape, out: &mut BTreeSet<(String, String)>) {
    match shape {
        Shape::Leaf => {}
        Shape::Object(object, fields) => {
            for (name, s) in fields {
                documented(s, out);
                out.insert((object.clone(), name.clone()));
            }
        }
        Shape::Map(inner) => documented(inner, out),
    }
}

/// docs/json-schema.md names every field the fixtures' documents have, and
/// every field it names is in one of them.
#[test]
fn the_schema_page_names_every_field_and_only_those() {
    let tables = schema_tables();
    let root = schema_shape(&tables, "Document");
    let (mut met, mut odd) = (BTreeSet::new(), BTreeSet::new());
    for fixture in FIXTURES {
        let path = format!("{}/fixtures/{fixture}", env!("CARGO_MANIFEST_DIR"));
        let snapshot = read_snapshot_from(std::fs::File::open(path).unwrap(), fixture).unwrap();
        let json = render::json::render(
            &Replay::new(&snapshot, &Options::default())
                .unwrap()
                .report(),
        );
        let value: Value = serde_json::from_str(&json).unwrap();
        walk("$", &value, &root, &mut met, &mut odd);
    }
    // Keys of later releases: the expiring bucket (1.7.2 on), the label
    // of a destructive update (1.5.2 on), the state a reconnect update
    // appends (1.3.8 on).
    for (fixture, release) in [
        ("incidents/disconnect-expired.json", v(1, 7, 2)),
        ("incidents/rolling-update-canary.json", v(1, 5, 2)),
        ("incidents/client-reconnected.json", v(1, 3, 8)),
    ] {
        let doc = serde_json::to_value(document_at(fixture, release)).unwrap();
        walk("$", &doc, &root, &mut met, &mut odd);
    }
    for doc in job_plan_documents() {
        walk("$", &doc, &root, &mut met, &mut odd);
    }
    // A failed placement and its blocked evaluation, as the library writes
    // them, in a plan of a fixture's document.
    let mut doc = serde_json::to_value(document("example.json")).unwrap();
    doc["jobs"][0]["plan"]["failed_placements"] = failed_placement_json();
    doc["jobs"][0]["plan"]["blocked_eval"] = blocked_eval_json();
    doc["jobs"][0]["plan"]["more_blocked_evals"] = Value::Array(vec![blocked_eval_json()]);
    doc["jobs"][0]["plan"]["preemptions"] = preemption_json();
    doc["jobs"][0]["plan"]["place"] = downgraded_place_json();
    doc["jobs"][0]["plan"]["scheduler_config"] = pool_config_json();
    walk("$", &doc, &root, &mut met, &mut odd);
    assert_eq!(odd, BTreeSet::new());
    let mut all = BTreeSet::new();
    documented(&root, &mut all);
    let missing: Vec<_> = all.difference(&met).collect();
    assert_eq!(
        missing,
        Vec::<&(String, String)>::new(),
        "documented, never output"
    );
    // The walk reaches the nested and mapped objects.
    for (object, field) in [("Entry", "reason"), ("Deployment.groups", "promoted")] {
        assert!(met.contains(&(object.to_string(), field.to_string())));
    }
    assert!(all.len() > 80, "{} fields documented", all.len());
}

/// The `--job-file` documents of the bundled example: the image change,
/// and the same job under a new ID (a new job).
fn job_plan_documents() -> Vec<Value> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/job-plan");
    let text = std::fs::read_to_string(format!("{dir}/web.json")).unwrap();
    [
        text.clone(),
        text.replace("\"ID\": \"web\"", "\"ID\": \"api\""),
    ]
    .iter()
    .map(|job| {
        let job = plan_inspect::read::parse_job_file(job.as_bytes(), "web.json").unwrap();
        let key = plan_inspect::job_plan::job_key(&job);
        let filter = plan_inspect::read::ReadFilter {
            keep_job_text: Some(key),
            ..Default::default()
        };
        let source = plan_inspect::read::Source::Path(format!("{dir}/snapshot.json").into());
        let snapshot = plan_inspect::read::read_snapshot_filtered(&source, &filter).unwrap();
        let (report, plan) =
            plan_inspect::job_plan::plan_job(&snapshot, job, &Options::default()).unwrap();
        serde_json::from_str(&render::json::render_job_plan(&report, &plan)).unwrap()
    })
    .collect()
}

/// A job plan's document holds the report's fields and `job_plan`, and
/// nothing else: read into the mirror types it writes back the same.
#[test]
fn job_plan_documents_match_the_schema() {
    for doc in job_plan_documents() {
        let typed: PlanDocument = serde_json::from_value(doc.clone()).unwrap();
        assert_eq!(serde_json::to_value(&typed).unwrap(), doc);
        assert_eq!(typed.document.jobs.len(), 1);
    }
}

#[derive(Deserialize, Serialize)]
struct PlanDocument {
    #[serde(flatten)]
    document: Document,
    job_plan: JobPlan,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct JobPlan {
    job_modify_index: u64,
    next_periodic_launch: Option<String>,
    warnings: Vec<String>,
    diff: JobDiff,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct JobDiff {
    #[serde(rename = "type")]
    kind: String,
    id: String,
    fields: Vec<FieldDiff>,
    objects: Vec<ObjectDiff>,
    task_groups: Vec<TaskGroupDiff>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct TaskGroupDiff {
    #[serde(rename = "type")]
    kind: String,
    name: String,
    updates: BTreeMap<String, u64>,
    fields: Vec<FieldDiff>,
    objects: Vec<ObjectDiff>,
    tasks: Vec<TaskDiff>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct TaskDiff {
    #[serde(rename = "type")]
    kind: String,
    name: String,
    annotations: Vec<String>,
    fields: Vec<FieldDiff>,
    objects: Vec<ObjectDiff>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct ObjectDiff {
    #[serde(rename = "type")]
    kind: String,
    name: String,
    fields: Vec<FieldDiff>,
    objects: Vec<ObjectDiff>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct FieldDiff {
    #[serde(rename = "type")]
    kind: String,
    name: String,
    old: String,
    new: String,
    annotations: Vec<String>,
}

/// A failed placement as the library serializes it, with every field set.
/// A placement made with an older job version, as the library writes it.
fn downgraded_place_json() -> Value {
    use plan_inspect::report::{PlanPlace, Score};
    let place = PlanPlace {
        task_group: "web".into(),
        name: "web.web[1]".to_string(),
        canary: false,
        previous_alloc_id: Some("a1".into()),
        reschedule: true,
        lost: false,
        downgrade_non_canary: true,
        min_job_version: 1,
        job_version: Some(1),
        deployment_id: Some(None),
        node_id: Some("n1".into()),
        score: Some(Score(0.5)),
    };
    let value = serde_json::to_value(vec![place]).unwrap();
    assert_eq!(value[0]["job_version"], 1);
    let typed: Vec<Place> = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(serde_json::to_value(typed).unwrap(), value);
    value
}

fn failed_placement_json() -> Value {
    use plan_inspect::report::{
        AllocMetric as Metric, FailedPlacement as Failed, NearestMiss as Miss,
    };
    let mut metrics = Metric {
        nodes_evaluated: 3,
        nodes_in_pool: 3,
        ..Metric::default()
    };
    metrics.nodes_available.insert("dc1".to_string(), 3);
    metrics.filter_node("large", "${attr.kernel.name} = linux");
    metrics.exhaust_node("small", "memory");
    metrics.quota_exhausted.push("q".to_string());
    let failed = Failed {
        task_group: "web".to_string(),
        count: 2,
        metrics,
        nearest_miss: Some(Miss {
            node_id: "n1".to_string(),
            node_name: "c3".to_string(),
            dimension: "memory".to_string(),
            lacks: Some(212),
            unit: Some("MB"),
        }),
    };
    let value = serde_json::to_value(vec![failed]).unwrap();
    let typed: Vec<FailedPlacement> = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(serde_json::to_value(typed).unwrap(), value);
    value
}

/// The scheduler configuration of a job whose node pool sets its own, as
/// a replay writes it: only then is the key there.
fn pool_config_json() -> Value {
    let mut doc = json!({
        "Now": "2023-07-01T00:00:00Z",
        "Jobs": [{"ID": "web", "Namespace": "default", "Type": "service", "NodePool": "gpu",
                  "TaskGroups": [{"Name": "web", "Count": 1}]}],
        "Nodes": [], "Allocs": [],
        "NodePools": [{"Name": "gpu", "SchedulerConfiguration": {"SchedulerAlgorithm": "spread"}}]
    });
    let json_at = |doc: &Value, release: Release| {
        let snapshot = read_snapshot_from(doc.to_string().as_bytes(), "pools.json").unwrap();
        let options = Options {
            nomad_version: Some(VersionRequest::Release(release)),
            ..Options::default()
        };
        render::json::render(&Replay::new(&snapshot, &options).unwrap().report())
    };
    let value: Value = serde_json::from_str(&json_at(&doc, v(2, 0, 5))).unwrap();
    let config = value["jobs"][0]["plan"]["scheduler_config"].clone();
    assert_eq!(
        config,
        json!({"node_pool": "gpu", "scheduler_algorithm": "spread",
               "memory_oversubscription_enabled": false,
               "set_by_node_pool": ["scheduler_algorithm"]})
    );
    typed("pools.json", &json_at(&doc, v(2, 0, 5)));
    // Before 1.6.0, or without a pool's own configuration, the jobs are
    // written as without the pool (before 1.6.0 a warning says it is
    // ignored).
    let jobs = |json: String| serde_json::from_str::<Value>(&json).unwrap()["jobs"].clone();
    let with = jobs(json_at(&doc, v(1, 5, 17)));
    doc["NodePools"] = json!([{"Name": "gpu"}]);
    assert_eq!(with, jobs(json_at(&doc, v(1, 5, 17))));
    assert!(!json_at(&doc, v(2, 0, 5)).contains("scheduler_config"));
    config
}

/// A preemption as the library serializes it.
fn preemption_json() -> Value {
    let p = plan_inspect::report::PlanPreemption {
        alloc_id: "a1".into(),
        name: "batch.work[0]".to_string(),
        node_id: "n1".to_string(),
        namespace: "default".to_string(),
        job_id: "batch".to_string(),
        job_priority: 20,
        preempted_by: "agent.agent[0]".to_string(),
    };
    let value = serde_json::to_value(vec![p]).unwrap();
    let typed: Vec<Preemption> = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(serde_json::to_value(typed).unwrap(), value);
    value
}

/// A blocked evaluation as the library serializes it.
fn blocked_eval_json() -> Value {
    let blocked = plan_inspect::report::BlockedEval {
        id: "b".to_string(),
        status: "blocked",
        triggered_by: "job-register".to_string(),
        status_description: "created to place remaining allocations".to_string(),
        class_eligibility: BTreeMap::from([("v1:1".to_string(), false)]),
        escaped_computed_class: false,
        node_id: Some("n".to_string()),
        reblocked: true,
    };
    let value = serde_json::to_value(blocked).unwrap();
    let typed: BlockedEval = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(serde_json::to_value(typed).unwrap(), value);
    value
}

/// The README's recipe line that contains `marker`, run on `fixture`
/// (`state.json` in the recipe): its output lines. None without jq.
fn readme_recipe(marker: &str, fixture: &str) -> Option<Vec<String>> {
    use std::process::Command;
    Command::new("jq").arg("--version").output().ok()?;
    let readme = include_str!("../README.md");
    let recipe = readme
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("plan-inspect state.json") && l.contains(marker))
        .unwrap_or_else(|| panic!("README.md has no recipe with {marker}"));
    let bin = assert_cmd::cargo::cargo_bin("plan-inspect");
    let script = recipe
        .replacen("plan-inspect", bin.to_str().unwrap(), 1)
        .replacen("state.json", &format!("fixtures/{fixture}"), 1);
    let out = Command::new("sh")
        .args(["-c", &script])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{recipe}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    Some(text.lines().map(str::to_string).collect())
}

/// The README's jq recipes on `allocations` return, on every fixture, the
/// allocations the buckets and system diffs name (lost ones) and the plan
/// names (moved ones), system jobs' included, where the buckets alone gave
/// none of a system job's.
#[test]
fn the_readme_recipes_find_every_job_type_s_allocations() {
    let mut system_lost = 0;
    for fixture in FIXTURES {
        let doc = document(fixture);
        let Some(lost) = readme_recipe(r#"select(.bucket == "lost")"#, fixture) else {
            eprintln!("jq is not installed: recipes not checked");
            return;
        };
        let mut found: Vec<String> = lost
            .iter()
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                v["name"].as_str().unwrap().to_string()
            })
            .collect();
        let mut expected = Vec::new();
        for job in &doc.jobs {
            for g in &job.groups {
                let system = g.system_diff.iter().flat_map(|d| &d.lost);
                let names = g.buckets.lost.iter().chain(system).map(|e| e.name.clone());
                if g.system_diff.as_ref().is_some_and(|d| !d.lost.is_empty()) {
                    system_lost += 1;
                }
                expected.extend(names);
            }
        }
        found.sort();
        expected.sort();
        assert_eq!(found, expected, "{fixture}: lost allocations");

        let moved = readme_recipe(r#"select(.fate != "untouched")"#, fixture).unwrap();
        let mut found: Vec<String> = moved
            .iter()
            .map(|l| l.split(' ').next().unwrap().to_string())
            .collect();
        let mut expected = Vec::new();
        for job in &doc.jobs {
            let p = &job.plan;
            let named: BTreeSet<&str> = p
                .stop
                .iter()
                .map(|s| s.alloc_id.as_str())
                .chain(
                    p.place
                        .iter()
                        .filter_map(|x| x.previous_alloc_id.as_deref()),
                )
                .chain(p.destructive_update.iter().map(|d| d.alloc_id.as_str()))
                .chain(p.in_place_update.iter().map(|u| u.alloc_id.as_str()))
                .chain(p.disconnect_updates.iter().map(|u| u.alloc_id.as_str()))
                .chain(p.attribute_updates.iter().map(|u| u.alloc_id.as_str()))
                .chain(p.reconnect_updates.iter().map(|u| u.alloc_id.as_str()))
                .collect();
            for g in &job.groups {
                let b = &g.buckets;
                let system = g.system_diff.iter().flat_map(|d| {
                    [&d.update, &d.migrate, &d.stop, &d.ignore, &d.lost]
                        .into_iter()
                        .flatten()
                });
                let entries = [
                    &b.untainted,
                    &b.migrate,
                    &b.lost,
                    &b.disconnecting,
                    &b.reconnecting,
                    &b.ignore,
                ]
                .into_iter()
                .flatten()
                .chain(b.expiring.iter().flatten())
                .chain(system)
                .map(|e| (&e.id, &e.name))
                .chain(g.set_aside.iter().map(|s| (&s.id, &s.name)));
                expected.extend(
                    entries
                        .filter(|(id, _)| named.contains(id.as_str()))
                        .map(|(_, name)| name.clone()),
                );
            }
        }
        found.sort();
        expected.sort();
        assert_eq!(found, expected, "{fixture}: moved allocations");
    }
    assert!(
        system_lost > 0,
        "no fixture has a system job's lost allocation"
    );
}

/// The story document of section 9: Document's fields, then the story's.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct StoryDocument {
    schema_version: u32,
    now: String,
    now_source: String,
    eval_id: String,
    eval_priority: Option<i64>,
    supports_disconnected_clients: bool,
    nomad_version: NomadVersion,
    jobs: Vec<Job>,
    warnings: Vec<Warning>,
    what_if: Vec<WhatIf>,
    timeline: Vec<TimelineEntry>,
    pending: Vec<StoryEvaluation>,
    canceled: Vec<CanceledEvaluation>,
    deployment_watcher: Vec<WatcherWrite>,
    deployments: Vec<StoryDeployment>,
    until: Option<String>,
    assumptions: Vec<Warning>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct WatcherWrite {
    at: String,
    deployment_id: String,
    namespace: String,
    job_id: String,
    action: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    groups: Vec<String>,
    status_description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    eval_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reverted: Option<Reverted>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Reverted {
    stable_version: u64,
    job_version: u64,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct StoryDeployment {
    id: String,
    namespace: String,
    job_id: String,
    job_version: u64,
    status: String,
    status_description: String,
    groups: BTreeMap<String, StoryDeploymentGroup>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct StoryDeploymentGroup {
    desired_total: i64,
    desired_canaries: i64,
    placed_canaries: Vec<String>,
    promoted: bool,
    placed_allocs: i64,
    healthy_allocs: i64,
    unhealthy_allocs: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    require_progress_by: Option<String>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct WhatIf {
    event: String,
    text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    node_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    alloc_id: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    healthy_alloc_ids: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    unhealthy_alloc_ids: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deployment_id: Option<String>,
    at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    deadline: Option<String>,
    node_status: Vec<StatusChange>,
    #[serde(skip_serializing_if = "Option::is_none")]
    heartbeat: Option<String>,
    evaluations: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ignored: Option<Ignored>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct StatusChange {
    from: String,
    to: String,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Ignored {
    reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    node_status: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    errors: Option<Vec<String>>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct CanceledEvaluation {
    at: String,
    by: String,
    status: String,
    status_description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    kept_eval_id: Option<String>,
    evaluation: StoryEvaluation,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct TimelineEntry {
    at: String,
    evaluation: StoryEvaluation,
    job: Job,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    preempted: Vec<StoryPreemption>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct StoryPreemption {
    alloc_id: String,
    name: String,
    node_id: String,
    namespace: String,
    job_id: String,
    preempted_by_alloc_id: String,
    desired_status: String,
    desired_description: String,
    client_status: String,
    eval_id: Option<String>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct StoryEvaluation {
    id: String,
    job_id: String,
    namespace: String,
    triggered_by: String,
    node_id: Option<String>,
    priority: i64,
    created_at: String,
    wait_until: Option<String>,
}

/// The story JSON of `events` on the what-if snapshot `fixture`.
fn story_json(fixture: &str, events: &[&str], until: Option<&str>) -> String {
    let path = format!("{}/tests/what-if/{fixture}", env!("CARGO_MANIFEST_DIR"));
    let snapshot = read_snapshot_from(std::fs::File::open(path).unwrap(), fixture).unwrap();
    let request = crate::common::request(events, until, None);
    let story = plan_inspect::servers::run(&snapshot, &Options::default(), &request).unwrap();
    render::json::story(&story)
}

/// Stories that between them write every field of the story's types.
const STORIES: [(&str, &[&str], Option<&str>); 9] = [
    (
        "cluster.json",
        &["node-down:client-2@5m", "node-up:client-2@15m"],
        Some("1h"),
    ),
    (
        "cluster.json",
        &[
            "node-down:client-2",
            "alloc-fail:2b7a@1m",
            "node-drain:client-1:30m",
        ],
        None,
    ),
    (
        "cluster.json",
        &["node-up:client-3", "node-down:client-1@2h"],
        Some("1h"),
    ),
    (
        "cluster.json",
        &[
            "node-down:client-1",
            "node-down:client-2",
            "node-down:client-3",
        ],
        None,
    ),
    (
        "preemption.json",
        &["node-down:client-3", "node-up:client-3@30m"],
        Some("1h"),
    ),
    ("stalled.json", &[], Some("1h")),
    (
        "rolling.json",
        &[
            "deployment-pause:web@500ms",
            "deployment-resume:web@1m",
            "deployment-fail:web@10m",
        ],
        Some("1h"),
    ),
    (
        "rolling.json",
        &["deployment-promote:web:web@500ms"],
        Some("1h"),
    ),
    (
        "rolling.json",
        &["alloc-health:healthy=web.web[0]:unhealthy=web.web[1]@500ms"],
        Some("1h"),
    ),
];

#[test]
fn stories_match_the_schema_and_the_page_names_their_fields() {
    let tables = schema_tables();
    // Document's fields, then the story's.
    let (Shape::Object(_, mut fields), Shape::Object(_, story)) = (
        schema_shape(&tables, "Document"),
        schema_shape(&tables, "Story"),
    ) else {
        unreachable!("sections are objects")
    };
    // A story is never a job plan: --job-file conflicts with its flags.
    fields.remove("job_plan");
    fields.extend(story);
    let root = Shape::Object("Story".to_string(), fields);
    let (mut met, mut odd) = (BTreeSet::new(), BTreeSet::new());
    for (fixture, events, until) in STORIES {
        let json = story_json(fixture, events, until);
        let doc: StoryDocument = serde_json::from_str(&json)
            .unwrap_or_else(|e| panic!("{events:?}: the story does not match the schema: {e}"));
        let original: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_value(&doc).unwrap(), original, "{events:?}");
        walk("$", &original, &root, &mut met, &mut odd);
    }
    assert_eq!(odd, BTreeSet::new());
    let mut all = BTreeSet::new();
    documented(&root, &mut all);
    let story_types = [
        "Story",
        "WhatIf",
        "TimelineEntry",
        "StoryEvaluation",
        "StoryPreemption",
        "WatcherWrite",
    ];
    let missing: Vec<_> = all
        .difference(&met)
        .filter(|(object, _)| story_types.iter().any(|t| object.starts_with(t)))
        .collect();
    assert_eq!(
        missing,
        Vec::<&(String, String)>::new(),
        "documented, never output"
    );
}

/// The `--explain-node` document of docs/json-schema.md.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct ExplainNodeDocument {
    schema_version: u32,
    explain_node: NodeExplanation,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct NodeExplanation {
    node: NodeFacts,
    now: String,
    now_source: String,
    fit_checked: bool,
    capacity: Amounts,
    reserved: Amounts,
    running: Vec<NodeAlloc>,
    adds: Vec<NodeAdd>,
    frees: Vec<NodeFree>,
    used: Amounts,
    used_after: Amounts,
    left: Amounts,
    warnings: Vec<Warning>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct NodeFacts {
    id: String,
    name: String,
    datacenter: String,
    node_pool: String,
    node_class: String,
    status: String,
    eligibility: String,
    draining: bool,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Amounts {
    cpu_mhz: i64,
    cores: i64,
    memory_mb: i64,
    memory_max_mb: i64,
    disk_mb: i64,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct NodeAlloc {
    alloc_id: String,
    name: String,
    namespace: String,
    job_id: String,
    task_group: String,
    client_status: String,
    desired_status: String,
    resources: Amounts,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct NodeAdd {
    name: String,
    namespace: String,
    job_id: String,
    task_group: String,
    kind: String,
    previous_alloc_id: Option<String>,
    score: Option<f64>,
    resources: Amounts,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct NodeFree {
    alloc_id: String,
    name: String,
    namespace: String,
    job_id: String,
    kind: String,
    why: String,
    resources: Amounts,
}

/// `--explain-node` documents match their types, which reject unknown
/// fields, and the page names every field they have and only those.
#[test]
fn explain_node_documents_match_the_schema_and_the_page_names_their_fields() {
    let tables = schema_tables();
    let root = schema_shape(&tables, "ExplainNode");
    let (mut met, mut odd) = (BTreeSet::new(), BTreeSet::new());
    let path = format!("{}/fixtures/mixed-cluster.json", env!("CARGO_MANIFEST_DIR"));
    let snapshot = read_snapshot_from(std::fs::File::open(path).unwrap(), "mixed").unwrap();
    // client-1 runs two allocations, takes a placement and frees a stop;
    // client-2 takes a service placement with a score.
    for node in ["client-1", "client-2"] {
        let e = plan_inspect::explain::explain_node(&snapshot, &Options::default(), node).unwrap();
        let json = render::explain_node::json(&e);
        let doc: ExplainNodeDocument = serde_json::from_str(&json)
            .unwrap_or_else(|e| panic!("{node}: the document does not match the schema: {e}"));
        let original: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_value(&doc).unwrap(), original, "{node}");
        walk("$", &original, &root, &mut met, &mut odd);
    }
    assert_eq!(odd, BTreeSet::new());
    let mut all = BTreeSet::new();
    documented(&root, &mut all);
    let missing: Vec<_> = all.difference(&met).collect();
    assert_eq!(
        missing,
        Vec::<&(String, String)>::new(),
        "documented, never output"
    );
}
