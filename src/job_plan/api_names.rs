//! The API's spellings the HTTP agent renames on its way to the stored job
//! (command/agent/job_endpoint.go `ApiJobToStructJob`): a UI link's `URL`
//! is stored as `Url`; a Connect proxy's deprecated `ExposeConfig` and an
//! expose block's deprecated `Path` list stand for `Expose` and `Paths`
//! when those are not given.

use serde_json::{Map, Value};

/// Renames the API fields of `job` to the stored job's.
pub(crate) fn to_stored(job: &mut Map<String, Value>) {
    if let Some(links) = job
        .get_mut("UI")
        .and_then(|u| u.get_mut("Links"))
        .and_then(Value::as_array_mut)
    {
        for link in links.iter_mut().filter_map(Value::as_object_mut) {
            rename(link, "URL", "Url");
        }
    }
    for g in objects(job.get_mut("TaskGroups")) {
        for s in objects(g.get_mut("Services")) {
            proxy(s);
        }
        for t in objects(g.get_mut("Tasks")) {
            for s in objects(t.get_mut("Services")) {
                proxy(s);
            }
        }
    }
}

fn objects(v: Option<&mut Value>) -> impl Iterator<Item = &mut Map<String, Value>> {
    v.and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

fn proxy(service: &mut Map<String, Value>) {
    let Some(p) = service
        .get_mut("Connect")
        .and_then(|c| c.get_mut("SidecarService"))
        .and_then(|s| s.get_mut("Proxy"))
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    rename(p, "ExposeConfig", "Expose");
    if let Some(e) = p.get_mut("Expose").and_then(Value::as_object_mut) {
        rename(e, "Path", "Paths");
    }
}

/// Moves `from` to `to` unless `to` is set; `from` is dropped either way.
fn rename(m: &mut Map<String, Value>, from: &str, to: &str) {
    let Some(v) = m.remove(from) else { return };
    if m.get(to).is_none_or(Value::is_null) && !v.is_null() {
        m.insert(to.to_string(), v);
    }
}
