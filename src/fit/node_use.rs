//! What the allocations proposed on a node use, kept as running totals:
//! built once from the node's allocations and updated with each placement,
//! so that judging a node for one more allocation does not walk what it
//! runs (the fit half of `BinPackIterator.Next` for the usual ask).

use std::sync::Arc;

use super::comparable::Comparable;
use super::network_index::NetworkIndex;
use super::place::{GroupAsk, Settings, network_error, task_memory};
use super::rules::FitRules;
use super::shortfall::Shortfall;
use super::usage;
use crate::model::resources::{
    AllocUsage, AllocatedCpu, AllocatedResources, AllocatedShared, AllocatedTaskResources,
    NodeSupply, PortMapping,
};
use crate::model::{ClientStatus, DesiredStatus, NetworkResource, UsageView};

/// The proposed allocations of one node, summed as `AllocsFit` sums them,
/// with their ports indexed.
#[derive(Clone, Debug)]
pub struct NodeUse {
    /// How many allocations are proposed (for `node_max_allocs`).
    pub count: usize,
    /// What they hold together.
    pub used: Comparable,
    /// Two of them hold the same reserved core.
    pub overlap: bool,
    /// Their ports and bandwidth on the node's networks, or why the node
    /// refuses every placement (its reserved ports, or a collision
    /// between its allocations' ports).
    pub network: Result<NetworkIndex, Shortfall>,
}

/// One allocation of a group whose ask does not depend on the node
/// ([`NodeFreeAsk::of`]): what [`crate::fit::place()`] would give it, but its
/// ports.
#[derive(Clone, Debug)]
pub struct NodeFreeAsk<'a> {
    pub network: Option<&'a NetworkResource>,
    pub resources: AllocatedResources,
    /// What the allocation holds, as `AllocsFit` counts it.
    pub held: Comparable,
}

impl NodeUse {
    /// The use of `proposed` on `node`.
    pub fn of(node: &NodeSupply, proposed: &[UsageView<'_>], rules: FitRules) -> NodeUse {
        let network = NetworkIndex::of_node(node, rules)
            .map_err(|refusal| Shortfall::named(refusal.dimension()))
            .and_then(|mut idx| {
                idx.add_allocs(proposed.iter().copied())
                    .map_err(|_| Shortfall::named("network: port collision"))?;
                Ok(idx)
            });
        let mut out = NodeUse {
            count: 0,
            used: Comparable::default(),
            overlap: false,
            network,
        };
        for alloc in proposed {
            out.count_in(*alloc, &rules);
        }
        out
    }

    /// Adds an allocation the plan places on the node.
    pub fn add(&mut self, alloc: UsageView<'_>, rules: FitRules) {
        self.count_in(alloc, &rules);
        if let Ok(idx) = &mut self.network
            && idx.add_allocs([alloc]).is_err()
        {
            self.network = Err(Shortfall::named("network: port collision"));
        }
    }

    fn count_in(&mut self, alloc: UsageView<'_>, rules: &FitRules) {
        self.count += 1;
        let held = usage::held(alloc, rules);
        self.overlap |= held.cores.iter().any(|c| self.used.cores.contains(c));
        self.used.add(&held);
    }

    /// Whether one more allocation of `ask` fits on `node`, whose
    /// resources less its reservation are `available`: the group's ports,
    /// then `AllocsFit`, in [`crate::fit::place()`]'s order and with its
    /// shortfalls. On success, what the node then uses in all.
    pub fn fits(
        &self,
        node: &NodeSupply,
        available: &Comparable,
        ask: &NodeFreeAsk<'_>,
        rules: &FitRules,
    ) -> Result<Comparable, Shortfall> {
        let idx = self.network.as_ref().map_err(Clone::clone)?;
        if let Some(network) = ask.network {
            idx.ports_free(network).map_err(network_error)?;
        }
        let count = i64::try_from(self.count + 1).unwrap_or(i64::MAX);
        if rules.node_max_allocs && node.node_max_allocs != 0 && node.node_max_allocs < count {
            return Err(Shortfall::named("max allocation exceeded"));
        }
        let overlap = self.overlap || ask.held.cores.iter().any(|c| self.used.cores.contains(c));
        let mut used = self.used.clone();
        used.add(&ask.held);
        if overlap {
            return Err(Shortfall::named("cores"));
        }
        available.superset(&used)?;
        Ok(used)
    }

    /// The resources of one allocation of `ask` placed here, its ports
    /// the lowest free ones, as [`crate::fit::place()`] offers them.
    pub fn allocate(&self, ask: &NodeFreeAsk<'_>) -> Result<AllocatedResources, Shortfall> {
        let mut out = ask.resources.clone();
        if let Some(network) = ask.network {
            let idx = self.network.as_ref().map_err(Clone::clone)?;
            let ports: Vec<PortMapping> = idx.assign_ports(network).map_err(network_error)?;
            out.shared.networks = vec![network.clone()];
            out.shared.ports = ports;
        }
        Ok(out)
    }
}

impl<'a> NodeFreeAsk<'a> {
    /// The ask when no task asks for a network, devices or cores and no
    /// group port names a `host_network` template, else `None`:
    /// [`crate::fit::place()`]'s resources for it, less the ports.
    pub fn of(ask: &GroupAsk<'a>, settings: &Settings) -> Option<NodeFreeAsk<'a>> {
        // A `host_network` template is resolved on each node.
        let ports = ask
            .network
            .into_iter()
            .flat_map(|n| n.dynamic_ports.iter().chain(&n.reserved_ports));
        if ports.into_iter().any(|p| p.host_network.starts_with("${")) {
            return None;
        }
        let mut total = AllocatedResources {
            shared: AllocatedShared {
                disk_mb: ask.disk_mb,
                ..AllocatedShared::default()
            },
            ..AllocatedResources::default()
        };
        for task in &ask.tasks {
            let r = task.resources;
            if !r.networks.is_empty() || !r.devices.is_empty() || r.cores > 0 {
                return None;
            }
            let res = AllocatedTaskResources {
                cpu: AllocatedCpu {
                    cpu_shares: r.cpu,
                    reserved_cores: Vec::new(),
                },
                memory: task_memory(r, settings),
                ..AllocatedTaskResources::default()
            };
            total.tasks.insert(task.name.to_string(), res);
            if let Some(l) = task.lifecycle {
                total
                    .task_lifecycles
                    .insert(task.name.to_string(), Some(l.clone()));
            }
        }
        let pending = AllocUsage {
            client_status: ClientStatus::Pending,
            desired_status: DesiredStatus::Run,
            allocated_resources: Some(Arc::new(total.clone())),
            ..AllocUsage::default()
        };
        Some(NodeFreeAsk {
            network: ask.network,
            held: usage::held(pending.view(), &settings.rules),
            resources: total,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::{TaskAsk, place};
    use crate::model::{Resources, from_slice};
    use crate::version::v;

    const NODE: &str = r#"{"NodeResources": {
        "Cpu": {"CpuShares": 4000}, "Memory": {"MemoryMB": 4096}, "Disk": {"DiskMB": 10000},
        "NodeNetworks": [{"Mode": "host", "Device": "eth0",
                          "Addresses": [{"Alias": "default", "Address": "10.0.0.1"}]}]},
      "ReservedResources": {"Cpu": {"CpuShares": 500}, "Memory": {"MemoryMB": 512},
        "Networks": {"ReservedHostPorts": "22,20000"}}}"#;

    const RUNNING: &str = r#"{"ID": "a1", "ClientStatus": "running", "DesiredStatus": "run",
        "AllocatedResources": {
        "Tasks": {"web": {"Cpu": {"CpuShares": 1500}, "Memory": {"MemoryMB": 1024}}},
        "Shared": {"DiskMB": 300,
            "Ports": [{"Label": "http", "Value": 20001, "HostIP": "10.0.0.1"}]}}}"#;

    /// The running totals judge every ask as `place` does over the whole
    /// list of proposed allocations, and give the same resources, as
    /// placements are added one by one.
    #[test]
    fn running_totals_judge_and_allocate_as_place_does() {
        let node: NodeSupply = from_slice(NODE.as_bytes()).unwrap();
        let settings = Settings {
            rules: FitRules::of(v(1, 10, 5)),
            memory_oversubscription: false,
        };
        let available = super::super::Capacity::of(&node, &settings.rules).available();
        let running: AllocUsage = from_slice(RUNNING.as_bytes()).unwrap();
        let dynamic: NetworkResource = from_slice(
            br#"{"Mode": "host", "DynamicPorts": [{"Label": "http", "HostNetwork": "default"}]}"#,
        )
        .unwrap();
        let taken: NetworkResource = from_slice(
            br#"{"Mode": "host", "ReservedPorts": [{"Label": "ssh", "Value": 22, "HostNetwork": "default"}]}"#,
        )
        .unwrap();
        let small: Resources = from_slice(br#"{"CPU": 500, "MemoryMB": 600}"#).unwrap();
        let large: Resources = from_slice(br#"{"CPU": 500, "MemoryMB": 3000}"#).unwrap();
        let ask = |network, resources| GroupAsk {
            disk_mb: 300,
            network,
            tasks: vec![TaskAsk {
                name: "web",
                resources,
                lifecycle: None,
            }],
        };
        let asks = [
            ask(Some(&dynamic), &small),
            ask(Some(&taken), &small),
            ask(None, &large),
        ];
        let mut proposed: Vec<AllocUsage> = vec![running];
        let mut outcomes = Vec::new();
        for _ in 0..5 {
            let refs: Vec<UsageView<'_>> = proposed.iter().map(AllocUsage::view).collect();
            let totals = NodeUse::of(&node, &refs, settings.rules);
            for a in &asks {
                let free = NodeFreeAsk::of(a, &settings).unwrap();
                let whole = place(&node, &refs, a, &settings);
                let fast = totals.fits(&node, &available, &free, &settings.rules);
                match (&whole, &fast) {
                    (Ok(p), Ok(used)) => {
                        assert_eq!(&p.used, used);
                        let mine = totals.allocate(&free).unwrap();
                        assert_eq!(mine.shared.ports.len(), p.allocated.shared.ports.len());
                        for (m, w) in mine.shared.ports.iter().zip(&p.allocated.shared.ports) {
                            assert_eq!((m.value, &m.host_ip), (w.value, &w.host_ip));
                        }
                    }
                    (Err(w), Err(f)) => assert_eq!(w, f),
                    _ => panic!("place gave {whole:?}, the totals {fast:?}"),
                }
                outcomes.push(fast.is_ok());
            }
            // Place one more of the first ask, as the plan would.
            let placed = place(&node, &refs, &asks[0], &settings).ok();
            let Some(p) = placed else { break };
            let mut totals = totals;
            let new = AllocUsage {
                client_status: ClientStatus::Pending,
                desired_status: DesiredStatus::Run,
                allocated_resources: Some(Arc::new(p.allocated)),
                ..AllocUsage::default()
            };
            totals.add(new.view(), settings.rules);
            proposed.push(new);
            let refs: Vec<UsageView<'_>> = proposed.iter().map(AllocUsage::view).collect();
            let again = NodeUse::of(&node, &refs, settings.rules);
            assert_eq!((totals.count, &totals.used), (again.count, &again.used));
        }
        // The dynamic ask fits until memory runs out; the taken port and
        // the large ask never do.
        assert_eq!(outcomes.iter().filter(|ok| **ok).count(), 4);
    }
}
