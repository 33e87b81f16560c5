//! `TestDeviceAllocator_*` (scheduler/device_test.go at 1.3.0,
//! scheduler/feasible/device_test.go at 2.0.5): which device and instances
//! one request gets on `devNode()` (a 1080ti and an Intel F100 with one
//! healthy instance) and `multipleNvidiaNode()` (the 1080ti and a 2080ti),
//! with constraints, `${device.ids}` and affinities; and the release rows
//! of the allocator (#18141, #27177). Nomad walks the devices and their
//! instances as Go maps; plan-inspect takes them in the node's order, so
//! where Nomad's choice is random the tests assert what is forced (the
//! device, the count, a named instance).

use super::devices::{DeviceAccounter, Offer};
use super::rules::FitRules;
use crate::model::resources::NodeDevice;
use crate::model::{Affinity, Constraint, RequestedDevice, from_slice};
use crate::version::{Release, v};

const GTX_1080TI: &str = r#"{"Type": "gpu", "Vendor": "nvidia", "Name": "1080ti",
    "Attributes": {"memory": {"Int": 11, "Unit": "GiB"}, "cuda_cores": {"Int": 3584},
        "graphics_clock": {"Int": 1480, "Unit": "MHz"},
        "memory_bandwidth": {"Int": 11, "Unit": "GB/s"}},
    "Instances": [{"ID": "1080ti-0", "Healthy": true}, {"ID": "1080ti-1", "Healthy": true}]}"#;
const F100: &str = r#"{"Type": "fpga", "Vendor": "intel", "Name": "F100",
    "Attributes": {"memory": {"Int": 4, "Unit": "GiB"}},
    "Instances": [{"ID": "f100-0", "Healthy": true}, {"ID": "f100-1", "Healthy": false}]}"#;
const RTX_2080TI: &str = r#"{"Type": "gpu", "Vendor": "nvidia", "Name": "2080ti",
    "Attributes": {"memory": {"Int": 11, "Unit": "GiB"}, "cuda_cores": {"Int": 4352},
        "graphics_clock": {"Int": 1350, "Unit": "MHz"},
        "memory_bandwidth": {"Int": 14, "Unit": "GB/s"}},
    "Instances": [{"ID": "2080ti-0", "Healthy": true}, {"ID": "2080ti-1", "Healthy": true}]}"#;

fn devices(json: &[&str]) -> Vec<NodeDevice> {
    json.iter()
        .map(|d| from_slice(d.as_bytes()).unwrap())
        .collect()
}

/// `devNode()`.
fn dev_node() -> Vec<NodeDevice> {
    devices(&[GTX_1080TI, F100])
}

/// `multipleNvidiaNode()`.
fn multiple_nvidia() -> Vec<NodeDevice> {
    devices(&[GTX_1080TI, RTX_2080TI])
}

fn constraint(l: &str, op: &str, r: &str) -> Constraint {
    Constraint {
        l_target: l.into(),
        r_target: r.into(),
        operand: op.into(),
    }
}

fn affinity(l: &str, op: &str, r: &str, weight: i64) -> Affinity {
    Affinity {
        l_target: l.to_string(),
        r_target: r.to_string(),
        operand: op.to_string(),
        weight,
    }
}

/// `AssignDevice` of one request on a node with `devices` at `release`.
fn offer(
    release: Release,
    devices: &[NodeDevice],
    name: &str,
    count: u64,
    constraints: Vec<Constraint>,
    affinities: Vec<Affinity>,
) -> Result<Offer, &'static str> {
    let ask = RequestedDevice {
        name: name.to_string(),
        count,
        constraints,
        affinities,
    };
    DeviceAccounter::new(devices, FitRules::of(release)).assign(&ask)
}

/// The offer's device name and instance IDs.
fn got(o: &Offer) -> (&str, Vec<&str>) {
    let ids = o.device.device_ids.iter().map(String::as_str).collect();
    (o.device.name.as_str(), ids)
}

const BOTH: [Release; 2] = [v(1, 3, 0), v(2, 0, 5)];

#[test]
fn device_test_go_v1_3_0_v2_0_5_device_allocator_allocate_generic_request() {
    for release in BOTH {
        let o = offer(release, &dev_node(), "gpu", 1, vec![], vec![]).unwrap();
        assert_eq!(o.matched_weight, 0.0);
        let (name, ids) = got(&o);
        assert_eq!((name, ids.len()), ("1080ti", 1), "{release}");
    }
}

#[test]
fn device_test_go_v1_3_0_v2_0_5_device_allocator_allocate_fully_qualified_request() {
    for release in BOTH {
        let o = offer(release, &dev_node(), "intel/fpga/F100", 1, vec![], vec![]).unwrap();
        assert_eq!(o.matched_weight, 0.0);
        // The unhealthy instance is never offered.
        assert_eq!(got(&o), ("F100", vec!["f100-0"]), "{release}");
    }
}

#[test]
fn device_test_go_v1_3_0_v2_0_5_device_allocator_allocate_not_enough_instances() {
    for release in BOTH {
        let o = offer(release, &dev_node(), "gpu", 4, vec![], vec![]);
        assert_eq!(o.unwrap_err(), "no devices match request", "{release}");
    }
}

/// `TestDeviceAllocator_Allocate_Constraints` (1.3.0) and
/// `TestDeviceAllocate_Constraints_NoMemoryMatch` (2.0.5, with its
/// "-contains-id" case): the device each constraint set leaves, or none.
#[test]
fn device_test_go_v1_3_0_v2_0_5_device_allocator_allocate_constraints() {
    let c = constraint;
    let shared = || {
        vec![
            c("${device.attr.memory_bandwidth}", ">", "10 GB/s"),
            c("${device.attr.memory}", "is", "11264 MiB"),
        ]
    };
    let clock = |r| {
        let mut cs = shared();
        cs.push(c("${device.attr.graphics_clock}", ">", r));
        cs
    };
    let cases: Vec<(&str, Vec<Constraint>, Option<&str>)> = vec![
        (
            "gpu",
            vec![c("${device.attr.cuda_cores}", ">", "4000")],
            Some("2080ti"),
        ),
        (
            "gpu",
            vec![c("${device.attr.cuda_cores}", "<", "4000")],
            Some("1080ti"),
        ),
        ("nvidia/gpu", clock("1.4 GHz"), Some("1080ti")),
        ("intel/gpu", vec![], None),
        ("nvidia/gpu", clock("2.4 GHz"), None),
    ];
    for release in BOTH {
        for (name, constraints, want) in &cases {
            let o = offer(
                release,
                &multiple_nvidia(),
                name,
                1,
                constraints.clone(),
                vec![],
            );
            match want {
                None => assert!(o.is_err(), "{release} {name} {constraints:?}"),
                Some(device) => {
                    let o = o.unwrap();
                    assert_eq!(o.matched_weight, 0.0);
                    let (got_name, ids) = got(&o);
                    assert_eq!((got_name, ids.len()), (*device, 1), "{release} {name}");
                }
            }
        }
    }
    // "-contains-id": the named instance of the 1080ti, at 2.0.5; at 1.3.0
    // `${device.ids}` is not a target, so no device serves the request.
    let contains = || vec![c("${device.ids}", "set_contains", "1080ti-1")];
    let o = offer(
        v(2, 0, 5),
        &multiple_nvidia(),
        "nvidia/gpu",
        1,
        contains(),
        vec![],
    );
    assert_eq!(got(&o.unwrap()), ("1080ti", vec!["1080ti-1"]));
    let o = offer(
        v(1, 3, 0),
        &multiple_nvidia(),
        "nvidia/gpu",
        1,
        contains(),
        vec![],
    );
    assert!(o.is_err());
}

/// `TestDeviceAllocator_Allocate_Affinities` (1.3.0),
/// `TestDeviceAllocator_Affinities` (2.0.5): the device whose affinities
/// score best, and whether its matched weights are zero.
#[test]
fn device_test_go_v1_3_0_v2_0_5_device_allocator_affinities() {
    let a = affinity;
    let cases: Vec<(&str, Vec<Affinity>, &str, f64)> = vec![
        (
            "gpu",
            vec![a("${device.attr.cuda_cores}", ">", "4000", 60)],
            "2080ti",
            60.0,
        ),
        (
            "gpu",
            vec![a("${device.attr.cuda_cores}", "<", "4000", 10)],
            "1080ti",
            10.0,
        ),
        // The 2080ti matches a negative weight: the 1080ti, matching
        // nothing, scores better.
        (
            "gpu",
            vec![a("${device.attr.cuda_cores}", ">", "4000", -20)],
            "1080ti",
            0.0,
        ),
        (
            "nvidia/gpu",
            vec![
                a("${device.attr.memory_bandwidth}", ">", "10 GB/s", 20),
                a("${device.attr.memory}", "is", "11264 MiB", 20),
                a("${device.attr.graphics_clock}", ">", "1.4 GHz", 90),
            ],
            "1080ti",
            130.0,
        ),
    ];
    for release in BOTH {
        for (name, affinities, device, matched) in &cases {
            let o = offer(
                release,
                &multiple_nvidia(),
                name,
                1,
                vec![],
                affinities.clone(),
            );
            let o = o.unwrap();
            let (got_name, ids) = got(&o);
            assert_eq!((got_name, ids.len()), (*device, 1), "{release} {name}");
            assert_eq!(o.matched_weight, *matched, "{release} {affinities:?}");
        }
    }
}

/// Of devices that score alike, the first by vendor, type and name wins
/// whatever the node's order (Nomad keeps the last its map walk meets, so
/// either is one it could choose), and instances go by ID.
#[test]
fn devices_that_score_alike_go_to_the_first_by_name() {
    let shared = vec![affinity("${device.attr.memory}", "=", "11 GiB", 50)];
    let reversed = RTX_2080TI.replace(
        r#""2080ti-0", "Healthy": true}, {"ID": "2080ti-1""#,
        r#""2080ti-1", "Healthy": true}, {"ID": "2080ti-0""#,
    );
    for nodes in [multiple_nvidia(), devices(&[&reversed, GTX_1080TI])] {
        let o = offer(v(2, 0, 5), &nodes, "gpu", 1, vec![], shared.clone()).unwrap();
        assert_eq!(got(&o), ("1080ti", vec!["1080ti-0"]));
        assert_eq!(o.matched_weight, 50.0);
    }
    let faster = vec![affinity("${device.attr.cuda_cores}", ">", "4000", 50)];
    let nodes = devices(&[&reversed, GTX_1080TI]);
    let o = offer(v(2, 0, 5), &nodes, "gpu", 1, vec![], faster).unwrap();
    assert_eq!(got(&o), ("2080ti", vec!["2080ti-0"]));
}

/// #18141: from 1.5.9, 1.6.2 and 1.7.0 an instance is offered only when
/// its ID meets the `${device.ids}` constraint, whichever side names it.
#[test]
fn device_instances_meet_device_ids_from_1_5_9() {
    let right = vec![constraint(
        "${device.ids}",
        "set_contains_any",
        "1080ti-1,x",
    )];
    let left = vec![constraint(
        "1080ti-1,x",
        "set_contains_any",
        "${device.ids}",
    )];
    for (release, filtered) in [
        (v(1, 5, 8), false),
        (v(1, 5, 9), true),
        (v(1, 6, 1), false),
        (v(1, 6, 2), true),
        (v(1, 7, 0), true),
    ] {
        let want = if filtered { "1080ti-1" } else { "1080ti-0" };
        for constraints in [&right, &left] {
            let o = offer(
                release,
                &multiple_nvidia(),
                "gpu",
                1,
                constraints.clone(),
                vec![],
            );
            assert_eq!(got(&o.unwrap()), ("1080ti", vec![want]), "{release}");
        }
    }
}

/// #27177: until 1.11.1 and 2.0.0 a device with enough free instances
/// offers those that meet `${device.ids}` even when they are too few, so
/// a request of two gets one; from then it does not offer.
#[test]
fn device_offers_are_never_short_from_1_11_1() {
    let one_id = vec![constraint("${device.ids}", "set_contains_any", "1080ti-1")];
    for (release, short) in [
        (v(1, 7, 0), true),
        (v(1, 11, 0), true),
        (v(1, 11, 1), false),
        (v(2, 0, 0), false),
    ] {
        let o = offer(
            release,
            &multiple_nvidia(),
            "gpu",
            2,
            one_id.clone(),
            vec![],
        );
        match short {
            true => assert_eq!(got(&o.unwrap()), ("1080ti", vec!["1080ti-1"])),
            false => assert_eq!(o.unwrap_err(), "no devices match request", "{release}"),
        }
    }
}
