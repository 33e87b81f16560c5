//! Whether two JSON values are the same Go value, as `reflect.DeepEqual`
//! decides it for the diff's "anything changed?" checks, read leniently: a
//! missing field, `null`, an empty list or map and a zero scalar are one
//! value, because the API's JSON and the stored job's JSON write Go's zero
//! values differently (nil against empty, an omitted field). Nomad's own
//! check tells a nil slice from an empty one; a plan from JSON cannot.

use serde_json::Value;

/// Deep equality with zero values equal to absence.
pub(crate) fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.iter()
                .all(|(k, v)| y.get(k).map_or(is_zero(v), |w| same(v, w)))
                && y.iter().all(|(k, w)| x.contains_key(k) || is_zero(w))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same(v, w))
        }
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ if is_zero(a) && is_zero(b) => true,
        _ => a == b,
    }
}

/// A text that two values have alike exactly when [`same`] holds: the
/// value without its zero members, keys sorted. It stands for Nomad's
/// structure hash where a diff matches set members by content.
pub(crate) fn key(v: &Value) -> String {
    fn strip(v: &Value) -> Value {
        match v {
            Value::Object(m) => Value::Object(
                m.iter()
                    .filter(|(_, v)| !is_zero(v))
                    .map(|(k, v)| (k.clone(), strip(v)))
                    .collect(),
            ),
            Value::Array(a) => Value::Array(a.iter().map(strip).collect()),
            Value::Number(n) => n
                .as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9e15)
                .map_or_else(|| v.clone(), |f| Value::from(f as i64)),
            other => other.clone(),
        }
    }
    strip(v).to_string()
}

/// Go's zero value of any type, as JSON writes it. An object with members
/// is a struct a pointer points to (Go writes every field of a struct), so
/// it is never the nil pointer, even with only zero fields: an added
/// `sidecar_service {}` is a change.
pub(crate) fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn zero_values_are_absence() {
        assert!(same(&json!({"A": null, "B": []}), &json!({"C": 0})));
        assert!(same(&json!({"A": 5}), &json!({"A": 5.0})));
        assert!(!same(&json!({"A": 5}), &json!({})));
        assert!(!same(&json!({"A": [1]}), &json!({"A": [2]})));
    }
}
