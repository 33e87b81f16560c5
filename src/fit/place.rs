//! The fit half of the scheduler's `BinPackIterator`: whether one more
//! allocation of a task group fits on a node beside the allocations
//! proposed there, without preemption (`scheduler/rank.go:193-535` at
//! 1.3.0, `scheduler/feasible/rank.go` from 1.11.0).

use std::collections::BTreeSet;

use super::allocs_fit::{Check, allocs_fit};
use super::capacity::{Capacity, mhz};
use super::comparable::Comparable;
use super::devices::DeviceAccounter;
use super::network_index::NetworkIndex;
use super::rules::{CpuSource, FitRules};
use super::shortfall::Shortfall;
use super::usage;
use crate::model::resources::{
    AllocUsage, AllocatedCpu, AllocatedMemory, AllocatedResources, AllocatedShared,
    AllocatedTaskResources, NodeSupply, TaskLifecycle,
};
use crate::model::{NetworkResource, NodeDevice, RequestedDevice, Resources};

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

/// The scheduler settings fit depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub rules: FitRules,
    /// `SchedulerConfig.MemoryOversubscriptionEnabled`: only then does a
    /// task's `memory_max` reach its allocation.
    pub memory_oversubscription: bool,
}

/// A fitting placement: the allocation's resources, and what the node then
/// uses in all (what the fit score reads).
#[derive(Clone, Debug)]
pub struct Placed {
    pub allocated: AllocatedResources,
    pub used: Comparable,
}

/// Whether `ask` fits on `node` beside `proposed` (the node's allocations
/// with this plan's stops removed and its placements added). On failure,
/// the dimension Nomad's `AllocMetric` counts and by how much it fell
/// short where that is an amount. `device_matches` says whether a node
/// device serves a request (its name and constraints), as the feasibility
/// checks decide; dynamic ports and cores are the lowest free ones, where
/// Nomad picks at random.
pub fn place(
    node: &NodeSupply,
    proposed: &[&AllocUsage],
    ask: &GroupAsk<'_>,
    settings: &Settings,
    device_matches: impl Fn(&NodeDevice, &RequestedDevice) -> bool,
) -> Result<Placed, Shortfall> {
    let rules = &settings.rules;
    let mut idx = NetworkIndex::of_node(node, *rules)
        .map_err(|refusal| Shortfall::named(refusal.dimension()))?;
    idx.add_allocs(proposed.iter().copied())
        .map_err(|_| Shortfall::named("network: port collision"))?;
    let node_devices = node.node_resources.as_ref().map_or(&[][..], |r| &r.devices);
    let mut devices = DeviceAccounter::new(node_devices, *rules);
    devices.add_allocs(proposed.iter().copied());

    let mut total = AllocatedResources {
        shared: AllocatedShared {
            disk_mb: ask.disk_mb,
            ..AllocatedShared::default()
        },
        ..AllocatedResources::default()
    };
    if let Some(network) = ask.network {
        let offer = idx.assign_ports(network).map_err(network_error)?;
        idx.add_reserved_ports(&offer);
        total.shared.networks = vec![network.clone()];
        total.shared.ports = offer;
    }
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
            let offer = idx.assign_task_network(network).map_err(network_error)?;
            idx.add_reserved(&offer);
            res.networks = vec![offer];
        }
        for req in &r.devices {
            let offer = devices
                .assign(req, |d| device_matches(d, req))
                .map_err(|e| Shortfall::named(format!("devices: {e}")))?;
            devices.add_reserved(&offer);
            res.devices.push(offer);
        }
        if r.cores > 0 {
            res.cpu = reserve_cores(node, proposed, &total, r.cores, rules)?;
        }
        total.tasks.insert(task.name.to_string(), res);
        if let Some(l) = task.lifecycle {
            total
                .task_lifecycles
                .insert(task.name.to_string(), Some(l.clone()));
        }
    }
    let new = AllocUsage {
        client_status: "pending".to_string(),
        desired_status: "run".to_string(),
        allocated_resources: Some(total),
        ..AllocUsage::default()
    };
    let mut all = proposed.to_vec();
    all.push(&new);
    let fit = allocs_fit(node, &all, Check::SCHEDULER, rules);
    fit.outcome?;
    let allocated = new.allocated_resources.unwrap_or_default();
    Ok(Placed {
        allocated,
        used: fit.used,
    })
}

fn network_error(e: String) -> Shortfall {
    Shortfall::named(format!("network: {e}"))
}

/// A task's allocated memory: its ask, with secrets from 1.8.3, and its
/// ceiling only when oversubscription is on.
fn task_memory(r: &Resources, settings: &Settings) -> AllocatedMemory {
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
    proposed: &[&AllocUsage],
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
        taken.extend(usage::held(alloc, rules).cores);
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
