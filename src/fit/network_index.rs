//! `NetworkIndex`: the ports and bandwidth a node has in use, and the
//! offers of ports for a new allocation (`nomad/structs/network.go`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use super::cidr::cidr_addresses;
use super::node_refusal::NodeRefusal;
use super::ports::{PORT_LIMIT, PortSet, parse_port_ranges};
use super::rules::FitRules;
use crate::model::resources::{NodeNetworkAddress, NodeSupply, PortMapping};
use crate::model::{Name, NetworkResource, Port, Resources, UsageView};

/// `DefaultMinDynamicPort` and `DefaultMaxDynamicPort`, the same at every
/// release (`nomad/structs/network.go:15-19` at 1.3.0).
const DYNAMIC_PORTS: (i64, i64) = (20000, 32000);

/// Addresses of one task network tried for an offer: Nomad walks the whole
/// CIDR; plan-inspect stops after this many.
const ADDRESSES_PER_NETWORK: usize = 65536;

/// The network use of one node. It owns what it reads of the node (shared
/// between copies), so that a node's index can be built once per replay and
/// copied for each plan that places on the node.
#[derive(Clone, Debug)]
pub struct NetworkIndex {
    rules: FitRules,
    nets: Arc<NodeNets>,
    used_bandwidth: HashMap<String, i64>,
    used: HashMap<String, PortSet>,
    min_dynamic: i64,
    max_dynamic: i64,
}

/// The node's own networks, as `SetNode` reads them.
#[derive(Debug, Default)]
struct NodeNets {
    /// The node's networks for task-level asks (those with a device).
    task_networks: Vec<NetworkResource>,
    /// Host network addresses by alias, in the node's order.
    host_networks: BTreeMap<String, Vec<NodeNetworkAddress>>,
    avail_bandwidth: HashMap<String, i64>,
}

impl NetworkIndex {
    /// `SetNode`: the node's networks and the ports it keeps back. A node
    /// whose reserved ports collide (before 1.3.2) or do not parse (from
    /// 1.3.2) is exhausted for every placement; the error is Nomad's reason.
    pub fn of_node(node: &NodeSupply, rules: FitRules) -> Result<NetworkIndex, NodeRefusal> {
        let mut nets = NodeNets::default();
        let mut idx = NetworkIndex {
            rules,
            nets: Arc::default(),
            used_bandwidth: HashMap::new(),
            used: HashMap::new(),
            min_dynamic: DYNAMIC_PORTS.0,
            max_dynamic: DYNAMIC_PORTS.1,
        };
        let global = node
            .reserved_resources
            .as_ref()
            .map_or("", |r| r.networks.reserved_host_ports.as_str());
        fn legacy(r: &Option<Resources>, rules: FitRules) -> &[NetworkResource] {
            match r {
                Some(r) if rules.legacy_node_networks => &r.networks[..],
                _ => &[],
            }
        }
        let mut task_networks = node
            .node_resources
            .as_ref()
            .map_or(&[][..], |r| &r.networks);
        if task_networks.is_empty() {
            task_networks = legacy(&node.resources, rules);
        }
        let legacy_reserved = if global.is_empty() {
            legacy(&node.reserved, rules)
        } else {
            &[]
        };
        for n in task_networks.iter().filter(|n| !n.device.is_empty()) {
            nets.task_networks.push(n.clone());
            nets.avail_bandwidth.insert(n.device.to_string(), n.mbits);
        }
        if let Some(r) = &node.node_resources {
            for a in r.node_networks.iter().flat_map(|n| &n.addresses) {
                nets.host_networks
                    .entry(a.alias.clone())
                    .or_default()
                    .push(a.clone());
            }
            if r.min_dynamic_port > 0 {
                idx.min_dynamic = r.min_dynamic_port;
            }
            if r.max_dynamic_port > 0 {
                idx.max_dynamic = r.max_dynamic_port;
            }
        }
        idx.nets = Arc::new(nets);
        if rules.node_ports_merged {
            idx.reserve_merged(global, legacy_reserved)
                .map_err(NodeRefusal::Invalid)?;
        } else {
            idx.reserve_colliding(global, legacy_reserved, &node.id)
                .map_err(NodeRefusal::Collision)?;
        }
        Ok(idx)
    }

    /// From 1.3.2 (`nomad/structs/network.go` `SetNode`): the global
    /// ranges (or, without them, the ports of the legacy `Reserved`
    /// networks) on every task network and address, each address's own on
    /// it.
    fn reserve_merged(&mut self, global: &str, legacy: &[NetworkResource]) -> Result<(), String> {
        let mut global =
            parse_port_ranges(global).map_err(|e| format!("error parsing reserved_ports: {e}"))?;
        for n in legacy {
            let used = self.used.entry(n.ip.to_string()).or_default();
            for p in n.reserved_ports.iter().chain(&n.dynamic_ports) {
                if !(0..=PORT_LIMIT).contains(&p.value) {
                    return Err(format!("invalid port {} for reserved_ports", p.value));
                }
                used.insert(p.value);
                global.insert(p.value);
            }
            if !n.device.is_empty() {
                let bw = self.used_bandwidth.entry(n.device.to_string()).or_default();
                *bw = bw.saturating_add(n.mbits);
            }
        }
        let nets = Arc::clone(&self.nets);
        for n in &nets.task_networks {
            let used = self.used.entry(n.ip.to_string()).or_default();
            global.iter().for_each(|p| used.insert(*p));
        }
        for a in nets.host_networks.values().flatten() {
            let own = parse_port_ranges(&a.reserved_ports).map_err(|e| {
                format!(
                    "error parsing reserved_ports for network {:?}: {e}",
                    a.alias
                )
            })?;
            let used = self.used.entry(a.address.clone()).or_default();
            global.iter().chain(&own).for_each(|p| used.insert(*p));
        }
        Ok(())
    }

    /// Before 1.3.2 (`nomad/structs/network.go:178-240` at 1.3.0): each
    /// address's ranges, then the global ranges on every address seen so
    /// far, else the legacy `Reserved` networks; a port reserved twice on
    /// one address is a collision, and a range that does not parse
    /// reserves nothing. Nomad's outcome of the global ranges replaces that
    /// of the addresses, so a collision between two addresses is forgotten
    /// when the global ranges themselves do not collide.
    fn reserve_colliding(
        &mut self,
        global: &str,
        legacy: &[NetworkResource],
        node: &str,
    ) -> Result<(), String> {
        let mut collide = None;
        let nets = Arc::clone(&self.nets);
        for a in nets.host_networks.values().flatten() {
            let used = self.used.entry(a.address.clone()).or_default();
            let ports = parse_port_ranges(&a.reserved_ports).unwrap_or_default();
            if let Some(r) = reserve_all(used, &ports) {
                collide = Some(format!(
                    "collision when reserving ports for node network {} in node {node}: {r}",
                    a.alias
                ));
            }
        }
        if !global.is_empty() {
            for n in &nets.task_networks {
                self.used.entry(n.ip.to_string()).or_default();
            }
            let global = parse_port_ranges(global).unwrap_or_default();
            collide = None;
            for used in self.used.values_mut() {
                if let Some(r) = reserve_all(used, &global) {
                    collide = Some(format!(
                        "collision when reserving port range for node {node}: {r}"
                    ));
                }
            }
        }
        for n in legacy {
            if let Some(r) = self.add_reserved(n) {
                collide = Some(format!(
                    "collision when reserving network {} for node {node}: {r}",
                    n.ip
                ));
            }
        }
        collide.map_or(Ok(()), Err)
    }

    /// The bandwidth a task network device offers (`AvailBandwidth`).
    pub fn avail_bandwidth(&self, device: &str) -> i64 {
        self.nets.avail_bandwidth.get(device).copied().unwrap_or(0)
    }

    /// The bandwidth in use on a device (`UsedBandwidth`).
    pub fn used_bandwidth(&self, device: &str) -> i64 {
        self.used_bandwidth.get(device).copied().unwrap_or(0)
    }

    /// `AddAllocs`: the ports of the allocations that still count; on a
    /// collision, Nomad's reason for the last one.
    pub fn add_allocs<'a>(
        &mut self,
        allocs: impl IntoIterator<Item = UsageView<'a>>,
    ) -> Result<(), String> {
        let mut reason = None;
        for alloc in allocs {
            if !self
                .rules
                .counts(alloc.client_status.as_str(), alloc.desired_status.as_str())
            {
                continue;
            }
            let id = &alloc.id;
            match alloc.allocated_resources {
                Some(r) if !r.shared.ports.is_empty() => {
                    if let Some(r) = self.add_reserved_ports(&r.shared.ports) {
                        reason = Some(format!("collision when reserving port for alloc {id}: {r}"));
                    }
                }
                Some(r) => {
                    for n in &r.shared.networks {
                        if let Some(r) = self.add_reserved(n) {
                            reason = Some(format!(
                                "collision when reserving port for network {} in alloc {id}: {r}",
                                n.ip
                            ));
                        }
                    }
                    for (task, res) in &r.tasks {
                        if let Some(n) = res.networks.first()
                            && let Some(r) = self.add_reserved(n)
                        {
                            reason = Some(format!(
                                "collision when reserving port for network {} in task {task} \
                                 of alloc {id}: {r}",
                                n.ip
                            ));
                        }
                    }
                }
                None => {
                    for (task, res) in &alloc.legacy.task_resources {
                        if let Some(n) = res.networks.first()
                            && let Some(r) = self.add_reserved(n)
                        {
                            reason = Some(format!(
                                "(deprecated) collision when reserving port for network {} \
                                 in task {task} of alloc {id}: {r}",
                                n.ip
                            ));
                        }
                    }
                }
            }
        }
        reason.map_or(Ok(()), Err)
    }

    /// `AddReserved`: a task network's ports on its IP and its bandwidth on
    /// its device; the reasons of any collision, as Go prints a list.
    pub fn add_reserved(&mut self, n: &NetworkResource) -> Option<String> {
        let used = self.used.entry(n.ip.to_string()).or_default();
        let mut reasons = Vec::new();
        for port in n.reserved_ports.iter().chain(&n.dynamic_ports) {
            if !(0..PORT_LIMIT).contains(&port.value) {
                return Some(format!("[invalid port {}]", port.value));
            }
            if used.contains(port.value) {
                reasons.push(format!("port {} already in use", port.value));
            }
            used.insert(port.value);
        }
        let bw = self.used_bandwidth.entry(n.device.to_string()).or_default();
        *bw = bw.saturating_add(n.mbits);
        listed(reasons)
    }

    /// `AddReservedPorts`: a group's port mappings on their addresses.
    pub fn add_reserved_ports(&mut self, ports: &[PortMapping]) -> Option<String> {
        let mut reasons = Vec::new();
        for port in ports {
            if !(0..PORT_LIMIT).contains(&port.value) {
                return Some(format!("[invalid port {}]", port.value));
            }
            let used = self.used.entry(port.host_ip.to_string()).or_default();
            if used.contains(port.value) && !(self.rules.ignore_collision && port.ignore_collision)
            {
                reasons.push(format!("port {} already in use", port.value));
            }
            used.insert(port.value);
        }
        listed(reasons)
    }

    /// `AssignPorts`: an offer for a group network's ports on the host
    /// networks they name; the error is Nomad's, which the scheduler reports
    /// as `"network: <error>"`. Dynamic ports are the lowest free ones where
    /// Nomad picks at random.
    pub fn assign_ports(&self, ask: &NetworkResource) -> Result<Vec<PortMapping>, String> {
        let mut offer = Vec::with_capacity(ask.reserved_ports.len() + ask.dynamic_ports.len());
        self.offer_ports(ask, |port, value, address| {
            offer.push(mapping(port, value, address));
        })?;
        Ok(offer)
    }

    /// Whether [`NetworkIndex::assign_ports`] makes an offer, with its
    /// error, without building the offer: what judging a node needs.
    pub fn ports_free(&self, ask: &NetworkResource) -> Result<(), String> {
        self.offer_ports(ask, |_, _, _| ())
    }

    /// The walk of [`NetworkIndex::assign_ports`]: each port of the offer,
    /// in order, is handed to `take` with its value and address.
    fn offer_ports(
        &self,
        ask: &NetworkResource,
        mut take: impl FnMut(&Port, i64, &str),
    ) -> Result<(), String> {
        let mut in_offer: Vec<i64> = Vec::new();
        let no_addresses =
            |p: &Port| format!("no addresses available for {} network", p.host_network);
        for port in &ask.reserved_ports {
            let mut err = None;
            let mut taken = None;
            for a in self.addresses(&port.host_network) {
                if !(0..PORT_LIMIT).contains(&port.value) {
                    return Err(format!("invalid port {} (out of range)", port.value));
                }
                if self
                    .used
                    .get(&a.address)
                    .is_some_and(|u| u.contains(port.value))
                {
                    let collision =
                        format!("reserved port collision {}={}", port.label, port.value);
                    if !self.rules.reserved_port_next_address {
                        return Err(collision);
                    }
                    err = Some(collision);
                    continue;
                }
                taken = Some(a.address.as_str());
                break;
            }
            let address = taken.ok_or_else(|| err.unwrap_or_else(|| no_addresses(port)))?;
            take(port, port.value, address);
            in_offer.push(port.value);
        }
        let none = PortSet::default();
        for port in &ask.dynamic_ports {
            // The group's reserved ports on the same host network, and with
            // the rule every port offered so far.
            let excluded = |p: i64| {
                ask.reserved_ports
                    .iter()
                    .any(|r| r.value == p && r.host_network == port.host_network)
                    || (self.rules.dynamic_ports_avoid_offer && in_offer.contains(&p))
            };
            let mut err = None;
            let mut taken = None;
            for a in self.addresses(&port.host_network) {
                let used = self.used.get(&a.address).unwrap_or(&none);
                match used.lowest_free(self.min_dynamic, self.max_dynamic, excluded) {
                    Some(value) => {
                        taken = Some((value, a.address.as_str()));
                        break;
                    }
                    None => err = Some("dynamic port selection failed".to_string()),
                }
            }
            let (value, address) =
                taken.ok_or_else(|| err.unwrap_or_else(|| no_addresses(port)))?;
            take(port, value, address);
            in_offer.push(value);
        }
        Ok(())
    }

    fn addresses(&self, alias: &str) -> impl Iterator<Item = &NodeNetworkAddress> {
        self.nets.host_networks.get(alias).into_iter().flatten()
    }

    /// `AssignNetwork` (`AssignTaskNetwork` from 1.9): an offer for a
    /// task-level network on the first address of the node's task networks
    /// with the bandwidth and the reserved ports free; the error of the
    /// last address tried otherwise ("bandwidth exceeded", "reserved port
    /// collision ...", "no networks available").
    pub fn assign_task_network(&self, ask: &NetworkResource) -> Result<NetworkResource, String> {
        let mut err = "no networks available".to_string();
        for n in &self.nets.task_networks {
            for ip in cidr_addresses(&n.cidr).take(ADDRESSES_PER_NETWORK) {
                let avail = self
                    .nets
                    .avail_bandwidth
                    .get(n.device.as_str())
                    .copied()
                    .unwrap_or(0);
                let used_bw = self
                    .used_bandwidth
                    .get(n.device.as_str())
                    .copied()
                    .unwrap_or(0);
                if used_bw.saturating_add(ask.mbits) > avail {
                    err = "bandwidth exceeded".to_string();
                    continue;
                }
                let used = self.used.get(&ip);
                let clash = ask.reserved_ports.iter().find_map(|p| {
                    if !(0..PORT_LIMIT).contains(&p.value) {
                        Some(format!("invalid port {} (out of range)", p.value))
                    } else if used.is_some_and(|u| u.contains(p.value)) {
                        Some(format!("reserved port collision {}={}", p.label, p.value))
                    } else {
                        None
                    }
                });
                if let Some(clash) = clash {
                    err = clash;
                    continue;
                }
                let mut exclude: BTreeSet<i64> =
                    ask.reserved_ports.iter().map(|p| p.value).collect();
                let mut dynamic = Vec::new();
                let none = PortSet::default();
                let free = used.unwrap_or(&none);
                for p in &ask.dynamic_ports {
                    let excluded = |port: i64| exclude.contains(&port);
                    match free.lowest_free(self.min_dynamic, self.max_dynamic, excluded) {
                        Some(value) => {
                            exclude.insert(value);
                            let to = if p.to == -1 { value } else { p.to };
                            dynamic.push(Port {
                                value,
                                to,
                                ..p.clone()
                            });
                        }
                        None => break,
                    }
                }
                if dynamic.len() < ask.dynamic_ports.len() {
                    err = "dynamic port selection failed".to_string();
                    continue;
                }
                return Ok(NetworkResource {
                    device: n.device.clone(),
                    ip: ip.into(),
                    dynamic_ports: dynamic,
                    cidr: Name::default(),
                    ..ask.clone()
                });
            }
        }
        Err(err)
    }
}

/// Marks `ports` used; the collisions as Go prints a list of reasons.
fn reserve_all(used: &mut PortSet, ports: &BTreeSet<i64>) -> Option<String> {
    let mut reasons = Vec::new();
    for p in ports {
        if *p >= PORT_LIMIT {
            return Some(format!("[invalid port {p}]"));
        }
        if used.contains(*p) {
            reasons.push(format!("port {p} already in use"));
        }
        used.insert(*p);
    }
    listed(reasons)
}

/// A `[]string` as `%v` prints it, or nothing for an empty one.
fn listed(reasons: Vec<String>) -> Option<String> {
    (!reasons.is_empty()).then(|| format!("[{}]", reasons.join(" ")))
}

fn mapping(port: &Port, value: i64, address: &str) -> PortMapping {
    PortMapping {
        label: port.label.clone(),
        value,
        to: if port.to == -1 { value } else { port.to },
        host_ip: address.to_string().into(),
        ignore_collision: false,
    }
}
