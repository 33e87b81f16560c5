//! The class cache of `FeasibilityWrapper`, after Nomad's
//! `TestFeasibilityWrapper_*` (scheduler/feasible_test.go v1.3.0,
//! scheduler/feasible/feasible_test.go v2.0.5, the same rule at both).
//! Nomad primes the cache by hand and counts the mock checker's calls;
//! here the first node of a computed class primes it, and a second node of
//! the same class that would answer otherwise on its own shows whether its
//! checks ran.

use serde_json::{Value, json};

use super::*;
use crate::model::{Job, Node, from_slice, v};

fn parse<T: for<'de> serde::Deserialize<'de>>(v: Value) -> T {
    from_slice(v.to_string().as_bytes()).unwrap()
}

/// A node of class `v1:c` named `name`, with `kernel` and the exec
/// driver when `exec`.
fn node(name: &str, kernel: &str, exec: bool) -> Node {
    parse(
        json!({"ID": name, "Status": "ready", "ComputedClass": "v1:c",
                 "Attributes": {"kernel.name": kernel, "unique.hostname": name},
                 "Drivers": {"exec": {"Detected": exec, "Healthy": exec}}}),
    )
}

fn job(job_constraint: Value, group_constraint: Value) -> Job {
    parse(json!({"ID": "j", "Namespace": "default", "Type": "service",
                 "Constraints": [job_constraint],
                 "TaskGroups": [{"Name": "foo", "Count": 1, "Constraints": [group_constraint],
                                 "Tasks": [{"Name": "t", "Driver": "exec"}]}]}))
}

fn equals(target: &str, value: &str) -> Value {
    json!({"LTarget": target, "RTarget": value, "Operand": "="})
}

/// The verdicts on `first`, then on `second`, in one evaluation.
fn verdicts(j: &Job, first: &Node, second: &Node) -> [Result<Eligibility, String>; 2] {
    let mut stack = SystemStack::new(j, Vec::new()).with_targets(TargetRules::of(v(2, 0, 5)));
    let tg = &j.task_groups[0];
    let mut run = |n: &Node| {
        stack
            .class_checks(tg, "j.foo[0]", n)
            .map_err(|f| f.metric().into_owned())
    };
    [run(first), run(second)]
}

/// JobIneligible: the class failed the job's checks, so the next node of
/// it is filtered as "computed class ineligible" without checks.
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_feasibility_wrapper_job_ineligible() {
    let j = job(
        equals("${attr.kernel.name}", "linux"),
        equals("${attr.kernel.name}", "${attr.kernel.name}"),
    );
    let got = verdicts(&j, &node("a", "windows", true), &node("b", "linux", true));
    assert_eq!(
        got,
        [
            Err("${attr.kernel.name} = linux".to_string()),
            Err(CLASS_INELIGIBLE.to_string())
        ]
    );
}

/// JobEscapes: a job constraint on a `unique.` attribute escapes the
/// class, so every node is checked on its own.
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_feasibility_wrapper_job_escapes() {
    let j = job(
        equals("${attr.unique.hostname}", "b"),
        equals("${attr.kernel.name}", "${attr.kernel.name}"),
    );
    let got = verdicts(&j, &node("a", "linux", true), &node("b", "linux", true));
    assert_eq!(
        got,
        [
            Err("${attr.unique.hostname} = b".to_string()),
            Ok(Eligibility::Checked)
        ]
    );
}

/// JobAndTg_Eligible: job and group passed for the class, so the next
/// node is taken from the cache even though its own driver is missing.
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_feasibility_wrapper_job_and_tg_eligible() {
    let j = job(
        equals("${attr.kernel.name}", "linux"),
        equals("${attr.kernel.name}", "linux"),
    );
    let got = verdicts(&j, &node("a", "linux", true), &node("b", "linux", false));
    assert_eq!(got, [Ok(Eligibility::Checked), Ok(Eligibility::Cached)]);
}

/// JobEligible_TgIneligible: the group failed for the class, so the next
/// node is filtered by the cache although it has the driver.
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_feasibility_wrapper_job_eligible_tg_ineligible() {
    let j = job(
        equals("${attr.kernel.name}", "linux"),
        equals("${attr.kernel.name}", "linux"),
    );
    let got = verdicts(&j, &node("a", "linux", false), &node("b", "linux", true));
    assert_eq!(
        got,
        [
            Err("missing drivers".to_string()),
            Err(CLASS_INELIGIBLE.to_string())
        ]
    );
}

/// JobEligible_TgEscaped: a group constraint on a `unique.` attribute
/// escapes, so the group's checks run on every node.
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_feasibility_wrapper_job_eligible_tg_escaped() {
    let j = job(
        equals("${attr.kernel.name}", "linux"),
        equals("${attr.unique.hostname}", "a"),
    );
    let got = verdicts(&j, &node("a", "linux", true), &node("b", "linux", true));
    assert_eq!(
        got,
        [
            Ok(Eligibility::Checked),
            Err("${attr.unique.hostname} = a".to_string())
        ]
    );
}
