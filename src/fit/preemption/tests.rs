//! `TestResourceDistance` and the table of `TestPreemption`
//! (scheduler/preemption_test.go at 1.3.0; `TestPreemption_Normal` in
//! scheduler/feasible/preemption_test.go at 2.0.5, the same cases on a
//! node whose CPU comes from its topology).

use super::super::comparable::Comparable;
use super::super::place::{Eviction, GroupAsk, Settings, TaskAsk, place_evicting};
use super::super::rules::FitRules;
use std::sync::Arc;

use super::*;
use crate::model::resources::{
    AllocUsage, AllocatedDevice, AllocatedResources, AllocatedTaskResources,
};
use crate::model::{NetworkResource, Port, RequestedDevice, Resources, UsageView, from_slice};
use crate::version::{Release, v};

#[test]
fn resource_distance_v1_3_0() {
    let r = |cpu, mem, disk| Comparable {
        cpu_shares: cpu,
        memory_mb: mem,
        disk_mb: disk,
        ..Comparable::default()
    };
    let ask = r(2048, 512, 4096);
    let d = |used| format!("{:.3}", distance::resources(&ask, &used));
    assert_eq!(d(r(2048, 512, 4096)), "0.000");
    assert_eq!(d(r(1024, 400, 1024)), "0.928");
    assert_eq!(d(r(8192, 200, 1024)), "3.152");
    assert_eq!(d(r(2048, 500, 4096)), "0.023");
}

fn node(release: Release, two_nics: bool) -> NodeSupply {
    let cpu = if release.has(&[v(1, 7, 0)]) {
        r#""Cpu": {"CpuShares": 4000, "TotalCpuCores": 4},
           "Processors": {"Topology": {"Cores": [{"ID": 0, "BaseSpeed": 1000},
             {"ID": 1, "BaseSpeed": 1000}, {"ID": 2, "BaseSpeed": 1000},
             {"ID": 3, "BaseSpeed": 1000}]}}"#
    } else {
        r#""Cpu": {"CpuShares": 4000}"#
    };
    let nics = if two_nics {
        r#"[{"Device": "eth0", "CIDR": "192.168.0.100/32", "MBits": 1000},
            {"Device": "eth1", "CIDR": "192.168.1.100/32", "MBits": 1000}]"#
    } else {
        r#"[{"Device": "eth0", "CIDR": "192.168.0.100/32", "MBits": 1000}]"#
    };
    let devices = if two_nics {
        "[]"
    } else {
        r#"[{"Type": "gpu", "Vendor": "nvidia", "Name": "1080ti", "Instances": [
              {"ID": "dev0", "Healthy": true}, {"ID": "dev1", "Healthy": true},
              {"ID": "dev2", "Healthy": true}, {"ID": "dev3", "Healthy": true}]},
            {"Type": "gpu", "Vendor": "nvidia", "Name": "2080ti", "Instances": [
              {"ID": "dev4", "Healthy": true}, {"ID": "dev5", "Healthy": true},
              {"ID": "dev6", "Healthy": true}, {"ID": "dev7", "Healthy": true},
              {"ID": "dev8", "Healthy": true}]},
            {"Type": "fpga", "Vendor": "intel", "Name": "F100", "Instances": [
              {"ID": "fpga1", "Healthy": true}, {"ID": "fpga2", "Healthy": false}]}]"#
    };
    let json = format!(
        r#"{{"ID": "n1", "NodeResources": {{{cpu}, "Memory": {{"MemoryMB": 8192}},
            "Disk": {{"DiskMB": 102400}}, "Networks": {nics}, "Devices": {devices}}},
            "ReservedResources": {{"Cpu": {{"CpuShares": 100}}, "Memory": {{"MemoryMB": 256}},
            "Disk": {{"DiskMB": 4096}}}}}}"#
    );
    from_slice(json.as_bytes()).unwrap()
}

/// A network: device, IP, bandwidth and reserved ports.
type Net = (&'static str, &'static str, i64, &'static [i64]);

fn net(n: &Net) -> NetworkResource {
    NetworkResource {
        device: n.0.into(),
        ip: n.1.into(),
        mbits: n.2,
        reserved_ports: n.3.iter().map(|p| port(*p)).collect(),
        ..NetworkResource::default()
    }
}

fn port(value: i64) -> Port {
    Port {
        label: format!("p{value}").into(),
        value,
        ..Port::default()
    }
}

/// Nomad's `createAllocInner`: one task "web" with the CPU, memory and
/// networks given (its disk is not carried), a device and a group network.
struct Alloc {
    id: &'static str,
    priority: i64,
    cpu: i64,
    mem: i64,
    nets: &'static [Net],
    device: Option<(&'static str, &'static [&'static str])>,
    group_net: Option<Net>,
}

const fn a(id: &'static str, priority: i64, cpu: i64, mem: i64, nets: &'static [Net]) -> Alloc {
    Alloc {
        id,
        priority,
        cpu,
        mem,
        nets,
        device: None,
        group_net: None,
    }
}

fn usage(x: &Alloc) -> AllocUsage {
    let mut task = AllocatedTaskResources::default();
    task.cpu.cpu_shares = x.cpu;
    task.memory.memory_mb = x.mem;
    task.networks = x.nets.iter().map(net).collect();
    if let Some((name, ids)) = x.device {
        let (vendor, kind) = if name == "F100" {
            ("intel", "fpga")
        } else {
            ("nvidia", "gpu")
        };
        task.devices.push(AllocatedDevice {
            vendor: vendor.to_string(),
            device_type: kind.to_string(),
            name: name.to_string(),
            device_ids: ids.iter().map(|s| s.to_string()).collect(),
        });
    }
    let mut r = AllocatedResources::default();
    r.tasks.insert("web".to_string(), task);
    r.shared.networks = x.group_net.iter().map(net).collect();
    AllocUsage {
        id: x.id.into(),
        client_status: "running".into(),
        desired_status: "run".into(),
        allocated_resources: Some(Arc::new(r)),
        ..AllocUsage::default()
    }
}

struct Case {
    desc: &'static str,
    allocs: Vec<Alloc>,
    two_nics: bool,
    priority: i64,
    /// CPU, memory, a task network and a device request.
    ask: (i64, i64, Option<Net>, Option<(&'static str, u64)>),
    /// The job priority of allocations the plan preempts already.
    plan: Vec<Alloc>,
    want: Option<Vec<&'static str>>,
}

fn run(case: &Case, release: Release) {
    let n = node(release, case.two_nics);
    let usages: Vec<AllocUsage> = case.allocs.iter().map(usage).collect();
    let job = |p: i64| match p {
        100 => "high",
        30 => "low",
        _ => "low2",
    };
    let candidates: Vec<Candidate<'_>> = case
        .allocs
        .iter()
        .zip(&usages)
        .map(|(x, u)| Candidate {
            usage: u.view(),
            namespace: "default",
            job_id: job(x.priority),
            task_group: "web",
            priority: Some(x.priority),
            max_parallel: 0,
        })
        .collect();
    let preempted: Vec<VictimGroup<'_>> = case
        .plan
        .iter()
        .map(|x| ("default", job(x.priority), "web"))
        .collect();
    let (cpu, mem, task_net, device) = case.ask;
    let resources = Resources {
        cpu,
        memory_mb: mem,
        networks: task_net.iter().map(net).collect(),
        devices: device
            .iter()
            .map(|(name, count)| RequestedDevice {
                name: name.to_string(),
                count: *count,
                ..RequestedDevice::default()
            })
            .collect(),
        ..Resources::default()
    };
    let ask = GroupAsk {
        disk_mb: 0,
        network: None,
        tasks: vec![TaskAsk {
            name: "web",
            resources: &resources,
            lifecycle: None,
        }],
    };
    let settings = Settings {
        rules: FitRules::of(release),
        memory_oversubscription: false,
    };
    let eviction = Eviction {
        priority: case.priority,
        namespace: "default",
        job_id: "placing",
        candidates: &candidates,
        preempted: &preempted,
    };
    let proposed: Vec<UsageView<'_>> = usages.iter().map(AllocUsage::view).collect();
    let got = place_evicting(&n, &proposed, &ask, &settings, Some(&eviction));
    match &case.want {
        None => assert!(got.is_err(), "{}: {got:?}", case.desc),
        Some(want) => {
            let mut got = got
                .unwrap_or_else(|e| panic!("{}: {e:?}", case.desc))
                .preempted;
            got.sort();
            assert_eq!(&got, want, "{} at {release}", case.desc);
        }
    }
}

mod table;
