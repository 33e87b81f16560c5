//! `DeviceAccounter` and the scheduler's device offers: which healthy
//! device instances of a node are free, and which of them a request gets
//! (`nomad/structs/devices.go`; `scheduler/device.go`, from 1.11.0
//! `scheduler/feasible/device.go`).

use super::rules::FitRules;
use crate::feasibility::{DeviceRules, affinity_met, device_serves, instance_serves};
use crate::model::resources::AllocatedDevice;
use crate::model::{NodeDevice, RequestedDevice, UsageView};

/// A node's healthy device instances and how many holders each has.
#[derive(Clone, Debug)]
pub struct DeviceAccounter<'n> {
    rules: FitRules,
    devices: Vec<(&'n NodeDevice, Vec<(&'n str, u32)>)>,
}

impl<'n> DeviceAccounter<'n> {
    /// `NewDeviceAccounter`: unhealthy instances are never offered. Nomad
    /// keeps devices and instances in Go maps; here devices go by vendor,
    /// type and name and instances by ID, so the snapshot's array order
    /// does not change the choice.
    pub fn new(devices: &'n [NodeDevice], rules: FitRules) -> DeviceAccounter<'n> {
        let mut devices: Vec<(&'n NodeDevice, Vec<(&'n str, u32)>)> = devices
            .iter()
            .map(|d| {
                let mut free: Vec<(&str, u32)> = d
                    .instances
                    .iter()
                    .filter(|i| i.healthy)
                    .map(|i| (i.id.as_str(), 0))
                    .collect();
                free.sort_by_key(|(id, _)| *id);
                (d, free)
            })
            .collect();
        devices.sort_by_key(|(d, _)| device_key(d));
        DeviceAccounter { rules, devices }
    }

    /// `AddAllocs`: the instances the counting allocations hold; whether
    /// one is held twice. Instances the node no longer has are ignored.
    pub fn add_allocs<'a>(&mut self, allocs: impl IntoIterator<Item = UsageView<'a>>) -> bool {
        let mut collision = false;
        for alloc in allocs {
            if !self
                .rules
                .counts(alloc.client_status.as_str(), alloc.desired_status.as_str())
            {
                continue;
            }
            let Some(r) = alloc.allocated_resources else {
                continue;
            };
            for device in r.tasks.values().flat_map(|t| &t.devices) {
                collision |= self.add_reserved(device);
            }
        }
        collision
    }

    /// `AddReserved`: marks an offer's instances held; whether one already was.
    pub fn add_reserved(&mut self, held: &AllocatedDevice) -> bool {
        let Some((_, instances)) = self.devices.iter_mut().find(|(d, _)| same_device(d, held))
        else {
            return false;
        };
        let mut collision = false;
        for id in &held.device_ids {
            if let Some((_, holders)) = instances.iter_mut().find(|(i, _)| i == id) {
                collision |= *holders != 0;
                *holders += 1;
            }
        }
        collision
    }

    /// The node device an allocation's instances belong to, with its
    /// count of free healthy instances (`FreeCount`); `None` when the node
    /// no longer has it.
    pub fn lookup(&self, held: &AllocatedDevice) -> Option<(&'n NodeDevice, usize)> {
        self.devices
            .iter()
            .find(|(d, _)| same_device(d, held))
            .map(|(d, instances)| (*d, instances.iter().filter(|(_, h)| *h == 0).count()))
    }

    /// `AssignDevice` (`createOffer` from 1.9.0): free instances of the
    /// matching device whose affinities score best, with the affinity
    /// weights it matched. Devices are tried in vendor, type and name order
    /// where Nomad walks a Go map, and the first of equal scores wins (Nomad
    /// keeps the last it meets); instances by ID. The
    /// instances taken follow the release's `${device.ids}` rules
    /// ([`DeviceRules`]). The error is Nomad's, reported as
    /// `"devices: <error>"`.
    pub fn assign(&self, ask: &RequestedDevice) -> Result<Offer, &'static str> {
        if self.devices.is_empty() {
            return Err("no devices available");
        }
        if ask.count == 0 {
            return Err("invalid request of zero devices");
        }
        let rules = self.rules.devices;
        let count = usize::try_from(ask.count).unwrap_or(usize::MAX);
        let mut best: Option<(f64, Offer)> = None;
        for (d, instances) in &self.devices {
            if !device_serves(d, ask, rules) {
                continue;
            }
            let Some(ids) = take(d, instances, ask, count, rules) else {
                continue;
            };
            let (score, matched_weight) = affinity_score(d, ask, rules);
            if best
                .as_ref()
                .is_some_and(|(b, _)| score <= *b || score.is_nan())
            {
                continue;
            }
            let device = AllocatedDevice {
                vendor: d.vendor.clone(),
                device_type: d.device_type.clone(),
                name: d.name.clone(),
                device_ids: ids.iter().map(|id| id.to_string()).collect(),
            };
            best = Some((
                score,
                Offer {
                    device,
                    matched_weight,
                },
            ));
        }
        best.map(|(_, offer)| offer)
            .ok_or("no devices match request")
    }
}

/// A device offer and the affinity weights its device matched (what
/// `AssignDevice` returns beside it).
#[derive(Clone, Debug)]
pub struct Offer {
    pub device: AllocatedDevice,
    pub matched_weight: f64,
}

/// The free instances of `d` an offer takes, or `None` when it has too
/// few. From #18141 only instances whose ID meets the `${device.ids}`
/// constraints are taken; until #27177 the device needed only `count`
/// free instances, so the offer may hold fewer.
fn take<'n>(
    d: &NodeDevice,
    instances: &[(&'n str, u32)],
    ask: &RequestedDevice,
    count: usize,
    rules: DeviceRules,
) -> Option<Vec<&'n str>> {
    let free = instances.iter().filter(|(_, h)| *h == 0).map(|(id, _)| *id);
    let allowed = |id: &&str| !rules.ids_filtered || instance_serves(id, d, ask, rules);
    if rules.ids_counted {
        let ids: Vec<&str> = free.filter(allowed).take(count).collect();
        return (ids.len() == count).then_some(ids);
    }
    let free: Vec<&str> = free.collect();
    (free.len() >= count).then(|| free.into_iter().filter(allowed).take(count).collect())
}

/// A device's affinity score (matched weights over all weights, each
/// weight's size) and its matched weights; both 0 without affinities.
fn affinity_score(d: &NodeDevice, ask: &RequestedDevice, rules: DeviceRules) -> (f64, f64) {
    if ask.affinities.is_empty() {
        return (0.0, 0.0);
    }
    let total: f64 = ask.affinities.iter().map(|a| (a.weight as f64).abs()).sum();
    let matched: f64 = ask
        .affinities
        .iter()
        .filter(|a| affinity_met(a, d, rules))
        .map(|a| a.weight as f64)
        .sum();
    (matched / total, matched)
}

/// A device's `DeviceIdTuple`: vendor, type and name.
fn device_key(d: &NodeDevice) -> (&str, &str, &str) {
    (&d.vendor, &d.device_type, &d.name)
}

/// `DeviceIdTuple` equality: vendor, type and name.
fn same_device(d: &NodeDevice, held: &AllocatedDevice) -> bool {
    d.vendor == held.vendor && d.device_type == held.device_type && d.name == held.name
}
