//! Workload identities at admission (#18363, #18343): the implicit
//! identities mutator (v2.0.5 nomad/job_endpoint_hook_implicit_identities.go) with no
//! Consul or Vault default identity configured, and the service and Vault
//! identity checks of `jobValidate` (v2.0.5 nomad/job_endpoint_hooks.go:565,
//! :582; v1.7.0 the same with the legacy Vault policies checks).

use serde_json::{Map, Value, json};

use super::json_map::{object, objects, text};
use crate::model::Release;
use crate::version::{Switch, Switches};

/// The server names a Consul service's own identity block after the
/// service, and a group with any service identity or task identity gets a
/// client version constraint, appended even when the job already has it
/// (a job file from `nomad job inspect` then carries it twice, as Nomad
/// stores it).
pub(crate) fn implicit_identities(job: &mut Map<String, Value>, release: Release) {
    if !Switches::of(release).has(Switch::ImplicitIdentities) {
        return;
    }
    for g in objects(job, "TaskGroups") {
        let mut any = false;
        for s in objects(g, "Services") {
            any |= name_service_identity(s);
        }
        for t in objects(g, "Tasks") {
            for s in objects(t, "Services") {
                any |= name_service_identity(s);
            }
            any |= t
                .get("Identities")
                .and_then(Value::as_array)
                .is_some_and(|l| !l.is_empty());
        }
        if any {
            let list = g.entry("Constraints").or_insert(json!([]));
            if list.is_null() {
                *list = json!([]);
            }
            if let Some(list) = list.as_array_mut() {
                list.push(
                    json!({"LTarget": "${attr.nomad.version}", "RTarget": ">= 1.7.0-a",
                                 "Operand": "semver"}),
                );
            }
        }
    }
}

/// Names a Consul service's identity (`MakeUniqueIdentityName`); whether
/// the service has an identity at all.
fn name_service_identity(s: &mut Map<String, Value>) -> bool {
    let provider = text(s, "Provider");
    let (name, task, port) = (text(s, "Name"), text(s, "TaskName"), text(s, "PortLabel"));
    let consul = matches!(provider.as_str(), "" | "consul");
    let Some(identity) = object(s, "Identity") else {
        return false;
    };
    if consul {
        let unique = if task.is_empty() {
            format!("consul-service_{name}-{port}")
        } else {
            format!("consul-service_{task}-{name}-{port}")
        };
        identity.insert("Name".into(), json!(unique));
        identity.insert("ServiceName".into(), json!(name));
    }
    true
}

/// `jobValidate`'s identity checks: the warnings and the errors, in the
/// order of groups, their services, then each task's services and Vault
/// block. The servers are taken to meet the multi-identity version.
pub(crate) fn identity_checks(
    job: &Map<String, Value>,
    release: Release,
) -> (Vec<String>, Vec<String>) {
    let (mut warnings, mut errors) = (Vec::new(), Vec::new());
    let rules = Switches::of(release);
    let (services, vaults) = (
        rules.has(Switch::ImplicitIdentities),
        rules.has(Switch::VaultIdentity),
    );
    let list = |m: &Map<String, Value>, k: &str| -> Vec<Map<String, Value>> {
        m.get(k)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_object().cloned())
            .collect()
    };
    for g in list(job, "TaskGroups") {
        let parent = format!("task group {}", text(&g, "Name"));
        errors.extend(
            list(&g, "Services")
                .iter()
                .filter(|_| services)
                .filter_map(|s| service(s, &parent)),
        );
        for t in list(&g, "Tasks") {
            let parent = format!("task {}", text(&t, "Name"));
            errors.extend(
                list(&t, "Services")
                    .iter()
                    .filter(|_| services)
                    .filter_map(|s| service(s, &parent)),
            );
            if vaults {
                let (w, e) = vault(&t, &list(&t, "Identities"), rules);
                warnings.extend(w);
                errors.extend(e);
            }
        }
    }
    (warnings, errors)
}

/// `validateServiceIdentity`: a service identity needs a name (the server
/// names Consul ones, so this is a Nomad service's block without one).
fn service(s: &Map<String, Value>, parent: &str) -> Option<String> {
    let identity = s.get("Identity").and_then(Value::as_object)?;
    text(identity, "Name").is_empty().then(|| {
        format!(
            "Service {} in {parent} has an identity with an empty name",
            text(s, "Name")
        )
    })
}

/// `validateVaultIdentity`, with no default Vault identity configured.
fn vault(
    t: &Map<String, Value>,
    identities: &[Map<String, Value>],
    rules: Switches,
) -> (Vec<String>, Option<String>) {
    let name = text(t, "Name");
    let Some(vault) = t.get("Vault").and_then(Value::as_object) else {
        let warnings = identities
            .iter()
            .map(|w| text(w, "Name"))
            .filter(|n| n.starts_with("vault_"))
            .map(|n| format!("Task {name} has an identity called {n} but no vault block"))
            .collect();
        return (warnings, None);
    };
    let cluster = text(vault, "Cluster");
    let wanted = format!("vault_{cluster}");
    let has_identity = identities.iter().any(|w| text(w, "Name") == wanted);
    let policies = vault
        .get("Policies")
        .and_then(Value::as_array)
        .is_some_and(|p| !p.is_empty());
    // The legacy token flow until #25155.
    let legacy = !rules.has(Switch::VaultTokensRemoved);
    if has_identity {
        let warnings = (legacy && policies)
            .then(|| {
                format!(
                    "Task {name} has a Vault block with policies but uses workload identity to \
                     authenticate with Vault, policies will be ignored"
                )
            })
            .into_iter()
            .collect();
        return (warnings, None);
    }
    if cluster != "default" {
        let e = format!(
            "Task {name} uses Vault cluster {cluster} but does not have an identity named \
             {wanted} and no default identity is provided in agent configuration"
        );
        return (Vec::new(), Some(e));
    }
    let e = (legacy && !policies)
        .then(|| format!("Task {name} has a Vault block with an empty list of policies"));
    (Vec::new(), e)
}
