//! The deployment side of Nomad's node reconciler (1.11.0 on,
//! scheduler/reconciler/reconcile_node.go): which deployment a system job
//! works under, which updates are canaries, and the deployment it creates.
//! It walks the nodes in the diff's order, as `Compute` walks them, since
//! what one node decides (a deployment created, one set aside) is what the
//! next node sees.

use std::collections::BTreeSet;

use super::deployment_state::{StatusUpdate, WorkingDeployment, replays_deployments};
use super::diff::{Category, SystemDiff, Terminal};
use super::ready_nodes::ReadyNodes;
use super::why::Why;
use crate::model::deployment_status as ds;
use crate::model::{Allocation, Deployment, DeploymentState, Job, Node, SortedMap, TaskGroup};
use crate::reconciler::Rules;
use crate::version::Switch;

/// What the scheduler hands the node reconciler besides the diff.
pub struct NodeReconcilerInput<'a, 'r> {
    pub rules: &'r Rules,
    /// The job's latest deployment in the state store.
    pub deployment: Option<&'a Deployment>,
    /// The ID a deployment created now gets.
    pub new_deployment_id: &'r str,
}

/// `NodeReconciler`'s deployment fields after `Compute`.
#[derive(Clone, Debug, Default)]
pub struct NodeDeployments {
    /// `DeploymentCurrent`.
    pub current: Option<WorkingDeployment>,
    /// `DeploymentOld`.
    pub old: Option<WorkingDeployment>,
    pub updates: Vec<StatusUpdate>,
    same_version_allocs: bool,
}

/// What the node reconciler's deployment side reads.
struct NodeDeploymentInput<'a, 'r> {
    pub job: &'a Job,
    /// The job's latest deployment in the state store.
    pub latest: Option<&'a Deployment>,
    /// The ID a deployment created now gets.
    pub new_id: &'r str,
    pub live: &'r [&'a Allocation],
    pub terminal: &'r Terminal<'a>,
    /// The ready nodes of the job, for the old-client check (#27605).
    pub ready: &'r [&'a Node],
    pub old_clients: bool,
}

/// `UpdateStrategy.IsEmpty`: no update block, or `max_parallel = 0`.
fn update_empty(tg: &TaskGroup) -> bool {
    tg.update.as_ref().is_none_or(|u| u.max_parallel == 0)
}

fn canaries_of(tg: &TaskGroup) -> i64 {
    tg.update.as_ref().map_or(0, |u| u.canary)
}

impl NodeDeployments {
    /// The node reconciler's deployment side for a job (system jobs read
    /// their latest deployment; sysbatch jobs go through it with none, as
    /// scheduler_sysbatch.go:234 has it), and the deployment the scheduler
    /// then works with: the reconciler's current one, else the latest
    /// (scheduler_system.go:259), with the status updates so far.
    pub fn of<'a>(
        input: &NodeReconcilerInput<'a, '_>,
        job: &'a Job,
        ready: &ReadyNodes<'a>,
        live: &[&'a Allocation],
        terminal: &Terminal<'a>,
        diff: &mut SystemDiff<'a>,
    ) -> (Option<WorkingDeployment>, Vec<StatusUpdate>) {
        let system = replays_deployments(input.rules, job);
        let latest = input.deployment.filter(|_| system);
        let ready: Vec<&Node> = ready.ready.values().copied().collect();
        let nr = NodeDeployments::compute(
            &NodeDeploymentInput {
                job,
                latest,
                new_id: input.new_deployment_id,
                live,
                terminal,
                ready: &ready,
                old_clients: input.rules.has(Switch::SystemOldClients),
            },
            diff,
        );
        if !system {
            return (None, Vec::new());
        }
        let working = nr.current.or_else(|| latest.map(WorkingDeployment::of));
        (working, nr.updates)
    }

    /// `Compute`'s deployment side over the diff, marking the canary
    /// updates in it.
    fn compute(input: &NodeDeploymentInput<'_, '_>, diff: &mut SystemDiff<'_>) -> Self {
        let mut nr = NodeDeployments {
            current: input.latest.map(WorkingDeployment::of),
            ..NodeDeployments::default()
        };
        let had_existing = nr.current.is_some();
        // `Compute` visits every node with a live allocation or ready.
        let nodes: BTreeSet<&str> = input
            .live
            .iter()
            .map(|a| a.node_id.as_str())
            .chain(input.ready.iter().map(|n| n.id.as_str()))
            .collect();
        let required = required_groups(input.job);
        for node_id in nodes {
            nr.for_node(input, node_id, diff, &required);
        }
        if !had_existing && nr.same_version_allocs {
            nr.current = None;
        }
        if input.old_clients && !had_existing && input.ready.iter().any(|n| too_old(n)) {
            nr.current = None;
        }
        nr
    }

    /// `computeForNode`'s deployment steps for one node.
    fn for_node(
        &mut self,
        input: &NodeDeploymentInput<'_, '_>,
        node_id: &str,
        diff: &mut SystemDiff<'_>,
        required: &[(String, &TaskGroup)],
    ) {
        let job = input.job;
        self.cancel_unneeded(job);
        let (paused, failed) = match &self.current {
            Some(c) => {
                let s = c.deployment.status.as_str();
                (
                    matches!(s, ds::PAUSED | ds::PENDING | ds::INITIALIZING),
                    s == ds::FAILED,
                )
            }
            None => (false, false),
        };
        let mut updates = 0usize;
        for e in diff.entries.iter_mut().filter(|e| e.node_id == node_id) {
            match e.category {
                // Every allocation that reaches Nomad's `IGNORE` label: not
                // one awaiting its client, nor a finished sysbatch one.
                Category::Ignore
                    if !matches!(e.why, Why::AwaitingReconnect | Why::SysbatchDone) =>
                {
                    self.same_version_allocs = true;
                }
                Category::Update => {
                    updates += 1;
                    // A sysbatch allocation run again is no canary (:349).
                    let live = e.alloc.is_some_and(|a| !a.terminal_status());
                    let Some(tg) = e.task_group.filter(|_| live) else {
                        continue;
                    };
                    let state_unpromoted = match &self.current {
                        None => true,
                        Some(c) => c
                            .groups
                            .get(&tg.name)
                            .is_some_and(|s| s.as_ref().is_some_and(|s| !s.promoted)),
                    };
                    e.canary = !update_empty(tg) && canaries_of(tg) > 0 && state_unpromoted;
                }
                _ => {}
            }
        }
        let live: Vec<&Allocation> = input
            .live
            .iter()
            .copied()
            .filter(|a| a.node_id == node_id)
            .collect();
        let terminal: Vec<&Allocation> = input
            .terminal
            .get(node_id)
            .map_or(Vec::new(), |on_node| on_node.values().copied().collect());
        for (_, tg) in required {
            let existing = self
                .current
                .as_ref()
                .is_some_and(|c| c.groups.contains_key(&tg.name));
            if existing || update_empty(tg) || paused || failed {
                continue;
            }
            self.create(input, tg, updates, &live, &terminal);
        }
    }

    /// `cancelUnneededSystemDeployments`.
    fn cancel_unneeded(&mut self, job: &Job) {
        if job.stop {
            if let Some(c) = self.current.as_ref().filter(|c| c.active()) {
                self.updates.push(StatusUpdate {
                    deployment_id: c.deployment.id.clone(),
                    status: ds::CANCELLED,
                    description: ds::DESC_STOPPED_JOB,
                });
            }
            return;
        }
        let Some(c) = &self.current else { return };
        let older = c.deployment.job_create_index != job.create_index
            || c.deployment.job_version != job.version;
        if older && c.active() {
            self.updates.push(StatusUpdate {
                deployment_id: c.deployment.id.clone(),
                status: ds::CANCELLED,
                description: ds::DESC_NEWER_JOB,
            });
            self.old = self.current.take();
            return;
        }
        if c.deployment.status == ds::SUCCESSFUL {
            self.old = self.current.take();
        }
    }

    /// `createDeployment`: attaches the group to the deployment, creating
    /// it, unless the node already runs this job version and nothing
    /// changes there.
    fn create(
        &mut self,
        input: &NodeDeploymentInput<'_, '_>,
        tg: &TaskGroup,
        updates: usize,
        live: &[&Allocation],
        terminal: &[&Allocation],
    ) {
        let job = input.job;
        if self
            .old
            .as_ref()
            .is_some_and(|o| o.deployment.job_version == job.version)
        {
            return;
        }
        let this_version = |a: &&Allocation| {
            a.job.as_deref().is_some_and(|j| {
                j.id == job.id && j.version == job.version && j.create_index == job.create_index
            })
        };
        let mut had_running = false;
        if live.iter().any(this_version) {
            self.same_version_allocs = true;
            had_running = true;
        }
        had_running |= terminal.iter().any(this_version);
        if had_running && updates == 0 {
            return;
        }
        let current = self.current.get_or_insert_with(|| {
            let d = new_deployment(job, input.new_id);
            self.updates.push(StatusUpdate {
                deployment_id: d.id.clone(),
                status: ds::RUNNING,
                description: ds::DESC_RUNNING,
            });
            WorkingDeployment::of(&d)
        });
        let update = tg.update.as_ref();
        let state = DeploymentState {
            auto_revert: update.is_some_and(|u| u.auto_revert),
            auto_promote: update.is_some_and(|u| u.auto_promote),
            progress_deadline: update.map_or(0, |u| u.progress_deadline),
            ..DeploymentState::default()
        };
        current.groups.insert(tg.name.clone(), Some(state));
    }
}

/// `materializeSystemTaskGroups`, by name: the group of every required
/// allocation name. Nomad walks them as a map; plan-inspect by name.
fn required_groups(job: &Job) -> Vec<(String, &TaskGroup)> {
    let mut out: Vec<(String, &TaskGroup)> = Vec::new();
    if job.stop {
        return out;
    }
    for tg in &job.task_groups {
        for i in 0..tg.count.max(0) {
            out.push((format!("{}.{}[{i}]", job.name, tg.name), tg));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// `structs.NewDeployment` as 1.11 has it: running.
fn new_deployment(job: &Job, id: &str) -> Deployment {
    Deployment {
        id: id.into(),
        namespace: job.namespace.clone(),
        job_id: job.id.clone(),
        job_version: job.version,
        job_modify_index: job.modify_index,
        job_spec_modify_index: job.job_modify_index,
        job_create_index: job.create_index,
        is_multiregion: job.is_multiregion(),
        task_groups: SortedMap::new(),
        status: ds::RUNNING.into(),
        status_description: ds::DESC_RUNNING.into(),
        eval_priority: job.priority,
        create_index: 0,
        modify_index: 0,
    }
}

/// `compatNodeTooOldForDeployment` (#27605): the node's client reports a
/// version older than 1.11.0 (a pre-release of 1.11.0 is older too); a
/// node without a version, or with one that does not parse, is not.
fn too_old(node: &Node) -> bool {
    let Some(text) = node.agent_version() else {
        return false;
    };
    let text = text.trim_start_matches('v');
    let (core, pre) = match text.split_once('-') {
        Some((core, pre)) => (core, Some(pre)),
        None => (text.split('+').next().unwrap_or(text), None),
    };
    let parts: Vec<Option<u64>> = core.split('.').map(|p| p.parse().ok()).collect();
    let [Some(major), Some(minor), Some(patch)] = parts[..] else {
        return false;
    };
    let v = (major, minor, patch);
    v < (1, 11, 0) || (v == (1, 11, 0) && pre.is_some())
}

#[cfg(test)]
mod tests;
