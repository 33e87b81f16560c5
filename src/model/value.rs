//! Opaque parts of a job spec that Nomad compares with `reflect.DeepEqual`.

use serde::Deserialize;
use serde_json::{Map, Value};

/// A sub-tree of the job spec kept as JSON and compared as Go would compare the
/// decoded struct: a key missing on one side equals a zero value (`null`, `0`,
/// `false`, `""`, or an object of zeros) on the other, since Go prints every
/// field and a missing one can only mean its zero value. `null` and `[]` stay
/// distinct, as a nil and an empty slice do for `DeepEqual`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(transparent)]
pub struct GoValue(pub Value);

impl PartialEq for GoValue {
    fn eq(&self, other: &GoValue) -> bool {
        deep_equal(&self.0, &other.0)
    }
}

impl GoValue {
    pub fn is_null(&self) -> bool {
        self.0.is_null()
    }

    /// `reflect.DeepEqual` on a Go map (`map[string]string`, or
    /// `map[string]interface{}` whose nested objects are maps too): unlike a
    /// struct, a key present on one side only is a difference even when its
    /// value is a zero value.
    pub fn map_equal(&self, other: &GoValue) -> bool {
        maps_equal(&self.0, &other.0)
    }

    /// The elements of a JSON array (empty for `null`).
    pub fn elements(&self) -> &[Value] {
        match &self.0 {
            Value::Array(a) => a,
            _ => &[],
        }
    }
}

/// `reflect.DeepEqual` on two decoded JSON values, with the rules of [`GoValue`].
pub(crate) fn deep_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => objects_equal(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| deep_equal(p, q))
        }
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(p), Some(q)) if x.is_f64() || y.is_f64() => p == q,
            _ => x == y,
        },
        _ => a == b,
    }
}

fn objects_equal(x: &Map<String, Value>, y: &Map<String, Value>) -> bool {
    let covered = |from: &Map<String, Value>, to: &Map<String, Value>| {
        from.iter().all(|(k, v)| match to.get(k) {
            Some(w) => deep_equal(v, w),
            None => is_zero(v),
        })
    };
    covered(x, y) && y.iter().all(|(k, v)| x.contains_key(k) || is_zero(v))
}

/// [`GoValue::map_equal`] on two decoded JSON values.
pub(crate) fn maps_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| maps_equal(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| maps_equal(p, q))
        }
        _ => deep_equal(a, b),
    }
}

fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(_) => false,
        Value::Object(o) => o.values().all(is_zero),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn eq(a: Value, b: Value) -> bool {
        GoValue(a) == GoValue(b)
    }

    #[test]
    fn missing_fields_equal_zero_values() {
        assert!(eq(json!({"A": 0, "B": ""}), json!({})));
        assert!(!eq(json!({"A": 1}), json!({})));
    }

    #[test]
    fn nil_and_empty_slices_differ() {
        assert!(!eq(json!({"A": null}), json!({"A": []})));
        assert!(eq(json!([1, 2]), json!([1, 2])));
        assert!(!eq(json!([1, 2]), json!([2, 1])));
    }

    #[test]
    fn map_keys_count_even_with_zero_values() {
        let map_eq = |a: Value, b: Value| GoValue(a).map_equal(&GoValue(b));
        assert!(!map_eq(json!({"A": ""}), json!({})));
        assert!(!map_eq(json!({"A": {"B": 0}}), json!({"A": {}})));
        assert!(!map_eq(json!(null), json!({})));
        assert!(map_eq(
            json!({"A": [1, {"B": 2}]}),
            json!({"A": [1, {"B": 2}]})
        ));
    }

    #[test]
    fn numbers_compare_by_value() {
        assert!(eq(json!(1.0), json!(1.0)));
        assert!(!eq(json!(1), json!(2)));
    }
}
