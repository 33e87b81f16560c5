//! The API's and the server's defaults of a task and what it holds: its
//! resources, kill timeout, log config, Vault block, artifacts, templates,
//! services and restart policy (api/tasks.go, api/services.go, structs
//! Canonicalize).

use serde_json::{Map, Value, json};

use super::json_map::{SECOND, default, ensure, is_missing, object, objects, text};
use crate::version::{Switch, Switches};

/// What the groups inherit from the job.
pub(crate) struct JobBlocks<'a> {
    pub(crate) kind: &'a str,
    pub(crate) update: Option<&'a Value>,
    pub(crate) reschedule: Option<&'a Value>,
    pub(crate) migrate: Option<&'a Value>,
    pub(crate) job_name: &'a str,
    pub(crate) namespace: &'a str,
    pub(crate) consul_namespace: &'a str,
    /// The switches of the release replayed.
    pub(crate) rules: Switches,
}

pub(crate) fn task(
    t: &mut Map<String, Value>,
    group_restart: &Map<String, Value>,
    job: &JobBlocks,
    group: &str,
) {
    resources(ensure(t, "Resources"));
    default(t, "KillTimeout", json!(5 * SECOND));
    log_config(ensure(t, "LogConfig"), job.rules);
    if let Some(vault) = object(t, "Vault") {
        vault_defaults(vault, job.rules);
    }
    if job.rules.has(Switch::Identities) {
        identities(t);
    }
    for a in objects(t, "Artifacts") {
        artifact(a);
    }
    for tmpl in objects(t, "Templates") {
        template(tmpl, job.rules);
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

/// `api.Resources.Canonicalize`: 100 MHz unless cores are asked for, 300 MB.
fn resources(r: &mut Map<String, Value>) {
    if is_missing(r.get("Cores")) {
        r.insert("Cores".into(), json!(0));
        default(r, "CPU", json!(100));
    }
    default(r, "CPU", json!(0));
    default(r, "MemoryMB", json!(300));
}

/// `api.LogConfig.Canonicalize`: 10 files of 10 MB, logs on (`Disabled`
/// from #17089).
fn log_config(logs: &mut Map<String, Value>, rules: Switches) {
    default(logs, "MaxFiles", json!(10));
    default(logs, "MaxFileSizeMB", json!(10));
    if rules.has(Switch::AnnotateLogsDisabled) {
        default(logs, "Disabled", json!(false));
    }
}

/// `api.SidecarTask.Canonicalize` on a Connect service's `sidecar_task`:
/// the task defaults (resources, logs, a 5s kill timeout) and a zero
/// shutdown delay, all of which later override the injected task's own.
fn sidecar_task(st: &mut Map<String, Value>, rules: Switches) {
    resources(ensure(st, "Resources"));
    log_config(ensure(st, "LogConfig"), rules);
    default(st, "KillTimeout", json!(5 * SECOND));
    default(st, "ShutdownDelay", json!(0));
}

/// The API's and the server's service defaults: the generated name, the
/// address mode, the update check mode, the provider and its namespace.
pub(crate) fn service(
    s: &mut Map<String, Value>,
    job: &JobBlocks,
    group: &str,
    task: Option<&str>,
) {
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
    // From #14033 the server names a task service's task, and its checks
    // the service's task, but never a task literally named `group`, the
    // name it gives group services (v1.4.0 nomad/structs/services.go:644, :226).
    let plumbed = job.rules.has(Switch::ServiceTaskNames);
    let own = task.filter(|t| plumbed && *t != "group");
    if let Some(t) = own.filter(|_| text(s, "TaskName").is_empty()) {
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
    if job.rules.has(Switch::ConsulCluster) && text(s, "Cluster").is_empty() {
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
    if let Some(st) = object(s, "Connect").and_then(|c| object(c, "SidecarTask")) {
        sidecar_task(st, job.rules);
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
        if plumbed && text(c, "TaskName").is_empty() && !matches!(task_name.as_str(), "" | "group")
        {
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

/// `api.Template.Canonicalize`: `ErrMissingKey` is filled from #15141,
/// `Once` from #25922.
fn template(t: &mut Map<String, Value>, rules: Switches) {
    for (k, d) in [
        ("SourcePath", json!("")),
        ("DestPath", json!("")),
        ("EmbeddedTmpl", json!("")),
        ("ChangeMode", json!("restart")),
        ("Splay", json!(5 * SECOND)),
        ("Perms", json!("0644")),
        ("LeftDelim", json!("{{")),
        ("RightDelim", json!("}}")),
        ("Envvars", json!(false)),
        ("VaultGrace", json!(0)),
    ] {
        default(t, k, d);
    }
    if rules.has(Switch::TemplateErrMissingKey) {
        default(t, "ErrMissingKey", json!(false));
    }
    if rules.has(Switch::TemplateOnce) {
        default(t, "Once", json!(false));
    }
    let signal = match t.get("ChangeSignal").and_then(Value::as_str) {
        Some(s) => s.to_uppercase(),
        None if text(t, "ChangeMode") == "signal" => "SIGHUP".into(),
        None => String::new(),
    };
    t.insert("ChangeSignal".into(), json!(signal));
}

/// `api.Vault.Canonicalize`: the HCL parser fills only some of these, so a
/// job file from `nomad job run -output` leaves the change signal out.
fn vault_defaults(vault: &mut Map<String, Value>, rules: Switches) {
    default(vault, "Env", json!(true));
    if rules.has(Switch::VaultDisableFile) {
        default(vault, "DisableFile", json!(false));
    }
    default(vault, "Namespace", json!(""));
    if rules.has(Switch::VaultCluster) && text(vault, "Cluster").is_empty() {
        vault.insert("Cluster".into(), json!("default"));
    }
    default(vault, "ChangeMode", json!("restart"));
    default(vault, "ChangeSignal", json!("SIGHUP"));
}

/// `Task.Canonicalize`'s identities (#18123): an unnamed identity is the
/// default one, which only Nomad may be the audience of, and the last
/// default in the list becomes the task's `Identity`.
fn identities(t: &mut Map<String, Value>) {
    let list = t.get_mut("Identities").and_then(Value::as_array_mut);
    let mut default_at = None;
    for (i, w) in list.into_iter().flatten().enumerate() {
        if let Some(w) = w.as_object_mut() {
            identity(w);
            if text(w, "Name") == "default" {
                default_at = Some(i);
            }
        }
    }
    let moved = default_at.and_then(|i| {
        let list = t.get_mut("Identities").and_then(Value::as_array_mut)?;
        Some(list.remove(i))
    });
    if let Some(w) = moved {
        t.insert("Identity".into(), w);
    } else if let Some(w) = object(t, "Identity") {
        identity(w);
    }
}

/// `WorkloadIdentity.Canonicalize`.
fn identity(w: &mut Map<String, Value>) {
    if text(w, "Name").is_empty() {
        w.insert("Name".into(), json!("default"));
    }
    if text(w, "Name") == "default" {
        w.insert("Audience".into(), json!(["nomadproject.io"]));
    }
    let signal = text(w, "ChangeSignal");
    if !signal.is_empty() {
        w.insert("ChangeSignal".into(), json!(signal.to_uppercase()));
    }
}
