//! `DeviceAccounter` and the scheduler's device offers: which healthy
//! device instances of a node are free (`nomad/structs/devices.go`,
//! `scheduler/device.go`).

use super::rules::FitRules;
use crate::model::resources::{AllocUsage, AllocatedDevice};
use crate::model::{NodeDevice, RequestedDevice};

/// A node's healthy device instances and how many holders each has.
#[derive(Clone, Debug)]
pub struct DeviceAccounter<'n> {
    rules: FitRules,
    devices: Vec<(&'n NodeDevice, Vec<(&'n str, u32)>)>,
}

impl<'n> DeviceAccounter<'n> {
    /// `NewDeviceAccounter`: unhealthy instances are never offered.
    pub fn new(devices: &'n [NodeDevice], rules: FitRules) -> DeviceAccounter<'n> {
        let devices = devices
            .iter()
            .map(|d| {
                let free = d
                    .instances
                    .iter()
                    .filter(|i| i.healthy)
                    .map(|i| (i.id.as_str(), 0))
                    .collect();
                (d, free)
            })
            .collect();
        DeviceAccounter { rules, devices }
    }

    /// `AddAllocs`: the instances the counting allocations hold; whether
    /// one is held twice. Instances the node no longer has are ignored.
    pub fn add_allocs<'a>(&mut self, allocs: impl IntoIterator<Item = &'a AllocUsage>) -> bool {
        let mut collision = false;
        for alloc in allocs {
            if !self
                .rules
                .counts(alloc.client_status.as_str(), alloc.desired_status.as_str())
            {
                continue;
            }
            let Some(r) = &alloc.allocated_resources else {
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

    /// `AssignDevice`: `count` free instances of the first device that has
    /// that many and that `matches` accepts (its name and constraints, as
    /// the feasibility checks decide). Nomad prefers the device with the
    /// best affinity score and breaks ties by Go's map order; here the
    /// node's order breaks them and affinities are left to the caller. The
    /// error is Nomad's, reported as `"devices: <error>"`.
    pub fn assign(
        &self,
        ask: &RequestedDevice,
        matches: impl Fn(&NodeDevice) -> bool,
    ) -> Result<AllocatedDevice, &'static str> {
        if self.devices.is_empty() {
            return Err("no devices available");
        }
        if ask.count == 0 {
            return Err("invalid request of zero devices");
        }
        let count = usize::try_from(ask.count).unwrap_or(usize::MAX);
        self.devices
            .iter()
            .find_map(|(d, instances)| {
                let free: Vec<&str> = instances
                    .iter()
                    .filter(|(_, holders)| *holders == 0)
                    .map(|(id, _)| *id)
                    .collect();
                (free.len() >= count && matches(d)).then(|| AllocatedDevice {
                    vendor: d.vendor.clone(),
                    device_type: d.device_type.clone(),
                    name: d.name.clone(),
                    device_ids: free[..count].iter().map(|id| id.to_string()).collect(),
                })
            })
            .ok_or("no devices match request")
    }
}

/// `DeviceIdTuple` equality: vendor, type and name.
fn same_device(d: &NodeDevice, held: &AllocatedDevice) -> bool {
    d.vendor == held.vendor && d.device_type == held.device_type && d.name == held.name
}
