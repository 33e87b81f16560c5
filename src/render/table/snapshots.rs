//! Each section of the table output, rendered from a small report built by
//! hand: a change to one section's layout shows here, next to its renderer,
//! before it shows in the golden files of whole snapshots.

use crate::model::{JobType, Name};
use std::collections::BTreeMap;

use insta::assert_snapshot;

use super::renderer::Renderer;
use super::*;
use crate::reconciler::{Bucket, DesiredChanges};
use crate::report::{
    BucketEntry, Buckets, EntryWhy, GroupChanges, GroupReport, JobReport, NowSource, Plan,
    PlanDeployment, PlanDeploymentGroup, PlanDeploymentUpdate, PlanDestructive, PlanFollowupEval,
    PlanFollowupUpdate, PlanInPlace, PlanPlace, PlanReconnect, PlanStop, RescheduleLater,
    SetAsideEntry,
};
use crate::time::{SECOND, Time};
use crate::warning::Warning;

const WEB0: &str = "6b1f7c4e-0000-4000-8000-000000000000";
const WEB1: &str = "9d2a5e81-0000-4000-8000-000000000001";
const NEW: &str = "c3e8a1f0-0000-4000-8000-00000000000a";
const EVAL: &str = "e7b2c9d4-0000-4000-8000-0000000000e1";
const DEPLOYMENT: &str = "d41f03b2-0000-4000-8000-0000000000d1";
const NODE: &str = "a0c4e6f8-0000-4000-8000-0000000000f1";

fn now() -> Time {
    Time::parse_rfc3339("2022-04-01T12:00:00Z").unwrap()
}

fn entry(
    id: &str,
    name: &str,
    node_status: Option<&str>,
    client: &str,
    reason: &str,
) -> BucketEntry {
    BucketEntry {
        id: id.into(),
        name: name.into(),
        node_id: NODE.into(),
        node_status: node_status.map(Name::from),
        client_status: client.into(),
        desired_status: "run".into(),
        job_version: 3,
        canary: false,
        why: EntryWhy::Said(reason.into()),
        unreplaced: None,
    }
}

/// Group "web" of a service job: `web[0]` lost on a down node and
/// rescheduled now, `web[1]` failed and rescheduled later, `web[2]` set
/// aside; the plan has nothing until a test fills the part it shows.
fn job() -> JobReport {
    JobReport {
        namespace: "default".into(),
        id: "web".into(),
        job_type: "service".into(),
        version: 3,
        priority: 50,
        stopped: false,
        purged: false,
        groups: vec![GroupReport {
            name: "web".into(),
            count: 2,
            removed: false,
            buckets: {
                let mut b = Buckets::default();
                b[Bucket::Lost] = vec![entry(
                    WEB0,
                    "web.web[0]",
                    Some("down"),
                    "running",
                    "node down",
                )];
                b[Bucket::Untainted] = vec![entry(
                    WEB1,
                    "web.web[1]",
                    Some("ready"),
                    "failed",
                    "node ready",
                )];
                b
            },
            set_aside: vec![SetAsideEntry {
                id: NEW.into(),
                name: "web.web[2]".into(),
                job_version: 2,
                canary: true,
                reason: "terminal with a next allocation".into(),
            }],
            reschedule_now: vec![WEB0.into()],
            reschedule_later: vec![RescheduleLater {
                id: WEB1.into(),
                at: now().add(90 * SECOND),
            }],
            desired_changes: GroupChanges {
                reconciler: DesiredChanges {
                    place: 1,
                    stop: 1,
                    ignore: 1,
                    ..DesiredChanges::default()
                },
                reschedule_now: 1,
                reschedule_later: 1,
                ..GroupChanges::default()
            },
            system_diff: None,
        }],
        plan: Plan::default(),
    }
}

/// A plan of `stops` stops and `places` placements, each of an allocation
/// of its own: as many as counts that add up need.
fn plan_of(stops: usize, places: usize) -> Plan {
    Plan {
        stop: (0..stops)
            .map(|i| PlanStop {
                alloc_id: format!("{i:08x}-0000-4000-8000-000000000000").into(),
                name: format!("web.web[{i}]"),
                task_group: "web".into(),
                client_status: None,
                description: "alloc not needed due to job update",
                followup_eval_id: None,
            })
            .collect(),
        place: (0..places)
            .map(|i| PlanPlace {
                task_group: "web".into(),
                name: format!("web.web[{i}]"),
                canary: false,
                previous_alloc_id: None,
                reschedule: false,
                lost: false,
                downgrade_non_canary: false,
                min_job_version: 0,
                job_version: None,
                deployment_id: None,
                node_id: None,
                score: None,
            })
            .collect(),
        ..Plan::default()
    }
}

/// Sections are pinned at 100 columns, where they fit whole; the tests at
/// 80 say so in their names.
fn renderer(verbose: bool) -> Renderer {
    at(verbose, 100)
}

fn at(verbose: bool, width: u16) -> Renderer {
    Renderer {
        style: Style {
            verbose,
            width,
            ..Style::default()
        },
        now: now(),
        eval: None,
    }
}

/// The plan sections of [`job`] with `plan`, at the default style.
fn plan(plan: Plan) -> String {
    let mut job = job();
    job.plan = plan;
    let mut out = String::new();
    renderer(false).plan(&mut out, &job);
    out
}

fn report(jobs: Vec<JobReport>, warnings: Vec<Warning>) -> Report {
    Report {
        schema_version: 1,
        now: now(),
        now_source: NowSource::Flag,
        eval_id: EVAL.into(),
        eval_priority: None,
        supports_disconnected_clients: true,
        nomad_version: crate::version::Profile::choose(None, None, &[]),
        jobs,
        warnings,
    }
}

#[test]
fn header() {
    let mut job = job();
    job.stopped = true;
    let text = renderer(false).job(&job, "--now");
    assert_snapshot!(text.lines().next().unwrap(), @"default/web  service, stopped  version 3  evaluated at 2022-04-01T12:00:00Z (--now)");
}

/// A purged job of a dump older than namespaces: no type, no namespace,
/// and no stray separators for them.
#[test]
fn header_of_a_purged_job_without_namespace() {
    let mut job = job();
    job.namespace = String::new();
    job.job_type = JobType::default();
    job.purged = true;
    let text = renderer(false).job(&job, "snapshot Now");
    assert_snapshot!(text.lines().next().unwrap(), @"web  purged  version 3  evaluated at 2022-04-01T12:00:00Z (snapshot Now)");
}

#[test]
fn desired_changes_shows_the_columns_in_use() {
    let mut job = job();
    job.plan = plan_of(1, 1);
    let mut out = String::new();
    renderer(false).desired_changes(&mut out, &job);
    assert_snapshot!(out.trim_start(), @r"
    Desired changes
     Task Group  Ignore  Place  Stop  InPlace  Destructive  Reschedule Now  Reschedule Later
    ─────────────────────────────────────────────────────────────────────────────────────────
     web         1       1      1     0        0            1               1
    ");
}

#[test]
fn allocations_with_reschedule_decisions() {
    let mut out = String::new();
    renderer(false).buckets(&mut out, &job());
    assert_snapshot!(out.trim_start(), @r"
    Allocations
     Alloc     Name        Version  Node      Node Status  Client   Bucket     Reason
    ──────────────────────────────────────────────────────────────────────────────────────────────────
     9d2a5e81  web.web[1]  3        a0c4e6f8  ready        failed   untainted  node ready; reschedule
                                                                               in 1m30s
     6b1f7c4e  web.web[0]  3        a0c4e6f8  down         running  lost       node down; reschedule
                                                                               now
    1 allocation untouched (--verbose shows them).
    ");
}

/// Issue 33: at 80 columns the reason staircased one word a line and
/// `max_client_disconnect` broke in two. Now the name drops its job and
/// Version, Node Status and Canary give way first; the reason wraps between
/// words only.
#[test]
fn allocations_at_80_columns_give_way_before_the_reason_wraps() {
    let mut job = job();
    job.groups[0].buckets[Bucket::Lost][0].why = EntryWhy::Said(
        "unknown since 5m ago, max_client_disconnect expires 3m ago: expired".into(),
    );
    job.groups[0].buckets[Bucket::Lost][0].canary = true;
    let mut out = String::new();
    at(false, 80).buckets(&mut out, &job);
    assert_snapshot!(out.trim_start(), @r"
    Allocations
     Alloc     Name    Node      Client   Bucket     Reason
    ───────────────────────────────────────────────────────────────────────────────
     9d2a5e81  web[1]  a0c4e6f8  failed   untainted  node ready; reschedule in
                                                     1m30s
     6b1f7c4e  web[0]  a0c4e6f8  running  lost       unknown since 5m ago,
                                                     max_client_disconnect expires
                                                     3m ago: expired; reschedule
                                                     now
    1 allocation untouched (--verbose shows them).
    ");
}

/// Issue 33: a job of 30 with one lost allocation printed 30 rows.
#[test]
fn untouched_allocations_are_one_count_line_unless_verbose() {
    let mut job = job();
    let g = &mut job.groups[0];
    g.set_aside.clear();
    g.reschedule_later.clear();
    g.buckets[Bucket::Untainted] = (1..30)
        .map(|i| {
            entry(
                &format!("{i:08x}-0000-4000-8000-000000000000"),
                &format!("web.web[{i}]"),
                Some("ready"),
                "running",
                "node ready",
            )
        })
        .collect();
    let mut out = String::new();
    renderer(false).buckets(&mut out, &job);
    assert_snapshot!(out.trim_start(), @r"
    Allocations
     Alloc     Name        Version  Node      Node Status  Client   Bucket  Reason
    ──────────────────────────────────────────────────────────────────────────────────────────────────
     6b1f7c4e  web.web[0]  3        a0c4e6f8  down         running  lost    node down; reschedule now
    29 allocations untouched (--verbose shows them).
    ");
    let mut verbose = String::new();
    renderer(true).buckets(&mut verbose, &job);
    assert_eq!(verbose.trim_start().lines().count(), 3 + 30);
    // An untainted allocation the plan stops is not untouched.
    job.plan.stop.push(PlanStop {
        alloc_id: "00000007-0000-4000-8000-000000000000".into(),
        name: "web.web[7]".into(),
        task_group: "web".into(),
        client_status: None,
        description: "alloc not needed due to job update",
        followup_eval_id: None,
    });
    let mut out = String::new();
    renderer(false).buckets(&mut out, &job);
    assert!(out.contains("00000007  web.web[7]"), "{out}");
    assert!(out.contains("28 allocations untouched"), "{out}");
}

#[test]
fn desired_changes_at_80_columns_leave_out_zero_counts() {
    let mut job = job();
    let c = &mut job.groups[0].desired_changes;
    c.reconciler.migrate = 1;
    c.reconciler.canary = 1;
    c.disconnect = 1;
    c.reconnect = 2;
    job.plan = plan_of(2, 3);
    let mut out = String::new();
    at(false, 80).desired_changes(&mut out, &job);
    assert_snapshot!(out.trim_start(), @r"
    Desired changes
     Task   Ignore  Place  Stop  Migrate  Canary  Discon  Recon  Resched  Resched
     Group                                                       Now      Later
    ──────────────────────────────────────────────────────────────────────────────
     web    1       1      1     1        1       1       2      1        1
    ");
}

/// The desired-changes section of `job` at 80 columns.
fn desired_changes_at_80(job: &JobReport) -> String {
    let mut out = String::new();
    at(false, 80).desired_changes(&mut out, job);
    out.trim_start().to_string()
}

/// No note while the counts add up to the lists: Stop and Migrate to the
/// stops, Place, Canary and Migrate to the placements.
#[test]
fn no_count_note_when_the_counts_add_up() {
    let mut job = job();
    job.plan = plan_of(1, 1);
    assert!(!desired_changes_at_80(&job).contains("Note"));
    let c = &mut job.groups[0].desired_changes.reconciler;
    c.migrate = 1;
    c.canary = 1;
    job.plan = plan_of(2, 3);
    assert!(!desired_changes_at_80(&job).contains("Note"));
    job.plan = plan_of(2, 2);
    assert!(desired_changes_at_80(&job).contains("Note"));
}

/// A system job (mixed-cluster.json's node-exporter): a destructive update
/// evicted now is a stop and a placement, one held back by the rolling
/// limit is counted but not listed, and the lost allocation's stop is in
/// no count.
#[test]
fn count_note_of_a_system_job_at_80_columns() {
    let mut job = job();
    job.job_type = "system".into();
    let c = &mut job.groups[0].desired_changes;
    *c = GroupChanges::default();
    c.reconciler.ignore = 1;
    c.reconciler.destructive_update = 2;
    c.reconciler.migrate = 1;
    job.plan = plan_of(3, 1);
    job.plan.destructive_update = vec![PlanDestructive {
        alloc_id: WEB0.into(),
        name: "web.web[0]".into(),
        task_group: "web".into(),
        reason: "task config changed".into(),
        label: None,
        node_id: None,
        score: None,
    }];
    assert_snapshot!(desired_changes_at_80(&job), @r"
    Desired changes
     Task Group  Ignore  Place  Stop  InPlace  Destructive  Migrate
    ────────────────────────────────────────────────────────────────
     web         1       0      0     0        2            1
    Note: 3 stops listed, Stop and Migrate count 1; 1 destructive update listed,
      Destructive counts 2. Nomad counts a system job's changes before its evictions
      and rolling limit, and leaves lost allocations out (docs/nomad-behaviour.md).
    ");
}

/// A stopped job at the seed: its unknown allocation is counted as a stop
/// but not stopped (rollout.json's cache).
#[test]
fn count_note_of_a_stopped_job_at_80_columns() {
    let mut job = job();
    job.stopped = true;
    let c = &mut job.groups[0].desired_changes;
    *c = GroupChanges::default();
    c.reconciler.stop = 2;
    job.plan = plan_of(1, 0);
    assert_snapshot!(desired_changes_at_80(&job), @r"
    Desired changes
     Task Group  Ignore  Place  Stop  InPlace  Destructive
    ───────────────────────────────────────────────────────
     web         0       0      2     0        0
    Note: 1 stop listed, Stop counts 2. Stopping a job, this Nomad release counts
      its unknown allocations as stops without stopping them
      (docs/nomad-behaviour.md).
    ");
}

/// A service job whose stops Nomad counts apart from its plan (the stops
/// of `updateNonTerminalAllocsToLost`).
#[test]
fn count_note_of_another_job_at_80_columns() {
    let mut job = job();
    let c = &mut job.groups[0].desired_changes;
    *c = GroupChanges::default();
    c.reconciler.stop = 1;
    job.plan = plan_of(2, 0);
    assert_snapshot!(desired_changes_at_80(&job), @r"
    Desired changes
     Task Group  Ignore  Place  Stop  InPlace  Destructive
    ───────────────────────────────────────────────────────
     web         0       0      1     0        0
    Note: 2 stops listed, Stop counts 1. Nomad counts these apart from its plan here
      (docs/nomad-behaviour.md).
    ");
}

#[test]
fn allocations_verbose_has_full_ids_and_exact_times() {
    let mut out = String::new();
    renderer(true).buckets(&mut out, &job());
    assert_snapshot!(out.trim_start(), @r"
    Allocations
     Alloc                                 Name        Version  Canary  Node                                  Node Status  Client   Bucket     Reason
    ──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────
     9d2a5e81-0000-4000-8000-000000000001  web.web[1]  3                a0c4e6f8-0000-4000-8000-0000000000f1  ready        failed   untainted  node ready; reschedule at 2022-04-01T12:01:30Z
     6b1f7c4e-0000-4000-8000-000000000000  web.web[0]  3                a0c4e6f8-0000-4000-8000-0000000000f1  down         running  lost       node down; reschedule now
     c3e8a1f0-0000-4000-8000-00000000000a  web.web[2]  2        yes                                                                 set aside  terminal with a next allocation
    ");
}

#[test]
fn stop() {
    let text = plan(Plan {
        stop: vec![PlanStop {
            alloc_id: WEB0.into(),
            name: "web.web[0]".into(),
            task_group: "web".into(),
            client_status: Some("lost".into()),
            description: "alloc is lost since its node is down",
            followup_eval_id: None,
        }],
        ..Plan::default()
    });
    assert_snapshot!(text.trim_start(), @r"
    Stop
     Alloc     Name        Client Status  Description
    ───────────────────────────────────────────────────────────────────────────
     6b1f7c4e  web.web[0]  lost           alloc is lost since its node is down
    ");
}

#[test]
fn place() {
    let text = plan(Plan {
        place: vec![PlanPlace {
            task_group: "web".into(),
            name: "web.web[0]".into(),
            canary: false,
            previous_alloc_id: Some(WEB0.into()),
            reschedule: true,
            lost: true,
            downgrade_non_canary: false,
            min_job_version: 0,
            job_version: None,
            deployment_id: None,
            node_id: None,
            score: None,
        }],
        ..Plan::default()
    });
    assert_snapshot!(text.trim_start(), @r"
    Place
     Name        Task Group  Previous Alloc  Flags
    ──────────────────────────────────────────────────────────
     web.web[0]  web         6b1f7c4e        reschedule, lost
    ");
}

#[test]
fn destructive_and_in_place_updates() {
    let text = plan(Plan {
        destructive_update: vec![PlanDestructive {
            alloc_id: WEB0.into(),
            name: "web.web[0]".into(),
            task_group: "web".into(),
            reason: "task config changed".into(),
            label: None,
            node_id: None,
            score: None,
        }],
        in_place_update: vec![PlanInPlace {
            alloc_id: WEB1.into(),
            name: "web.web[1]".into(),
            deployment_id: Some(DEPLOYMENT.into()),
        }],
        ..Plan::default()
    });
    assert_snapshot!(text.trim_start(), @r"
    Destructive updates
     Alloc     Name        Reason
    ───────────────────────────────────────────
     6b1f7c4e  web.web[0]  task config changed

    In-place updates
     Alloc     Name        Deployment
    ──────────────────────────────────
     9d2a5e81  web.web[1]  d41f03b2
    ");
}

#[test]
fn disconnect_attribute_and_reconnect_updates() {
    let update = |id: &str| PlanFollowupUpdate {
        alloc_id: id.into(),
        followup_eval_id: EVAL.into(),
    };
    let text = plan(Plan {
        disconnect_updates: vec![update(WEB0)],
        attribute_updates: vec![update(WEB1)],
        reconnect_updates: vec![PlanReconnect {
            alloc_id: NEW.into(),
            alloc_state: None,
        }],
        ..Plan::default()
    });
    assert_snapshot!(text.trim_start(), @r"
    Disconnect updates
     Alloc     Update                    Follow-up Eval
    ────────────────────────────────────────────────────
     6b1f7c4e  client status -> unknown  e7b2c9d4

    Attribute updates
     Alloc     Update              Follow-up Eval
    ──────────────────────────────────────────────
     9d2a5e81  follow-up eval set  e7b2c9d4

    Reconnect updates
     Alloc     Update
    ────────────────────────────────────────
     c3e8a1f0  resume on reconnected client
    ");
}

#[test]
fn followup_evaluations() {
    let text = plan(Plan {
        followup_evals: vec![PlanFollowupEval {
            id: EVAL.into(),
            triggered_by: "alloc-failure".into(),
            wait_until: now().add(90 * SECOND),
            status_description: "created for delayed rescheduling".into(),
            task_group: "web".into(),
            alloc_ids: vec![WEB1.into()],
        }],
        ..Plan::default()
    });
    assert_snapshot!(text.trim_start(), @r"
    Follow-up evaluations
     Eval      Triggered By   Wait Until  Task Group  Allocs
    ───────────────────────────────────────────────────────────
     e7b2c9d4  alloc-failure  in 1m30s    web         9d2a5e81
    ");
}

#[test]
fn new_deployment_and_deployment_updates() {
    let text = plan(Plan {
        deployment: Some(PlanDeployment {
            id: DEPLOYMENT.into(),
            status: "running".into(),
            status_description: "Deployment is running".into(),
            job_version: 3,
            groups: BTreeMap::from([(
                "web".to_string(),
                PlanDeploymentGroup {
                    desired_total: 2,
                    desired_canaries: 1,
                    auto_revert: true,
                    auto_promote: false,
                    promoted: false,
                    progress_deadline: 0,
                },
            )]),
        }),
        deployment_updates: vec![PlanDeploymentUpdate {
            deployment_id: NEW.into(),
            status: "cancelled".into(),
            status_description: "Cancelled due to newer version of job".into(),
        }],
        ..Plan::default()
    });
    assert_snapshot!(text.trim_start(), @r"
    New deployment d41f03b2 (running: Deployment is running)
     Task Group  Desired Total  Desired Canaries  Auto Promote  Auto Revert
    ────────────────────────────────────────────────────────────────────────
     web         2              1                 false         true

    Deployment updates
     Deployment  Status     Description
    ──────────────────────────────────────────────────────────────
     c3e8a1f0    cancelled  Cancelled due to newer version of job
    ");
}

#[test]
fn an_initializing_deployment_is_not_new() {
    let text = plan(Plan {
        deployment: Some(PlanDeployment {
            id: DEPLOYMENT.into(),
            status: "initializing".into(),
            status_description: "Deployment is pending, waiting for peer region".into(),
            job_version: 3,
            groups: BTreeMap::new(),
        }),
        ..Plan::default()
    });
    assert_snapshot!(
        text.trim_start().lines().next().unwrap_or_default(),
        @"Deployment d41f03b2 (initializing: Deployment is pending, waiting for peer region)"
    );
}

#[test]
fn nothing_to_do() {
    let mut quiet = job();
    quiet.groups.clear();
    let style = Style {
        width: 100,
        ..Style::default()
    };
    let text = render(&report(vec![quiet], Vec::new()), style);
    assert_snapshot!(text, @r"
    Replaying Nomad seed (8ac3e642e6), the default: the snapshot shows no later release.

    Nothing to do: 1 job evaluated at 2022-04-01T12:00:00Z (--now); no allocation changes.
    ");
}

#[test]
fn warnings_wrap_as_paragraphs() {
    let long = Warning::new(
        "alloc_without_job",
        "allocation 6b1f7c4e embeds no job; using the current version 3 of job \"web\" in namespace \"default\" from Jobs",
    );
    let short = Warning::new(
        "absent_node",
        "2 allocations are on nodes absent from the snapshot",
    );
    assert_snapshot!(warnings(&[long, short], false, 100), @r#"
    warning: allocation 6b1f7c4e embeds no job; using the current version 3 of job "web" in namespace
      "default" from Jobs (alloc_without_job)
    warning: 2 allocations are on nodes absent from the snapshot (absent_node)
    "#);
}
