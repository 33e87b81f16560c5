//! The names of Connect services interpolated as the Connect mutator does,
//! with the variables an allocation of the group has before placement.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::json_map::text;

/// The variables Nomad interpolates a Connect service's name with: those an
/// allocation of the group has before it is placed (job, group, namespace,
/// region, index 0 and the job's and group's meta).
pub(crate) struct JobEnv {
    vars: BTreeMap<String, String>,
    meta: Map<String, Value>,
}

impl JobEnv {
    pub(crate) fn of(job: &Map<String, Value>) -> Self {
        let mut vars = BTreeMap::new();
        for (var, key) in [
            ("NOMAD_JOB_ID", "ID"),
            ("NOMAD_JOB_NAME", "Name"),
            ("NOMAD_JOB_PARENT_ID", "ParentID"),
            ("NOMAD_NAMESPACE", "Namespace"),
            ("NOMAD_REGION", "Region"),
        ] {
            let value = text(job, key);
            if !value.is_empty() {
                vars.insert(var.to_string(), value);
            }
        }
        vars.insert("NOMAD_ALLOC_INDEX".into(), "0".into());
        let meta = job
            .get("Meta")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        JobEnv { vars, meta }
    }

    pub(crate) fn for_group(&self, g: &Map<String, Value>) -> BTreeMap<String, String> {
        let mut vars = self.vars.clone();
        let group = text(g, "Name");
        if !group.is_empty() {
            vars.insert("NOMAD_GROUP_NAME".into(), group);
        }
        let group_meta = g.get("Meta").and_then(Value::as_object);
        let meta = self.meta.iter().chain(group_meta.into_iter().flatten());
        for (k, val) in meta {
            let val = val.as_str().unwrap_or_default().to_string();
            vars.insert(format!("NOMAD_META_{k}"), val.clone());
            vars.insert(format!("NOMAD_META_{}", k.to_uppercase()), val);
        }
        vars
    }
}

/// Replaces each `${VAR}` of the service's name that `vars` knows; the
/// others stay as written.
pub(crate) fn interpolate_name(s: &mut Map<String, Value>, vars: &BTreeMap<String, String>) {
    let name = text(s, "Name");
    let mut out = String::new();
    let mut rest = name.as_str();
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find('}') {
            Some(end) => {
                let key = &after[..end];
                match vars.get(key) {
                    Some(val) => out.push_str(val),
                    None => out.push_str(&rest[start..start + 3 + end]),
                }
                rest = &after[end + 1..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    s.insert("Name".into(), json!(out));
}
