//! A node as a client registers it and `nomad operator snapshot state`
//! writes it: every field of `structs.Node` in Go's order, with the
//! fingerprinted resources, drivers and events that make a real node
//! several kilobytes. Go writes a struct's fields in declaration order and a
//! map's keys sorted.

use serde::Serialize;
use serde_json::Value;

use super::{NOW_NANOS, Node, NodeState, SECOND, fingerprint, time};

/// A JSON object with its members in the order given; values are JSON text.
fn object(members: &[(&str, String)]) -> String {
    let mut o = String::from("{");
    for (i, (key, value)) in members.iter().enumerate() {
        if i > 0 {
            o.push(',');
        }
        o.push_str(&json(key));
        o.push(':');
        o.push_str(value);
    }
    o.push('}');
    o
}

fn json(value: impl Serialize) -> String {
    serde_json::to_string(&value).expect("generated values serialize")
}

/// Whether node `i` fingerprints a `bridge` network, as a Linux client
/// with the CNI reference plugins installed does: seven nodes in eight. The
/// rest (one in eight) lack the plugins, so groups in bridge mode are
/// filtered there ("missing network"), and their computed class differs.
fn has_bridge(i: usize) -> bool {
    i % 8 != 3
}

/// Node `i` with `extra` fingerprinted attributes past the usual ten.
pub(super) fn go_node(node: &Node, i: usize, extra: usize) -> String {
    let cores = 4 << (i % 3);
    let (status, eligibility, drain) = match node.state {
        NodeState::Ready if i % 50 == 7 => ("ready", "ineligible", "null".to_string()),
        NodeState::Ready => ("ready", "eligible", "null".to_string()),
        NodeState::Down => ("down", "eligible", "null".to_string()),
        NodeState::Disconnected => ("disconnected", "eligible", "null".to_string()),
        NodeState::Draining => (
            "ready",
            "ineligible",
            object(&[
                ("Deadline", json(3_600_000_000_000i64)),
                ("IgnoreSystemJobs", json(false)),
                ("ForceDeadline", json(time(NOW_NANOS + 50 * 60 * SECOND))),
                ("StartedAt", json(time(NOW_NANOS - 10 * 60 * SECOND))),
            ]),
        ),
    };
    let ip = format!("10.0.{}.{}", i / 256 % 256, i % 256);
    let (mut attrs, drivers) = fingerprint(i, extra);
    for (key, value) in [
        ("arch", "amd64".to_string()),
        ("cpu.numcores", cores.to_string()),
        ("driver.docker", "1".to_string()),
        (
            "driver.exec",
            if i.is_multiple_of(3) { "1" } else { "0" }.to_string(),
        ),
        ("kernel.name", "linux".to_string()),
        ("nomad.version", node.version.to_string()),
        ("os.name", "ubuntu".to_string()),
        ("os.version", "22.04".to_string()),
        ("unique.hostname", node.name.clone()),
        ("unique.network.ip-address", ip.clone()),
    ] {
        attrs.insert(key.to_string(), Value::String(value));
    }
    let processors = object(&[(
        "Topology",
        object(&[
            ("Nodes", json([0])),
            ("Distances", json([[10]])),
            (
                "Cores",
                format!(
                    "[{}]",
                    (0..cores)
                        .map(|c| object(&[
                            ("SocketID", json(0)),
                            ("NodeID", json(0)),
                            ("ID", json(c)),
                            ("Grade", json(true)),
                            ("Disable", json(false)),
                            ("BaseSpeed", json(3000)),
                            ("MaxSpeed", json(3500)),
                            ("GuessSpeed", json(0)),
                        ]))
                        .collect::<Vec<_>>()
                        .join(",")
                ),
            ),
            ("OverrideTotalCompute", json(0)),
            ("OverrideWitholdCompute", json(0)),
        ]),
    )]);
    let address = object(&[
        ("Family", json("ipv4")),
        ("Alias", json("default")),
        ("Address", json(&ip)),
        ("ReservedPorts", json("")),
        ("Gateway", json("")),
    ]);
    let host = object(&[
        ("Mode", json("host")),
        ("Device", json("ens5")),
        (
            "MacAddress",
            json(format!("02:4f:{:02x}:{:02x}:00:01", i / 256 % 256, i % 256)),
        ),
        ("Speed", json(1000)),
        ("Addresses", format!("[{address}]")),
    ]);
    let bridge = has_bridge(i);
    let node_networks = match bridge {
        true => format!(
            "[{host},{}]",
            object(&[
                ("Mode", json("bridge")),
                ("Device", json("nomad")),
                ("MacAddress", json("")),
                ("Speed", json(0)),
                ("Addresses", "null".to_string()),
            ])
        ),
        false => format!("[{host}]"),
    };
    let network = object(&[
        ("Mode", json("host")),
        ("Device", json("ens5")),
        ("CIDR", json(format!("{ip}/32"))),
        ("IP", json(&ip)),
        ("MBits", json(1000)),
        ("DNS", "null".to_string()),
        ("ReservedPorts", "null".to_string()),
        ("DynamicPorts", "null".to_string()),
        ("CNI", "null".to_string()),
    ]);
    // What the bridge fingerprint adds to the node's networks.
    let bridge_network = object(&[
        ("Mode", json("bridge")),
        ("Device", json("")),
        ("CIDR", json("")),
        ("IP", json("")),
        ("MBits", json(0)),
        ("DNS", "null".to_string()),
        ("ReservedPorts", "null".to_string()),
        ("DynamicPorts", "null".to_string()),
        ("CNI", "null".to_string()),
    ]);
    let networks = match bridge {
        true => format!("[{network},{bridge_network}]"),
        false => format!("[{network}]"),
    };
    let node_resources = object(&[
        (
            "Cpu",
            object(&[
                ("CpuShares", json(cores * 3000)),
                ("TotalCpuCores", json(cores)),
                ("ReservableCpuCores", json((0..cores).collect::<Vec<_>>())),
            ]),
        ),
        ("Processors", processors),
        ("Memory", object(&[("MemoryMB", json(32000))])),
        ("Disk", object(&[("DiskMB", json(100_000))])),
        ("Devices", "null".to_string()),
        ("NodeNetworks", node_networks),
        ("Networks", networks),
        ("MinDynamicPort", json(20000)),
        ("MaxDynamicPort", json(32000)),
    ]);
    let reserved_resources = object(&[
        (
            "Cpu",
            object(&[
                ("CpuShares", json(0)),
                ("ReservedCpuCores", "null".to_string()),
            ]),
        ),
        ("Memory", object(&[("MemoryMB", json(0))])),
        ("Disk", object(&[("DiskMB", json(0))])),
        ("Networks", object(&[("ReservedHostPorts", json(""))])),
    ]);
    let legacy = |cpu: usize, memory: usize, disk: usize, networks: String| {
        object(&[
            ("CPU", json(cpu)),
            ("Cores", json(0)),
            ("MemoryMB", json(memory)),
            ("MemoryMaxMB", json(0)),
            ("DiskMB", json(disk)),
            ("IOPS", json(0)),
            ("Networks", networks),
            ("Devices", "null".to_string()),
            ("NUMA", "null".to_string()),
            ("SecretsMB", json(0)),
        ])
    };
    let registered = NOW_NANOS - (86_400 + i as i64 % 86_400) * SECOND;
    let event = |message: &str, subsystem: &str, at: i64, index: usize| {
        object(&[
            ("Message", json(message)),
            ("Subsystem", json(subsystem)),
            ("Details", "null".to_string()),
            ("Timestamp", json(time(at))),
            ("CreateIndex", json(index)),
        ])
    };
    let events = format!(
        "[{},{},{}]",
        event("Node registered", "Cluster", registered, 5 + i),
        event(
            "Node heartbeat missed",
            "Cluster",
            registered + 3600 * SECOND,
            0
        ),
        event(
            "Node reregistered by heartbeat",
            "Cluster",
            registered + 3630 * SECOND,
            0
        ),
    );
    let drivers = match drivers {
        Value::Object(map) => object(
            &map.iter()
                .map(|(name, info)| {
                    let info = match info {
                        Value::Object(info) => object(&[
                            ("Attributes", json(&info["Attributes"])),
                            ("Detected", json(&info["Detected"])),
                            ("Healthy", json(&info["Healthy"])),
                            ("HealthDescription", json(&info["HealthDescription"])),
                            ("UpdateTime", json(&info["UpdateTime"])),
                        ]),
                        other => json(other),
                    };
                    (name.as_str(), info)
                })
                .collect::<Vec<_>>(),
        ),
        other => json(other),
    };
    let host_volume = |path: &str| {
        object(&[
            ("Name", json(path)),
            ("Path", json(format!("/opt/{path}"))),
            ("ReadOnly", json(false)),
        ])
    };
    object(&[
        ("ID", json(&node.id)),
        ("SecretID", json("")),
        ("Datacenter", json(node.datacenter)),
        ("Name", json(&node.name)),
        ("CgroupParent", json("nomad.slice")),
        ("HTTPAddr", json(format!("{ip}:4646"))),
        ("TLSEnabled", json(true)),
        ("Attributes", json(&attrs)),
        ("NodeResources", node_resources),
        ("ReservedResources", reserved_resources),
        (
            "Resources",
            legacy(cores * 3000, 32000, 100_000, format!("[{network}]")),
        ),
        ("Reserved", legacy(0, 0, 0, "null".to_string())),
        (
            "Links",
            object(&[
                ("aws.ec2", json(format!("us-east-1a.i-{:017x}", i))),
                ("consul", json(format!("dc1.{}", node.name))),
            ]),
        ),
        (
            "Meta",
            object(&[
                (
                    "connect.gateway_image",
                    json("docker.io/envoyproxy/envoy:v${NOMAD_envoy_version}"),
                ),
                ("connect.log_level", json("info")),
                ("connect.proxy_concurrency", json("1")),
                (
                    "connect.sidecar_image",
                    json("docker.io/envoyproxy/envoy:v${NOMAD_envoy_version}"),
                ),
                ("rack", json(format!("r{}", i % 13))),
                ("zone", json(format!("zone-{}", i % 3))),
            ]),
        ),
        ("NodeClass", json(node.class)),
        ("NodePool", json("default")),
        (
            "ComputedClass",
            json(format!(
                "v1:{}",
                1_000_003 * (i % 97 + 1) + usize::from(!bridge)
            )),
        ),
        ("DrainStrategy", drain),
        ("SchedulingEligibility", json(eligibility)),
        ("Status", json(status)),
        ("StatusDescription", json("")),
        (
            "StatusUpdatedAt",
            json(NOW_NANOS / SECOND - 300 - (i as i64 % 5000)),
        ),
        ("Events", events),
        ("Drivers", drivers),
        ("CSIControllerPlugins", "null".to_string()),
        ("CSINodePlugins", "null".to_string()),
        (
            "HostVolumes",
            object(&[
                ("certs", host_volume("certs")),
                ("scratch", host_volume("scratch")),
            ]),
        ),
        ("HostNetworks", "null".to_string()),
        ("LastDrain", "null".to_string()),
        ("LastMissedHeartbeatIndex", json(0)),
        ("LastAllocUpdateIndex", json(900_000 + i)),
        ("CreateIndex", json(5 + i)),
        ("ModifyIndex", json(6 + i)),
    ])
}
