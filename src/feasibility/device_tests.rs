//! `TestDeviceChecker` (scheduler/feasible_test.go at 1.3.0,
//! scheduler/feasible/feasible_test.go at 2.0.5): a node's devices against
//! a group's requests, by name, health, count and constraints whose right
//! sides carry units of other sizes than the node's attributes ("1320.5
//! MB" against 4 GiB, ".98   GiB/s" against 995 MiB/s, "800MHz" written
//! without a space); at 2.0.5 also `${device.ids}` (#15455) and a request
//! counted over two devices (#26649).

use super::device_rules::DeviceRules;
use super::devices::{device_serves, has_devices};
use crate::model::resources::NodeDevice;
use crate::model::{Constraint, RequestedDevice, from_slice};
use crate::version::{Release, v};

fn device(name: &str, healthy: bool) -> NodeDevice {
    let json = format!(
        r#"{{"Vendor": "nvidia", "Type": "gpu", "Name": "{name}",
        "Attributes": {{"memory": {{"Int": 4, "Unit": "GiB"}},
                       "pci_bandwidth": {{"Int": 995, "Unit": "MiB/s"}},
                       "cores_clock": {{"Int": 800, "Unit": "MHz"}}}},
        "Instances": [{{"ID": "{name}-0", "Healthy": {healthy}}},
                      {{"ID": "{name}-1", "Healthy": {healthy}}}]}}"#
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
        let rules = DeviceRules::of(v(1, 3, 0));
        has_devices(&reqs.iter().collect::<Vec<_>>(), devices, rules)
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
    let rules = DeviceRules::of(v(1, 3, 0));
    let serves =
        |l: &str, op: &str, r: &str| device_serves(d, &request("gpu", 1, &[(l, op, r)]), rules);
    assert!(serves("${device.attr.memory}", "=", "4096 MiB"));
    assert!(serves("${device.attr.memory}", ">", "4 GB"));
    assert!(serves("${device.attr.cores_clock}", "<", "0.9 GHz"));
    assert!(!serves("${device.attr.cores_clock}", "<", "1 GiB"));
    assert!(!serves("${device.attr.memory}", ">", "1"));
    assert!(!serves("${device.attr.memory}", "=", "4 foo"));
}

/// Whether `reqs` pass the checker on `devices` at `release`.
fn passes(release: Release, devices: &[NodeDevice], reqs: &[RequestedDevice]) -> bool {
    let reqs: Vec<&RequestedDevice> = reqs.iter().collect();
    has_devices(&reqs, Some(devices), DeviceRules::of(release))
}

#[test]
fn feasible_test_go_v2_0_5_device_checker() {
    let release = v(2, 0, 5);
    let a = device("1080ti", true);
    let b = device("2080ti", true);
    let nvidia = vec![a.clone()];
    let unhealthy = vec![device("1080ti", false)];
    let both = vec![a, b];
    let with = |count, extra: (&'static str, &'static str, &'static str)| {
        let [c0, c1, c2, c3] = constraints("1080ti", ">");
        vec![request("nvidia/gpu", count, &[c0, c1, c2, c3, extra])]
    };
    let one = |name| vec![request(name, 1, &[])];
    let none: &[NodeDevice] = &[];
    let cases: Vec<(&str, &[NodeDevice], Vec<RequestedDevice>, bool)> = vec![
        ("no devices on node", none, one("gpu"), false),
        ("gpu devices by type", &nvidia, one("gpu"), true),
        ("wrong devices by type", &nvidia, one("fpga"), false),
        (
            "devices by type unhealthy node",
            &unhealthy,
            one("gpu"),
            false,
        ),
        (
            "gpu devices by vendor/type",
            &nvidia,
            one("nvidia/gpu"),
            true,
        ),
        (
            "wrong devices by vendor/type",
            &nvidia,
            one("nvidia/fpga"),
            false,
        ),
        (
            "gpu devices by vendor/type/model",
            &nvidia,
            one("nvidia/gpu/1080ti"),
            true,
        ),
        (
            "wrong devices by vendor/type/model",
            &nvidia,
            one("nvidia/fpga/F100"),
            false,
        ),
        (
            "too many requested",
            &nvidia,
            vec![request("gpu", 3, &[])],
            false,
        ),
        (
            "meets constraints requirement",
            &nvidia,
            with(1, ("${device.ids}", "set_contains", "1080ti-0")),
            true,
        ),
        (
            "meets constraints requirement multiple count",
            &nvidia,
            with(2, ("${device.ids}", "set_contains", "1080ti-1,1080ti-0")),
            true,
        ),
        (
            "meets constraints requirement over count",
            &nvidia,
            vec![request("nvidia/gpu", 5, &constraints("1080ti", ">"))],
            false,
        ),
        (
            "does not meet first constraint",
            &nvidia,
            vec![request("nvidia/gpu", 1, &constraints("2080ti", ">"))],
            false,
        ),
        (
            "does not meet second constraint",
            &nvidia,
            vec![request("nvidia/gpu", 1, &constraints("1080ti", "<"))],
            false,
        ),
        (
            "does not meet ID constraint",
            &nvidia,
            vec![request(
                "nvidia/gpu",
                1,
                &[("${device.ids}", "set_contains", "not_valid")],
            )],
            false,
        ),
        (
            "different model GPU's meets device request",
            &both,
            vec![request("nvidia/gpu", 2, &[])],
            true,
        ),
    ];
    for (name, devices, reqs, want) in cases {
        assert_eq!(passes(release, devices, &reqs), want, "{name}");
    }
    let reqs: Vec<&RequestedDevice> = Vec::new();
    assert!(has_devices(&reqs, None, DeviceRules::of(release)));
}

/// #15455: `${device.ids}` is the device's instance IDs, unhealthy ones
/// included, from 1.4.5 and 1.5.0; before, a target not found.
#[test]
fn device_ids_target_from_1_4_5_and_1_5_0() {
    let mut d = device("1080ti", true);
    d.instances[1].healthy = false;
    let devices = vec![d];
    let ids = |op, r| vec![request("gpu", 1, &[("${device.ids}", op, r)])];
    for (release, has) in [
        (v(1, 3, 16), false),
        (v(1, 4, 4), false),
        (v(1, 4, 5), true),
        (v(1, 5, 0), true),
        (v(2, 0, 5), true),
    ] {
        let contains = ids("set_contains", "1080ti-1");
        assert_eq!(passes(release, &devices, &contains), has, "{release}");
        let is = ids("=", "1080ti-0,1080ti-1");
        assert_eq!(passes(release, &devices, &is), has, "{release}");
        // Not found: only `!=` holds.
        let not = ids("!=", "x");
        assert!(passes(release, &devices, &not), "{release}");
    }
}

/// #26649: from 1.11.0 a request of 3 is counted over a 1080ti and a
/// 2080ti with 2 each; before, one device had to have all 3.
#[test]
fn device_count_spans_devices_from_1_11_0() {
    let both = vec![device("1080ti", true), device("2080ti", true)];
    let three = vec![request("nvidia/gpu", 3, &[])];
    let two_then_two = vec![request("nvidia/gpu", 2, &[]), request("gpu", 2, &[])];
    let five = vec![request("gpu", 5, &[])];
    for (release, spans) in [
        (v(1, 10, 5), false),
        (v(1, 11, 0), true),
        (v(2, 0, 5), true),
    ] {
        assert_eq!(passes(release, &both, &three), spans, "{release}");
        assert!(passes(release, &both, &two_then_two), "{release}");
        assert!(!passes(release, &both, &five), "{release}");
    }
    // A device whose instances the first request took is not counted again.
    let one_left = vec![request("gpu", 3, &[]), request("gpu", 2, &[])];
    assert!(!passes(v(2, 0, 5), &both, &one_left));
}
