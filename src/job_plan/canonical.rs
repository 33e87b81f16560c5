//! The defaults a job gets on its way to the state store, on the API's JSON
//! (PascalCase, durations in nanoseconds): `api.Job.Canonicalize` (what
//! `nomad job run` and `plan` send), the HTTP agent's conversion to
//! `structs.Job`, and the register endpoint's `jobCanonicalizer`
//! (`structs.Job.Canonicalize`, the default priority 50). Only missing or
//! `null` values are filled; what the file gives is kept. Release-dependent
//! defaults follow the release replayed.

use serde_json::{Map, Value, json};

use crate::model::{Release, v};

const SECOND: i64 = 1_000_000_000;
const MINUTE: i64 = 60 * SECOND;
const HOUR: i64 = 60 * MINUTE;

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
    if release >= v(1, 6, 0) && text(job, "NodePool").is_empty() {
        job.insert("NodePool".into(), json!("default"));
    }
    // `jobCanonicalizer` (1.5.0 on): priority 0 is the server's default.
    if release >= v(1, 5, 0) && job.get("Priority").and_then(Value::as_i64) == Some(0) {
        job.insert("Priority".into(), json!(50));
    }
    if release >= v(1, 5, 0) && list(job, "Datacenters").is_empty() {
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
        ("NodePool", json!("")),
        ("Dispatched", json!(false)),
    ] {
        default(job, k, zero);
    }
    let kind = text(job, "Type");
    if let Some(p) = object(job, "Periodic") {
        periodic(p);
    }
    let mut update = match job.get("Update").and_then(Value::as_object) {
        Some(u) => Some(u.clone()),
        None if kind == "service" => Some(Map::new()),
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
        release,
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

/// What the groups inherit from the job.
struct JobBlocks<'a> {
    kind: &'a str,
    update: Option<&'a Value>,
    reschedule: Option<&'a Value>,
    migrate: Option<&'a Value>,
    job_name: &'a str,
    namespace: &'a str,
    consul_namespace: &'a str,
    release: Release,
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
    if let Some(consul) = object(g, "Consul") {
        if text(consul, "Namespace").is_empty() {
            consul.insert("Namespace".into(), json!(job.consul_namespace));
        }
        if job.release >= v(1, 7, 0) && text(consul, "Cluster").is_empty() {
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
    if job.kind != "system" || g.get("ReschedulePolicy").is_some_and(|r| !r.is_null()) {
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
    let mut restart = restart_defaults(job.kind);
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
    for t in objects(g, "Tasks") {
        task(t, &restart, job, &group_name);
    }
}

fn task(
    t: &mut Map<String, Value>,
    group_restart: &Map<String, Value>,
    job: &JobBlocks,
    group: &str,
) {
    let r = ensure(t, "Resources");
    if is_missing(r.get("Cores")) {
        r.insert("Cores".into(), json!(0));
        default(r, "CPU", json!(100));
    }
    default(r, "CPU", json!(0));
    default(r, "MemoryMB", json!(300));
    default(t, "KillTimeout", json!(5 * SECOND));
    let logs = ensure(t, "LogConfig");
    default(logs, "MaxFiles", json!(10));
    default(logs, "MaxFileSizeMB", json!(10));
    if job.release >= v(1, 5, 5) {
        default(logs, "Disabled", json!(false));
    }
    for a in objects(t, "Artifacts") {
        artifact(a);
    }
    for tmpl in objects(t, "Templates") {
        template(tmpl);
    }
    for a in objects(t, "Affinities") {
        default(a, "Weight", json!(50));
    }
    let name = text(t, "Name");
    for s in objects(t, "Services") {
        service(s, job, group, Some(&name));
    }
    let mut restart = group_restart.clone();
    if let Some(Value::Object(given)) = t.get("RestartPolicy") {
        for (k, v) in given {
            if !v.is_null() {
                restart.insert(k.clone(), v.clone());
            }
        }
    }
    t.insert("RestartPolicy".into(), Value::Object(restart));
}

/// The API's and the server's service defaults: the generated name, the
/// address mode, the update check mode, the provider and its namespace.
fn service(s: &mut Map<String, Value>, job: &JobBlocks, group: &str, task: Option<&str>) {
    if text(s, "Name").is_empty() {
        let name = match task {
            Some(t) => format!("{}-{group}-{t}", job.job_name),
            None => format!("{}-{group}", job.job_name),
        };
        s.insert("Name".into(), json!(name));
    }
    let name = text(s, "Name")
        .replace("${JOB}", job.job_name)
        .replace("${TASKGROUP}", group)
        .replace("${TASK}", task.unwrap_or("group"))
        .replace(
            "${BASE}",
            &format!("{}-{group}-{}", job.job_name, task.unwrap_or("group")),
        );
    s.insert("Name".into(), json!(name));
    if let Some(t) = task.filter(|_| text(s, "TaskName").is_empty()) {
        s.insert("TaskName".into(), json!(t));
    }
    for (k, d) in [
        ("AddressMode", "auto"),
        ("OnUpdate", "require_healthy"),
        ("Provider", "consul"),
    ] {
        if text(s, k).is_empty() {
            s.insert(k.into(), json!(d));
        }
    }
    if job.release >= v(1, 7, 0) && text(s, "Cluster").is_empty() {
        s.insert("Cluster".into(), json!("default"));
    }
    match text(s, "Provider").as_str() {
        "nomad" => {
            s.insert("Namespace".into(), json!(job.namespace));
        }
        _ if text(s, "Namespace").is_empty() => {
            s.insert("Namespace".into(), json!("default"));
        }
        _ => {}
    }
    let on_update = text(s, "OnUpdate");
    let (service_name, task_name) = (text(s, "Name"), text(s, "TaskName"));
    for c in objects(s, "Checks") {
        if text(c, "OnUpdate").is_empty() {
            c.insert("OnUpdate".into(), json!(on_update));
        }
        if text(c, "Name").is_empty() {
            c.insert(
                "Name".into(),
                json!(format!("service: {service_name:?} check")),
            );
        }
        if text(c, "TaskName").is_empty() && !task_name.is_empty() {
            c.insert("TaskName".into(), json!(task_name));
        }
    }
}

fn artifact(a: &mut Map<String, Value>) {
    default(a, "GetterMode", json!("any"));
    default(a, "GetterInsecure", json!(false));
    default(a, "GetterSource", json!(""));
    if is_missing(a.get("RelativeDest")) {
        let dest = if text(a, "GetterMode") == "file" {
            let source = text(a, "GetterSource");
            let base = source
                .trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap_or("");
            format!("local/{base}")
        } else {
            "local/".to_string()
        };
        a.insert("RelativeDest".into(), json!(dest));
    }
}

fn template(t: &mut Map<String, Value>) {
    for (k, d) in [
        ("SourcePath", json!("")),
        ("DestPath", json!("")),
        ("EmbeddedTmpl", json!("")),
        ("ChangeMode", json!("restart")),
        ("Once", json!(false)),
        ("Splay", json!(5 * SECOND)),
        ("Perms", json!("0644")),
        ("LeftDelim", json!("{{")),
        ("RightDelim", json!("}}")),
        ("Envvars", json!(false)),
        ("ErrMissingKey", json!(false)),
        ("VaultGrace", json!(0)),
    ] {
        default(t, k, d);
    }
    let signal = match t.get("ChangeSignal").and_then(Value::as_str) {
        Some(s) => s.to_uppercase(),
        None if text(t, "ChangeMode") == "signal" => "SIGHUP".into(),
        None => String::new(),
    };
    t.insert("ChangeSignal".into(), json!(signal));
}

fn periodic(p: &mut Map<String, Value>) {
    default(p, "Enabled", json!(true));
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
/// in 30 minutes, others three times a day.
fn restart_defaults(kind: &str) -> Map<String, Value> {
    let (attempts, interval) = match kind {
        "service" | "system" => (2, 30 * MINUTE),
        _ => (3, 24 * HOUR),
    };
    let mut m = Map::new();
    m.insert("Attempts".into(), json!(attempts));
    m.insert("Interval".into(), json!(interval));
    m.insert("Delay".into(), json!(15 * SECOND));
    m.insert("Mode".into(), json!("fail"));
    m.insert("RenderTemplates".into(), json!(false));
    m
}

/// The job's block with the group's set values over it (`Merge`), or
/// whichever exists.
fn merged(job: Option<&Value>, group: Option<&Value>) -> Option<Map<String, Value>> {
    let group = group.and_then(Value::as_object);
    let mut out = job.and_then(Value::as_object).cloned();
    match (&mut out, group) {
        (Some(base), Some(g)) => {
            for (k, v) in g {
                if !v.is_null() {
                    base.insert(k.clone(), v.clone());
                }
            }
        }
        (None, Some(g)) => out = Some(g.clone()),
        _ => {}
    }
    out
}

fn is_missing(v: Option<&Value>) -> bool {
    v.is_none_or(Value::is_null)
}

/// Sets `key` when it is missing or `null`.
fn default(m: &mut Map<String, Value>, key: &str, value: Value) {
    if is_missing(m.get(key)) {
        m.insert(key.to_string(), value);
    }
}

/// The object at `key`, made empty when missing or not an object.
fn ensure<'m>(m: &'m mut Map<String, Value>, key: &str) -> &'m mut Map<String, Value> {
    if !m.get(key).is_some_and(Value::is_object) {
        m.insert(key.to_string(), Value::Object(Map::new()));
    }
    m.get_mut(key)
        .and_then(Value::as_object_mut)
        .expect("set above")
}

fn object<'m>(m: &'m mut Map<String, Value>, key: &str) -> Option<&'m mut Map<String, Value>> {
    m.get_mut(key).and_then(Value::as_object_mut)
}

fn objects<'m>(
    m: &'m mut Map<String, Value>,
    key: &str,
) -> impl Iterator<Item = &'m mut Map<String, Value>> {
    m.get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

fn text(m: &Map<String, Value>, key: &str) -> String {
    m.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

fn list(m: &Map<String, Value>, key: &str) -> Vec<Value> {
    m.get(key)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}
