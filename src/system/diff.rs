//! `diffSystemAllocs` and `diffSystemAllocsForNode`: what each node needs
//! for a system or sysbatch job.

use std::collections::{BTreeMap, BTreeSet};

use super::ready_nodes::ReadyNodes;
use super::why::{Unrequired, Why};
use crate::model::{
    Allocation, ClientStatus, DesiredStatus, Job, JobType, Name, Node, Reconnection, TaskGroup,
    node_status,
};
use crate::reconciler::{Rules, TaintedNodes};
use crate::time::Time;
use crate::version::Switch;

/// The sets of the diff: six at the seed, eight from 1.3.0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Category {
    Place,
    Update,
    Migrate,
    Stop,
    Ignore,
    Lost,
    /// Running on a disconnected node: marked unknown.
    Disconnecting,
    /// Unknown on a node that is back.
    Reconnecting,
}

impl Category {
    /// Nomad's name of the set (`diffResult`'s field).
    pub fn name(self) -> &'static str {
        match self {
            Category::Place => "place",
            Category::Update => "update",
            Category::Migrate => "migrate",
            Category::Stop => "stop",
            Category::Ignore => "ignore",
            Category::Lost => "lost",
            Category::Disconnecting => "disconnecting",
            Category::Reconnecting => "reconnecting",
        }
    }
}

/// One tuple of the diff: an allocation name for a node, with its group and
/// allocation (absent for a fresh placement).
#[derive(Clone, Debug)]
pub struct DiffEntry<'a> {
    pub category: Category,
    pub name: String,
    pub node_id: &'a str,
    pub task_group: Option<&'a TaskGroup>,
    pub alloc: Option<&'a Allocation>,
    pub why: Why,
    /// An update the node reconciler marks as a canary (from 1.11.0).
    pub canary: bool,
}

/// The diff of one job over every node with its allocations or ready.
#[derive(Clone, Debug, Default)]
pub struct SystemDiff<'a> {
    pub entries: Vec<DiffEntry<'a>>,
}

/// `materializeTaskGroups`: every allocation name the job requires.
fn required(job: Option<&Job>) -> BTreeMap<String, &TaskGroup> {
    let mut out = BTreeMap::new();
    if let Some(job) = job.filter(|j| !j.stop) {
        for tg in &job.task_groups {
            for i in 0..tg.count.max(0) {
                out.insert(format!("{}.{}[{i}]", job.name, tg.name), &**tg);
            }
        }
    }
    out
}

/// The newest terminal allocation per node and name (`TerminalByNodeByName`),
/// by node first so that a node's are found without a scan.
pub type Terminal<'a> = BTreeMap<&'a str, BTreeMap<Name, &'a Allocation>>;

/// The terminal allocations `entries` on their nodes, by their names: a
/// test's `TerminalByNodeByName`.
#[cfg(test)]
pub(crate) fn terminal_of<'a>(
    entries: impl IntoIterator<Item = (&'a str, &'a Allocation)>,
) -> Terminal<'a> {
    let mut terminal = Terminal::new();
    for (node, a) in entries {
        terminal.entry(node).or_default().insert(a.name(), a);
    }
    terminal
}

/// `SplitTerminalAllocs`: live allocations, and the newest terminal one per
/// node and name (a tie in `CreateIndex` keeps the first by ID).
pub fn split_terminal<'a>(allocs: &[&'a Allocation]) -> (Vec<&'a Allocation>, Terminal<'a>) {
    let mut live = Vec::new();
    let mut terminal: Terminal<'a> = BTreeMap::new();
    for a in allocs {
        if !a.terminal_status() {
            live.push(*a);
            continue;
        }
        let on_node = terminal.entry(a.node_id.as_str()).or_default();
        let name = a.name();
        let newer = on_node
            .get(&name)
            .is_none_or(|p| p.create_index < a.create_index);
        if newer {
            on_node.insert(name, a);
        }
    }
    (live, terminal)
}

/// What the disconnect checks of 1.3.0 on know about one allocation.
#[derive(Default)]
struct Disconnect {
    /// `SupportsDisconnectedClients`: the servers and the allocation's
    /// own group allow it.
    supported: bool,
    /// It has to go through a reconnect.
    reconnect: bool,
    /// Unknown past its disconnect timeout.
    expired: bool,
}

impl Disconnect {
    fn of(input: &DiffInput<'_, '_>, alloc: &Allocation) -> Disconnect {
        let rules = input.rules;
        let fields = rules.disconnect_fields();
        let supported = rules.has(Switch::SystemDisconnect)
            && (rules.has(Switch::SystemDisconnectUngated)
                || rules.supports_disconnected_clients() && alloc.group_allows_disconnect(fields));
        if !supported {
            return Disconnect::default();
        }
        let asks = matches!(
            alloc.client_status,
            ClientStatus::Unknown | ClientStatus::Running
        );
        if rules.has(Switch::C1) {
            // The expiry is only looked at for an allocation yet to reconnect.
            let reconnect = asks && alloc.needs_to_reconnect();
            Disconnect {
                supported,
                reconnect,
                expired: reconnect && alloc.expired(input.now, fields),
            }
        } else {
            Disconnect {
                supported,
                reconnect: asks && alloc.reconnected(fields) != Reconnection::None,
                expired: alloc.expired(input.now, fields),
            }
        }
    }
}

fn job_modify_index(alloc: &Allocation) -> u64 {
    alloc.job.as_ref().map_or(0, |j| j.job_modify_index)
}

/// What the diff needs to know about the cluster.
pub struct DiffInput<'a, 'r> {
    pub job: Option<&'a Job>,
    pub ready: &'r ReadyNodes<'a>,
    pub tainted: &'r TaintedNodes<'a>,
    pub nodes: &'r dyn Fn(&str) -> Option<&'a Node>,
    pub live: &'r [&'a Allocation],
    pub terminal: &'r Terminal<'a>,
    pub rules: &'r Rules,
    pub now: Time,
}

impl<'a> SystemDiff<'a> {
    /// `diffSystemAllocs`: nodes are visited by ID (Nomad walks a map: its
    /// order is arbitrary), a node's allocations by ID, the state store's
    /// order, which decides the evictions under `max_parallel`.
    pub fn new(input: &DiffInput<'a, '_>) -> SystemDiff<'a> {
        let mut by_node: BTreeMap<&'a str, Vec<&'a Allocation>> = BTreeMap::new();
        for a in input.live {
            by_node.entry(&a.node_id).or_default().push(a);
        }
        for id in input.ready.ready.keys() {
            by_node.entry(id).or_default();
        }
        let required = required(input.job);
        let mut diff = SystemDiff::default();
        for (node_id, mut allocs) in by_node {
            allocs.sort_by(|a, b| a.id.cmp(&b.id));
            diff.for_node(input, node_id, &allocs, &required);
        }
        diff
    }

    fn push(
        &mut self,
        category: Category,
        name: &str,
        node_id: &'a str,
        tg: Option<&'a TaskGroup>,
        alloc: Option<&'a Allocation>,
        why: Why,
    ) {
        self.entries.push(DiffEntry {
            category,
            name: name.to_string(),
            node_id,
            task_group: tg,
            alloc,
            why,
            canary: false,
        });
    }

    /// `diffSystemAllocsForNode`.
    pub(super) fn for_node(
        &mut self,
        input: &DiffInput<'a, '_>,
        node_id: &'a str,
        allocs: &[&'a Allocation],
        required: &BTreeMap<String, &'a TaskGroup>,
    ) {
        use Category::*;
        let sysbatch = input.job.is_some_and(|j| j.job_type == JobType::Sysbatch);
        let job_index = input.job.map_or(0, |j| j.job_modify_index);
        let mut existing: BTreeSet<Name> = BTreeSet::new();
        for exist in allocs {
            let name = exist.name();
            existing.insert(name.clone());
            let Some(tg) = required.get(name.as_str()).copied() else {
                self.push(
                    Stop,
                    &name,
                    node_id,
                    None,
                    Some(exist),
                    Why::NotRequired(Unrequired::of(input.job, exist)),
                );
                continue;
            };
            let tg = Some(tg);
            let entry = |cat, why| (cat, why);
            let disconnect = Disconnect::of(input, exist);
            let tainted = input.tainted.get(exist.node_id.as_str());
            let (cat, why) =
                if !exist.terminal_status() && exist.desired_transition.should_migrate() {
                    entry(Migrate, Why::MarkedForMigration)
                } else if sysbatch && exist.terminal_status() {
                    entry(Ignore, Why::SysbatchDone)
                } else if disconnect.expired {
                    entry(Lost, Why::DisconnectExpired)
                } else if disconnect.supported
                    && exist.client_status == ClientStatus::Unknown
                    && exist.desired_status == DesiredStatus::Run
                {
                    entry(Ignore, Why::AwaitingReconnect)
                } else if disconnect.reconnect && tainted.is_none() {
                    entry(Reconnecting, Why::Reconnected)
                } else if let Some(node) = tainted {
                    let finished = match input.rules.has(Switch::SystemDisconnect) {
                        true => sysbatch,
                        false => exist.job.as_ref().is_some_and(|j| j.is_batch()),
                    };
                    if finished && exist.ran_successfully() {
                        entry(Ignore, Why::BatchDone)
                    } else if disconnect.supported
                        && node.is_some_and(|n| n.status == node_status::DISCONNECTED)
                        && exist.client_status == ClientStatus::Running
                    {
                        entry(Disconnecting, Why::NodeDisconnected)
                    } else if !exist.terminal_status() && node.is_none_or(|n| n.terminal_status()) {
                        entry(
                            Lost,
                            Why::NodeLost {
                                node_status: node.map(|n| n.status.to_string()),
                            },
                        )
                    } else {
                        entry(
                            Ignore,
                            Why::NodeTainted {
                                node_status: node.map_or(String::new(), |n| n.status.to_string()),
                            },
                        )
                    }
                } else if input.ready.not_ready.contains(node_id)
                    && input.rules.has(Switch::SystemDeployments)
                    && job_index != job_modify_index(exist)
                {
                    entry(
                        Stop,
                        Why::NotReadyJobChanged {
                            from: job_modify_index(exist),
                            to: job_index,
                        },
                    )
                } else if input.ready.not_ready.contains(node_id) {
                    let node = (input.nodes)(node_id);
                    entry(
                        Ignore,
                        Why::NodeNotReady {
                            node_status: node.map_or(String::new(), |n| n.status.to_string()),
                            eligibility: node
                                .map_or(String::new(), |n| n.scheduling_eligibility.to_string()),
                            draining: node.is_some_and(|n| n.has_drain_strategy()),
                        },
                    )
                } else if !input.ready.ready.contains_key(node_id) {
                    entry(
                        Stop,
                        Why::NodeNotTargeted {
                            datacenter: (input.nodes)(node_id).map(|n| n.datacenter.to_string()),
                            job_datacenters: input.job.map_or(Vec::new(), |j| {
                                j.datacenters.iter().map(ToString::to_string).collect()
                            }),
                        },
                    )
                } else if job_index != job_modify_index(exist) {
                    entry(
                        Update,
                        Why::JobChanged {
                            from: job_modify_index(exist),
                            to: job_index,
                        },
                    )
                } else {
                    entry(Ignore, Why::UpToDate)
                };
            self.push(cat, &name, node_id, tg, Some(exist), why);
        }
        for (name, tg) in required {
            if existing.contains(name.as_str()) {
                continue;
            }
            let terminal = input
                .terminal
                .get(node_id)
                .and_then(|on_node| on_node.get(name.as_str()))
                .copied();
            if sysbatch && let Some(done) = terminal {
                let (cat, why) = if job_index != job_modify_index(done) {
                    (
                        Update,
                        Why::JobChanged {
                            from: job_modify_index(done),
                            to: job_index,
                        },
                    )
                } else {
                    (Ignore, Why::SysbatchDone)
                };
                self.push(cat, name, node_id, Some(tg), Some(done), why);
                continue;
            }
            if input.tainted.contains_key(node_id) || !input.ready.ready.contains_key(node_id) {
                continue;
            }
            self.push(Place, name, node_id, Some(tg), terminal, Why::Missing);
        }
    }

    pub fn of(&self, category: Category) -> impl Iterator<Item = &DiffEntry<'a>> {
        self.entries.iter().filter(move |e| e.category == category)
    }
}
