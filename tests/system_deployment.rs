//! System deployments (catalogue #26708, 1.11.0): Nomad's node reconciler
//! and the system scheduler's deployment side, with the cases of
//! TestSystemSched_UpdateBlock, TestSystemSched_JobModify_Rolling,
//! TestSystemSched_NoOpEvalWithInfeasibleNodes and
//! TestSystemSched_CanariesWithInfeasibleNodes(Limit)
//! (scheduler/scheduler_system_test.go at v1.11.0) ported under their tag,
//! each checked against 1.10.5, which has none of it.

use std::collections::BTreeMap;
use std::sync::Arc;

use plan_inspect::model::*;
use plan_inspect::report::JobReport;
use plan_inspect::time::SECOND;
use plan_inspect::version::{Release, VersionRequest, v};

use crate::common::*;

pub(crate) const V1105: Release = v(1, 10, 5);
pub(crate) const V1110: Release = v(1, 11, 0);

pub(crate) fn replay_as(c: &mut Cluster, release: Release) -> JobReport {
    c.snapshot.nomad_version = Some(VersionRequest::Release(release));
    c.replay_job(JOB)
}

/// `mock.SystemJob()` as the harness builds it: one allocation per group
/// named after the job, groups `tg1`, `tg2`, ... with their update blocks.
pub(crate) fn system_job(groups: &[(&str, Option<UpdateStrategy>)]) -> Job {
    let mut j = mock_job();
    j.job_type = "system".into();
    j.name = j.id.clone();
    let template = j.task_groups[0].clone();
    j.task_groups = groups
        .iter()
        .map(|(name, update)| {
            let mut tg = template.clone();
            tg.name = (*name).into();
            tg.count = 1;
            tg.networks.clear();
            tg.update = update.clone();
            tg
        })
        .collect();
    j
}

/// The job changed so that every group needs a destructive update, as
/// the Go tests' `UpsertJob` stores it: next version, next modify index.
pub(crate) fn destructively_updated(old: &Job) -> Job {
    let mut j = old.clone();
    for tg in &mut j.task_groups {
        tg.tasks[0].config = GoValue::from(serde_json::json!({"command": "/bin/other"}));
    }
    j.version += 1;
    j.job_modify_index += 1;
    j.modify_index = j.job_modify_index;
    j
}

/// `n` ready, eligible nodes with the exec driver, in ID order.
pub(crate) fn nodes(c: &mut Cluster, n: usize) -> Vec<String> {
    (0..n)
        .map(|_| {
            let id = c.node(node_status::READY);
            let node = c.node_mut(&id);
            node.scheduling_eligibility = eligibility::ELIGIBLE.into();
            node.attributes.insert("driver.exec".into(), "1".into());
            id
        })
        .collect()
}

/// A running allocation of `group[0]` of `job` on `node`.
pub(crate) fn alloc_on(c: &mut Cluster, job: &Arc<Job>, group: &str, node: &str) -> String {
    let id = c.id("alloc");
    c.snapshot.allocs.push(Allocation {
        id: (&id).into(),
        namespace: job.namespace.as_str().into(),
        name: format!("{}.{group}[0]", job.name).into(),
        node_id: node.into(),
        job_id: job.id.as_str().into(),
        job: Some(job.clone()),
        task_group: group.into(),
        desired_status: status::RUN.into(),
        client_status: status::RUNNING.into(),
        ..Allocation::default()
    });
    id
}

/// `mock.Deployment()` of `job`'s version with `status`.
pub(crate) fn deployment_of(c: &mut Cluster, job: &Job, status: &str) -> String {
    let id = c.new_deployment(job);
    c.deployment_mut(&id).status = status.into();
    id
}

fn update(max_parallel: i64, canary: i64, auto_promote: bool) -> Option<UpdateStrategy> {
    Some(UpdateStrategy {
        max_parallel,
        canary,
        auto_promote,
        ..UpdateStrategy::default()
    })
}

/// Per group, how many entries of a plan list name it.
fn per_group<'a>(groups: impl Iterator<Item = &'a str>) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for g in groups {
        *out.entry(g.to_string()).or_default() += 1;
    }
    out
}

fn allocs(r: &JobReport) -> BTreeMap<String, usize> {
    per_group(r.plan.place.iter().map(|p| &*p.task_group))
}

fn stops(r: &JobReport) -> BTreeMap<String, usize> {
    per_group(r.plan.stop.iter().map(|s| &*s.task_group))
}

fn map(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs.iter().map(|(g, n)| (g.to_string(), *n)).collect()
}

/// One case of TestSystemSched_UpdateBlock: which of the ten nodes run the
/// previous version, the current one (running or failed, canaries among
/// them), the deployments in the state store.
#[derive(Default)]
struct UpdateBlock {
    tg1: Option<UpdateStrategy>,
    tg2: Option<UpdateStrategy>,
    current: Option<Vec<(&'static str, DeploymentState)>>,
    old: bool,
    previous: [Vec<usize>; 2],
    running: [Vec<usize>; 2],
    failed: [Vec<usize>; 2],
    canary: [Vec<usize>; 2],
    ineligible: Vec<usize>,
    /// `${meta.testing}` of the old and the new job, and node 0's value
    /// (the others have `two`).
    constraints: Option<(&'static str, &'static str, &'static str)>,
}

impl UpdateBlock {
    fn cluster(&self) -> Cluster {
        let mut c = Cluster::new();
        let nodes = nodes(&mut c, 10);
        for &i in &self.ineligible {
            c.node_mut(&nodes[i]).scheduling_eligibility = eligibility::INELIGIBLE.into();
        }
        let mut old = system_job(&[("tg1", self.tg1.clone()), ("tg2", self.tg2.clone())]);
        let testing = |value: &str| Constraint {
            l_target: "${meta.testing}".into(),
            r_target: value.into(),
            operand: "=".into(),
        };
        let mut job = destructively_updated(&old);
        if let Some((before, after, first)) = self.constraints {
            old.constraints = vec![testing(before)];
            job.constraints = vec![testing(after)];
            for (i, n) in nodes.iter().enumerate() {
                let value = if i == 0 { first } else { "two" };
                c.node_mut(n).meta.insert("testing".into(), value.into());
            }
        }
        let job = c.job(job);
        let old = Arc::new(old);
        if self.old {
            deployment_of(&mut c, &old, deployment_status::RUNNING);
        }
        let current = self
            .current
            .as_ref()
            .map(|_| deployment_of(&mut c, &job, deployment_status::RUNNING));
        for (g, group) in ["tg1", "tg2"].into_iter().enumerate() {
            for &i in &self.previous[g] {
                alloc_on(&mut c, &old, group, &nodes[i]);
            }
            for (list, client) in [
                (&self.running[g], status::RUNNING),
                (&self.failed[g], status::FAILED),
            ] {
                for &i in list {
                    let id = alloc_on(&mut c, &job, group, &nodes[i]);
                    let a = c.alloc_mut(&id);
                    a.client_status = client.into();
                    if self.canary[g].contains(&i) {
                        a.deployment_status = Some(AllocDeploymentStatus {
                            healthy: Some(client == status::RUNNING),
                            canary: true,
                        });
                        a.deployment_id = current.clone().unwrap_or_default().into();
                    }
                }
            }
        }
        if let (Some(id), Some(states)) = (&current, &self.current) {
            for (group, state) in states {
                c.set_deployment_state(id, group, state.clone());
            }
        }
        c
    }
}

fn state(desired_total: i64, healthy: i64) -> DeploymentState {
    DeploymentState {
        desired_total,
        healthy_allocs: healthy,
        ..DeploymentState::default()
    }
}

fn canary_state(desired_canaries: i64, promoted: bool) -> DeploymentState {
    DeploymentState {
        desired_canaries,
        promoted,
        desired_total: 10,
        ..DeploymentState::default()
    }
}

/// The plan's deployment per group: (desired total, desired canaries).
fn dstates(r: &JobReport) -> BTreeMap<String, (i64, i64)> {
    r.plan.deployment.as_ref().map_or_else(BTreeMap::new, |d| {
        d.groups
            .iter()
            .map(|(g, s)| (g.clone(), (s.desired_total, s.desired_canaries)))
            .collect()
    })
}

fn check(
    case: &UpdateBlock,
    expect_allocs: &[(&str, usize)],
    expect_stop: &[(&str, usize)],
    expect_dstate: &[(&str, (i64, i64))],
) -> (JobReport, JobReport) {
    let mut c = case.cluster();
    let r = replay_as(&mut c, V1110);
    assert_eq!(allocs(&r), map(expect_allocs), "allocs");
    assert_eq!(stops(&r), map(expect_stop), "stops");
    let want: BTreeMap<String, (i64, i64)> = expect_dstate
        .iter()
        .map(|(g, s)| (g.to_string(), *s))
        .collect();
    if !want.is_empty() {
        assert_eq!(dstates(&r), want, "deployment");
    }
    let before = replay_as(&mut c, V1105);
    assert!(before.plan.deployment.is_none());
    (r, before)
}

fn all() -> Vec<usize> {
    (0..10).collect()
}

#[test]
fn scheduler_system_test_go_v1_11_0_update_block_legacy_upgrade_non_deployment() {
    let case = UpdateBlock::default();
    let (r, _) = check(&case, &[("tg1", 10), ("tg2", 10)], &[], &[]);
    assert!(r.plan.deployment.is_none() && r.plan.deployment_updates.is_empty());
}

#[test]
fn scheduler_system_test_go_v1_11_0_update_block_new_deployment_max_parallel_vs_no_update_block() {
    let case = UpdateBlock {
        tg1: update(2, 0, false),
        old: true,
        previous: [all(), all()],
        ..UpdateBlock::default()
    };
    let (r, before) = check(
        &case,
        &[("tg1", 2), ("tg2", 10)],
        &[("tg1", 2), ("tg2", 10)],
        &[("tg1", (10, 0))],
    );
    let updates: Vec<(&str, &str)> = r
        .plan
        .deployment_updates
        .iter()
        .map(|u| (u.status.as_str(), u.status_description.as_str()))
        .collect();
    assert!(updates.contains(&("cancelled", deployment_status::DESC_NEWER_JOB)));
    assert!(updates.contains(&("running", deployment_status::DESC_RUNNING)));
    // 1.10.5: a group's max_parallel is not read; every update at once.
    assert_eq!(allocs(&before), map(&[("tg1", 10), ("tg2", 10)]));
}

#[test]
fn scheduler_system_test_go_v1_11_0_update_block_max_parallel_mid_deployment() {
    let case = UpdateBlock {
        tg1: update(2, 0, false),
        tg2: update(3, 0, false),
        current: Some(vec![("tg1", state(10, 2)), ("tg2", state(10, 3))]),
        previous: [(0..8).collect(), (0..7).collect()],
        running: [vec![8, 9], vec![7, 8, 9]],
        ..UpdateBlock::default()
    };
    check(
        &case,
        &[("tg1", 2), ("tg2", 3)],
        &[("tg1", 2), ("tg2", 3)],
        &[("tg1", (10, 0)), ("tg2", (10, 0))],
    );
}

/// No deployment is created while the job already runs this version and
/// none exists (the reconciler's COMPAT, reconcile_node.go:76).
#[test]
fn scheduler_system_test_go_v1_11_0_update_block_legacy_upgrade_max_parallel_mid_rollout() {
    let case = UpdateBlock {
        tg1: update(2, 0, false),
        tg2: update(3, 0, false),
        previous: [(0..8).collect(), (0..7).collect()],
        running: [vec![8, 9], vec![7, 8, 9]],
        ..UpdateBlock::default()
    };
    let (r, _) = check(
        &case,
        &[("tg1", 2), ("tg2", 3)],
        &[("tg1", 2), ("tg2", 3)],
        &[],
    );
    assert!(r.plan.deployment.is_none() && r.plan.deployment_updates.is_empty());
}

#[test]
fn scheduler_system_test_go_v1_11_0_update_block_max_parallel_underprovisioned_from_failure() {
    let case = UpdateBlock {
        tg1: update(2, 0, false),
        tg2: update(3, 0, false),
        current: Some(vec![("tg1", state(10, 0)), ("tg2", state(10, 0))]),
        previous: [(0..8).collect(), (0..7).collect()],
        failed: [vec![8, 9], vec![7, 8, 9]],
        ..UpdateBlock::default()
    };
    check(
        &case,
        &[("tg1", 4), ("tg2", 6)],
        &[("tg1", 2), ("tg2", 3)],
        &[("tg1", (10, 0)), ("tg2", (10, 0))],
    );
}

#[test]
fn scheduler_system_test_go_v1_11_0_update_block_new_deployment_max_parallel_with_old_underprovisioned()
 {
    let case = UpdateBlock {
        tg1: update(2, 0, false),
        tg2: update(3, 0, false),
        old: true,
        previous: [(0..5).collect(), (0..3).collect()],
        ..UpdateBlock::default()
    };
    check(
        &case,
        &[("tg1", 7), ("tg2", 10)],
        &[("tg1", 2), ("tg2", 3)],
        &[("tg1", (10, 0)), ("tg2", (10, 0))],
    );
}

#[test]
fn scheduler_system_test_go_v1_11_0_update_block_new_deployment_with_canaries() {
    let case = UpdateBlock {
        tg1: update(2, 30, false),
        tg2: update(5, 0, false),
        old: true,
        previous: [all(), (0..8).collect()],
        ..UpdateBlock::default()
    };
    let (r, _) = check(
        &case,
        &[("tg1", 2), ("tg2", 7)],
        &[("tg1", 2), ("tg2", 5)],
        &[("tg1", (10, 2)), ("tg2", (10, 0))],
    );
    let canaries = r.plan.place.iter().filter(|p| p.canary).count();
    assert_eq!(canaries, 2);
    assert_eq!(group(&r, "tg1").desired_changes.canary, 2);
    // The canaries wait for a manual promotion.
    let d = r.plan.deployment.as_ref().unwrap();
    assert_eq!(
        d.status_description,
        deployment_status::DESC_NEEDS_PROMOTION
    );
    assert_eq!(d.status, "running");
}

#[test]
fn scheduler_system_test_go_v1_11_0_update_block_canaries_failed() {
    let case = UpdateBlock {
        tg1: update(3, 30, false),
        tg2: update(5, 0, false),
        current: Some(vec![("tg1", canary_state(3, false)), ("tg2", state(10, 5))]),
        previous: [(0..7).collect(), (0..5).collect()],
        running: [vec![7], (5..10).collect()],
        failed: [vec![8], vec![]],
        canary: [vec![7, 8], vec![]],
        ..UpdateBlock::default()
    };
    let (r, _) = check(
        &case,
        &[("tg1", 3), ("tg2", 5)],
        &[("tg1", 1), ("tg2", 5)],
        &[("tg1", (10, 3)), ("tg2", (10, 0))],
    );
    // The running canary and one new one.
    assert_eq!(group(&r, "tg1").desired_changes.canary, 2);
}

#[test]
fn scheduler_system_test_go_v1_11_0_update_block_canaries_partial_placement() {
    let case = UpdateBlock {
        tg1: update(2, 30, false),
        tg2: update(5, 0, false),
        current: Some(vec![("tg1", canary_state(2, false)), ("tg2", state(10, 5))]),
        previous: [vec![0, 1, 2, 3, 4, 5, 6, 8, 9], (0..5).collect()],
        running: [vec![7], (5..10).collect()],
        canary: [vec![7], vec![]],
        ..UpdateBlock::default()
    };
    check(
        &case,
        &[("tg1", 1), ("tg2", 5)],
        &[("tg1", 1), ("tg2", 5)],
        &[("tg1", (10, 2)), ("tg2", (10, 0))],
    );
}

#[test]
fn scheduler_system_test_go_v1_11_0_update_block_canaries_awaiting_promotion() {
    let case = UpdateBlock {
        tg1: update(3, 30, false),
        tg2: update(5, 0, false),
        current: Some(vec![
            ("tg1", canary_state(3, false)),
            ("tg2", state(10, 10)),
        ]),
        previous: [(0..7).collect(), vec![]],
        running: [vec![7, 8, 9], all()],
        canary: [vec![7, 8, 9], vec![]],
        ..UpdateBlock::default()
    };
    let (r, before) = check(&case, &[], &[], &[("tg1", (10, 3)), ("tg2", (10, 0))]);
    assert_eq!(
        r.plan.deployment.as_ref().unwrap().status_description,
        deployment_status::DESC_NEEDS_PROMOTION
    );
    // 1.10.5 knows no canaries here: it replaces all seven.
    assert_eq!(allocs(&before), map(&[("tg1", 7)]));
}

#[test]
fn scheduler_system_test_go_v1_11_0_update_block_canaries_promoted() {
    let case = UpdateBlock {
        tg1: update(2, 30, true),
        current: Some(vec![("tg1", canary_state(3, true)), ("tg2", state(10, 10))]),
        previous: [(0..7).collect(), vec![]],
        running: [vec![7, 8, 9], all()],
        canary: [vec![7, 8, 9], vec![]],
        ..UpdateBlock::default()
    };
    check(
        &case,
        &[("tg1", 2)],
        &[("tg1", 2)],
        &[("tg1", (10, 3)), ("tg2", (10, 0))],
    );
}

/// Also #26953 (reconcile_node.go:268): the previous version on the two
/// ineligible nodes is stopped; 1.10.5 leaves it alone.
#[test]
fn scheduler_system_test_go_v1_11_0_update_block_deployment_complete_with_ineligible_nodes() {
    let case = UpdateBlock {
        tg1: update(10, 30, true),
        current: Some(vec![("tg1", canary_state(3, true)), ("tg2", state(10, 10))]),
        previous: [(0..7).collect(), vec![]],
        running: [vec![7, 8, 9], all()],
        canary: [vec![7, 8, 9], vec![]],
        ineligible: vec![0, 1],
        ..UpdateBlock::default()
    };
    let (r, before) = check(
        &case,
        &[("tg1", 5)],
        &[("tg1", 7)],
        &[("tg1", (8, 3)), ("tg2", (10, 0))],
    );
    let diff = group(&r, "tg1").system_diff.as_ref().unwrap();
    assert_eq!(diff.stop.len(), 2);
    assert!(
        diff.stop[0]
            .reason()
            .starts_with("node not ready and job updated")
    );
    assert_eq!(stops(&before), map(&[("tg1", 5)]));
}

#[test]
fn scheduler_system_test_go_v1_11_0_update_block_deployment_previous_no_placements() {
    let case = UpdateBlock {
        tg1: update(10, 30, false),
        current: Some(vec![("tg1", state(0, 0)), ("tg2", state(0, 0))]),
        ..UpdateBlock::default()
    };
    check(
        &case,
        &[("tg1", 10), ("tg2", 10)],
        &[],
        &[("tg1", (10, 0)), ("tg2", (10, 0))],
    );
}

/// The update on the node the new constraint turns down is stopped all the
/// same, and its replacement fails: 3 canaries of 9 feasible nodes, 4 stops.
#[test]
fn scheduler_system_test_go_v1_11_0_update_block_deployment_with_changing_constriants() {
    let case = UpdateBlock {
        tg1: update(10, 30, false),
        current: Some(vec![("tg1", state(0, 0)), ("tg2", state(10, 10))]),
        previous: [all(), vec![]],
        running: [vec![], all()],
        constraints: Some(("one", "two", "one")),
        ..UpdateBlock::default()
    };
    check(
        &case,
        &[("tg1", 3)],
        &[("tg1", 4)],
        &[("tg1", (9, 3)), ("tg2", (10, 0))],
    );
}

/// #27284 (v1.11.2 scheduler_system.go:707): an allocation of the current
/// deployment whose health is not known yet takes one of `max_parallel`'s
/// two slots; 1.11.0 evicts two.
#[test]
fn pending_allocations_take_max_parallel_slots_from_1_11_2() {
    let case = UpdateBlock {
        tg1: update(2, 0, false),
        current: Some(vec![("tg1", state(10, 0))]),
        previous: [(1..10).collect(), vec![]],
        running: [vec![0], vec![]],
        ..UpdateBlock::default()
    };
    let mut c = case.cluster();
    let dep = c.snapshot.deployments[0].id.clone();
    let pending = c
        .snapshot
        .allocs
        .iter_mut()
        .find(|a| a.job.as_ref().is_some_and(|j| j.version == 1))
        .unwrap();
    pending.deployment_id = dep.to_string().into();
    let pending_id = pending.id.clone();
    let evicted = |c: &mut Cluster, release| replay_as(c, release).plan.stop.len();
    assert_eq!(evicted(&mut c, V1110), 2);
    assert_eq!(evicted(&mut c, v(1, 11, 2)), 1);
    assert_eq!(evicted(&mut c, v(2, 0, 0)), 1);
    // Once healthy (or unhealthy) it no longer counts.
    c.alloc_mut(&pending_id).deployment_status = Some(AllocDeploymentStatus {
        healthy: Some(true),
        canary: false,
    });
    assert_eq!(evicted(&mut c, v(1, 11, 2)), 2);
}

/// #27265 (v1.11.2 reconcile_node.go:150-240): a running allocation of a
/// group without any disconnect setting, on a disconnected node, is marked
/// unknown from 1.11.2 (and counted in `Disconnect`); 1.11.0 leaves it on
/// its tainted node.
#[test]
fn disconnects_of_every_group_from_1_11_2() {
    let mut c = Cluster::new();
    let nodes = nodes(&mut c, 1);
    c.node_mut(&nodes[0]).status = node_status::DISCONNECTED.into();
    let job = c.job(system_job(&[("web", None)]));
    let id = alloc_on(&mut c, &job, "web", &nodes[0]);
    let before = replay_as(&mut c, V1110);
    assert!(before.plan.disconnect_updates.is_empty());
    assert_eq!(group(&before, "web").desired_changes.disconnect, 0);
    let r = replay_as(&mut c, v(1, 11, 2));
    let marked: Vec<String> = r
        .plan
        .disconnect_updates
        .iter()
        .map(|u| u.alloc_id.to_string())
        .collect();
    assert_eq!(marked, [id]);
    assert_eq!(group(&r, "web").desired_changes.disconnect, 1);
}

/// TestSystemSched_JobModify_Rolling (v1.11.0): the job's `max_parallel`
/// limits the destructive updates with no stagger needed, and no
/// rolling-update evaluation follows (#27007); 1.10.5 reads it only with a
/// stagger and then follows up.
#[test]
fn scheduler_system_test_go_v1_11_0_job_modify_rolling() {
    for stagger in [30 * SECOND, 0] {
        let mut c = Cluster::new();
        let nodes = nodes(&mut c, 10);
        let old = Arc::new(system_job(&[("web", None)]));
        for n in &nodes {
            alloc_on(&mut c, &old, "web", n);
        }
        let mut job = destructively_updated(&old);
        job.update = Some(UpdateStrategy {
            stagger,
            max_parallel: 5,
            ..UpdateStrategy::default()
        });
        c.job(job);
        let r = replay_as(&mut c, V1110);
        assert_eq!(r.plan.stop.len(), 5);
        assert_eq!(r.plan.place.len(), 5);
        assert!(r.plan.followup_evals.is_empty());
        let before = replay_as(&mut c, V1105);
        match stagger {
            0 => assert_eq!(before.plan.place.len(), 10),
            _ => {
                assert_eq!(before.plan.place.len(), 5);
                assert_eq!(before.plan.followup_evals[0].triggered_by, "rolling-update");
            }
        }
    }
}

/// Nodes where the job's `${attr.kernel.name} = linux` holds at the odd
/// indexes only, as the Go tests make them.
fn half_linux(c: &mut Cluster, n: usize, job: &mut Job) -> Vec<String> {
    job.constraints = vec![Constraint {
        l_target: "${attr.kernel.name}".into(),
        r_target: "linux".into(),
        operand: "=".into(),
    }];
    let nodes = nodes(c, n);
    for (i, id) in nodes.iter().enumerate() {
        let kernel = if i % 2 == 0 { "not-linux" } else { "linux" };
        c.node_mut(id)
            .attributes
            .insert("kernel.name".into(), kernel.into());
    }
    nodes
}

/// TestSystemSched_NoOpEvalWithInfeasibleNodes (v1.11.0): the successful
/// deployment of the job stays the plan's, its in-place updates move into
/// it, and the annotation's `Place` is the feasible nodes.
#[test]
fn scheduler_system_test_go_v1_11_0_no_op_eval_with_infeasible_nodes() {
    let mut c = Cluster::new();
    let mut old = system_job(&[("web", None)]);
    let nodes = half_linux(&mut c, 4, &mut old);
    let old = Arc::new(old);
    let existing: Vec<String> = [1, 3]
        .iter()
        .map(|&i| alloc_on(&mut c, &old, "web", &nodes[i]))
        .collect();
    let d = deployment_of(&mut c, &old, deployment_status::SUCCESSFUL);
    c.set_deployment_state(&d, "web", state(10, 0));
    let mut job = (*old).clone();
    job.version += 1;
    job.job_modify_index += 1;
    c.job(job);
    let r = replay_as(&mut c, V1110);
    assert_eq!(
        r.plan.deployment.as_ref().map(|d| d.id.as_str()),
        Some(d.as_str())
    );
    assert_eq!(dstates(&r), [("web".to_string(), (2, 0))].into());
    let changes = &group(&r, "web").desired_changes;
    assert_eq!((changes.in_place_update, changes.place), (2, 2));
    assert!(r.plan.stop.is_empty() && r.plan.place.is_empty());
    let updated: Vec<String> = r
        .plan
        .in_place_update
        .iter()
        .map(|u| u.alloc_id.to_string())
        .collect();
    assert_eq!(updated, existing);
    assert!(
        r.plan
            .in_place_update
            .iter()
            .all(|u| u.deployment_id.as_deref() == Some(d.as_str()))
    );

    let before = replay_as(&mut c, V1105);
    assert!(before.plan.deployment.is_none());
    assert!(
        before
            .plan
            .in_place_update
            .iter()
            .all(|u| u.deployment_id.is_none())
    );
    assert_eq!(group(&before, "web").desired_changes.place, 0);
}

/// TestSystemSched_CanariesWithInfeasibleNodes (v1.11.0): `canary = 100`
/// over the two feasible nodes of four is two canaries.
#[test]
fn scheduler_system_test_go_v1_11_0_canaries_with_infeasible_nodes() {
    let mut c = Cluster::new();
    let mut old = system_job(&[("web", update(4, 100, false))]);
    let nodes = half_linux(&mut c, 4, &mut old);
    let old = Arc::new(old);
    for i in [1, 3] {
        alloc_on(&mut c, &old, "web", &nodes[i]);
    }
    deployment_of(&mut c, &old, deployment_status::SUCCESSFUL);
    c.job(destructively_updated(&old));
    let r = replay_as(&mut c, V1110);
    let d = r.plan.deployment.as_ref().expect("a new deployment");
    assert_eq!(d.status, "running");
    assert_eq!(dstates(&r), [("web".to_string(), (2, 2))].into());
    assert_eq!(group(&r, "web").desired_changes.canary, 2);
    assert_eq!(r.plan.place.iter().filter(|p| p.canary).count(), 2);
    assert!(replay_as(&mut c, V1105).plan.deployment.is_none());
}

/// TestSystemSched_CanariesWithInfeasibleNodesLimit (v1.11.0): one of two
/// nodes turned infeasible; its allocation is stopped all the same, the
/// other node gets the one canary.
#[test]
fn scheduler_system_test_go_v1_11_0_canaries_with_infeasible_nodes_limit() {
    let mut c = Cluster::new();
    let mut old = system_job(&[("web", update(1, 50, false))]);
    let nodes = half_linux(&mut c, 2, &mut old);
    c.node_mut(&nodes[0])
        .attributes
        .insert("kernel.name".into(), "linux".into());
    let old = Arc::new(old);
    let on: Vec<String> = nodes
        .iter()
        .map(|n| alloc_on(&mut c, &old, "web", n))
        .collect();
    c.node_mut(&nodes[1])
        .attributes
        .insert("kernel.name".into(), "not-linux".into());
    deployment_of(&mut c, &old, deployment_status::SUCCESSFUL);
    c.job(destructively_updated(&old));
    let r = replay_as(&mut c, V1110);
    assert_eq!(dstates(&r), [("web".to_string(), (1, 1))].into());
    assert_eq!(group(&r, "web").desired_changes.canary, 1);
    let placed: Vec<&str> = r
        .plan
        .place
        .iter()
        .filter_map(|p| p.node_id.as_deref())
        .collect();
    assert_eq!(placed, [nodes[0].as_str()]);
    let stopped: Vec<String> = r.plan.stop.iter().map(|s| s.alloc_id.to_string()).collect();
    assert_eq!(stopped, on);
    assert!(replay_as(&mut c, V1105).plan.deployment.is_none());
}

/// Stopping a job with an active deployment (v1.11.0 reconcile_node.go:430,
/// scheduler_system.go:384-449): every node still running an allocation
/// cancels it again, and with no group left to wait for the scheduler then
/// marks it successful; the plan carries the deployment and all three
/// updates.
#[test]
fn a_stopped_job_s_deployment_is_cancelled_per_node_then_successful() {
    let mut c = Cluster::new();
    let nodes = nodes(&mut c, 2);
    let mut job = system_job(&[("web", update(1, 0, false))]);
    job.stop = true;
    let job = c.job(job);
    for n in &nodes {
        alloc_on(&mut c, &job, "web", n);
    }
    let d = deployment_of(&mut c, &job, deployment_status::RUNNING);
    c.set_deployment_state(&d, "web", state(2, 2));
    let r = replay_as(&mut c, V1110);
    assert_eq!(r.plan.stop.len(), 2);
    let updates: Vec<(&str, &str)> = r
        .plan
        .deployment_updates
        .iter()
        .map(|u| (u.status.as_str(), u.status_description.as_str()))
        .collect();
    let cancelled = ("cancelled", deployment_status::DESC_STOPPED_JOB);
    let successful = ("successful", deployment_status::DESC_SUCCESSFUL);
    assert_eq!(updates, [cancelled, cancelled, successful]);
    assert_eq!(
        r.plan.deployment.as_ref().map(|d| d.id.as_str()),
        Some(d.as_str())
    );
    let before = replay_as(&mut c, V1105);
    assert!(before.plan.deployment_updates.is_empty());
}

/// TestEvictAndPlace (scheduler_system_test.go at v1.11.0, a unit test of
/// `evictAndPlace`; here at 1.11.0 and 2.0.5 through the replay): each
/// group's allocations run on every node and all need a destructive
/// update; the group's `max_parallel`, else the job's, limits how many are
/// stopped and placed again. `limited` (whether any group hit its limit)
/// is internal; the counts are what the plan shows.
#[test]
fn scheduler_system_test_go_v1_11_0_evict_and_place() {
    // (case, allocations per group, group limits, job limit, placements)
    type Case = (
        &'static str,
        &'static [&'static str],
        usize,
        &'static [Option<i64>],
        i64,
        usize,
    );
    let cases: [Case; 7] = [
        ("one group limit less than allocs", &["a"], 4, &[None], 2, 2),
        ("one group limit equals allocs", &["a"], 4, &[None], 4, 4),
        (
            "one group limit greater than allocs",
            &["a"],
            2,
            &[None],
            4,
            2,
        ),
        (
            "group limit supercedes job limit",
            &["a"],
            4,
            &[Some(2)],
            1,
            2,
        ),
        (
            "two groups limit less than allocs on one",
            &["a", "b"],
            4,
            &[Some(2), Some(4)],
            0,
            6,
        ),
        (
            "two groups neither limited",
            &["a", "b"],
            2,
            &[Some(4), Some(4)],
            0,
            4,
        ),
        (
            "two groups one uses job limit",
            &["a", "b"],
            4,
            &[Some(4), None],
            2,
            6,
        ),
    ];
    for (name, groups, count, limits, job_limit, want) in cases {
        for release in [V1110, v(2, 0, 5)] {
            let mut c = Cluster::new();
            let nodes = nodes(&mut c, count);
            let specs: Vec<(&str, Option<UpdateStrategy>)> = groups
                .iter()
                .zip(limits)
                .map(|(g, l)| {
                    let update = l.map(|max_parallel| UpdateStrategy {
                        max_parallel,
                        stagger: SECOND,
                        ..UpdateStrategy::default()
                    });
                    (*g, update)
                })
                .collect();
            let old = Arc::new(system_job(&specs));
            for g in groups.iter() {
                for n in &nodes {
                    alloc_on(&mut c, &old, g, n);
                }
            }
            let mut job = destructively_updated(&old);
            job.update = Some(UpdateStrategy {
                max_parallel: job_limit,
                stagger: SECOND,
                ..UpdateStrategy::default()
            });
            c.job(job);
            let r = replay_as(&mut c, release);
            assert_eq!(r.plan.place.len(), want, "{release} {name}");
            assert_eq!(r.plan.stop.len(), want, "{release} {name}");
        }
    }
}
