//! A task's actions (`Action.Validate`, v2.0.5 nomad/structs/actions.go:80,
//! from structs.go:8301) and secrets (`Secret.Validate`, v2.0.5
//! structs.go:10579, from :8407).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::json_map::{list, text};
use super::multierror::multierror;
use crate::model::go_quote;
use crate::version::{Switch, Switches};

/// From #18904 (1.7.0, where actions came): each action's command and
/// name (1 to 128 characters, no null or Go `\s` space), and a name given
/// twice, said once.
pub(crate) fn action_errors(t: &Map<String, Value>, rules: Switches) -> Vec<String> {
    if !rules.has(Switch::ActionsValidated) {
        return Vec::new();
    }
    let mut errs = Vec::new();
    let mut said: BTreeMap<String, bool> = BTreeMap::new();
    for a in list(t, "Actions") {
        let Some(a) = a.as_object() else { continue };
        let name = text(a, "Name");
        let mut inner = Vec::new();
        if text(a, "Command").is_empty() {
            inner.push("command cannot be empty".to_string());
        }
        let chars = name.chars().count();
        let spaced = name
            .chars()
            .any(|c| matches!(c, '\0' | '\t' | '\n' | '\x0c' | '\r' | ' '));
        if chars == 0 || chars > 128 || spaced {
            inner.push(format!("invalid name '{name}'"));
        }
        if !inner.is_empty() {
            errs.push(format!(
                "Action {name} validation failed: {}",
                multierror(&inner)
            ));
        }
        match said.get(&name) {
            Some(false) => {
                errs.push(format!("Action {name} defined multiple times"));
                said.insert(name, true);
            }
            Some(true) => {}
            None => {
                said.insert(name, false);
            }
        }
    }
    errs
}

/// From #26076 (1.11.0, where secrets came): a secret's name given twice,
/// a `vault` secret without a Vault block, and its own faults.
pub(crate) fn secret_errors(t: &Map<String, Value>, rules: Switches) -> Vec<String> {
    if !rules.has(Switch::TaskSecrets) {
        return Vec::new();
    }
    let vault = t.get("Vault").is_some_and(|v| !v.is_null());
    let mut errs = Vec::new();
    let mut seen = BTreeSet::new();
    for s in list(t, "Secrets") {
        let Some(s) = s.as_object() else { continue };
        let name = text(s, "Name");
        let quoted = go_quote(&name);
        if !seen.insert(name.clone()) {
            errs.push(format!("Duplicate secret {quoted} found"));
        }
        let provider = text(s, "Provider");
        if provider == "vault" && !vault {
            errs.push(format!(
                "Secret {quoted} has provider \"vault\" but no vault block"
            ));
        }
        let inner = secret_faults(s, &name, &provider);
        if !inner.is_empty() {
            errs.push(format!(
                "Secret {quoted} is invalid: {}",
                multierror(&inner)
            ));
        }
    }
    errs
}

fn secret_faults(s: &Map<String, Value>, name: &str, provider: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if name.is_empty() {
        errs.push("secret name cannot be empty".to_string());
    }
    let valid = (1..=128).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if !valid {
        errs.push("secret name must match regex ^[a-zA-Z0-9_]{1,128}$".into());
    }
    if provider.is_empty() {
        errs.push("secret provider cannot be empty".into());
    }
    if text(s, "Path").is_empty() {
        errs.push("secret path cannot be empty".into());
    }
    let given = |k: &str| {
        s.get(k)
            .and_then(Value::as_object)
            .is_some_and(|m| !m.is_empty())
    };
    if matches!(provider, "nomad" | "vault") {
        if given("Env") {
            errs.push(format!("{provider} provider cannot use the env block"));
        }
    } else if given("Config") {
        errs.push(format!(
            "custom plugin provider {provider} cannot use the config block"
        ));
    }
    errs
}
