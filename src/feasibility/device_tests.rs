//! `TestDeviceChecker` (scheduler/feasible_test.go at 1.3.0): a node's
//! devices against a group's requests, by name, health, count and
//! constraints whose right sides carry units of other sizes than the
//! node's attributes ("1320.5 MB" against 4 GiB, ".98   GiB/s" against
//! 995 MiB/s, "800MHz" written without a space). The 2.0.5 version adds
//! `${device.ids}` (#15455, 1.5.0) and counts a request over several
//! matching devices (#26649, 1.11.0), which plan-inspect does not replay.

use super::devices::{device_serves, has_devices};
use crate::model::resources::NodeDevice;
use crate::model::{Constraint, RequestedDevice, from_slice};

fn device(name: &str, healthy: bool) -> NodeDevice {
    let json = format!(
        r#"{{"Vendor": "nvidia", "Type": "gpu", "Name": "{name}",
        "Attributes": {{"memory": {{"Int": 4, "Unit": "GiB"}},
                       "pci_bandwidth": {{"Int": 995, "Unit": "MiB/s"}},
                       "cores_clock": {{"Int": 800, "Unit": "MHz"}}}},
        "Instances": [{{"ID": "i0", "Healthy": {healthy}}}, {{"ID": "i1", "Healthy": {healthy}}}]}}"#
    );
    from_slice(json.as_bytes()).unwrap()
}

fn request(name: &str, count: u64, constraints: &[(&str, &str, &str)]) -> RequestedDevice {
    RequestedDevice {
        name: name.to_string(),
        count,
        constraints: constraints
            .iter()
            .map(|(l, op, r)| Constraint {
                l_target: l.to_string().into(),
                r_target: r.to_string().into(),
                operand: op.to_string().into(),
            })
            .collect(),
        ..RequestedDevice::default()
    }
}

/// The four constraints of the constraint cases, with `model`, and `>`
/// or `<` on the memory.
fn constraints(
    model: &'static str,
    memory: &'static str,
) -> [(&'static str, &'static str, &'static str); 4] {
    [
        ("${device.model}", "=", model),
        ("${device.attr.memory}", memory, "1320.5 MB"),
        ("${device.attr.pci_bandwidth}", "<=", ".98   GiB/s"),
        ("${device.attr.cores_clock}", "=", "800MHz"),
    ]
}

/// A case's name, the node's devices, the requests and whether they fit.
type Case<'d> = (
    &'static str,
    Option<&'d [NodeDevice]>,
    Vec<RequestedDevice>,
    bool,
);

#[test]
fn feasible_test_go_v1_3_0_device_checker() {
    let nvidia = vec![device("1080ti", true)];
    let unhealthy = vec![device("1080ti", false)];
    let fits = |devices: Option<&[NodeDevice]>, reqs: &[RequestedDevice]| {
        has_devices(&reqs.iter().collect::<Vec<_>>(), devices)
    };
    let one = |name| vec![request(name, 1, &[])];
    let cases: Vec<Case<'_>> = vec![
        ("no devices on node", None, one("gpu"), false),
        ("no requested devices on empty node", None, vec![], true),
        ("gpu devices by type", Some(&nvidia), one("gpu"), true),
        ("wrong devices by type", Some(&nvidia), one("fpga"), false),
        (
            "devices by type unhealthy node",
            Some(&unhealthy),
            one("gpu"),
            false,
        ),
        (
            "gpu devices by vendor/type",
            Some(&nvidia),
            one("nvidia/gpu"),
            true,
        ),
        (
            "wrong devices by vendor/type",
            Some(&nvidia),
            one("nvidia/fpga"),
            false,
        ),
        (
            "gpu devices by vendor/type/model",
            Some(&nvidia),
            one("nvidia/gpu/1080ti"),
            true,
        ),
        (
            "wrong devices by vendor/type/model",
            Some(&nvidia),
            one("nvidia/fpga/F100"),
            false,
        ),
        (
            "too many requested",
            Some(&nvidia),
            vec![request("gpu", 3, &[])],
            false,
        ),
        (
            "meets constraints requirement",
            Some(&nvidia),
            vec![request("nvidia/gpu", 1, &constraints("1080ti", ">"))],
            true,
        ),
        (
            "meets constraints requirement multiple count",
            Some(&nvidia),
            vec![request("nvidia/gpu", 2, &constraints("1080ti", ">"))],
            true,
        ),
        (
            "meets constraints requirement over count",
            Some(&nvidia),
            vec![request("nvidia/gpu", 5, &constraints("1080ti", ">"))],
            false,
        ),
        (
            "does not meet first constraint",
            Some(&nvidia),
            vec![request("nvidia/gpu", 1, &constraints("2080ti", ">"))],
            false,
        ),
        (
            "does not meet second constraint",
            Some(&nvidia),
            vec![request("nvidia/gpu", 1, &constraints("1080ti", "<"))],
            false,
        ),
    ];
    for (name, devices, reqs, want) in cases {
        assert_eq!(fits(devices, &reqs), want, "{name}");
    }
    // Units of one base compare in it; across bases, or with a number
    // without a unit, never.
    let d = &nvidia[0];
    let serves = |l: &str, op: &str, r: &str| device_serves(d, &request("gpu", 1, &[(l, op, r)]));
    assert!(serves("${device.attr.memory}", "=", "4096 MiB"));
    assert!(serves("${device.attr.memory}", ">", "4 GB"));
    assert!(serves("${device.attr.cores_clock}", "<", "0.9 GHz"));
    assert!(!serves("${device.attr.cores_clock}", "<", "1 GiB"));
    assert!(!serves("${device.attr.memory}", ">", "1"));
    assert!(!serves("${device.attr.memory}", "=", "4 foo"));
}
