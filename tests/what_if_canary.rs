//! Canaries over a story with `--until`: the plan applier keeps the canary
//! flag the scheduler set on a placement (`DeploymentStatus{Canary: true}`,
//! v1.10.5 scheduler/generic_sched.go:701) and the state store records the
//! allocation among its deployment's placed canaries
//! (`updateDeploymentWithAlloc`, v1.10.5 nomad/state/state_store.go:5848),
//! so a later evaluation of the same deployment counts them.

use plan_inspect::servers::Story;

use crate::common::*;

/// The story of `events` until `until` on `c` as release `version` replays it.
fn story(c: &Cluster, version: &str, events: &[String], until: &str) -> Story {
    try_tell(c, version, &request(events, Some(until), None)).unwrap_or_else(|e| panic!("{e}"))
}

/// Three allocations of an older job version each on its node, the current
/// version canaried (2 canaries) and a spare node: the first evaluation of
/// the story creates the deployment and places its two canaries; the
/// second, of the same deployment, finds them placed and places none.
/// The deployment the applier writes is of the job as it stands
/// (`NewDeployment`), so the later evaluation keeps it rather than
/// canceling it as one of an older job.
#[test]
fn generic_sched_go_v1_10_5_a_later_evaluation_of_the_deployment_counts_its_canaries() {
    for version in ["1.3.0", "1.10.5", "2.0.5"] {
        let mut c = Cluster::new();
        let (old, _job) = destructive_pair(&mut c, 3, canary_update());
        let ids = c.allocs(&old, 3);
        c.node(plan_inspect::model::node_status::READY);
        for n in &mut c.snapshot.nodes {
            n.scheduling_eligibility = "eligible".into();
        }
        let node = c.alloc_ref(&ids[0]).node_id.to_string();
        let s = story(
            &c,
            version,
            &[
                format!("node-down:{node}"),
                format!("alloc-fail:{}@1m", ids[1]),
            ],
            "10m",
        );
        let canaries: Vec<usize> = s
            .timeline
            .iter()
            .map(|e| e.job.plan.place.iter().filter(|p| p.canary).count())
            .collect();
        assert!(s.timeline.len() >= 2, "{version}: {canaries:?}");
        let first = &s.timeline[0].job.plan;
        assert!(
            first.place.iter().all(|p| p.node_id.is_some()),
            "{version}: {:?}",
            first.failed_placements
        );
        assert_eq!(
            canaries[0], 2,
            "{version}: the first evaluation places them"
        );
        assert_eq!(
            canaries.iter().sum::<usize>(),
            2,
            "{version}: placed once over the story: {canaries:?}"
        );
        let later = &s.timeline[1].job;
        assert!(
            later.plan.deployment.is_none(),
            "{version}: the later evaluation keeps the deployment"
        );
        assert_eq!(later.groups[0].desired_changes.canary, 0, "{version}");
    }
}

/// From the command line: fixtures/evals.json holds the pending
/// `job-register` evaluation of web's version 2 (one canary); client-1
/// going down then evaluates web again in the same deployment, which
/// places no second canary and keeps the deployment running. The canary's
/// health verdict makes the deployment watcher evaluate web a second
/// later (`createBatchedUpdate`), which waits for the manual promotion.
#[test]
fn a_story_from_the_command_line_places_the_canary_once() {
    let (code, stdout, stderr) = crate::what_if_cli::run(&[
        "fixtures/evals.json",
        "--format",
        "json",
        "--what-if",
        "node-down:client-1",
        "--until",
        "1h",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let web: Vec<&serde_json::Value> = doc["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["job"]["id"] == "web")
        .collect();
    let triggers: Vec<&str> = web
        .iter()
        .map(|e| e["evaluation"]["triggered_by"].as_str().unwrap())
        .collect();
    assert_eq!(
        triggers,
        ["job-register", "node-update", "deployment-watcher"]
    );
    let canaries: Vec<&str> = web
        .iter()
        .flat_map(|e| e["job"]["plan"]["place"].as_array().unwrap())
        .filter(|p| p["canary"] == true)
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(canaries, ["web.web[1]"]);
    for later in &web[1..] {
        let plan = &later["job"]["plan"];
        assert_eq!(plan["deployment"], serde_json::Value::Null);
        assert_eq!(plan["deployment_updates"], serde_json::json!([]));
    }
    assert_eq!(doc["deployment_watcher"], serde_json::json!([]));
}
