//! `alloc-fail` of an allocation the story placed: named as Nomad names it
//! (`job.group[index]`), looked up when the event happens, or by the ID the
//! story gave it; the client's failure then takes the same path as for a
//! snapshot allocation (`Node.UpdateAlloc`, an `alloc-failure` evaluation,
//! a rescheduled replacement).

use plan_inspect::servers::story::MarkKind;
use plan_inspect::servers::{Story, WhatIfError};
use plan_inspect::time::SECOND;

use crate::common::*;

const WEB0: &str = "mock-service.web[0]";

fn try_story(
    c: &Cluster,
    version: &str,
    events: &[String],
    until: Option<&str>,
) -> Result<Story, WhatIfError> {
    try_tell(c, version, &request(events, until, None))
}

fn story(c: &Cluster, version: &str, events: &[String], until: Option<&str>) -> Story {
    try_story(c, version, events, until).unwrap_or_else(|e| panic!("{e}"))
}

fn error(c: &Cluster, events: &[String]) -> String {
    try_story(c, "1.3.0", events, Some("30m"))
        .unwrap_err()
        .to_string()
}

/// Three allocations of mock.Job (count 3), each on a node of its own, and
/// a spare node; the allocations and the first one's node.
fn cluster() -> (Cluster, Vec<String>, String) {
    let mut c = Cluster::new();
    let job = c.job(job_with(3, None));
    let ids = c.allocs(&job, 3);
    c.node(plan_inspect::model::node_status::READY);
    for n in &mut c.snapshot.nodes {
        n.scheduling_eligibility = "eligible".into();
    }
    let node = c.alloc_ref(&ids[0]).node_id.to_string();
    (c, ids, node)
}

/// The IDs of the allocations the story placed under `name`, in order.
fn placed(s: &Story, name: &str) -> Vec<String> {
    s.marks
        .iter()
        .filter(|m| m.kind == MarkKind::Placed && m.name == name)
        .map(|m| m.alloc_id.clone())
        .collect()
}

/// The node goes down, the node-update evaluation replaces its allocation,
/// and the replacement, named, fails ten minutes later: an `alloc-failure`
/// evaluation at once, and after mock.Job's 5s delay its replacement, by
/// the delayed follow-up (triggered `alloc-reschedule` from 1.11.0).
#[test]
fn alloc_fail_by_name_fails_the_story_s_replacement() {
    for (version, delayed) in [("1.3.0", "alloc-failure"), ("2.0.5", "alloc-reschedule")] {
        let (c, ids, node) = cluster();
        let events = [
            format!("node-down:{node}"),
            format!("alloc-fail:{WEB0}@10m"),
        ];
        let s = story(&c, version, &events, Some("30m"));
        let replacement = placed(&s, WEB0);
        assert_eq!(replacement.len(), 2, "{version}: {replacement:?}");
        let first = &s.timeline[0];
        assert_eq!(first.evaluation.triggered_by, "node-update", "{version}");
        assert_eq!(
            first.job.plan.place[0]
                .previous_alloc_id
                .as_ref()
                .unwrap()
                .to_string(),
            ids[0],
            "{version}"
        );
        let fail = &s.what_if[1];
        assert_eq!(fail.alloc_id.as_deref(), Some(replacement[0].as_str()));
        assert_eq!(fail.ignored, None, "{version}");
        assert_eq!(fail.evaluations.len(), 1, "{version}");
        let later: Vec<_> = s.timeline[1..]
            .iter()
            .map(|e| (e.at, e.evaluation.triggered_by.as_str()))
            .collect();
        assert_eq!(
            later,
            [
                (now().add(10 * MINUTE), "alloc-failure"),
                (now().add(10 * MINUTE + 5 * SECOND), delayed),
            ],
            "{version}"
        );
        assert_eq!(s.timeline[1].evaluation.id, fail.evaluations[0]);
        let place = &s.timeline[2].job.plan.place;
        assert_eq!(place.len(), 1, "{version}");
        assert_eq!(place[0].name, WEB0);
        assert!(place[0].reschedule, "{version}");
        assert_eq!(
            place[0].previous_alloc_id.as_ref().unwrap().to_string(),
            replacement[0],
            "{version}"
        );
        assert!(s.pending.is_empty(), "{version}");
    }
}

/// The ID the story gave a placement (deterministic for the snapshot,
/// release and evaluation time), or a prefix of it, names it in a second
/// run: the same story as by name.
#[test]
fn alloc_fail_by_the_id_of_a_placed_allocation() {
    let (c, _, node) = cluster();
    let down = format!("node-down:{node}");
    let first = story(&c, "1.3.0", std::slice::from_ref(&down), Some("1m"));
    let id = placed(&first, WEB0)[0].clone();
    let by_name = story(
        &c,
        "1.3.0",
        &[down.clone(), format!("alloc-fail:{WEB0}@10m")],
        Some("30m"),
    );
    let json = |s: &Story| {
        let mut v: serde_json::Value =
            serde_json::from_str(&plan_inspect::render::json::story(s)).unwrap();
        v["what_if"][1]["text"] = serde_json::Value::Null;
        v
    };
    for target in [id.clone(), id[..8].to_string()] {
        let s = story(
            &c,
            "1.3.0",
            &[down.clone(), format!("alloc-fail:{target}@10m")],
            Some("30m"),
        );
        assert_eq!(s.what_if[1].alloc_id.as_deref(), Some(id.as_str()));
        assert_eq!(json(&s), json(&by_name), "{target}");
    }
}

/// Two live allocations of the same name, of jobs in two namespaces.
#[test]
fn alloc_fail_of_a_name_two_namespaces_share_is_an_error() {
    let mut c = Cluster::new();
    let web = c.job(job_with(1, None));
    let a = c.alloc(&web, 0);
    let mut other = job_with(1, None);
    other.namespace = "other".into();
    let other = c.job(other);
    let b = c.alloc(&other, 0);
    assert_eq!(
        error(&c, &[format!("alloc-fail:{WEB0}@1m")]),
        format!(
            "--what-if alloc-fail:{WEB0}@1m: \"{WEB0}\" names 2 live allocations at \
             2022-04-01T12:01:00Z: {a} (namespace default, job mock-service), {b} (namespace \
             other, job mock-service); give the allocation's ID"
        )
    );
}

/// A name no live allocation has when the event happens: one never used,
/// and one an earlier event failed at the same instant (its evaluation
/// runs after the events of that instant).
#[test]
fn alloc_fail_of_a_name_with_no_live_allocation_then_is_an_error() {
    let (c, _, _) = cluster();
    assert_eq!(
        error(&c, &["alloc-fail:mock-service.web[5]@1m".to_string()]),
        "--what-if alloc-fail:mock-service.web[5]@1m: no live allocation is named \
         \"mock-service.web[5]\" at 2022-04-01T12:01:00Z; the names live then: \
         mock-service.web[0], mock-service.web[1], mock-service.web[2]"
    );
    let twice = format!("alloc-fail:{WEB0}@1m");
    assert_eq!(
        error(&c, &[twice.clone(), twice.clone()]),
        format!(
            "--what-if {twice}: no live allocation is named \"{WEB0}\" at 2022-04-01T12:01:00Z; \
             the names live then: mock-service.web[1], mock-service.web[2]"
        )
    );
    let mut empty = Cluster::new();
    empty.job(job_with(1, None));
    assert_eq!(
        error(&empty, &[format!("alloc-fail:{WEB0}")]),
        format!(
            "--what-if alloc-fail:{WEB0}: no live allocation is named \"{WEB0}\" at \
             2022-04-01T12:00:00Z: none is live then"
        )
    );
}

/// An ID that neither the snapshot nor the story has by the event's time:
/// the snapshot's allocations, then those placed by then.
#[test]
fn alloc_fail_of_an_unknown_id_lists_the_story_s_placements() {
    let (c, ids, node) = cluster();
    let down = format!("node-down:{node}");
    let first = story(&c, "1.3.0", std::slice::from_ref(&down), Some("1m"));
    let id = placed(&first, WEB0)[0].clone();
    assert_eq!(
        error(&c, &[down, "alloc-fail:zzz@10m".to_string()]),
        format!(
            "--what-if alloc-fail:zzz@10m: no allocation ID starts with \"zzz\"; the snapshot's \
             allocations: {} ({WEB0}), {} (mock-service.web[1]), {} (mock-service.web[2]); \
             placed by 2022-04-01T12:10:00Z: {id} ({WEB0})",
            ids[0], ids[1], ids[2]
        )
    );
    assert_eq!(
        error(&c, &["alloc-fail:zzz".to_string()]),
        format!(
            "--what-if alloc-fail:zzz: no allocation ID starts with \"zzz\"; the snapshot's \
             allocations: {} ({WEB0}), {} (mock-service.web[1]), {} (mock-service.web[2])",
            ids[0], ids[1], ids[2]
        )
    );
}

/// An event after `--until` is not applied, and an allocation it names by
/// name is not looked up.
#[test]
fn alloc_fail_by_name_after_until_is_not_looked_up() {
    let (c, _, _) = cluster();
    let s = story(
        &c,
        "1.3.0",
        &["alloc-fail:nosuch.web[0]@2h".to_string()],
        Some("1h"),
    );
    assert_eq!(s.what_if[0].alloc_id, None);
    assert!(s.what_if[0].ignored.is_some());
}
