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
use crate::model::{ClientStatus, DesiredStatus, Job, TaskGroup, UsageView};
use crate::version::{Release, Switch};

use super::world::World;

/// The offers of one plan: what each node it places on already holds,
/// with each offer added as it is made.
pub struct Offers {
    settings: Settings,
    /// The release reads a node pool's own scheduler configuration.
    pools: bool,
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
                memory_oversubscription: false,
            },
            pools: Switch::NodePoolSchedulerConfig.in_release(release),
            targets: TargetRules::of(release),
            held,
        }
    }

    /// What an allocation of `tg`, a group of `job`, placed on `node_id`
    /// holds, counted for the next offers on the node: under the
    /// scheduler configuration of `job`'s node pool, as the stack that
    /// placed it was set (`setJob`). Where the node refuses it (a node
    /// without resources, or one the replay's plans crowd), the amounts
    /// it asks of the node alone, without ports, devices or cores, so
    /// that they cannot collide with what runs there.
    pub fn offer(
        &mut self,
        world: &World,
        node_id: &str,
        job: &Job,
        tg: &TaskGroup,
    ) -> Option<Arc<AllocatedResources>> {
        let node = world.node(node_id)?;
        let pool = self.pools.then_some(job.node_pool.as_str());
        let settings = Settings {
            memory_oversubscription: world
                .snapshot
                .scheduler_config_for(pool)
                .config
                .memory_oversubscription_enabled,
            ..self.settings
        };
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
        let proposed: Vec<UsageView<'_>> = on.iter().map(AllocUsage::view).collect();
        let allocated = match place(&supply, &proposed, &ask, &settings) {
            Ok(p) => p.allocated,
            Err(_) => {
                let mut alone = place(&supply, &[], &ask, &settings).ok()?.allocated;
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

#[cfg(test)]
mod tests {
    use super::super::timeline::{Request, tell};
    use super::*;
    use crate::read::read_snapshot_from;
    use crate::replay::Options;

    /// What the nodes hold, counted from every allocation of the cluster.
    fn recount(world: &World, release: Release, nodes: &[&str]) -> String {
        let rules = FitRules::of(release);
        let mut held: Vec<(String, Vec<AllocUsage>)> =
            nodes.iter().map(|n| (n.to_string(), Vec::new())).collect();
        for a in &world.snapshot.allocs {
            for (n, on) in &mut held {
                if a.node_id == n.as_str()
                    && rules.counts(a.client_status.as_str(), a.desired_status.as_str())
                {
                    on.push(a.usage());
                }
            }
        }
        format!("{held:?}")
    }

    fn read(offers: &Offers, nodes: &[&str]) -> String {
        let held: Vec<(String, &Vec<AllocUsage>)> = nodes
            .iter()
            .map(|n| (n.to_string(), &offers.held[*n]))
            .collect();
        format!("{held:?}")
    }

    /// At every evaluation of a story that moves allocations about (a node
    /// down, then back), what each node holds, read from the world's
    /// per-node index, is what a count over every allocation finds.
    #[test]
    fn what_a_node_holds_is_a_full_recount_at_every_evaluation_of_a_story() {
        let text = include_str!("../../fixtures/mixed-cluster.json");
        let snapshot = read_snapshot_from(text.as_bytes(), "mixed-cluster.json").unwrap();
        let request = Request {
            events: ["node-down:00000001@5m", "node-up:00000001@20m"]
                .iter()
                .map(|e| e.parse().unwrap())
                .collect(),
            until: Some("2h".parse().unwrap()),
            healthy_after: None,
        };
        let options = Options::default();
        let whole = tell(&snapshot, &options, &request, None).unwrap();
        let evaluations = whole.story.timeline.len();
        let placed = whole
            .story
            .timeline
            .iter()
            .filter(|e| e.job.plan.place.iter().any(|p| p.node_id.is_some()))
            .count();
        assert!(placed >= 3, "{placed} plans place");
        let nodes: Vec<&str> = snapshot.nodes.iter().map(|n| n.id.as_str()).collect();
        let release = whole.story.report.nomad_version.release;
        for stop in (0..evaluations).map(Some).chain([None]) {
            let told = tell(&snapshot, &options, &request, stop).unwrap();
            let offers = Offers::new(&told.world, release, nodes.iter().copied());
            assert_eq!(
                read(&offers, &nodes),
                recount(&told.world, release, &nodes),
                "before evaluation {stop:?}"
            );
            for n in &nodes {
                let mut on: Vec<usize> = (0..told.world.snapshot.allocs.len())
                    .filter(|&i| told.world.alloc(i).node_id == *n)
                    .collect();
                assert_eq!(told.world.on_node(n), on.as_slice());
                on.sort_by(|&a, &b| told.world.alloc(a).id.cmp(&told.world.alloc(b).id));
                assert_eq!(told.world.allocs_on(n), on);
            }
        }
    }
}
