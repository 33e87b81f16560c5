//! Editing the API's JSON: reading and defaulting members of an object.

use serde_json::{Map, Value};

pub(crate) const SECOND: i64 = 1_000_000_000;
pub(crate) const MINUTE: i64 = 60 * SECOND;
pub(crate) const HOUR: i64 = 60 * MINUTE;

/// The job's block with the group's set values over it (`Merge`), or
/// whichever exists.
pub(crate) fn merged(job: Option<&Value>, group: Option<&Value>) -> Option<Map<String, Value>> {
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

pub(crate) fn is_missing(v: Option<&Value>) -> bool {
    v.is_none_or(Value::is_null)
}

/// Sets `key` when it is missing or `null`.
pub(crate) fn default(m: &mut Map<String, Value>, key: &str, value: Value) {
    if is_missing(m.get(key)) {
        m.insert(key.to_string(), value);
    }
}

/// The object at `key`, made empty when missing or not an object.
pub(crate) fn ensure<'m>(m: &'m mut Map<String, Value>, key: &str) -> &'m mut Map<String, Value> {
    if !m.get(key).is_some_and(Value::is_object) {
        m.insert(key.to_string(), Value::Object(Map::new()));
    }
    m.get_mut(key)
        .and_then(Value::as_object_mut)
        .expect("set above")
}

pub(crate) fn object<'m>(
    m: &'m mut Map<String, Value>,
    key: &str,
) -> Option<&'m mut Map<String, Value>> {
    m.get_mut(key).and_then(Value::as_object_mut)
}

pub(crate) fn objects<'m>(
    m: &'m mut Map<String, Value>,
    key: &str,
) -> impl Iterator<Item = &'m mut Map<String, Value>> {
    m.get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

pub(crate) fn text(m: &Map<String, Value>, key: &str) -> String {
    m.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

pub(crate) fn list(m: &Map<String, Value>, key: &str) -> Vec<Value> {
    m.get(key)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}
