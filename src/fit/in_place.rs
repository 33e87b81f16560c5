//! What an in-place update keeps of the allocation it updates.

use crate::model::resources::AllocatedResources;

use super::rules::FitRules;

/// The resources of an in-place update: the new offer's CPU, memory and
/// disk, with the existing allocation's task networks and devices and its
/// group networks and ports, which an in-place update may not change
/// (`genericAllocUpdateFn`, scheduler/util.go:879-916 at 1.3.0,
/// :881-927 at 2.0.5), and from 1.10.1 (#25705) its tasks' reserved
/// cores; before, the cores are the new offer's. A task the existing
/// allocation lacks keeps none.
pub fn in_place_resources(
    offer: &AllocatedResources,
    existing: &AllocatedResources,
    rules: &FitRules,
) -> AllocatedResources {
    let mut kept = offer.clone();
    for (name, task) in kept.tasks.iter_mut() {
        let old = existing.tasks.get(name.as_str());
        task.networks = old.map(|t| t.networks.clone()).unwrap_or_default();
        task.devices = old.map(|t| t.devices.clone()).unwrap_or_default();
        if rules.in_place_keeps_cores {
            task.cpu.reserved_cores = old
                .map(|t| t.cpu.reserved_cores.clone())
                .unwrap_or_default();
        }
    }
    kept.shared.networks = existing.shared.networks.clone();
    kept.shared.ports = existing.shared.ports.clone();
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::version::v;

    fn resources(text: &str) -> AllocatedResources {
        serde_json::from_str(text).unwrap()
    }

    /// The offer's amounts stay; its ports, devices and (from 1.10.1)
    /// cores give way to the existing allocation's.
    #[test]
    fn an_in_place_update_keeps_ports_devices_and_from_1_10_1_cores() {
        let offer = resources(
            r#"{"Tasks": {"web": {"Cpu": {"CpuShares": 700, "ReservedCores": [0]},
                "Memory": {"MemoryMB": 300},
                "Networks": [{"IP": "10.0.0.1", "DynamicPorts": [{"Label": "http", "Value": 20000}]}],
                "Devices": [{"Name": "gpu", "DeviceIDs": ["d0"]}]}},
                "Shared": {"DiskMB": 200, "Ports": [{"Label": "a", "Value": 20001}]}}"#,
        );
        let existing = resources(
            r#"{"Tasks": {"web": {"Cpu": {"CpuShares": 500, "ReservedCores": [2]},
                "Memory": {"MemoryMB": 256},
                "Networks": [{"IP": "10.0.0.1", "DynamicPorts": [{"Label": "http", "Value": 25000}]}],
                "Devices": [{"Name": "gpu", "DeviceIDs": ["d1"]}]}},
                "Shared": {"DiskMB": 150, "Ports": [{"Label": "a", "Value": 25001}]}}"#,
        );
        for (release, cores) in [(v(1, 10, 0), 0), (v(1, 10, 1), 2), (v(2, 0, 5), 2)] {
            let kept = in_place_resources(&offer, &existing, &FitRules::of(release));
            let web = &kept.tasks["web"];
            assert_eq!((web.cpu.cpu_shares, web.memory.memory_mb), (700, 300));
            assert_eq!(web.cpu.reserved_cores, [cores], "{release}");
            assert_eq!(web.networks[0].dynamic_ports[0].value, 25000);
            assert_eq!(web.devices[0].device_ids, ["d1"]);
            assert_eq!(kept.shared.disk_mb, 200);
            assert_eq!(kept.shared.ports[0].value, 25001);
        }
    }
}
