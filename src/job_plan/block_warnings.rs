//! The warnings `structs.Job.Warnings` gathers from blocks inside a group:
//! templates, services and workload identities (`Service.Warnings`,
//! `WorkloadIdentity.Warnings`, from #18466 and #18123) and, from #27782,
//! services whose tasks have no shutdown delay (v2.0.5
//! nomad/structs/structs.go:4898).

use serde_json::{Map, Value};

use super::json_map::text;
use super::multierror::multierror;
use crate::model::Release;
use crate::version::{Switch, Switches};

/// The objects of a list field.
fn list<'v>(m: &'v Map<String, Value>, k: &str) -> Vec<&'v Map<String, Value>> {
    m.get(k)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .collect()
}

/// "stanza", and "block" from #15941.
pub(crate) fn block_word(release: Release) -> &'static str {
    if Switches::of(release).has(Switch::StanzaIsBlock) {
        "block"
    } else {
        "stanza"
    }
}

/// `Template.Warnings` of a task's templates, each prefixed with its
/// position; before #18466 each template's list is one nested entry.
pub(crate) fn templates(t: &Map<String, Value>, release: Release) -> Vec<String> {
    let mut out = Vec::new();
    for (i, tmpl) in list(t, "Templates").into_iter().enumerate() {
        let grace = tmpl.get("VaultGrace").and_then(Value::as_i64).unwrap_or(0);
        if grace == 0 {
            continue;
        }
        let warning = format!(
            "Template[{i}] VaultGrace has been deprecated as of Nomad 0.11 and ignored since Vault \
             0.5. Please remove VaultGrace / vault_grace from template {}.",
            block_word(release)
        );
        out.push(if Switches::of(release).has(Switch::ServiceWarnings) {
            warning
        } else {
            multierror(&[warning])
        });
    }
    out
}

/// `Service.Warnings` of a list of services (#18466): the identity's
/// warnings, each prefixed with the service.
pub(crate) fn services(m: &Map<String, Value>, release: Release) -> Vec<String> {
    if !Switches::of(release).has(Switch::ServiceWarnings) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for s in list(m, "Services") {
        if let Some(identity) = s.get("Identity").and_then(Value::as_object) {
            let name = text(s, "Name");
            out.extend(
                identity_warnings(identity)
                    .into_iter()
                    .map(|w| format!("Service {name:?}: {w}")),
            );
        }
    }
    out
}

/// A task's workload identities' warnings (#18123), one nested entry
/// per identity.
pub(crate) fn identities(t: &Map<String, Value>, release: Release) -> Vec<String> {
    if !Switches::of(release).has(Switch::Identities) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for w in list(t, "Identities") {
        let inner = identity_warnings(w);
        if !inner.is_empty() {
            let name = text(w, "Name");
            let prefixed: Vec<String> = inner
                .into_iter()
                .map(|e| format!("Identity[{name}] {e}"))
                .collect();
            out.push(multierror(&prefixed));
        }
    }
    out
}

/// `WorkloadIdentity.Warnings`.
fn identity_warnings(w: &Map<String, Value>) -> Vec<String> {
    let mut out = Vec::new();
    let audiences = w
        .get("Audience")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    if audiences == 0 {
        out.push("identities without an audience are insecure".to_string());
    } else if audiences > 1 {
        out.push(
            "while multiple audiences is allowed, it is more secure to use 1 audience per identity"
                .into(),
        );
    }
    let name = text(w, "Name");
    let ttl = w.get("TTL").and_then(Value::as_i64).unwrap_or(0);
    if !name.is_empty() && name != "default" && ttl == 0 {
        out.push("identities without an expiration are insecure".into());
    }
    let env = w.get("Env").and_then(Value::as_bool).unwrap_or(false);
    if env && text(w, "ChangeMode") != "restart" {
        out.push(
            "using env=true without change_mode=\"restart\" may result in task not getting \
             updated identity"
                .into(),
        );
    }
    out
}

/// `generateTaskGroupServiceShutdownDelayWarnings` (#27782): a service's
/// task, a Connect sidecar task, or else some task of a group with services
/// should wait before it is killed.
pub(crate) fn shutdown_delays(g: &Map<String, Value>, release: Release) -> Vec<String> {
    if !Switches::of(release).has(Switch::ShutdownDelayWarnings) {
        return Vec::new();
    }
    let delay = |m: &Map<String, Value>| m.get("ShutdownDelay").and_then(Value::as_i64);
    let group = text(g, "Name");
    let mut out = Vec::new();
    let mut referenced = Vec::new();
    let mut unscoped = false;
    for s in list(g, "Services") {
        let task = text(s, "TaskName");
        if !task.is_empty() {
            referenced.push(task);
            continue;
        }
        let sidecar = s
            .get("Connect")
            .and_then(|c| c.get("SidecarTask"))
            .and_then(Value::as_object);
        if let Some(sidecar) = sidecar {
            if delay(sidecar).is_none() {
                out.push(format!(
                    "service {:?} defines a sidecar task in Consul Connect definition, but the \
                     task has no shutdown_delay set",
                    text(s, "Name")
                ));
            }
            continue;
        }
        unscoped = true;
    }
    let mut any_task_delay = false;
    for t in list(g, "Tasks") {
        let name = text(t, "Name");
        let own = delay(t).unwrap_or(0);
        if referenced.contains(&name) && own == 0 {
            out.push(format!(
                "group {group:?} references task {name:?} in a service definition, but the task \
                 has no shutdown_delay set"
            ));
        }
        if own > 0 {
            any_task_delay = true;
        } else if !list(t, "Services").is_empty() {
            out.push(format!(
                "task {name:?} in group {group:?} defines services, but has no shutdown_delay set"
            ));
        }
    }
    let group_delay = delay(g).unwrap_or(0) > 0;
    if unscoped && !group_delay && !any_task_delay {
        out.push(format!(
            "group {group:?} defines services, but neither the group nor any of its tasks have \
             shutdown_delay set"
        ));
    }
    out
}
