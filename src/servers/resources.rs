//! What a placed allocation holds on its node. Nomad's scheduler writes
//! the resources its stack offered on the chosen node
//! (`AllocatedResources`: CPU, memory, disk, the ports and cores picked),
//! and every later evaluation counts them. The plan carries only the
//! node, so the applier offers the group's ask again on that node as the
//! plan leaves it ([`crate::fit::place()`]): the same amounts, and ports
//! and cores free of what runs there.

use std::collections::HashMap;
use std::sync::Arc;

use crate::feasibility::{HostNetworks, TargetRules, host_networks};
use crate::fit::{FitRules, GroupAsk, Settings, place};
use crate::model::resources::{AllocUsage, AllocatedResources};
use crate::model::{ClientStatus, DesiredStatus, SchedulerConfig, TaskGroup};
use crate::version::Release;

use super::world::World;

/// The offers of one plan: what each node it places on already holds,
/// with each offer added as it is made.
pub struct Offers {
    settings: Settings,
    targets: TargetRules,
    held: HashMap<String, Vec<AllocUsage>>,
}

impl Offers {
    /// Reads what the nodes `nodes` hold, once, at release `release`: their
    /// own allocations, so a plan costs what it places on, not the cluster.
    pub fn new<'n>(
        world: &World,
        release: Release,
        nodes: impl IntoIterator<Item = &'n str>,
    ) -> Offers {
        let rules = FitRules::of(release);
        let memory_oversubscription = world
            .snapshot
            .scheduler_config
            .clone()
            .unwrap_or_else(SchedulerConfig::server_default)
            .memory_oversubscription_enabled;
        let held: HashMap<String, Vec<AllocUsage>> = nodes
            .into_iter()
            .map(|n| {
                let on = world
                    .on_node(n)
                    .iter()
                    .map(|&i| world.alloc(i))
                    .filter(|a| rules.counts(a.client_status.as_str(), a.desired_status.as_str()))
                    .map(|a| a.usage())
                    .collect();
                (n.to_string(), on)
            })
            .collect();
        Offers {
            settings: Settings {
                rules,
                memory_oversubscription,
            },
            targets: TargetRules::of(release),
            held,
        }
    }

    /// What an allocation of `tg` placed on `node_id` holds, counted for
    /// the next offers on the node. Where the node refuses it (a node
    /// without resources, or one the replay's plans crowd), the amounts
    /// it asks of the node alone, without ports, devices or cores, so
    /// that they cannot collide with what runs there.
    pub fn offer(
        &mut self,
        world: &World,
        node_id: &str,
        tg: &TaskGroup,
    ) -> Option<Arc<AllocatedResources>> {
        let node = world.node(node_id)?;
        let ask = crate::placement::ask::ask_of(tg);
        let resolved = ask.network.map_or(HostNetworks::Plain, |n| {
            host_networks(n, node, self.targets)
        });
        let ask = match &resolved {
            HostNetworks::Resolved(n) => GroupAsk {
                network: Some(n),
                ..ask
            },
            _ => ask,
        };
        let supply = node.supply();
        let on = self.held.entry(node_id.to_string()).or_default();
        let proposed: Vec<&AllocUsage> = on.iter().collect();
        let allocated = match place(&supply, &proposed, &ask, &self.settings) {
            Ok(p) => p.allocated,
            Err(_) => {
                let mut alone = place(&supply, &[], &ask, &self.settings).ok()?.allocated;
                alone.shared.networks.clear();
                alone.shared.ports.clear();
                for t in alone.tasks.values_mut() {
                    t.networks.clear();
                    t.devices.clear();
                    t.cpu.reserved_cores.clear();
                }
                alone
            }
        };
        let allocated = Arc::new(allocated);
        on.push(AllocUsage {
            client_status: ClientStatus::Running,
            desired_status: DesiredStatus::Run,
            allocated_resources: Some(Arc::clone(&allocated)),
            ..AllocUsage::default()
        });
        Some(allocated)
    }
}
