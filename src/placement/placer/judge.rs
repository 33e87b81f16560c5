//! One node through the stack for one allocation of a group, against
//! what the plan leaves and adds there.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use foldhash::fast::FixedState;

use super::group::{ELIGIBLE, Group, INELIGIBLE};
use super::state::{Added, Changed, NodeMap, Placer};
use crate::feasibility::{
    CLASS_INELIGIBLE, DISTINCT_HOSTS, Eligibility, Filter, HostNetworks, PlanSoFar, host_networks,
};
use crate::fit::{Capacity, GroupAsk, NodeUse, Packed, Shortfall, place};
use crate::model::resources::AllocUsage;
use crate::model::{ClientStatus, DesiredStatus, Id, UsageView};

use super::super::cluster::Cluster;

/// What the stack made of one node.
pub(super) enum Verdict {
    /// A check filtered the node, in Nomad's words.
    Filtered(Cow<'static, str>),
    /// Filtered, and no later node is looked at.
    Ends(Cow<'static, str>),
    Exhausted(Shortfall),
    /// The allocation fits; the node then uses `used` in all (with its
    /// device affinities' score) and has `collisions` allocations of the
    /// same job and group.
    Fits {
        used: Packed,
        collisions: usize,
    },
}

impl<'a> Placer<'a> {
    /// The class-cached checks, the volume checks for the allocation
    /// `name`, then `distinct_hosts`, `distinct_property` and resource fit.
    pub(super) fn judge(&mut self, g: &mut Group<'a>, name: &str, i: usize) -> Verdict {
        let tg = g.tg;
        let node = self.cluster.nodes[i];
        self.checks.enter(tg);
        let class = self.cluster.class[i] as usize;
        // The recorder wants the first cause of a class ruled out, which
        // only the stack's own cache gives.
        let cached = match self.recorder {
            Some(_) => None,
            None => g.classes.get(class).copied(),
        };
        let eligibility = match cached {
            Some(ELIGIBLE) => Eligibility::Cached,
            Some(INELIGIBLE) => return Verdict::Filtered(Cow::Borrowed(CLASS_INELIGIBLE)),
            _ => {
                let checked = self.checks.class_checks(tg, name, node);
                if let Some(c) = g.classes.get_mut(class) {
                    *c = if checked.is_ok() {
                        ELIGIBLE
                    } else {
                        INELIGIBLE
                    };
                }
                match checked {
                    Ok(e) => e,
                    Err(f) => {
                        if let (Some(r), Filter::ClassIneligible { first, .. }) =
                            (self.recorder.as_deref_mut(), &f)
                        {
                            r.class_cause(first.metric().into_owned());
                        }
                        return Verdict::Filtered(Cow::Owned(f.metric().into_owned()));
                    }
                }
            }
        };
        let available = match g.volumes {
            true => self.checks.available(tg, name, node),
            false => Ok(()),
        };
        if let Err(f) = available {
            let why = Cow::Owned(f.metric().into_owned());
            // Before #13274 the wrapper's fast path for an eligible class
            // ended the selection at an unavailable node.
            return match eligibility {
                Eligibility::Cached if !self.setup.volumes.eligible_continues => Verdict::Ends(why),
                _ => Verdict::Filtered(why),
            };
        }
        self.refresh(i);
        let own = self.own_at(i);
        let in_job: u32 = own.iter().map(|(_, n)| n).sum();
        let in_group = own
            .iter()
            .find(|(g, _)| *g == tg.name)
            .map_or(0, |(_, n)| *n);
        let (by_job, by_group) = g.distinct;
        if (by_job && in_job > 0) || (by_group && in_group > 0) {
            let group = (!by_job).then_some(tg.name.as_str());
            if !self.setup.distinct_hosts.namespaced || self.in_namespace(i, group) {
                return Verdict::Filtered(Cow::Borrowed(DISTINCT_HOSTS));
            }
        }
        if g.properties {
            let plan = PlanSoFar {
                stopping: self.stopping.clone(),
                proposed: self.proposed.clone(),
            };
            if let Err(f) = self.checks.distinct_properties(tg, node, &plan) {
                return Verdict::Filtered(Cow::Owned(f.metric().into_owned()));
            }
        }
        let collisions = in_group as usize;
        if !self.cluster.known[i] {
            return Verdict::Fits {
                used: Packed::default(),
                collisions,
            };
        }
        let settings = &self.setup.settings;
        let supply = &self.cluster.supplies[i];
        let fit = match &g.free {
            _ if self.eviction.on => self.fit_evicting(g, i),
            Some(free) => {
                let available = match self.shared_use {
                    true => Cow::Borrowed(&self.cluster.available[i]),
                    false => Cow::Owned(Capacity::of(supply, &settings.rules).available()),
                };
                self.use_at(i)
                    .fits(supply, &available, free, &settings.rules)
                    .map(|used| Packed {
                        used,
                        devices: None,
                    })
            }
            None => {
                let usages = self.proposed_usages(i);
                let resolved = self.host_networks_on(g, i);
                let Some(ask) = on_node(&g.ask, &resolved) else {
                    // Nomad skips the node unrecorded.
                    let why = Shortfall::named("network: host network template");
                    return Verdict::Exhausted(why.unrecorded());
                };
                place(supply, &usages, &ask, settings).map(|p| Packed {
                    used: p.used,
                    devices: p.devices,
                })
            }
        };
        match fit {
            Ok(used) => Verdict::Fits { used, collisions },
            Err(short) => Verdict::Exhausted(short),
        }
    }

    /// What one allocation of the group placed on node `i` holds there,
    /// its ports and cores the lowest free ones.
    pub(super) fn allocate(&mut self, g: &Group<'a>, i: usize) -> Box<AllocUsage> {
        if !self.cluster.known[i] {
            return Box::default();
        }
        let allocated = match &g.free {
            Some(free) => {
                self.refresh(i);
                self.use_at(i).allocate(free)
            }
            None => {
                let usages = self.proposed_usages(i);
                let supply = &self.cluster.supplies[i];
                let resolved = self.host_networks_on(g, i);
                let ask = on_node(&g.ask, &resolved).unwrap_or(Cow::Borrowed(&g.ask));
                place(supply, &usages, &ask, &self.setup.settings).map(|p| p.allocated)
            }
        };
        debug_assert!(allocated.is_ok(), "a node judged to fit refused");
        Box::new(AllocUsage {
            client_status: ClientStatus::Pending,
            desired_status: DesiredStatus::Run,
            allocated_resources: Some(Arc::new(allocated.unwrap_or_default())),
            ..AllocUsage::default()
        })
    }

    /// Puts an allocation of `task_group` on node `i`.
    pub(super) fn add(&mut self, i: usize, task_group: &'a str, usage: AllocUsage) {
        self.refresh(i);
        let mut entry = match self.changed.remove(&i) {
            Some(Some(c)) => c,
            _ => Changed {
                usage: self.cluster.node_use(i).clone(),
                own: self.own.get(&i).cloned().unwrap_or_default(),
            },
        };
        entry.usage.add(usage.view(), self.setup.settings.rules);
        bump(&mut entry.own, task_group);
        self.changed.insert(i, Some(entry));
        self.log.push(i);
        self.added
            .entry(i)
            .or_default()
            .push(Added { task_group, usage });
    }

    /// Sums node `i` again if the plan changed it since it was last
    /// summed (or, where the cluster's sums count under other rules, the
    /// first time).
    fn refresh(&mut self, i: usize) {
        let stale = match self.changed.get(&i) {
            Some(entry) => entry.is_none(),
            None => !self.shared_use,
        };
        if !stale {
            return;
        }
        let cluster: &'a Cluster<'a> = self.cluster;
        let job_id = self.job.id.as_str();
        let mut own = Vec::new();
        for a in &cluster.running[i] {
            if a.job_id.as_str() == job_id && !self.stopped.contains(&a.id) {
                bump(&mut own, &a.task_group);
            }
        }
        for a in self.added.get(&i).into_iter().flatten() {
            bump(&mut own, a.task_group);
        }
        let usages = self.proposed_usages(i);
        let usage = NodeUse::of(&cluster.supplies[i], &usages, self.setup.settings.rules);
        self.changed.insert(i, Some(Changed { usage, own }));
    }

    /// What node `i`'s proposed allocations use ([`Placer::refresh`] first).
    fn use_at(&self, i: usize) -> &NodeUse {
        match self.changed.get(&i) {
            Some(Some(c)) => &c.usage,
            _ => self.cluster.node_use(i),
        }
    }

    /// The job's proposed allocations on node `i`, by group.
    fn own_at(&self, i: usize) -> &[(&'a str, u32)] {
        match self.changed.get(&i) {
            Some(Some(c)) => &c.own,
            _ => self.own.get(&i).map_or(&[], Vec::as_slice),
        }
    }

    /// The group's network as node `i` sees it: its `host_network`
    /// templates resolved there.
    fn host_networks_on(&self, g: &Group<'a>, i: usize) -> HostNetworks {
        match g.ask.network {
            Some(n) => host_networks(n, self.cluster.nodes[i], self.setup.targets),
            None => HostNetworks::Plain,
        }
    }

    /// Whether node `i` keeps or gets an allocation of the job in the job's
    /// own namespace (of `group` alone, when given): what collides under
    /// `distinct_hosts` from #19004, where the job ID alone no longer does.
    fn in_namespace(&self, i: usize, group: Option<&str>) -> bool {
        let of_group = |tg: &str| group.is_none_or(|g| g == tg);
        let added = self.added.get(&i).into_iter().flatten();
        added.into_iter().any(|a| of_group(a.task_group))
            || self.cluster.running[i].iter().any(|a| {
                a.job_id.as_str() == self.job.id
                    && a.namespace.as_str() == self.job.namespace
                    && of_group(&a.task_group)
                    && !self.stopped.contains(&a.id)
            })
    }

    /// `ProposedAllocs` of node `i`.
    pub(super) fn proposed_usages(&self, i: usize) -> Vec<UsageView<'_>> {
        proposed_on(self.cluster, &self.stopped, &self.updated, &self.added, i)
    }
}

/// `ask` with its group network as a node resolved it; `None` when a
/// template did not resolve there.
fn on_node<'x>(ask: &'x GroupAsk<'x>, resolved: &'x HostNetworks) -> Option<Cow<'x, GroupAsk<'x>>> {
    match resolved {
        HostNetworks::Plain => Some(Cow::Borrowed(ask)),
        HostNetworks::Resolved(n) => Some(Cow::Owned(GroupAsk {
            network: Some(n),
            ..ask.clone()
        })),
        HostNetworks::Unresolved => None,
    }
}

/// One more allocation of `group`.
fn bump<'a>(own: &mut Vec<(&'a str, u32)>, group: &'a str) {
    match own.iter_mut().find(|(g, _)| *g == group) {
        Some((_, n)) => *n += 1,
        None => own.push((group, 1)),
    }
}

/// `ProposedAllocs`: node `i`'s running allocations less the plan's stops,
/// with its in-place updates' new resources, plus its placements.
fn proposed_on<'s>(
    cluster: &'s Cluster<'_>,
    stopped: &HashSet<&Id, FixedState>,
    updated: &'s HashMap<&Id, AllocUsage, FixedState>,
    added: &'s NodeMap<Vec<Added<'_>>>,
    i: usize,
) -> Vec<UsageView<'s>> {
    let running = cluster.running[i]
        .iter()
        .filter(|a| !stopped.contains(&a.id))
        .map(|a| {
            updated
                .get(&a.id)
                .map_or_else(|| a.usage_view(), AllocUsage::view)
        });
    let added = added.get(&i).into_iter().flatten().map(|a| a.usage.view());
    running.chain(added).collect()
}
