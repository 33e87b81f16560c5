//! The cases of `TestPreemption`, in Nomad's order, at 1.3.0 and 2.0.5.

use super::*;

const HIGH: i64 = 100;
const LOW: i64 = 30;
const LOW2: i64 = 40;

/// `a0` of most cases: a high-priority allocation of `cpu` MHz and 2256 MB
/// with 150 Mbit/s of eth0, which no case may preempt.
fn busy_a0(cpu: i64) -> Alloc {
    a(
        "a0",
        HIGH,
        cpu,
        2256,
        &[("eth0", "192.168.0.100", 150, &[])],
    )
}

fn dev(mut x: Alloc, name: &'static str, ids: &'static [&'static str]) -> Alloc {
    x.device = Some((name, ids));
    x
}

fn cases() -> Vec<Case> {
    let case = |desc, allocs, priority, ask, want: Option<Vec<&'static str>>| Case {
        desc,
        allocs,
        two_nics: false,
        priority,
        ask,
        plan: Vec::new(),
        want,
    };
    fn eth0(ip: &'static str, mbits: i64, ports: &'static [i64]) -> Option<Net> {
        Some(("eth0", ip, mbits, ports))
    }
    let mut out = vec![
        case(
            "No preemption because existing allocs are not low priority",
            vec![a(
                "a0",
                HIGH,
                3200,
                7256,
                &[("eth0", "192.168.0.100", 50, &[])],
            )],
            100,
            (2000, 256, eth0("192.168.0.100", 1, &[22]), None),
            None,
        ),
        case(
            "Preempting low priority allocs not enough to meet resource ask",
            vec![a(
                "a0",
                LOW,
                3200,
                7256,
                &[("eth0", "192.168.0.100", 50, &[])],
            )],
            100,
            (4000, 8192, eth0("192.168.0.100", 1, &[22]), None),
            None,
        ),
        case(
            "preemption impossible - static port needed is used by higher priority alloc",
            vec![
                busy_a0(1200),
                a(
                    "a1",
                    HIGH,
                    200,
                    256,
                    &[("eth0", "192.168.0.200", 600, &[88])],
                ),
            ],
            100,
            (600, 1000, eth0("192.168.0.100", 700, &[88]), None),
            None,
        ),
        Case {
            two_nics: true,
            ..case(
                "preempt only from device that has allocation with unused reserved port",
                vec![
                    busy_a0(1200),
                    a(
                        "a1",
                        HIGH,
                        200,
                        256,
                        &[("eth1", "192.168.0.200", 600, &[88])],
                    ),
                    a("a2", LOW, 200, 256, &[("eth0", "192.168.0.200", 600, &[])]),
                ],
                100,
                (600, 1000, Some(("", "192.168.0.100", 700, &[88])), None),
                Some(vec!["a2"]),
            )
        },
        case(
            "Combination of high/low priority allocs, without static ports",
            vec![
                busy_a0(2800),
                Alloc {
                    group_net: Some(("eth0", "192.168.0.201", 300, &[])),
                    ..a("a1", LOW, 200, 256, &[("eth0", "192.168.0.200", 200, &[])])
                },
                a("a2", LOW, 200, 256, &[("eth0", "192.168.0.100", 300, &[])]),
                a("a3", LOW, 700, 256, &[]),
            ],
            100,
            (1100, 1000, eth0("192.168.0.100", 840, &[]), None),
            Some(vec!["a1", "a2", "a3"]),
        ),
        case(
            "preempt allocs with network devices",
            vec![
                a("a0", LOW, 2800, 2256, &[]),
                a("a1", LOW, 200, 256, &[("eth0", "192.168.0.200", 800, &[])]),
            ],
            100,
            (1100, 1000, eth0("192.168.0.100", 840, &[]), None),
            Some(vec!["a1"]),
        ),
        case(
            "ignore allocs with close enough priority for network devices",
            vec![
                a("a0", LOW, 2800, 2256, &[]),
                a("a1", LOW, 200, 256, &[("eth0", "192.168.0.200", 800, &[])]),
            ],
            LOW + 5,
            (1100, 1000, eth0("192.168.0.100", 840, &[]), None),
            None,
        ),
        case(
            "Preemption needed for all resources except network",
            vec![
                busy_a0(2800),
                a("a1", LOW, 200, 256, &[("eth0", "192.168.0.200", 50, &[])]),
                a("a2", LOW, 200, 512, &[]),
                a("a3", LOW, 700, 276, &[]),
            ],
            100,
            (1000, 3000, eth0("192.168.0.100", 50, &[]), None),
            Some(vec!["a1", "a2", "a3"]),
        ),
        case(
            "Only one low priority alloc needs to be preempted",
            vec![
                busy_a0(1200),
                a("a1", LOW, 200, 256, &[("eth0", "192.168.0.100", 500, &[])]),
                a("a2", LOW, 200, 256, &[("eth0", "192.168.0.200", 320, &[])]),
            ],
            100,
            (300, 500, eth0("192.168.0.100", 320, &[]), None),
            Some(vec!["a2"]),
        ),
        case(
            "one alloc meets static port need, another meets remaining mbits needed",
            vec![
                busy_a0(1200),
                a(
                    "a1",
                    LOW,
                    200,
                    256,
                    &[("eth0", "192.168.0.200", 500, &[88])],
                ),
                a("a2", LOW, 200, 256, &[("eth0", "192.168.0.100", 200, &[])]),
            ],
            100,
            (2700, 1000, eth0("192.168.0.100", 800, &[88]), None),
            Some(vec!["a1", "a2"]),
        ),
        case(
            "alloc that meets static port need also meets other needs",
            vec![
                busy_a0(1200),
                a(
                    "a1",
                    LOW,
                    200,
                    256,
                    &[("eth0", "192.168.0.200", 600, &[88])],
                ),
                a("a2", LOW, 200, 256, &[("eth0", "192.168.0.100", 100, &[])]),
            ],
            100,
            (600, 1000, eth0("192.168.0.100", 700, &[88]), None),
            Some(vec!["a1"]),
        ),
        Case {
            plan: vec![a(
                "a4",
                LOW2,
                200,
                256,
                &[("eth0", "192.168.0.100", 300, &[])],
            )],
            ..case(
                "alloc from job that has existing evictions not chosen for preemption",
                vec![
                    busy_a0(1200),
                    a("a1", LOW, 200, 256, &[("eth0", "192.168.0.200", 500, &[])]),
                    a("a2", LOW2, 200, 256, &[("eth0", "192.168.0.100", 300, &[])]),
                ],
                100,
                (300, 500, eth0("192.168.0.100", 320, &[]), None),
                Some(vec!["a1"]),
            )
        },
    ];
    // The device cases ask 1000 MHz, 512 MB and `count` devices of `name`
    // at priority 100.
    let device_case = |desc, allocs, (name, count): (&'static str, u64), want| {
        case(
            desc,
            allocs,
            100,
            (1000, 512, None, Some((name, count))),
            want,
        )
    };
    // Every 1080ti instance held by one low-priority allocation.
    let all_1080ti_in_a0 = || {
        vec![
            dev(
                a("a0", LOW, 500, 512, &[]),
                "1080ti",
                &["dev0", "dev1", "dev2", "dev3"],
            ),
            dev(a("a1", LOW, 200, 512, &[]), "F100", &["fpga1"]),
        ]
    };
    out.extend([
        device_case(
            "Preemption with one device instance per alloc",
            vec![
                dev(a("a0", LOW, 500, 512, &[]), "1080ti", &["dev0"]),
                dev(a("a1", LOW, 200, 512, &[]), "1080ti", &["dev1"]),
            ],
            ("nvidia/gpu/1080ti", 4),
            Some(vec!["a0", "a1"]),
        ),
        device_case(
            "Preemption multiple devices used",
            all_1080ti_in_a0(),
            ("nvidia/gpu/1080ti", 4),
            Some(vec!["a0"]),
        ),
        device_case(
            "Preemption with allocs across multiple devices that match",
            vec![
                dev(a("a0", LOW, 500, 512, &[]), "1080ti", &["dev0", "dev1"]),
                dev(a("a1", HIGH, 200, 100, &[]), "1080ti", &["dev2"]),
                dev(a("a2", LOW, 200, 256, &[]), "2080ti", &["dev4", "dev5"]),
                dev(a("a3", LOW, 100, 256, &[]), "2080ti", &["dev6", "dev7"]),
                dev(a("a4", LOW, 200, 512, &[]), "F100", &["fpga1"]),
            ],
            ("gpu", 4),
            Some(vec!["a2", "a3"]),
        ),
        device_case(
            "Preemption with lower/higher priority combinations",
            vec![
                dev(a("a0", LOW, 500, 512, &[]), "1080ti", &["dev0", "dev1"]),
                dev(a("a1", LOW2, 200, 100, &[]), "1080ti", &["dev2", "dev3"]),
                dev(a("a2", LOW, 200, 256, &[]), "2080ti", &["dev4", "dev5"]),
                dev(a("a3", LOW, 100, 256, &[]), "2080ti", &["dev6", "dev7"]),
                dev(a("a4", LOW, 100, 256, &[]), "2080ti", &["dev8"]),
                dev(a("a5", LOW, 200, 512, &[]), "F100", &["fpga1"]),
            ],
            ("gpu", 4),
            Some(vec!["a2", "a3"]),
        ),
        device_case(
            "Device preemption not possible due to more instances needed than available",
            all_1080ti_in_a0(),
            ("gpu", 6),
            None,
        ),
        case(
            "Filter out allocs whose resource usage superset is also in the preemption list",
            vec![
                busy_a0(1800),
                a("a1", LOW, 1500, 256, &[("eth0", "192.168.0.100", 100, &[])]),
                a("a2", LOW, 600, 256, &[("eth0", "192.168.0.200", 300, &[])]),
            ],
            100,
            (1000, 256, eth0("192.168.0.100", 50, &[]), None),
            Some(vec!["a1"]),
        ),
    ]);
    out
}

#[test]
fn preemption_test_go_v1_3_0() {
    let all = cases();
    assert_eq!(all.len(), 18);
    for case in &all {
        run(case, v(1, 3, 0));
    }
}

/// `TestPreemption_Normal` (scheduler/feasible/preemption_test.go at 2.0.5).
#[test]
fn preemption_test_go_v2_0_5_normal() {
    for case in &cases() {
        run(case, v(2, 0, 5));
    }
}

/// The penalty past `max_parallel`: with the plan preempting one of its
/// group already, a candidate of a group allowing one at a time loses to
/// a farther one (`scoreForTaskGroup`).
#[test]
fn a_group_past_its_max_parallel_is_penalised() {
    let near = Comparable {
        cpu_shares: 1000,
        ..Comparable::default()
    };
    let far = Comparable {
        cpu_shares: 200,
        ..Comparable::default()
    };
    let ask = near.clone();
    assert!(distance::task_group_score(&ask, &near, 0, 5) < 0.01);
    assert_eq!(distance::task_group_score(&ask, &near, 1, 1), 50.0);
    assert_eq!(distance::task_group_score(&ask, &near, 2, 3), 100.0);
    assert!(distance::task_group_score(&ask, &far, 0, 0) < 1.0);
}
