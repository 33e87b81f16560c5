//! The fit half of the scheduler's `BinPackIterator`: whether one more
//! allocation of a task group fits on a node beside the allocations
//! proposed there, without preemption (`scheduler/rank.go:193-535` at
//! 1.3.0, `scheduler/feasible/rank.go` from 1.11.0).

use std::collections::BTreeSet;
use std::sync::Arc;

use super::allocs_fit::{Check, allocs_fit};
use super::capacity::{Capacity, mhz};
use super::comparable::Comparable;
use super::devices::DeviceAccounter;
use super::network_index::NetworkIndex;
use super::preemption::{Candidate, Preemptor, VictimGroup};
use super::rules::{CpuSource, FitRules};
use super::score;
use super::shortfall::Shortfall;
use super::usage;
use crate::feasibility::device_serves;
use crate::model::resources::{
    AllocUsage, AllocatedCpu, AllocatedMemory, AllocatedResources, AllocatedShared,
    AllocatedTaskResources, NodeSupply,
};
use crate::model::{
    ClientStatus, DesiredStatus, NetworkResource, NodeDevice, Resources, TaskGroup, TaskLifecycle,
    UsageView,
};

/// What one allocation of a group asks of a node.
#[derive(Clone, Debug)]
pub struct GroupAsk<'a> {
    /// The group's `EphemeralDisk.SizeMB`.
    pub disk_mb: i64,
    /// The group's first network; Nomad offers only the first.
    pub network: Option<&'a NetworkResource>,
    pub tasks: Vec<TaskAsk<'a>>,
}

/// One task's ask.
#[derive(Clone, Debug)]
pub struct TaskAsk<'a> {
    pub name: &'a str,
    pub resources: &'a Resources,
    pub lifecycle: Option<&'a TaskLifecycle>,
}

impl<'a> GroupAsk<'a> {
    /// The ask of one allocation of `tg`.
    pub fn of(tg: &'a TaskGroup) -> GroupAsk<'a> {
        const NONE: &Resources = &Resources {
            cpu: 0,
            cores: 0,
            memory_mb: 0,
            memory_max_mb: 0,
            disk_mb: 0,
            iops: 0,
            networks: Vec::new(),
            devices: Vec::new(),
            numa: None,
            secrets_mb: 0,
        };
        GroupAsk {
            disk_mb: tg.disk_mb(),
            network: tg.networks.first(),
            tasks: tg
                .tasks
                .iter()
                .map(|t| TaskAsk {
                    name: &t.name,
                    resources: t.resources.as_ref().unwrap_or(NONE),
                    lifecycle: t.lifecycle.as_ref(),
                })
                .collect(),
        }
    }
}

/// The scheduler settings fit depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub rules: FitRules,
    /// `SchedulerConfig.MemoryOversubscriptionEnabled`: only then does a
    /// task's `memory_max` reach its allocation.
    pub memory_oversubscription: bool,
}

/// A fitting placement: the allocation's resources, what the node then
/// uses in all (what the fit score reads), and the allocations it evicts.
#[derive(Clone, Debug)]
pub struct Placed {
    pub allocated: AllocatedResources,
    pub used: Comparable,
    /// The "devices" score of the requests' device affinities.
    pub devices: Option<f64>,
    /// The IDs of the allocations preempted for it, in Nomad's order.
    pub preempted: Vec<String>,
}

/// What the bin packer scores a node by: what the node uses in all with
/// the allocation on it, and the "devices" score of its device affinities.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Packed {
    pub used: Comparable,
    pub devices: Option<f64>,
}

/// What a placement may evict when the scheduler preempts: the placing
/// job, and the proposed allocations as candidates.
#[derive(Clone, Copy, Debug)]
pub struct Eviction<'c, 'a> {
    pub priority: i64,
    pub namespace: &'c str,
    pub job_id: &'c str,
    /// The proposed allocations with their jobs; one that is not here is
    /// never evicted.
    pub candidates: &'c [Candidate<'a>],
    /// The job and group of every allocation the plan preempts already.
    pub preempted: &'c [VictimGroup<'c>],
}

/// Whether `ask` fits on `node` beside `proposed` (the node's allocations
/// with this plan's stops removed and its placements added). On failure,
/// the dimension Nomad's `AllocMetric` counts and by how much it fell
/// short where that is an amount. A device request takes the matching
/// device its affinities score best (`"devices"`); dynamic ports and cores
/// are the lowest free ones, where Nomad picks at random.
pub fn place(
    node: &NodeSupply,
    proposed: &[UsageView<'_>],
    ask: &GroupAsk<'_>,
    settings: &Settings,
) -> Result<Placed, Shortfall> {
    place_evicting(node, proposed, ask, settings, None)
}

/// [`place`], preempting lower-priority allocations where the ports,
/// bandwidth, devices or the fit fall short and `eviction` allows it
/// (`BinPackIterator` with eviction on). Reserved cores are never
/// preempted for, as in Nomad.
pub fn place_evicting<'a>(
    node: &NodeSupply,
    proposed: &[UsageView<'a>],
    ask: &GroupAsk<'_>,
    settings: &Settings,
    eviction: Option<&Eviction<'a, 'a>>,
) -> Result<Placed, Shortfall> {
    let rules = &settings.rules;
    let mut proposed: Vec<UsageView<'a>> = proposed.to_vec();
    let mut idx = NetworkIndex::of_node(node, *rules)
        .map_err(|refusal| Shortfall::named(refusal.dimension()))?;
    idx.add_allocs(proposed.iter().copied())
        .map_err(|_| Shortfall::named("network: port collision"))?;
    let node_devices = node.node_resources.as_ref().map_or(&[][..], |r| &r.devices);
    let mut devices = DeviceAccounter::new(node_devices, *rules);
    devices.add_allocs(proposed.iter().copied());
    let mut preemptor = eviction.map(|e| {
        let mut p = Preemptor::new(e.priority, e.namespace, e.job_id, node, rules);
        p.set_preemptions(e.preempted.iter().copied());
        p
    });
    let candidates_of = |proposed: &[UsageView<'a>]| -> Vec<&Candidate<'a>> {
        let all = eviction.map_or(&[][..], |e| e.candidates);
        proposed
            .iter()
            .filter_map(|u| all.iter().find(|c| c.usage.id == u.id))
            .collect()
    };
    let mut evicted: Vec<UsageView<'a>> = Vec::new();
    // Evicts `chosen`, and indexes the ports of what remains again.
    let evict = |chosen: Vec<&Candidate<'a>>,
                 proposed: &mut Vec<UsageView<'a>>,
                 evicted: &mut Vec<UsageView<'a>>| {
        evicted.extend(chosen.iter().map(|c| c.usage));
        proposed.retain(|u| !chosen.iter().any(|c| c.usage.id == u.id));
    };
    let reindex = |proposed: &[UsageView<'a>]| {
        let mut idx = NetworkIndex::of_node(node, *rules).ok()?;
        let _ = idx.add_allocs(proposed.iter().copied());
        Some(idx)
    };

    let mut total = AllocatedResources {
        shared: AllocatedShared {
            disk_mb: ask.disk_mb,
            ..AllocatedShared::default()
        },
        ..AllocatedResources::default()
    };
    if let Some(network) = ask.network {
        let offer = match (idx.assign_ports(network), preemptor.as_mut()) {
            (Ok(offer), _) => offer,
            (Err(e), None) => return Err(network_error(e)),
            (Err(e), Some(p)) => {
                p.set_candidates(&candidates_of(&proposed));
                let chosen = p.for_network(network, &idx).ok_or_else(|| {
                    preemption_failed(network_error(e), rules.network_preemption_exhausts)
                })?;
                evict(chosen, &mut proposed, &mut evicted);
                idx =
                    reindex(&proposed).ok_or_else(|| Shortfall::named("network: invalid node"))?;
                idx.assign_ports(network).map_err(|e| {
                    preemption_failed(network_error(e), rules.network_preemption_exhausts)
                })?
            }
        };
        idx.add_reserved_ports(&offer);
        total.shared.networks = vec![network.clone()];
        total.shared.ports = offer;
    }
    // The device affinity weights matched, and all of them.
    let mut affinity_weights = (0.0, 0.0);
    for task in &ask.tasks {
        let r = task.resources;
        let mut res = AllocatedTaskResources {
            cpu: AllocatedCpu {
                cpu_shares: r.cpu,
                reserved_cores: Vec::new(),
            },
            memory: task_memory(r, settings),
            ..AllocatedTaskResources::default()
        };
        if let Some(network) = r.networks.first() {
            let offer = match (idx.assign_task_network(network), preemptor.as_mut()) {
                (Ok(offer), _) => offer,
                (Err(e), None) => return Err(network_error(e)),
                (Err(e), Some(p)) => {
                    p.set_candidates(&candidates_of(&proposed));
                    let chosen = p.for_network(network, &idx).ok_or_else(|| {
                        preemption_failed(network_error(e), rules.network_preemption_exhausts)
                    })?;
                    evict(chosen, &mut proposed, &mut evicted);
                    idx = reindex(&proposed)
                        .ok_or_else(|| Shortfall::named("network: invalid node"))?;
                    idx.assign_task_network(network).map_err(|e| {
                        preemption_failed(network_error(e), rules.network_preemption_exhausts)
                    })?
                }
            };
            idx.add_reserved(&offer);
            res.networks = vec![offer];
        }
        for req in &r.devices {
            let serves = |d: &NodeDevice| device_serves(d, req, rules.devices);
            let offer = match (devices.assign(req), preemptor.as_mut()) {
                (Ok(offer), _) => offer,
                (Err(e), None) => return Err(device_error(e)),
                (Err(e), Some(p)) => {
                    p.set_candidates(&candidates_of(&proposed));
                    let chosen = p.for_device(req, &devices, serves).ok_or_else(|| {
                        preemption_failed(device_error(e), rules.device_preemption_exhausts)
                    })?;
                    evict(chosen, &mut proposed, &mut evicted);
                    // The offer comes from an accounter without the
                    // victims; until #27880 the task's later requests are
                    // offered from the first one, where they still hold
                    // their instances.
                    let mut retry = DeviceAccounter::new(node_devices, *rules);
                    retry.add_allocs(proposed.iter().copied());
                    let offer = retry.assign(req).map_err(|e| {
                        preemption_failed(device_error(e), rules.device_preemption_exhausts)
                    })?;
                    if rules.devices.eviction_frees {
                        devices = retry;
                    }
                    offer
                }
            };
            devices.add_reserved(&offer.device);
            if !req.affinities.is_empty() {
                let weights = req.affinities.iter().map(|a| (a.weight as f64).abs());
                affinity_weights.1 += weights.sum::<f64>();
                affinity_weights.0 += offer.matched_weight;
            }
            res.devices.push(offer.device);
        }
        if r.cores > 0 {
            res.cpu = reserve_cores(node, &proposed, &total, r.cores, rules)?;
        }
        total.tasks.insert(task.name.to_string(), res);
        if let Some(l) = task.lifecycle {
            total
                .task_lifecycles
                .insert(task.name.to_string(), Some(l.clone()));
        }
    }
    let new = AllocUsage {
        client_status: ClientStatus::Pending,
        desired_status: DesiredStatus::Run,
        allocated_resources: Some(Arc::new(total)),
        ..AllocUsage::default()
    };
    let mut all: Vec<UsageView<'_>> = proposed.clone();
    all.push(new.view());
    let fit = allocs_fit(node, &all, Check::SCHEDULER, rules);
    let allocated = new
        .allocated_resources
        .as_deref()
        .cloned()
        .unwrap_or_default();
    if let Err(short) = fit.outcome {
        let Some(p) = preemptor.as_mut() else {
            return Err(short);
        };
        p.set_candidates(&candidates_of(&proposed));
        let ask = usage::flatten(&allocated, rules);
        match p.for_task_group(&ask) {
            Some(chosen) if !chosen.is_empty() => {
                evicted.extend(chosen.iter().map(|c| c.usage));
            }
            _ => return Err(short),
        }
    }
    Ok(Placed {
        allocated,
        used: fit.used,
        devices: score::device_affinity(affinity_weights.0, affinity_weights.1),
        preempted: evicted.iter().map(|u| u.id.to_string()).collect(),
    })
}

/// A shortfall after preemption found nothing: before the release that
/// counts it, Nomad skipped the node without marking it exhausted.
fn preemption_failed(short: Shortfall, exhausts: bool) -> Shortfall {
    match exhausts {
        true => short,
        false => short.unrecorded(),
    }
}

fn device_error(e: &str) -> Shortfall {
    Shortfall::named(format!("devices: {e}"))
}

pub(super) fn network_error(e: String) -> Shortfall {
    Shortfall::named(format!("network: {e}"))
}

/// A task's allocated memory: its ask, with secrets from 1.8.3, and its
/// ceiling only when oversubscription is on.
pub(super) fn task_memory(r: &Resources, settings: &Settings) -> AllocatedMemory {
    let rules = &settings.rules;
    let secrets = if rules.secrets_counted {
        r.secrets_mb
    } else {
        0
    };
    let memory_max_mb = match settings.memory_oversubscription {
        false => 0,
        true if rules.memory_no_limit && r.memory_max_mb == -1 => -1,
        true if rules.memory_no_limit && r.memory_max_mb <= 0 => 0,
        true => r.memory_max_mb.saturating_add(secrets),
    };
    AllocatedMemory {
        memory_mb: r.memory_mb.saturating_add(secrets),
        memory_max_mb,
    }
}

/// `cores` of the node's reservable cores that no proposed allocation and
/// no earlier task of the group holds, with the compute they stand for:
/// shares per core before 1.7.0 (`SharesPerCore`, `scheduler/rank.go:461-489`
/// at 1.3.0), the cores' speeds from it.
fn reserve_cores(
    node: &NodeSupply,
    proposed: &[UsageView<'_>],
    total: &AllocatedResources,
    cores: i64,
    rules: &FitRules,
) -> Result<AllocatedCpu, Shortfall> {
    let r = node.node_resources.as_ref();
    let topology = r
        .and_then(|r| r.processors.topology.as_ref())
        .filter(|t| rules.cpu_source != CpuSource::Legacy && !t.cores.is_empty());
    let node_cores: BTreeSet<u16> = match topology {
        Some(t) => t
            .cores
            .iter()
            .filter(|c| !c.disable)
            .map(|c| c.id)
            .collect(),
        None => Capacity::of(node, rules).total.cores,
    };
    let mut taken = BTreeSet::new();
    for alloc in proposed {
        taken.extend(usage::held(*alloc, rules).cores);
    }
    for t in total.tasks.values() {
        taken.extend(t.cpu.reserved_cores.iter().copied());
    }
    let free: Vec<u16> = node_cores.difference(&taken).copied().collect();
    let wanted = usize::try_from(cores).unwrap_or(usize::MAX);
    if free.len() < wanted {
        return Err(Shortfall::cores(wanted - free.len()));
    }
    let chosen = free[..wanted].to_vec();
    let cpu_shares = match topology {
        Some(t) => chosen
            .iter()
            .filter_map(|id| t.cores.iter().find(|c| c.id == *id))
            .map(mhz)
            .fold(0, i64::saturating_add),
        None => {
            let cpu = r.map(|r| &r.cpu);
            let per_core = cpu
                .filter(|c| c.total_cpu_cores > 0)
                .map_or(0, |c| c.cpu_shares / i64::from(c.total_cpu_cores));
            per_core.saturating_mul(cores)
        }
    };
    Ok(AllocatedCpu {
        cpu_shares,
        reserved_cores: chosen,
    })
}
