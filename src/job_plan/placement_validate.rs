//! The placement blocks' own checks: `Constraint.Validate`,
//! `Affinity.Validate` and `Spread.Validate` (v1.3.0
//! nomad/structs/structs.go:8618, :8740, :8849; v2.0.5 :10010, :10150,
//! :10279), and the refusal of affinities and spreads in system jobs, as
//! the job, its groups and its tasks run them.

use serde_json::{Map, Value};

use super::go_regexp::compile_error;
use super::json_map::{list, text};
use super::multierror::multierror;
use crate::feasibility::{Flavour, VersionConstraints};
use crate::model::go_quote;
use crate::version::{Switch, Switches};

/// `Constraint N validation failed: ...` for each constraint of `owner`.
pub(crate) fn constraint_errors(owner: &Map<String, Value>, rules: Switches) -> Vec<String> {
    numbered(owner, "Constraints", "Constraint", |c| constraint(c, rules))
}

/// The affinities' errors, or their refusal in a system job (a JSON list,
/// even empty, is a block Nomad refuses: the agent keeps an empty list of
/// affinities, v2.0.5 command/agent/job_endpoint.go:2252).
pub(crate) fn affinity_errors(
    owner: &Map<String, Value>,
    kind: &str,
    rules: Switches,
) -> Vec<String> {
    if kind == "system" {
        return refused(owner, "Affinities", "an affinity", true, rules);
    }
    numbered(owner, "Affinities", "Affinity", |a| affinity(a, rules))
}

/// The spreads' errors, or their refusal in a system job (only a list with
/// spreads: the agent drops an empty one, v2.0.5
/// command/agent/job_endpoint.go:1165, :1299).
pub(crate) fn spread_errors(
    owner: &Map<String, Value>,
    kind: &str,
    rules: Switches,
) -> Vec<String> {
    if kind == "system" {
        return refused(owner, "Spreads", "a spread", false, rules);
    }
    numbered(owner, "Spreads", "Spread", |s| spread(s, rules))
}

/// A task's constraints: their own checks, then the operands a task may
/// not use (v2.0.5 structs.go:8251).
pub(crate) fn task_constraint_errors(t: &Map<String, Value>, rules: Switches) -> Vec<String> {
    let mut errs = Vec::new();
    for (i, c) in list(t, "Constraints").iter().enumerate() {
        let Some(c) = c.as_object() else { continue };
        let inner = constraint(c, rules);
        if !inner.is_empty() {
            errs.push(format!(
                "Constraint {} validation failed: {}",
                i + 1,
                multierror(&inner)
            ));
        }
        let operand = text(c, "Operand");
        if matches!(operand.as_str(), "distinct_hosts" | "distinct_property") {
            errs.push(format!(
                "Constraint {} has disallowed Operand at task level: {operand}",
                i + 1
            ));
        }
    }
    errs
}

/// `RequestedDevice.Validate` (v1.3.0 structs.go:2860, v2.0.5 :3125): its
/// name, its constraints (a task-level operand refused) and affinities; a
/// missing affinity weight is the 50 `api.Affinity.Canonicalize` fills.
pub(crate) fn device_errors(d: &Map<String, Value>, rules: Switches) -> Vec<String> {
    let mut errs = Vec::new();
    if text(d, "Name").is_empty() {
        errs.push(
            "device name must be given as one of the following: type, vendor/type, or vendor/type/name"
                .to_string(),
        );
    }
    for (i, c) in list(d, "Constraints").iter().enumerate() {
        let Some(c) = c.as_object() else { continue };
        let operand = text(c, "Operand");
        if matches!(operand.as_str(), "distinct_hosts" | "distinct_property") {
            errs.push(format!(
                "Constraint {} validation failed: using unsupported operand {}",
                i + 1,
                go_quote(&operand)
            ));
            continue;
        }
        let inner = constraint(c, rules);
        if !inner.is_empty() {
            errs.push(format!(
                "Constraint {} validation failed: {}",
                i + 1,
                multierror(&inner)
            ));
        }
    }
    errs.extend(numbered(d, "Affinities", "Affinity", |a| {
        let mut a = a.clone();
        if a.get("Weight").is_none_or(Value::is_null) {
            a.insert("Weight".into(), Value::from(50));
        }
        affinity(&a, rules)
    }));
    errs
}

fn numbered(
    owner: &Map<String, Value>,
    key: &str,
    what: &str,
    check: impl Fn(&Map<String, Value>) -> Vec<String>,
) -> Vec<String> {
    list(owner, key)
        .iter()
        .enumerate()
        .filter_map(|(i, v)| {
            let inner = check(v.as_object()?);
            (!inner.is_empty())
                .then(|| format!("{what} {} validation failed: {}", i + 1, multierror(&inner)))
        })
        .collect()
}

fn refused(
    owner: &Map<String, Value>,
    key: &str,
    what: &str,
    empty_counts: bool,
    rules: Switches,
) -> Vec<String> {
    let given = owner
        .get(key)
        .and_then(Value::as_array)
        .is_some_and(|l| empty_counts || !l.is_empty());
    if !given {
        return Vec::new();
    }
    let word = if rules.has(Switch::StanzaIsBlock) {
        "block"
    } else {
        "stanza"
    };
    vec![format!("System jobs may not have {what} {word}")]
}

/// The operands that compare a node's value with the right-hand target.
const COMPARISONS: &[&str] = &["=", "==", "is", "!=", "not", "<", "<=", ">", ">="];
const SETS: &[&str] = &["set_contains_all", "set_contains_any", "set_contains"];

fn constraint(c: &Map<String, Value>, rules: Switches) -> Vec<String> {
    let (l, r, operand) = (text(c, "LTarget"), text(c, "RTarget"), text(c, "Operand"));
    let mut errs = Vec::new();
    if operand.is_empty() {
        errs.push("Missing constraint operand".to_string());
    }
    let mut needs_left = true;
    match operand.as_str() {
        "distinct_hosts" => needs_left = false,
        o if SETS.contains(&o) && r.is_empty() => {
            errs.push("Set contains constraint requires an RTarget".into());
        }
        o if SETS.contains(&o) => {}
        "regexp" => errs.extend(regexp_error(&r)),
        "version" => errs.extend(
            version_error(&r, Flavour::Version, rules)
                .map(|e| format!("Version constraint is invalid: {e}")),
        ),
        "semver" => errs.extend(
            version_error(&r, Flavour::Semver, rules)
                .map(|e| format!("Semver constraint is invalid: {e}")),
        ),
        "distinct_property" if !r.is_empty() => errs.extend(distinct_count_error(&r)),
        "distinct_property" => {}
        "is_set" | "is_not_set" if !r.is_empty() => {
            errs.push(format!(
                "Operator {} does not support an RTarget",
                go_quote(&operand)
            ));
        }
        "is_set" | "is_not_set" => {}
        o if COMPARISONS.contains(&o) && r.is_empty() => {
            errs.push(format!(
                "Operator {} requires an RTarget",
                go_quote(&operand)
            ));
        }
        o if COMPARISONS.contains(&o) => {}
        _ => errs.push(format!("Unknown constraint type {}", go_quote(&operand))),
    }
    if needs_left {
        let attribute_checked = rules.has(Switch::ConstraintAttributeChecked);
        if l.is_empty() && attribute_checked {
            errs.push("no attribute provided but is required by operator".into());
        } else if l.is_empty() {
            errs.push("No LTarget provided but is required by constraint".into());
        } else if attribute_checked {
            errs.extend(attribute_error(&l));
        }
    }
    errs
}

fn affinity(a: &Map<String, Value>, rules: Switches) -> Vec<String> {
    let (l, r, operand) = (text(a, "LTarget"), text(a, "RTarget"), text(a, "Operand"));
    let weight = a.get("Weight").and_then(Value::as_i64).unwrap_or(0);
    let mut errs = Vec::new();
    if operand.is_empty() {
        errs.push("Missing affinity operand".to_string());
    }
    match operand.as_str() {
        o if SETS.contains(&o) && r.is_empty() => {
            errs.push("Set contains operators require an RTarget".into());
        }
        o if SETS.contains(&o) => {}
        "regexp" => errs.extend(regexp_error(&r)),
        "version" => errs.extend(
            version_error(&r, Flavour::Version, rules)
                .map(|e| format!("Version affinity is invalid: {e}")),
        ),
        "semver" => errs.extend(
            version_error(&r, Flavour::Semver, rules)
                .map(|e| format!("Semver affinity is invalid: {e}")),
        ),
        o if COMPARISONS.contains(&o) && r.is_empty() => {
            errs.push(format!(
                "Operator {} requires an RTarget",
                go_quote(&operand)
            ));
        }
        o if COMPARISONS.contains(&o) => {}
        _ => errs.push(format!("Unknown affinity operator {}", go_quote(&operand))),
    }
    if l.is_empty() {
        errs.push("No LTarget provided but is required".into());
    }
    if weight == 0 {
        errs.push("Affinity weight cannot be zero".into());
    }
    if !(-100..=100).contains(&weight) {
        errs.push("Affinity weight must be within the range [-100,100]".into());
    }
    errs
}

fn spread(s: &Map<String, Value>, rules: Switches) -> Vec<String> {
    let mut errs = Vec::new();
    if text(s, "Attribute").is_empty() {
        errs.push("Missing spread attribute".to_string());
    }
    let weight = s.get("Weight").and_then(Value::as_i64).unwrap_or(0);
    if weight <= 0 || weight > 100 {
        let word = if rules.has(Switch::StanzaIsBlock) {
            "block"
        } else {
            "stanza"
        };
        errs.push(format!(
            "Spread {word} must have a positive weight from 0 to 100"
        ));
    }
    let mut seen: Vec<String> = Vec::new();
    let mut sum = 0;
    for t in list(s, "SpreadTarget") {
        let Some(t) = t.as_object() else { continue };
        let value = text(t, "Value");
        if seen.contains(&value) {
            errs.push(format!(
                "Spread target value {} already defined",
                go_quote(&value)
            ));
        } else {
            seen.push(value.clone());
        }
        let percent = t.get("Percent").and_then(Value::as_i64).unwrap_or(0);
        if percent > 100 {
            errs.push(format!(
                "Spread target percentage for value {} must be between 0 and 100",
                go_quote(&value)
            ));
        }
        sum += percent;
    }
    if sum > 100 {
        errs.push(format!(
            "Sum of spread target percentages must not be greater than 100%; got {sum}%"
        ));
    }
    errs
}

fn regexp_error(pattern: &str) -> Option<String> {
    compile_error(pattern).map(|e| format!("Regular expression failed to compile: {e}"))
}

/// go-version's `NewConstraint` (or Nomad's semver one, which reuses its
/// syntax): the first comma-separated part that does not parse. go-version
/// words its errors in lower case from #27170; Nomad's semver parser keeps
/// its own `Malformed constraint`.
fn version_error(text: &str, flavour: Flavour, rules: Switches) -> Option<String> {
    if VersionConstraints::parse(text, flavour).is_some() {
        return None;
    }
    let bad = text
        .split(',')
        .find(|part| VersionConstraints::parse(part, flavour).is_none())
        .unwrap_or(text);
    let lower = rules.has(Switch::GoVersionLowerCase);
    Some(match out_of_range(bad) {
        Some(digits) => format!(
            "{} parsing version: strconv.ParseInt: parsing {}: value out of range",
            if lower { "error" } else { "Error" },
            go_quote(digits)
        ),
        None if lower && flavour == Flavour::Version => format!("malformed constraint: {bad}"),
        None => format!("Malformed constraint: {bad}"),
    })
}

/// A version segment too large for Go's int64, which go-version's syntax
/// accepts and its number parse refuses.
fn out_of_range(part: &str) -> Option<&str> {
    part.split(|c: char| !c.is_ascii_digit())
        .find(|d| !d.is_empty() && d.parse::<i64>().is_err())
}

/// `strconv.ParseUint(RTarget, 10, 64)` and a count of at least one.
fn distinct_count_error(r: &str) -> Option<String> {
    let quoted = go_quote(r);
    let why = if !r.bytes().all(|b| b.is_ascii_digit()) {
        "invalid syntax"
    } else {
        match r.parse::<u64>() {
            Ok(0) => {
                return Some(
                    "Distinct Property must have an allowed count of 1 or greater: 0 < 1".into(),
                );
            }
            Ok(_) => return None,
            Err(_) => "value out of range",
        }
    };
    Some(format!(
        "Failed to convert RTarget {quoted} to uint64: strconv.ParseUint: parsing {quoted}: {why}"
    ))
}

/// `validateConstraintAttribute` (v2.0.5 nomad/structs/constraint.go:34):
/// an interpolated left target must be one Nomad can resolve.
fn attribute_error(target: &str) -> Option<String> {
    const EXACT: &[&str] = &[
        "${node.unique.id}",
        "${node.datacenter}",
        "${node.unique.name}",
        "${node.class}",
        "${node.pool}",
    ];
    const PREFIXES: &[&str] = &["${attr.", "${device.", "${meta."];
    if !target.starts_with('$') {
        return None;
    }
    let quoted = go_quote(target);
    if !target.starts_with("${") {
        return Some(format!("attribute {quoted} is missing an opening brace"));
    }
    if !target.ends_with('}') {
        return Some(format!("attribute {quoted} is missing a closing brace"));
    }
    if EXACT.contains(&target) || PREFIXES.iter().any(|p| target.starts_with(p)) {
        return None;
    }
    Some(format!("unsupported attribute {quoted}"))
}
