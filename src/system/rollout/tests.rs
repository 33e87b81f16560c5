//! TestSystemSched_evictUnneededCanaries (scheduler/scheduler_system_test.go
//! at v1.11.0), on the placements of a schedule.

use super::*;
use crate::model::TaskGroup;

fn group(name: &str) -> TaskGroup {
    TaskGroup {
        name: name.into(),
        ..TaskGroup::default()
    }
}

/// The plan's placements: (node, group, canary).
fn schedule<'a>(placed: &[(&'a str, &'a TaskGroup, bool)]) -> SystemSchedule<'a> {
    let mut s = SystemSchedule::default();
    for (node_id, tg, canary) in placed {
        s.placements.push(SystemPlacement {
            name: format!("{}[0]", tg.name),
            task_group: tg,
            node_id,
            previous: None,
            allocated: None,
            canary: *canary,
        });
    }
    s
}

fn kept(s: &SystemSchedule<'_>) -> Vec<(String, String)> {
    s.placements
        .iter()
        .map(|p| (p.node_id.to_string(), p.task_group.name.clone()))
        .collect()
}

#[test]
fn scheduler_system_test_go_v1_11_0_evict_unneeded_canaries_no_required_canaries() {
    let mut s = schedule(&[]);
    assert_eq!(s.evict_unneeded_canaries(0, "foo"), 0);
}

#[test]
fn scheduler_system_test_go_v1_11_0_evict_unneeded_canaries_other_group_canaries_stay() {
    let (tg1, tg2) = (group("tg1"), group("tg2"));
    let mut s = schedule(&[
        ("node1", &tg1, false),
        ("node1", &tg2, true),
        ("node2", &tg1, false),
        ("node2", &tg2, true),
    ]);
    assert_eq!(s.evict_unneeded_canaries(1, "tg1"), 0);
    assert_eq!(s.placements.len(), 4);
}

/// Nomad keeps whichever canary its map visits first (the Go test calls
/// itself flaky for it); plan-inspect the lowest node ID's.
#[test]
fn scheduler_system_test_go_v1_11_0_evict_unneeded_canaries_two_groups_with_canaries() {
    let (tg1, tg2) = (group("tg1"), group("tg2"));
    let mut s = schedule(&[
        ("node2", &tg1, true),
        ("node1", &tg1, true),
        ("node1", &tg2, true),
        ("node2", &tg2, true),
    ]);
    assert_eq!(s.evict_unneeded_canaries(1, "tg1"), 1);
    let pair = |n: &str, g: &str| (n.to_string(), g.to_string());
    assert_eq!(
        kept(&s),
        [
            pair("node1", "tg1"),
            pair("node1", "tg2"),
            pair("node2", "tg2")
        ]
    );
}
