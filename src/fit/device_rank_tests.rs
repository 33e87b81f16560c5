//! `TestBinPackIterator_Devices` (scheduler/rank_test.go at 1.3.0,
//! scheduler/feasible/rank_test.go at 2.0.5) on the bin packer's device
//! assignment: which instances of `mock.NvidiaNode()`'s two 1080ti a task
//! gets beside the allocations the node has or the plan put there.
//! Nomad's case "single request, with affinities" also scores the node's
//! device affinity (1.0 for a clock over 1.4 GHz); plan-inspect does not
//! score device affinities yet, so only its placement is asserted here.

use super::tests::web_ask;
use super::*;
use crate::feasibility::device_serves;
use crate::model::resources::{AllocUsage, NodeSupply};
use crate::model::{Affinity, RequestedDevice, Resources, from_slice};
use crate::version::{Release, v};

/// `mock.NvidiaNode()`: 4000 MHz, 8192 MB, two healthy 1080ti.
fn nvidia() -> NodeSupply {
    let json = r#"{"NodeResources": {"Cpu": {"CpuShares": 4000},
        "Memory": {"MemoryMB": 8192}, "Disk": {"DiskMB": 102400},
        "Devices": [{"Type": "gpu", "Vendor": "nvidia", "Name": "1080ti",
            "Attributes": {"graphics_clock": {"Int": 1480, "Unit": "MHz"}},
            "Instances": [{"ID": "dev0", "Healthy": true}, {"ID": "dev1", "Healthy": true}]}]}}"#;
    from_slice(json.as_bytes()).unwrap()
}

/// `mock.Alloc()` holding `dev0`, running (existing) or pending (planned).
fn holding_dev0(status: &str) -> AllocUsage {
    let json = format!(
        r#"{{"ClientStatus": "{status}", "DesiredStatus": "run",
        "AllocatedResources": {{"Tasks": {{"web": {{"Cpu": {{"CpuShares": 500}},
        "Memory": {{"MemoryMB": 256}}, "Devices": [{{"Type": "gpu", "Vendor": "nvidia",
        "Name": "1080ti", "DeviceIDs": ["dev0"]}}]}}}}, "Shared": {{"DiskMB": 150}}}}}}"#
    );
    from_slice(json.as_bytes()).unwrap()
}

/// The device IDs task "web" gets asking `count` of `name`, beside
/// `proposed`; `None` when the node cannot take it.
fn assigned(
    release: Release,
    name: &str,
    count: u64,
    affinities: Vec<Affinity>,
    proposed: &[&AllocUsage],
) -> Option<Vec<String>> {
    let r = Resources {
        cpu: 1024,
        memory_mb: 1024,
        devices: vec![RequestedDevice {
            name: name.to_string(),
            count,
            affinities,
            ..RequestedDevice::default()
        }],
        ..Resources::default()
    };
    let ask = web_ask(&r);
    let settings = Settings {
        rules: FitRules::of(release),
        memory_oversubscription: true,
    };
    let placed = place(&nvidia(), proposed, &ask, &settings, device_serves).ok()?;
    let devices = &placed.allocated.tasks["web"].devices;
    assert!(devices.iter().all(
        |d| (d.vendor.as_str(), d.device_type.as_str(), d.name.as_str())
            == ("nvidia", "gpu", "1080ti")
    ));
    Some(devices.iter().flat_map(|d| d.device_ids.clone()).collect())
}

#[test]
fn rank_test_go_v1_3_0_v2_0_5_bin_pack_iterator_devices() {
    let clock: Affinity = from_slice(
        br#"{"LTarget": "${device.attr.graphics_clock}", "Operand": ">",
             "RTarget": "1.4 GHz", "Weight": 90}"#,
    )
    .unwrap();
    for release in [v(1, 3, 0), v(2, 0, 5)] {
        let count = |ids: Option<Vec<String>>| ids.map(|i| i.len());
        // single request, match; multiple count, match
        assert_eq!(
            count(assigned(release, "nvidia/gpu", 1, vec![], &[])),
            Some(1)
        );
        assert_eq!(
            count(assigned(release, "nvidia/gpu", 2, vec![], &[])),
            Some(2)
        );
        // single request, with affinities (placement only, above)
        let with = assigned(release, "nvidia/gpu", 1, vec![clock.clone()], &[]);
        assert_eq!(count(with), Some(1), "{release}");
        // single request over count, no match; no device of matching type
        assert_eq!(assigned(release, "nvidia/gpu", 6, vec![], &[]), None);
        assert_eq!(assigned(release, "fpga", 1, vec![], &[]), None);
        // single request with previous uses; with planned uses
        for status in ["running", "pending"] {
            let used = holding_dev0(status);
            let got = assigned(release, "nvidia/gpu", 1, vec![], &[&used]);
            assert_eq!(got, Some(vec!["dev1".to_string()]), "{release} {status}");
        }
    }
}
