//! `--explain`: golden explanations of one allocation or placement per
//! scenario, built with the snapshot builder, and the lookup errors.

use crate::common::*;
use plan_inspect::explain::{ExplainError, Explanation, Step, explain};
use plan_inspect::model::*;
use plan_inspect::reconciler::Bucket;
use plan_inspect::render;
use plan_inspect::replay::Options;
use plan_inspect::time::SECOND;
use plan_inspect::version::{Release, VersionRequest, v};

fn explained(c: &Cluster, subject: &str) -> Explanation {
    explain(&c.snapshot, &Options::default(), subject).expect("explain failed")
}

/// The step `title` of `subject`'s explanation, replaying `release`.
fn step_at(c: &Cluster, release: Release, subject: &str, title: &str) -> Step {
    let options = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    };
    let e = explain(&c.snapshot, &options, subject).expect("explain failed");
    e.steps.into_iter().find(|s| s.title == title).unwrap()
}

fn table(e: &Explanation) -> String {
    render::explain::table(e, false, 100, true)
}

/// A resumable group of 2: `web[0]` reconnected 30s ago after 1m unknown,
/// its replacement `web[0]` running elsewhere, and `web[1]`. Returns the
/// reconnecting allocation and the replacement.
fn reconnect_pair(c: &mut Cluster, reconnecting_score: f64) -> (String, String) {
    let (job, ids) = build_resumable_allocations(c, 2, status::RUNNING, status::RUN, 0.5);
    let rec = ids[0].clone();
    went_unknown(c, &rec, MINUTE);
    reconnected(c, &rec, 30 * SECOND);
    set_node_score(c, &rec, reconnecting_score);
    let replacement = c.alloc(&job, 0);
    set_node_score(c, &replacement, 0.5);
    (rec, replacement)
}

#[test]
fn disconnecting_alloc() {
    let mut c = Cluster::new();
    let (_, ids) = build_resumable_allocations(&mut c, 3, status::RUNNING, status::RUN, 0.5);
    build_disconnected_nodes(&mut c, &ids, 1);
    let e = explained(&c, &ids[0]);
    assert_eq!(e.bucket, Some(Bucket::Disconnecting));
    insta::assert_snapshot!(table(&e));
}

/// The Rescheduling step of a disconnecting allocation names the rule of
/// the replayed release: replaced at once (seed), by its reschedule policy
/// (D-1, 1.7.0), by `disconnect.replace` alone with a disconnect block
/// (D-4b, 1.8.0).
#[test]
fn disconnecting_alloc_rescheduling_names_the_release_s_rule() {
    let mut c = Cluster::new();
    let (job, ids) = build_resumable_allocations(&mut c, 3, status::RUNNING, status::RUN, 0.5);
    build_disconnected_nodes(&mut c, &ids, 1);
    let conclusion = |c: &Cluster, release| step_at(c, release, &ids[0], "Rescheduling").conclusion;
    assert_eq!(
        conclusion(&c, Release::Seed),
        "reschedule now: disconnecting allocations are replaced at once"
    );
    assert_eq!(
        conclusion(&c, v(1, 7, 0)),
        "reschedule later, at 2022-04-01T12:00:05Z (in 5s): a disconnecting allocation \
         follows its reschedule policy: eligible, due later"
    );
    let mut with_block = (*job).clone();
    with_block.task_groups[0].disconnect = Some(DisconnectStrategy {
        lost_after: 3600 * SECOND,
        ..DisconnectStrategy::default()
    });
    let with_block = std::sync::Arc::new(with_block);
    for id in &ids {
        c.alloc_mut(id).job = Some(with_block.clone());
    }
    c.job((*with_block).clone());
    assert_eq!(
        conclusion(&c, v(1, 8, 0)),
        "reschedule now: with a disconnect block, replace = true replaces a disconnecting \
         allocation at once, whatever the reschedule policy"
    );
}

#[test]
fn reconnecting_alloc_kept_and_replacement_stopped() {
    let mut c = Cluster::new();
    let (rec, replacement) = reconnect_pair(&mut c, 0.9);
    let e = explained(&c, &rec);
    assert_eq!(e.bucket, Some(Bucket::Reconnecting));
    assert_eq!(e.fate, ["reconnect update: resumes on its node"]);
    insta::assert_snapshot!(table(&e));
    let r = explained(&c, &replacement);
    assert_eq!(
        r.fate,
        ["stop: \"alloc not needed due to disconnected client reconnect\""]
    );
}

#[test]
fn reconnecting_alloc_stopped_for_lower_score() {
    let mut c = Cluster::new();
    let (rec, _) = reconnect_pair(&mut c, 0.2);
    let e = explained(&c, &rec);
    assert_eq!(e.fate, ["stop: \"alloc not needed due to job update\""]);
    insta::assert_snapshot!(table(&e));
}

#[test]
fn expired_unknown_alloc() {
    let mut c = Cluster::new();
    let (_, ids) = build_resumable_allocations(&mut c, 2, status::RUNNING, status::RUN, 0.5);
    build_disconnected_nodes(&mut c, &ids, 1);
    c.alloc_mut(&ids[0]).client_status = status::UNKNOWN.into();
    went_unknown(&mut c, &ids[0], 10 * MINUTE);
    let e = explained(&c, &ids[0]);
    assert_eq!(e.bucket, Some(Bucket::Lost));
    insta::assert_snapshot!(table(&e));
}

#[test]
fn drained_alloc_migrating() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    let ids = c.allocs(&job, 10);
    let node = c.alloc_mut(&ids[3]).node_id.clone();
    c.node_mut(&node).drain_strategy = GoValue::from(serde_json::json!({"Deadline": 3600}));
    c.alloc_mut(&ids[3]).desired_transition.migrate = Some(true);
    let e = explained(&c, &ids[3]);
    assert_eq!(e.bucket, Some(Bucket::Migrate));
    insta::assert_snapshot!(table(&e));
}

#[test]
fn failed_alloc_waiting_to_reschedule() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    let policy = spec.task_groups[0].reschedule_policy.as_mut().unwrap();
    policy.delay_function = "exponential".into();
    policy.max_delay = MINUTE;
    let job = c.job(spec);
    let ids = c.allocs(&job, 10);
    let a = c.alloc_mut(&ids[0]);
    a.client_status = status::FAILED.into();
    a.task_states
        .insert("web".into(), failed_state(now().add(-2 * SECOND)));
    a.reschedule_tracker = reschedule_tracker(vec![RescheduleEvent {
        delay: 5 * SECOND,
        ..reschedule_event(MINUTE, "alloc-older")
    }]);
    let e = explained(&c, &ids[0]);
    assert_eq!(e.bucket, Some(Bucket::Untainted));
    insta::assert_snapshot!(table(&e));
}

/// 10 allocations of version 0, a destructive version 1 and its deployment.
fn updated(c: &mut Cluster, update: UpdateStrategy) -> Vec<String> {
    let mut old = mock_job();
    old.task_groups[0].update = Some(update.clone());
    let old = c.job(old);
    let ids = c.allocs(&old, 10);
    let mut new = destructive_update(&old);
    new.version = 1;
    let new = c.job(new);
    c.new_deployment(&new);
    ids
}

#[test]
fn canary_placement() {
    let mut c = Cluster::new();
    updated(&mut c, canary_update());
    let e = explained(&c, "mock-service.web[0]");
    // The test cluster's nodes are not eligible: the canary fails to place.
    assert_eq!(
        e.fate,
        ["canary not placed: mock-service.web[0]: no node takes it"]
    );
    insta::assert_snapshot!(table(&e));
}

#[test]
fn destructive_update_alloc() {
    let mut c = Cluster::new();
    let ids = updated(&mut c, no_canary_update());
    let e = explained(&c, &ids[0]);
    insta::assert_snapshot!(table(&e));
    let held = explained(&c, &ids[9]);
    assert!(held.fate.is_empty());
    assert_eq!(
        held.steps
            .iter()
            .find(|s| s.title == "Job update")
            .unwrap()
            .conclusion,
        "destructive: held back by the update strategy's max_parallel"
    );
}

/// From 1.5.2 a destructive update's step also gives Nomad's label for the
/// difference; the seed's gives none.
#[test]
fn destructive_update_names_nomad_s_label_from_1_5_2() {
    let mut c = Cluster::new();
    let ids = updated(&mut c, no_canary_update());
    let facts = |release| {
        let step = step_at(&c, release, &ids[0], "Job update");
        step.facts
            .into_iter()
            .map(|f| format!("{}: {}", f.name, f.value))
            .collect::<Vec<_>>()
    };
    let seed = facts(Release::Seed);
    assert!(
        seed.iter().all(|f| !f.starts_with("nomad label")),
        "{seed:?}"
    );
    assert_eq!(
        facts(v(1, 5, 2))[..2],
        [
            "first difference: task \"web\": config changed".to_string(),
            "nomad label: task config".to_string()
        ]
    );
}

/// From 2.0.3 an in-place update of a batch allocation whose job version
/// sets max_run_duration says the placement check is skipped (H-2); 2.0.2
/// says nothing of it.
#[test]
fn in_place_update_with_max_run_duration_skips_the_placement_check_from_2_0_3() {
    let mut c = Cluster::new();
    let mut old = mock_job();
    old.job_type = "batch".into();
    old.task_groups[0].count = 1;
    old.task_groups[0].max_run_duration = Some(3600 * SECOND);
    let old = c.job(old);
    let ids = c.allocs(&old, 1);
    let mut new = (*old).clone();
    new.job_modify_index += 1;
    new.priority += 1;
    c.job(new);
    let step = |release| step_at(&c, release, &ids[0], "Job update");
    let before = step(v(2, 0, 2));
    assert!(before.conclusion.starts_with("in-place"));
    assert!(before.facts.is_empty());
    let after = step(v(2, 0, 3));
    assert!(after.conclusion.starts_with("in-place"));
    assert_eq!(after.facts.len(), 1);
    assert_eq!(after.facts[0].name, "placement check");
    assert!(
        after.facts[0]
            .value
            .starts_with("skipped: its job version sets max_run_duration")
    );
}

#[test]
fn placement_json() {
    let mut c = Cluster::new();
    let (_, ids) = build_resumable_allocations(&mut c, 3, status::RUNNING, status::RUN, 0.5);
    build_disconnected_nodes(&mut c, &ids, 1);
    let name = c.alloc_mut(&ids[0]).name();
    insta::assert_snapshot!(render::explain::json(&explained(&c, &name)));
}

#[test]
fn ambiguous_prefix_lists_candidates() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    c.allocs(&job, 2);
    let err = explain(&c.snapshot, &Options::default(), "alloc-").unwrap_err();
    assert!(matches!(err, ExplainError::Ambiguous { .. }));
    assert_eq!(
        err.to_string(),
        "\"alloc-\" matches 2 allocations: alloc-0002 (mock-service.web[0]), \
         alloc-0004 (mock-service.web[1])"
    );
}

#[test]
fn unknown_subject_is_an_error() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    c.allocs(&job, 2);
    let err = explain(&c.snapshot, &Options::default(), "nope").unwrap_err();
    assert_eq!(
        err.to_string(),
        "no allocation ID starts with \"nope\", and no job's task group has a placement of that name"
    );
    let err = explain(&c.snapshot, &Options::default(), "mock-service.web[12]").unwrap_err();
    assert_eq!(
        err.to_string(),
        "the plan of job \"mock-service\" places no \"mock-service.web[12]\""
    );
}

/// The Fate line of `e`'s table, with its wrapped continuation.
fn fate_lines(e: &Explanation) -> Vec<String> {
    table(e)
        .lines()
        .filter(|l| l.starts_with("Fate:"))
        .map(str::to_string)
        .collect()
}

/// A running allocation asked to force-reschedule is replaced now although
/// its policy finds no failure: `updateByReschedulable` checks
/// `DesiredTransition.ForceReschedule` before the policy (v1.3.0
/// scheduler/reconcile_util.go:461). The explanation names the transition
/// rather than calling the allocation eligible beside "eligible: no".
#[test]
fn force_reschedule_is_named_and_not_called_eligible_reconcile_util_go_461() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    let ids = c.allocs(&job, 3);
    c.alloc_mut(&ids[0]).desired_transition.force_reschedule = Some(true);
    let e = explained(&c, &ids[0]);
    let step = e.steps.iter().find(|s| s.title == "Rescheduling").unwrap();
    assert_eq!(
        step.conclusion,
        "reschedule now: DesiredTransition.ForceReschedule is set, which is checked before the \
         reschedule policy"
    );
    let eligible = step.facts.iter().find(|f| f.name == "eligible").unwrap();
    assert_eq!(eligible.value, "no");
}

/// From D-1 until E-1 (1.7.0 here) a running batch allocation asked to
/// force-reschedule counts as running and is rescheduled now: computeUpdates
/// ignores it, and the plan stops and replaces it. The Job update step says
/// both.
#[test]
fn job_update_ignore_says_when_the_plan_stops_and_replaces_it_all_the_same() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.job_type = "batch".into();
    let job = c.job(spec);
    let ids = c.allocs(&job, 3);
    c.alloc_mut(&ids[0]).desired_transition.force_reschedule = Some(true);
    let step = step_at(&c, v(1, 7, 0), &ids[0], "Job update");
    assert_eq!(
        step.conclusion,
        "ignore: no change of the job, or none that needs an update; the plan stops it all the \
         same (\"alloc was rescheduled because it failed\") and replaces it"
    );
}

/// A running allocation whose last unknown state lies past its expiry is
/// not expired: Nomad's `Expired` holds only for client status unknown
/// (v1.3.8 nomad/structs/structs.go, `Allocation.Expired`), and its states
/// say it reconnected.
#[test]
fn disconnect_of_a_running_allocation_is_not_called_expired() {
    let mut c = Cluster::new();
    let (_, ids) = build_resumable_allocations(&mut c, 2, status::RUNNING, status::RUN, 0.5);
    client_state(&mut c, &ids[0], status::UNKNOWN, 2 * HOUR);
    client_state(&mut c, &ids[0], status::RUNNING, HOUR);
    let step = step_at(&c, v(1, 3, 8), &ids[0], "Disconnect");
    assert_eq!(
        step.conclusion,
        "not expired: its expiry has passed, but Expired needs client status unknown (it is \
         running)"
    );
    let needs = step.facts.iter().find(|f| f.name == "needs to reconnect");
    assert!(needs.unwrap().value.starts_with("no:"));
}

/// A failed allocation rescheduled now is stopped and replaced: one Fate
/// line says both.
#[test]
fn a_stopped_and_replaced_allocation_has_one_fate_line() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    let ids = c.allocs(&job, 3);
    failed_since(&mut c, &ids[0], MINUTE);
    let e = explained(&c, &ids[0]);
    assert_eq!(e.fate.len(), 2, "{:?}", e.fate);
    let lines = fate_lines(&e);
    assert_eq!(lines.len(), 1, "{}", table(&e));
    assert!(lines[0].starts_with(
        "Fate: stop: \"alloc was rescheduled because it failed\"; replacement placed"
    ));
}
