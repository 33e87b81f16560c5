//! The secrets-provider checker (#26303), after Nomad's
//! scheduler/feasible/feasible_test.go `TestSecretsChecker` at v1.11.0 and
//! v2.0.5, run through the stack so that the filter and its metric are
//! checked too.

use serde_json::{Value, json};

use super::*;
use crate::model::{Job, Node, from_slice, v};

fn parse<T: for<'de> serde::Deserialize<'de>>(v: Value) -> T {
    from_slice(v.to_string().as_bytes()).unwrap()
}

/// A node with the exec driver, `attributes` and no computed class, so that each node is
/// checked on its own.
fn node(i: usize, attributes: Value) -> Node {
    parse(
        json!({"ID": format!("node-{i}"), "Status": "ready", "Attributes": attributes,
                 "Drivers": {"exec": {"Detected": true, "Healthy": true}}}),
    )
}

/// A job of one group whose task has a `secret` block per provider.
fn job(providers: &[&str]) -> Job {
    let secrets: Vec<Value> = providers
        .iter()
        .enumerate()
        .map(|(i, p)| json!({"Name": format!("s{i}"), "Provider": p, "Path": "x"}))
        .collect();
    parse(json!({"ID": "j", "Namespace": "default", "Type": "service",
                 "TaskGroups": [{"Name": "web", "Count": 1,
                                 "Tasks": [{"Name": "t", "Driver": "exec", "Secrets": secrets}]}]}))
}

fn verdicts(job: &Job, nodes: &[Node], release: crate::model::Release) -> Vec<Option<String>> {
    let mut stack = SystemStack::new(job, Vec::new()).with_targets(TargetRules::of(release));
    let tg = &job.task_groups[0];
    nodes
        .iter()
        .map(|n| {
            stack
                .select(tg, "j.web[0]", n, &PlanSoFar::default())
                .err()
                .map(|f| f.metric().into_owned())
        })
        .collect()
}

/// TestSecretsChecker: with provider `foo` asked for, only the node that
/// fingerprinted `plugins.secrets.foo.version` passes; the others are
/// filtered as "missing secrets provider". At 1.10.5 nobody checks.
#[test]
fn feasible_test_go_v1_11_0_v2_0_5_secrets_checker() {
    let nodes = [
        node(0, json!({})),
        node(1, json!({"plugins.secrets.foo.version": "1.0.0"})),
        node(2, json!({"plugins.secrets.bar.version": "1.0.0"})),
    ];
    let missing = Some("missing secrets provider".to_string());
    for release in [v(1, 11, 0), v(2, 0, 5)] {
        assert_eq!(
            verdicts(&job(&["foo"]), &nodes, release),
            [missing.clone(), None, missing.clone()],
            "{release}"
        );
    }
    assert_eq!(
        verdicts(&job(&["foo"]), &nodes, v(1, 10, 5)),
        [None, None, None]
    );
}

/// Every provider of every task counts, each once; a group without
/// `secret` blocks asks for none, and the explanation names only the
/// providers the node lacks.
#[test]
fn every_provider_is_needed_and_only_the_missing_are_named() {
    let both = node(
        0,
        json!({"plugins.secrets.foo.version": "1", "plugins.secrets.bar.version": "1"}),
    );
    let foo = node(1, json!({"plugins.secrets.foo.version": "1"}));
    let at = v(2, 0, 5);
    assert_eq!(
        verdicts(
            &job(&["foo", "bar", "foo"]),
            &[both.clone(), foo.clone()],
            at
        ),
        [None, Some("missing secrets provider".to_string())]
    );
    assert_eq!(verdicts(&job(&[]), &[node(2, json!({}))], at), [None]);
    let j = job(&["foo", "bar"]);
    let mut stack = SystemStack::new(&j, Vec::new()).with_targets(TargetRules::of(at));
    let why = stack
        .select(&j.task_groups[0], "j.web[0]", &foo, &PlanSoFar::default())
        .unwrap_err();
    assert_eq!(why.describe(), "missing secrets provider (bar)");
}
