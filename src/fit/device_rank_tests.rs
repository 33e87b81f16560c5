//! `TestBinPackIterator_Devices` (scheduler/rank_test.go at 1.3.0,
//! scheduler/feasible/rank_test.go at 2.0.5) on the bin packer's device
//! assignment: which instances of `mock.NvidiaNode()`'s two 1080ti a task
//! gets beside the allocations the node has or the plan put there.
//! The case "single request, with affinities" scores the node's device
//! affinity as its second score ("devices", 1.0 for a clock over 1.4 GHz).
//! Then `TestBinPackIterator_Device_Failure_With_Eviction` and
//! `..._Device_Preemption_MultipleDeviceRequests` (2.0.5), which evict for
//! a device.

use super::tests::web_ask;
use super::*;
use crate::model::resources::{AllocUsage, NodeSupply};
use crate::model::{Affinity, RequestedDevice, Resources, UsageView, from_slice};
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
/// `proposed`, and the node's "devices" score; `None` when the node cannot
/// take it.
fn assigned(
    release: Release,
    name: &str,
    count: u64,
    affinities: Vec<Affinity>,
    proposed: &[&AllocUsage],
) -> Option<(Vec<String>, Option<f64>)> {
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
    let views: Vec<UsageView<'_>> = proposed.iter().map(|a| a.view()).collect();
    let placed = place(&nvidia(), &views, &ask, &settings).ok()?;
    let devices = &placed.allocated.tasks["web"].devices;
    assert!(devices.iter().all(
        |d| (d.vendor.as_str(), d.device_type.as_str(), d.name.as_str())
            == ("nvidia", "gpu", "1080ti")
    ));
    let ids = devices.iter().flat_map(|d| d.device_ids.clone()).collect();
    Some((ids, placed.devices))
}

#[test]
fn rank_test_go_v1_3_0_v2_0_5_bin_pack_iterator_devices() {
    let clock: Affinity = from_slice(
        br#"{"LTarget": "${device.attr.graphics_clock}", "Operand": ">",
             "RTarget": "1.4 GHz", "Weight": 90}"#,
    )
    .unwrap();
    for release in [v(1, 3, 0), v(2, 0, 5)] {
        let count = |got: Option<(Vec<String>, Option<f64>)>| {
            got.map(|(ids, score)| {
                assert_eq!(score, None, "no device affinities, no score");
                ids.len()
            })
        };
        // single request, match; multiple count, match
        assert_eq!(
            count(assigned(release, "nvidia/gpu", 1, vec![], &[])),
            Some(1)
        );
        assert_eq!(
            count(assigned(release, "nvidia/gpu", 2, vec![], &[])),
            Some(2)
        );
        // single request, with affinities: DeviceScore 1.0
        let (ids, score) = assigned(release, "nvidia/gpu", 1, vec![clock.clone()], &[]).unwrap();
        assert_eq!((ids.len(), score), (1, Some(1.0)), "{release}");
        // single request over count, no match; no device of matching type
        assert_eq!(assigned(release, "nvidia/gpu", 6, vec![], &[]), None);
        assert_eq!(assigned(release, "fpga", 1, vec![], &[]), None);
        // single request with previous uses; with planned uses
        for status in ["running", "pending"] {
            let used = holding_dev0(status);
            let got = assigned(release, "nvidia/gpu", 1, vec![], &[&used]);
            let want = (vec!["dev1".to_string()], None);
            assert_eq!(got, Some(want), "{release} {status}");
        }
    }
}

/// Two requests, one with affinities the device meets (90 of 90) and one
/// whose affinity it misses (weight -10): the "devices" score is the
/// matched weights over all of them, 90 / 100 (scheduler/rank.go:451-457,
/// :542-547 at 1.3.0).
#[test]
fn rank_go_v1_3_0_device_score_sums_over_requests() {
    let clock: Affinity = from_slice(
        br#"{"LTarget": "${device.attr.graphics_clock}", "Operand": ">",
             "RTarget": "1.4 GHz", "Weight": 90}"#,
    )
    .unwrap();
    let slow: Affinity = from_slice(
        br#"{"LTarget": "${device.attr.graphics_clock}", "Operand": "<",
             "RTarget": "1 GHz", "Weight": -10}"#,
    )
    .unwrap();
    let request = |affinities| RequestedDevice {
        name: "gpu".to_string(),
        count: 1,
        affinities,
        ..RequestedDevice::default()
    };
    let r = Resources {
        cpu: 100,
        memory_mb: 100,
        devices: vec![request(vec![clock]), request(vec![slow]), request(vec![])],
        ..Resources::default()
    };
    let ask = web_ask(&r);
    let node = {
        let json = r#"{"NodeResources": {"Cpu": {"CpuShares": 4000},
            "Memory": {"MemoryMB": 8192}, "Disk": {"DiskMB": 102400},
            "Devices": [{"Type": "gpu", "Vendor": "nvidia", "Name": "1080ti",
                "Attributes": {"graphics_clock": {"Int": 1480, "Unit": "MHz"}},
                "Instances": [{"ID": "a", "Healthy": true}, {"ID": "b", "Healthy": true},
                              {"ID": "c", "Healthy": true}]}]}}"#;
        from_slice::<NodeSupply>(json.as_bytes()).unwrap()
    };
    let settings = Settings {
        rules: FitRules::of(v(1, 3, 0)),
        memory_oversubscription: false,
    };
    let placed = place(&node, &[], &ask, &settings).unwrap();
    assert_eq!(placed.devices, Some(0.9));
    let ids: Vec<&str> = placed.allocated.tasks["web"]
        .devices
        .iter()
        .flat_map(|d| d.device_ids.iter().map(String::as_str))
        .collect();
    assert_eq!(ids, ["a", "b", "c"]);
}

/// A node of 4096 MHz and 4096 MB with one GPU per ID in `ids`.
fn gpu_node(ids: &[&str]) -> NodeSupply {
    let instances: Vec<String> = ids
        .iter()
        .map(|id| format!(r#"{{"ID": "{id}", "Healthy": true}}"#))
        .collect();
    let json = format!(
        r#"{{"NodeResources": {{"Cpu": {{"CpuShares": 4096}}, "Memory": {{"MemoryMB": 4096}},
            "Devices": [{{"Type": "gpu", "Vendor": "nvidia", "Name": "SOME-GPU",
                "Instances": [{}]}}]}}}}"#,
        instances.join(", ")
    );
    from_slice(json.as_bytes()).unwrap()
}

/// An allocation `id` of task "web" holding `ids` of the node's GPU.
fn gpu_alloc(id: &str, cpu: i64, memory: i64, ids: &[&str]) -> AllocUsage {
    let json = format!(
        r#"{{"ID": "{id}", "ClientStatus": "running", "DesiredStatus": "run",
        "AllocatedResources": {{"Tasks": {{"web": {{"Cpu": {{"CpuShares": {cpu}}},
        "Memory": {{"MemoryMB": {memory}}}, "Devices": [{{"Type": "gpu", "Vendor": "nvidia",
        "Name": "SOME-GPU", "DeviceIDs": {ids:?}}}]}}}}}}}}"#
    );
    from_slice(json.as_bytes()).unwrap()
}

/// `place_evicting` of a group asking one GPU per entry of `requests`
/// for a job of priority 100, beside `allocs` (of priority 50 where
/// `candidate`).
fn evicting(
    release: Release,
    node: &NodeSupply,
    allocs: &[(&AllocUsage, bool)],
    requests: usize,
) -> Result<Placed, Shortfall> {
    let r = Resources {
        cpu: 1000,
        memory_mb: 512,
        devices: vec![
            RequestedDevice {
                name: "nvidia/gpu".to_string(),
                count: 1,
                ..RequestedDevice::default()
            };
            requests
        ],
        ..Resources::default()
    };
    let ask = web_ask(&r);
    let candidates: Vec<Candidate<'_>> = allocs
        .iter()
        .filter(|(_, candidate)| *candidate)
        .map(|(usage, _)| Candidate {
            usage: usage.view(),
            namespace: "default",
            job_id: "low",
            task_group: "web",
            priority: Some(50),
            max_parallel: 0,
        })
        .collect();
    let eviction = Eviction {
        priority: 100,
        namespace: "default",
        job_id: "high",
        candidates: &candidates,
        preempted: &[],
    };
    let settings = Settings {
        rules: FitRules::of(release),
        memory_oversubscription: false,
    };
    let proposed: Vec<UsageView<'_>> = allocs.iter().map(|(u, _)| u.view()).collect();
    place_evicting(node, &proposed, &ask, &settings, Some(&eviction))
}

/// `TestBinPackIterator_Device_Failure_With_Eviction` (2.0.5): the only
/// GPU is held by a planned allocation no preemption may take, so the node
/// is exhausted as "devices: no devices match request"; before 1.7.7 it
/// was skipped without being counted.
#[test]
fn rank_test_go_v2_0_5_bin_pack_iterator_device_failure_with_eviction() {
    let node = gpu_node(&["1"]);
    let planned = gpu_alloc("planned", 2048, 2048, &["1"]);
    for (release, counted) in [(v(2, 0, 5), true), (v(1, 7, 7), true), (v(1, 3, 0), false)] {
        let miss = evicting(release, &node, &[(&planned, false)], 1).unwrap_err();
        assert_eq!(miss.dimension, "devices: no devices match request");
        assert_eq!(miss.unrecorded, !counted, "{release}");
    }
}

/// `TestBinPackIterator_Device_Preemption_MultipleDeviceRequests` (2.0.5):
/// two requests of one GPU each, both GPUs held by one lower-priority
/// allocation. The first request evicts it; from 2.0.1 (#27880) the second
/// is offered the GPU it freed, so the node takes the group with that one
/// eviction. At 2.0.0 the second request still sees both GPUs held, finds
/// nothing more to evict, and the node fails.
#[test]
fn rank_test_go_v2_0_5_bin_pack_iterator_device_preemption_multiple_device_requests() {
    let node = gpu_node(&["1", "2"]);
    let existing = gpu_alloc("existing", 0, 0, &["1", "2"]);
    let placed = evicting(v(2, 0, 5), &node, &[(&existing, true)], 2).unwrap();
    assert_eq!(placed.preempted, ["existing"]);
    let devices = &placed.allocated.tasks["web"].devices;
    let ids: Vec<&[String]> = devices.iter().map(|d| d.device_ids.as_slice()).collect();
    assert_eq!(ids, [["1"], ["2"]]);
    assert!(evicting(v(2, 0, 1), &node, &[(&existing, true)], 2).is_ok());
    let miss = evicting(v(2, 0, 0), &node, &[(&existing, true)], 2).unwrap_err();
    assert_eq!(miss.dimension, "devices: no devices match request");
}
