//! The same snapshot in any array or key order gives byte-identical output.

use plan_inspect::read::read_snapshot_from;
use plan_inspect::render;
use plan_inspect::replay::{Options, Replay};
use serde_json::{Map, Value};

fn output(text: &str) -> String {
    let snapshot = read_snapshot_from(text.as_bytes(), "test").unwrap();
    render::json::render(
        &Replay::new(&snapshot, &Options::default())
            .unwrap()
            .report(),
    )
}

/// Reverses every array and every object's key order, recursively, except
/// inside embedded jobs, whose order is part of the spec.
fn scramble(v: Value, inside_job: bool) -> Value {
    match v {
        Value::Array(a) if !inside_job => {
            Value::Array(a.into_iter().rev().map(|x| scramble(x, false)).collect())
        }
        Value::Object(o) => {
            let mut out = Map::new();
            for (k, x) in o.into_iter().collect::<Vec<_>>().into_iter().rev() {
                let job = inside_job || k == "Job" || k == "Jobs" || k == "TaskStates";
                out.insert(k, scramble(x, job));
            }
            Value::Object(out)
        }
        other => other,
    }
}

#[test]
fn output_ignores_input_order() {
    for fixture in ["example.json", "rollout.json", "mixed-cluster.json"] {
        let path = format!("{}/fixtures/{fixture}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        let scrambled = scramble(serde_json::from_str(&text).unwrap(), false).to_string();
        assert_ne!(text, scrambled);
        assert_eq!(output(&text), output(&scrambled), "{fixture}");
        assert_eq!(output(&text), output(&text), "{fixture}: run to run");
    }
}
