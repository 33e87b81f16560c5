//! The defaults a job gets on its way to the state store, on the API's JSON
//! (PascalCase, durations in nanoseconds): `api.Job.Canonicalize` (what
//! `nomad job run` and `plan` send), the HTTP agent's conversion to
//! `structs.Job`, and the register endpoint's `jobCanonicalizer`
//! (`structs.Job.Canonicalize`, the default priority 50). Only missing or
//! `null` values are filled; what the file gives is kept. Release-dependent
//! defaults follow the release replayed.

use serde_json::{Map, Value, json};

use super::json_map::{
    HOUR, MINUTE, SECOND, default, ensure, is_missing, list, merged, object, objects, text,
};
use super::task_defaults::{JobBlocks, service, task};
use crate::model::Release;
use crate::version::{Switch, Switches};

/// Fills the defaults into `job` (an object) as the API client and the
/// server would for `release`.
pub fn canonicalize(job: &mut Map<String, Value>, release: Release) {
    api_canonicalize(job, release);
    server_canonicalize(job, release);
}

/// What the HTTP agent's conversion and `structs.Job.Canonicalize` change:
/// the stored job keeps only the stagger and parallelism of a job-level
/// update block, and only when it has parallelism
/// (command/agent/job_endpoint.go:1160); the API's job-level reschedule and
/// migrate blocks (already merged into the groups) are not stored; the node
/// pool and datacenters get the server's defaults.
pub(crate) fn server_canonicalize(job: &mut Map<String, Value>, release: Release) {
    super::api_names::to_stored(job);
    let update = job.get("Update").and_then(Value::as_object);
    let parallel = update
        .and_then(|u| u.get("MaxParallel"))
        .and_then(Value::as_i64);
    let legacy = match (update, parallel) {
        (Some(u), Some(p)) if p > 0 => {
            json!({"Stagger": u.get("Stagger").cloned().unwrap_or(json!(0)), "MaxParallel": p})
        }
        _ => json!({"Stagger": 0, "MaxParallel": 0}),
    };
    job.insert("Update".into(), legacy);
    job.remove("Reschedule");
    job.remove("Migrate");
    let rules = Switches::of(release);
    // The stored Vault block has no policies from #25155; the agent's
    // conversion drops the API's.
    if rules.has(Switch::VaultTokensRemoved) {
        for g in objects(job, "TaskGroups") {
            for t in objects(g, "Tasks") {
                if let Some(vault) = object(t, "Vault") {
                    vault.remove("Policies");
                }
            }
        }
    }
    if rules.has(Switch::JobNodePool) && text(job, "NodePool").is_empty() {
        job.insert("NodePool".into(), json!("default"));
    }
    // `jobCanonicalizer` (#16084): priority 0 is the server's default.
    let priority = job.get("Priority").and_then(Value::as_i64);
    if rules.has(Switch::JobPriorityRange) && priority == Some(0) {
        job.insert("Priority".into(), json!(50));
    }
    if rules.has(Switch::SystemDatacenterGlob) && list(job, "Datacenters").is_empty() {
        job.insert("Datacenters".into(), json!(["*"]));
    }
}

/// `api.Job.Canonicalize` of the release.
pub(crate) fn api_canonicalize(job: &mut Map<String, Value>, release: Release) {
    let id = text(job, "ID");
    default(job, "ID", json!(""));
    default(job, "Name", json!(id));
    for (k, zero) in [
        ("ParentID", json!("")),
        ("Namespace", json!("default")),
        ("Priority", json!(50)),
        ("Stop", json!(false)),
        ("Region", json!("global")),
        ("Type", json!("service")),
        ("AllAtOnce", json!(false)),
        ("ConsulNamespace", json!("")),
        ("VaultNamespace", json!("")),
        ("Dispatched", json!(false)),
        ("NomadTokenID", json!("")),
        ("Status", json!("")),
        ("StatusDescription", json!("")),
        ("Stable", json!(false)),
        ("Version", json!(0)),
        ("CreateIndex", json!(0)),
        ("ModifyIndex", json!(0)),
        ("JobModifyIndex", json!(0)),
    ] {
        default(job, k, zero);
    }
    // The API's job has a node pool from #17379, and fills its Consul and
    // Vault tokens until #25217 and #25155.
    let rules = Switches::of(release);
    if rules.has(Switch::JobNodePool) {
        default(job, "NodePool", json!(""));
    }
    if !rules.has(Switch::ConsulTokensRemoved) {
        default(job, "ConsulToken", json!(""));
    }
    if !rules.has(Switch::VaultTokensRemoved) {
        default(job, "VaultToken", json!(""));
    }
    let kind = text(job, "Type");
    if let Some(p) = object(job, "Periodic") {
        periodic(p, rules);
    }
    if let Some(m) = object(job, "Multiregion") {
        multiregion(m);
    }
    // A service job, and from #26777 a system job, gets the default block.
    let system_default = kind == "system" && rules.has(Switch::SystemUpdateDefault);
    let mut update = match job.get("Update").and_then(Value::as_object) {
        Some(u) => Some(u.clone()),
        None if kind == "service" || system_default => Some(Map::new()),
        None => None,
    };
    if let Some(u) = update.as_mut() {
        update_defaults(u);
        job.insert("Update".into(), Value::Object(u.clone()));
    }
    let update = update.map(Value::Object);
    let reschedule = job.get("Reschedule").filter(|v| !v.is_null()).cloned();
    let migrate = job.get("Migrate").filter(|v| !v.is_null()).cloned();
    let (job_name, namespace) = (text(job, "Name"), text(job, "Namespace"));
    let consul_namespace = text(job, "ConsulNamespace");
    let blocks = JobBlocks {
        kind: &kind,
        update: update.as_ref(),
        reschedule: reschedule.as_ref(),
        migrate: migrate.as_ref(),
        job_name: &job_name,
        namespace: &namespace,
        consul_namespace: &consul_namespace,
        rules,
    };
    for group in objects(job, "TaskGroups") {
        task_group(group, &blocks);
    }
    for key in ["Spreads", "Affinities"] {
        for a in objects(job, key) {
            default(a, "Weight", json!(50));
        }
    }
}

fn task_group(g: &mut Map<String, Value>, job: &JobBlocks) {
    default(g, "Name", json!(""));
    if is_missing(g.get("Count")) {
        let min = g
            .get("Scaling")
            .and_then(|s| s.get("Min"))
            .filter(|m| !m.is_null());
        g.insert("Count".into(), min.cloned().unwrap_or(json!(1)));
    }
    // Until #25298 every group gets a Consul block.
    let rules = job.rules;
    if !rules.has(Switch::GroupConsulOptional) && is_missing(g.get("Consul")) {
        g.insert("Consul".into(), json!({}));
    }
    if let Some(consul) = object(g, "Consul") {
        if text(consul, "Namespace").is_empty() {
            consul.insert("Namespace".into(), json!(job.consul_namespace));
        }
        if rules.has(Switch::ConsulCluster) && text(consul, "Cluster").is_empty() {
            consul.insert("Cluster".into(), json!("default"));
        }
    }
    let disk = ensure(g, "EphemeralDisk");
    default(disk, "Sticky", json!(false));
    default(disk, "Migrate", json!(false));
    default(disk, "SizeMB", json!(300));

    // The job's block goes to a group that has one, or to every group when
    // it is not empty (all zero), as `api.TaskGroup.Canonicalize` merges it.
    let own = g.get("Update").is_some_and(|u| !u.is_null());
    let job_update = job.update.filter(|u| own || !super::same::is_zero(u));
    if let Some(mut u) = merged(job_update, g.get("Update")) {
        update_defaults(&mut u);
        g.insert("Update".into(), Value::Object(u));
    }
    if let Some(r) = merged(job.reschedule, g.get("ReschedulePolicy")) {
        g.insert("ReschedulePolicy".into(), Value::Object(r));
    }
    // No default for a system group, nor from #26279 a sysbatch one.
    let none_by_default =
        job.kind == "system" || (job.kind == "sysbatch" && rules.has(Switch::SysbatchNoReschedule));
    if !none_by_default || g.get("ReschedulePolicy").is_some_and(|r| !r.is_null()) {
        let r = ensure(g, "ReschedulePolicy");
        for (k, d) in reschedule_defaults(job.kind) {
            default(r, k, d);
        }
    }
    if let Some(m) = merged(job.migrate, g.get("Migrate")) {
        g.insert("Migrate".into(), Value::Object(m));
    }
    if job.kind == "service" || g.get("Migrate").is_some_and(|m| !m.is_null()) {
        let m = ensure(g, "Migrate");
        default(m, "MaxParallel", json!(1));
        default(m, "HealthCheck", json!("checks"));
        default(m, "MinHealthyTime", json!(10 * SECOND));
        default(m, "HealthyDeadline", json!(5 * MINUTE));
    }
    let mut restart = restart_defaults(job.kind, rules);
    if let Some(Value::Object(given)) = g.get("RestartPolicy") {
        for (k, v) in given {
            if !v.is_null() {
                restart.insert(k.clone(), v.clone());
            }
        }
    }
    g.insert("RestartPolicy".into(), Value::Object(restart.clone()));
    let group_name = text(g, "Name");
    for key in ["Spreads", "Affinities"] {
        for a in objects(g, key) {
            default(a, "Weight", json!(50));
        }
    }
    for s in objects(g, "Services") {
        service(s, job, &group_name, None);
    }
    for n in objects(g, "Networks") {
        super::injected_task::network_defaults(n);
    }
    for t in objects(g, "Tasks") {
        task(t, &restart, job, &group_name);
    }
}

/// `Multiregion.Canonicalize`: a zero strategy, and each region's count
/// (1), datacenters and meta.
fn multiregion(m: &mut Map<String, Value>) {
    let strategy = ensure(m, "Strategy");
    default(strategy, "MaxParallel", json!(0));
    default(strategy, "OnFailure", json!(""));
    default(m, "Regions", json!([]));
    for r in objects(m, "Regions") {
        default(r, "Count", json!(1));
        default(r, "Datacenters", json!([]));
        default(r, "Meta", json!({}));
    }
}

/// `PeriodicConfig.Canonicalize`; the cron list exists from #17858.
fn periodic(p: &mut Map<String, Value>, rules: Switches) {
    default(p, "Enabled", json!(true));
    if rules.has(Switch::PeriodicCrons) {
        default(p, "Specs", json!([]));
    }
    default(p, "Spec", json!(""));
    default(p, "SpecType", json!("cron"));
    default(p, "ProhibitOverlap", json!(false));
    if text(p, "TimeZone").is_empty() {
        p.insert("TimeZone".into(), json!("UTC"));
    }
}

fn update_defaults(u: &mut Map<String, Value>) {
    for (k, d) in [
        ("Stagger", json!(30 * SECOND)),
        ("MaxParallel", json!(1)),
        ("HealthCheck", json!("checks")),
        ("MinHealthyTime", json!(10 * SECOND)),
        ("HealthyDeadline", json!(5 * MINUTE)),
        ("ProgressDeadline", json!(10 * MINUTE)),
        ("AutoRevert", json!(false)),
        ("Canary", json!(0)),
        ("AutoPromote", json!(false)),
    ] {
        default(u, k, d);
    }
}

/// `NewDefaultReschedulePolicy` of the API for a job type.
fn reschedule_defaults(kind: &str) -> [(&'static str, Value); 6] {
    match kind {
        "service" => [
            ("Attempts", json!(0)),
            ("Interval", json!(0)),
            ("Delay", json!(30 * SECOND)),
            ("DelayFunction", json!("exponential")),
            ("MaxDelay", json!(HOUR)),
            ("Unlimited", json!(true)),
        ],
        "batch" => [
            ("Attempts", json!(1)),
            ("Interval", json!(24 * HOUR)),
            ("Delay", json!(5 * SECOND)),
            ("DelayFunction", json!("constant")),
            ("MaxDelay", json!(0)),
            ("Unlimited", json!(false)),
        ],
        _ => [
            ("Attempts", json!(0)),
            ("Interval", json!(0)),
            ("Delay", json!(0)),
            ("DelayFunction", json!("")),
            ("MaxDelay", json!(0)),
            ("Unlimited", json!(false)),
        ],
    }
}

/// The API's restart policy defaults: service and system jobs restart twice
/// in 30 minutes, others three times a day; `RenderTemplates` from #18054.
fn restart_defaults(kind: &str, rules: Switches) -> Map<String, Value> {
    let (attempts, interval) = match kind {
        "service" | "system" => (2, 30 * MINUTE),
        _ => (3, 24 * HOUR),
    };
    let mut m = Map::new();
    m.insert("Attempts".into(), json!(attempts));
    m.insert("Interval".into(), json!(interval));
    m.insert("Delay".into(), json!(15 * SECOND));
    m.insert("Mode".into(), json!("fail"));
    if rules.has(Switch::RenderTemplates) {
        m.insert("RenderTemplates".into(), json!(false));
    }
    m
}
