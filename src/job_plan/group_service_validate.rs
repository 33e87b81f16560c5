//! The group-wide service rules of `TaskGroup.Validate`
//! (nomad/structs/structs.go `validateServices`,
//! `validateScriptChecksInGroupServices`): the group's own services, the
//! task a service or check may name, services unique by task, name and
//! port, and one service provider per group.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::json_map::{list, text};
use super::multierror::multierror;
use super::service_validate::service_errors;
use crate::model::go_quote;
use crate::version::{Switch, Switches};

/// `Task group service validation failed: ...`, or nothing (v1.3.0
/// nomad/structs/structs.go:6590-6667, v2.0.5 :7432-7561).
pub(crate) fn group_service_error(g: &Map<String, Value>, rules: Switches) -> Option<String> {
    let mut errs = Vec::new();
    let mut ids = Ids::default();
    let mut providers = BTreeSet::new();
    let tasks: Vec<Map<String, Value>> = list(g, "Tasks")
        .into_iter()
        .filter_map(|t| t.as_object().cloned())
        .collect();
    for t in &tasks {
        let task = text(t, "Name");
        for s in list(t, "Services").iter().filter_map(Value::as_object) {
            errs.extend(task_level_names(s, &task, rules));
            ids.insert(&task, s);
            providers.insert(text(s, "Provider"));
        }
    }
    let known: BTreeSet<String> = tasks.iter().map(|t| text(t, "Name")).collect();
    for (i, s) in list(g, "Services")
        .iter()
        .filter_map(Value::as_object)
        .enumerate()
    {
        ids.insert("group", s);
        providers.insert(text(s, "Provider"));
        let inner = service_errors(s, rules);
        if !inner.is_empty() {
            errs.push(format!(
                "Service[{i}] {} validation failed: {}",
                text(s, "Name"),
                multierror(&inner)
            ));
            continue;
        }
        errs.extend(group_level_rules(s, &known, rules));
    }
    if rules.has(Switch::ServiceUniqueness) && !ids.duplicates.is_empty() {
        let listed: Vec<&str> = ids.duplicates.iter().map(String::as_str).collect();
        errs.push(format!("Services are not unique: [{}]", listed.join(" ")));
    }
    if providers.len() > 1 {
        errs.push(
            "Multiple service providers used: task group services must use the same provider"
                .into(),
        );
    }
    (!errs.is_empty()).then(|| {
        format!(
            "Task group service validation failed: {}",
            multierror(&errs)
        )
    })
}

/// The services seen so far as `task->name:port` (no `:` without a port),
/// and those seen twice, sorted as go-set's `StringFunc` lists them.
#[derive(Default)]
struct Ids {
    seen: BTreeSet<String>,
    duplicates: BTreeSet<String>,
}

impl Ids {
    fn insert(&mut self, task: &str, s: &Map<String, Value>) {
        let mut id = format!("{task}->{}", text(s, "Name"));
        let port = text(s, "PortLabel");
        if !port.is_empty() {
            id.push(':');
            id.push_str(&port);
        }
        if !self.seen.insert(id.clone()) {
            self.duplicates.insert(id);
        }
    }
}

/// The task a task-level service or check names: from #14033 only its own
/// (the server sets it); before, a check may name none.
fn task_level_names(s: &Map<String, Value>, task: &str, rules: Switches) -> Vec<String> {
    let mut errs = Vec::new();
    let plumbed = rules.has(Switch::ServiceTaskNames);
    let named = text(s, "TaskName");
    if plumbed && !named.is_empty() && named != task {
        errs.push(format!(
            "Service {} is invalid: may only specify task the service belongs to, got {}",
            text(s, "Name"),
            go_quote(&named)
        ));
    }
    for c in list(s, "Checks").iter().filter_map(Value::as_object) {
        let named = text(c, "TaskName");
        if named.is_empty() {
            continue;
        }
        if !plumbed {
            errs.push(format!(
                "Check {} is invalid: only task group service checks can be assigned tasks",
                text(c, "Name")
            ));
        } else if named != task {
            errs.push(format!(
                "Check {} is invalid: may only specify task the check belongs to, got {}",
                text(c, "Name"),
                go_quote(&named)
            ));
        }
    }
    errs
}

/// A valid group service: no `driver` address mode, and its checks that
/// name a task: a `script` or `grpc` check before #14864, no `driver`
/// address mode, a task of the group.
fn group_level_rules(
    s: &Map<String, Value>,
    known: &BTreeSet<String>,
    rules: Switches,
) -> Vec<String> {
    let mut errs = Vec::new();
    let name = go_quote(&text(s, "Name"));
    if text(s, "AddressMode") == "driver" {
        errs.push(format!(
            "service {name} cannot use address_mode=\"driver\", only services defined in a \"task\" block can use this mode"
        ));
    }
    for c in list(s, "Checks").iter().filter_map(Value::as_object) {
        let task = text(c, "TaskName");
        if task.is_empty() {
            continue;
        }
        let check = text(c, "Name");
        if !rules.has(Switch::GroupCheckTaskAnyType)
            && !matches!(text(c, "Type").as_str(), "script" | "grpc")
        {
            errs.push(format!(
                "Check {check} invalid: only script and gRPC checks should have tasks"
            ));
        }
        if text(c, "AddressMode") == "driver" {
            errs.push(format!(
                "Check {name} invalid: cannot use address_mode=\"driver\", only checks defined in a \"task\" service block can use this mode"
            ));
        }
        if !known.contains(&task) {
            errs.push(format!(
                "Check {check} invalid: refers to non-existent task {task}"
            ));
        }
    }
    errs
}

/// `Task group service check validation failed: ...` for a script check
/// of a group service when neither names a task, or nothing (v1.3.0
/// nomad/structs/structs.go:6670-6686, v2.0.5 :7564-7580).
pub(crate) fn script_check_error(g: &Map<String, Value>) -> Option<String> {
    let group = text(g, "Name");
    let mut errs = Vec::new();
    for s in list(g, "Services").iter().filter_map(Value::as_object) {
        if !text(s, "TaskName").is_empty() {
            continue;
        }
        for c in list(s, "Checks").iter().filter_map(Value::as_object) {
            if text(c, "Type") == "script" && text(c, "TaskName").is_empty() {
                errs.push(format!(
                    "Service [{group}]->{} or Check {} must specify task parameter",
                    text(s, "Name"),
                    text(c, "Name")
                ));
            }
        }
    }
    (!errs.is_empty()).then(|| {
        format!(
            "Task group service check validation failed: {}",
            multierror(&errs)
        )
    })
}
