//! Ports of scheduler/reconciler/reconcile_node_test.go at v1.11.0
//! (`TestNodeDeployments`, `TestDiffSystemAllocsForNode_IneligibleNode`)
//! and the node reconciler's later changes, each under its tag and the
//! release before it.

use std::sync::Arc;

use super::*;
use crate::model::{Release, UpdateStrategy, v};
use crate::reconciler::TaintedNodes;
use crate::system::diff::DiffInput;
use crate::system::tests::{alloc, job, node, older};
use crate::time::Time;

const V1105: Release = v(1, 10, 5);
const V1110: Release = v(1, 11, 0);

/// `mock.SystemJob()` with the group `other` of `structs.DefaultUpdateStrategy`
/// (max_parallel 1) beside `web`, as TestNodeDeployments builds it.
fn two_group_job() -> Job {
    let mut j = job("system", "web", 1);
    let mut other = j.task_groups[0].clone();
    other.name = "other".into();
    other.update = Some(UpdateStrategy {
        max_parallel: 1,
        stagger: 30_000_000_000,
        progress_deadline: 600_000_000_000,
        ..UpdateStrategy::default()
    });
    j.task_groups.push(other);
    j
}

struct Run<'a> {
    diff: SystemDiff<'a>,
    nr: NodeDeployments,
}

/// `NodeReconciler.Compute` over `ready` nodes as `release` has it: before
/// 1.11.0 the diff alone, as the scheduler gates it.
fn compute<'a>(
    release: Release,
    job: &'a Job,
    ready: &[&'a Node],
    live: &[&'a Allocation],
    terminal: &Terminal<'a>,
    latest: Option<&'a Deployment>,
) -> Run<'a> {
    let rules = Rules::new(release, true);
    let ready_nodes = ReadyNodes {
        ready: ready.iter().map(|n| (n.id.as_str(), *n)).collect(),
        ..ReadyNodes::default()
    };
    let nodes = |_: &str| None;
    let tainted = TaintedNodes::default();
    let mut diff = SystemDiff::new(&DiffInput {
        job: Some(job),
        ready: &ready_nodes,
        tainted: &tainted,
        nodes: &nodes,
        live,
        terminal,
        rules: &rules,
        now: Time::ZERO,
    });
    let nr = match rules.has(Switch::SystemDeployments) {
        true => NodeDeployments::compute(
            &NodeDeploymentInput {
                job,
                latest,
                new_id: "new",
                live,
                terminal,
                ready,
                old_clients: rules.has(Switch::SystemOldClients),
            },
            &mut diff,
        ),
        false => NodeDeployments::default(),
    };
    Run { diff, nr }
}

fn deployment(job: &Job, status: &str) -> Deployment {
    Deployment {
        id: "existing".into(),
        job_id: job.id.clone(),
        job_create_index: job.create_index,
        job_version: job.version,
        status: status.into(),
        ..Deployment::default()
    }
}

fn descriptions(nr: &NodeDeployments) -> Vec<&'static str> {
    nr.updates.iter().map(|u| u.description).collect()
}

/// The allocations of `my-job.web[0]` on nodes foo and bar.
fn on_foo_and_bar(job: &Arc<Job>) -> Vec<Allocation> {
    ["foo", "bar"]
        .iter()
        .map(|n| alloc(&format!("a-{n}"), n, "my-job.web[0]", Arc::clone(job)))
        .collect()
}

#[test]
fn reconcile_node_test_go_v1_11_0_node_deployments_existing_successful_deployment() {
    let job = Arc::new(two_group_job());
    let (foo, bar) = (node("foo"), node("bar"));
    let allocs = on_foo_and_bar(&job);
    let live: Vec<&Allocation> = allocs.iter().collect();
    let d = deployment(&job, ds::SUCCESSFUL);
    let run = compute(
        V1110,
        &job,
        &[&foo, &bar],
        &live,
        &Terminal::new(),
        Some(&d),
    );
    assert!(run.nr.current.is_none());
    assert_eq!(run.nr.old.map(|o| o.deployment.id), Some("existing".into()));
    assert!(run.nr.updates.is_empty());
}

#[test]
fn reconcile_node_test_go_v1_11_0_node_deployments_existing_running_deployment_untouched() {
    let job = Arc::new(two_group_job());
    let (foo, bar) = (node("foo"), node("bar"));
    let allocs = on_foo_and_bar(&job);
    let live: Vec<&Allocation> = allocs.iter().collect();
    let mut d = deployment(&job, ds::RUNNING);
    d.task_groups = [
        ("web".into(), DeploymentState::default()),
        ("other".into(), DeploymentState::default()),
    ]
    .into();
    let run = compute(
        V1110,
        &job,
        &[&foo, &bar],
        &live,
        &Terminal::new(),
        Some(&d),
    );
    let current = run.nr.current.expect("the running deployment stays");
    assert_eq!(current.deployment.id, "existing");
    assert_eq!(current.groups.len(), 2);
    assert!(run.nr.updates.is_empty());
}

/// Each node with an allocation cancels it again: the stopped job's
/// deployment is never cleared (reconcile_node.go:430-441).
#[test]
fn reconcile_node_test_go_v1_11_0_node_deployments_stopped_job_cancels_running_deployment() {
    let mut stopped = two_group_job();
    stopped.stop = true;
    let job = Arc::new(stopped);
    let allocs = on_foo_and_bar(&job);
    let live: Vec<&Allocation> = allocs.iter().collect();
    let d = deployment(&job, ds::RUNNING);
    let run = compute(V1110, &job, &[], &live, &Terminal::new(), Some(&d));
    assert_eq!(
        descriptions(&run.nr),
        [ds::DESC_STOPPED_JOB, ds::DESC_STOPPED_JOB]
    );
    assert!(run.nr.updates.iter().all(|u| u.status == ds::CANCELLED));
}

#[test]
fn reconcile_node_test_go_v1_11_0_node_deployments_new_job_gets_a_new_deployment() {
    let job = Arc::new(two_group_job());
    let mut new_job = (*job).clone();
    new_job.name = "new-job".into();
    new_job.version = 100;
    new_job.create_index = 1000;
    let (foo, bar) = (node("foo"), node("bar"));
    let allocs = on_foo_and_bar(&job);
    let live: Vec<&Allocation> = allocs.iter().collect();
    let run = compute(
        V1110,
        &new_job,
        &[&foo, &bar],
        &live,
        &Terminal::new(),
        None,
    );
    let current = run.nr.current.as_ref().expect("a new deployment");
    assert_eq!(current.deployment.status, ds::RUNNING);
    assert_eq!(current.deployment.id, "new");
    // Only the group with an update block takes part.
    assert_eq!(current.groups.keys().collect::<Vec<_>>(), ["other"]);
    assert_eq!(descriptions(&run.nr), [ds::DESC_RUNNING]);
}

/// The Go case is named "terminal allocs due to reschedule, shouldn't
/// result in a deployment" but asserts nothing: its terminal allocation
/// runs an older version, so `createDeployment` (reconcile_node.go:495)
/// does not count it and makes a deployment. With a terminal allocation of
/// this version on the node, none is made.
#[test]
fn reconcile_node_test_go_v1_11_0_node_deployments_terminal_allocs_due_to_reschedule() {
    let job = Arc::new(two_group_job());
    let mut new_job = (*job).clone();
    new_job.version = 100;
    new_job.create_index = 1000;
    let new_job = Arc::new(new_job);
    let foo = node("foo");
    for (embedded, created) in [(&job, true), (&new_job, false)] {
        let mut done = alloc("t", "foo", "my-job.other[0]", Arc::clone(embedded));
        done.client_status = "complete".into();
        let terminal = crate::system::diff::terminal_of([("foo", &done)]);
        let run = compute(V1110, &new_job, &[&foo], &[], &terminal, None);
        assert_eq!(run.nr.current.is_some(), created);
    }
}

/// TestDiffSystemAllocsForNode_IneligibleNode (v1.11.0): the job's own
/// allocation on an ineligible node is ignored, one on a node no longer
/// targeted is stopped; and (#26953, reconcile_node.go:268) one of an
/// older job version on the ineligible node is stopped, which 1.10.5
/// ignores.
#[test]
fn reconcile_node_test_go_v1_11_0_diff_system_allocs_for_node_ineligible_node() {
    let job = Arc::new(job("system", "web", 1));
    let for_node = |release: Release, embedded: &Arc<Job>, node_id: &str| {
        let a = alloc("a", node_id, "my-job.web[0]", Arc::clone(embedded));
        let rules = Rules::new(release, true);
        let ready = ReadyNodes {
            not_ready: ["ineligible"].into_iter().collect(),
            ..ReadyNodes::default()
        };
        let nodes = |_: &str| None;
        let tainted = TaintedNodes::default();
        let live = [&a];
        let diff = SystemDiff::new(&DiffInput {
            job: Some(&job),
            ready: &ready,
            tainted: &tainted,
            nodes: &nodes,
            live: &live,
            terminal: &Terminal::new(),
            rules: &rules,
            now: Time::ZERO,
        });
        diff.entries.iter().map(|e| e.category).collect::<Vec<_>>()
    };
    assert_eq!(for_node(V1110, &job, "ineligible"), [Category::Ignore]);
    assert_eq!(for_node(V1110, &job, "elsewhere"), [Category::Stop]);
    let old = older(&job);
    assert_eq!(for_node(V1110, &old, "ineligible"), [Category::Stop]);
    assert_eq!(for_node(V1105, &old, "ineligible"), [Category::Ignore]);
}

/// reconcile_node.go:297 (v1.11.0): an update of a group with canaries is
/// a canary while the deployment's group is not promoted, or there is no
/// deployment yet; a promoted group's updates are not.
#[test]
fn reconcile_node_go_297_v1_11_0_updates_of_an_unpromoted_group_are_canaries() {
    let mut j = job("system", "web", 1);
    j.task_groups[0].update = Some(UpdateStrategy {
        max_parallel: 2,
        canary: 50,
        ..UpdateStrategy::default()
    });
    j.version = 1;
    let job = Arc::new(j);
    let old = older(&job);
    let foo = node("foo");
    let a = alloc("a", "foo", "my-job.web[0]", old);
    let canaries = |latest: Option<&Deployment>| {
        let run = compute(V1110, &job, &[&foo], &[&a], &Terminal::new(), latest);
        run.diff
            .of(Category::Update)
            .map(|e| e.canary)
            .collect::<Vec<_>>()
    };
    assert_eq!(canaries(None), [true]);
    let mut d = deployment(&job, ds::RUNNING);
    d.task_groups
        .insert("web".into(), DeploymentState::default());
    assert_eq!(canaries(Some(&d)), [true]);
    d.task_groups.get_mut("web").unwrap().promoted = true;
    assert_eq!(canaries(Some(&d)), [false]);
    let run = compute(V1105, &job, &[&foo], &[&a], &Terminal::new(), None);
    assert!(run.diff.entries.iter().all(|e| !e.canary));
}

/// #27605 (v1.11.3 reconcile_node.go:82): a ready node of a client older
/// than 1.11.0 keeps a first deployment from being created; 1.11.2
/// creates it.
#[test]
fn reconcile_node_go_82_v1_11_3_no_first_deployment_with_an_old_client() {
    let job = Arc::new(two_group_job());
    let mut new_job = (*job).clone();
    new_job.version = 1;
    new_job.job_modify_index += 1;
    let mut foo = node("foo");
    foo.attributes
        .insert("nomad.version".into(), "1.10.5".into());
    let allocs = on_foo_and_bar(&job);
    let live: Vec<&Allocation> = allocs.iter().take(1).collect();
    let created = |release: Release| {
        compute(release, &new_job, &[&foo], &live, &Terminal::new(), None)
            .nr
            .current
            .is_some()
    };
    assert!(created(v(1, 11, 2)));
    assert!(!created(v(1, 11, 3)));
    assert!(!created(v(2, 0, 0)));
}

fn versioned(version: &str) -> Node {
    let mut n = Node::default();
    n.attributes.insert("nomad.version".into(), version.into());
    n
}

#[test]
fn reconcile_node_go_534_v1_11_3_clients_before_1_11_0_are_too_old() {
    assert!(too_old(&versioned("1.10.5")));
    assert!(too_old(&versioned("1.11.0-beta.1")));
    assert!(!too_old(&versioned("1.11.0")));
    assert!(!too_old(&versioned("1.11.3+ent")));
    assert!(!too_old(&versioned("2.0.0")));
    assert!(!too_old(&versioned("dev")));
    assert!(!too_old(&Node::default()));
}
