//! scheduler/annotate_test.go (v1.10.5), and the same cases at the
//! releases whose annotation rules differ.

use std::collections::BTreeMap;

use super::super::annotate::{annotate_task, count_change};
use super::super::diff_types::{DiffType, FieldDiff, ObjectDiff, TaskDiff, TaskGroupDiff};
use super::super::{JobDiff, annotate};
use super::field;
use crate::model::v;
use crate::reconciler::DesiredChanges;
use crate::version::Switches;

fn group(kind: DiffType, name: &str, fields: Vec<FieldDiff>) -> TaskGroupDiff {
    TaskGroupDiff {
        kind,
        name: name.into(),
        updates: BTreeMap::new(),
        fields,
        objects: vec![],
        tasks: vec![],
    }
}

fn task(kind: DiffType, fields: Vec<FieldDiff>, objects: Vec<ObjectDiff>) -> TaskDiff {
    TaskDiff {
        kind,
        name: String::new(),
        annotations: vec![],
        fields,
        objects,
    }
}

fn object(kind: DiffType, name: &str, fields: Vec<FieldDiff>) -> ObjectDiff {
    ObjectDiff {
        kind,
        name: name.into(),
        fields,
        objects: vec![],
    }
}

#[test]
fn annotate_test_go_v1_10_5_task_group_updates() {
    let mut diff = JobDiff {
        kind: DiffType::Edited,
        id: "j".into(),
        fields: vec![],
        objects: vec![],
        task_groups: vec![group(DiffType::Edited, "foo", vec![])],
    };
    let desired = DesiredChanges {
        ignore: 1,
        place: 2,
        migrate: 3,
        stop: 4,
        in_place_update: 5,
        destructive_update: 6,
        canary: 7,
        preemptions: 0,
    };
    let all = BTreeMap::from([("foo".to_string(), desired)]);
    annotate(&mut diff, &all, Switches::of(v(1, 10, 5)));
    let expected: BTreeMap<String, u64> = [
        ("ignore", 1),
        ("create", 2),
        ("migrate", 3),
        ("destroy", 4),
        ("in-place update", 5),
        ("create/destroy update", 6),
        ("canary", 7),
    ]
    .into_iter()
    .map(|(k, n)| (k.to_string(), n))
    .collect();
    assert_eq!(diff.task_groups[0].updates, expected);
}

#[test]
fn annotate_test_go_v1_10_5_count_change_non_edited() {
    let mut g = group(DiffType::None, "", vec![]);
    let before = g.clone();
    count_change(&mut g);
    assert_eq!(g, before);
}

#[test]
fn annotate_test_go_v1_10_5_count_change() {
    let mut up = group(
        DiffType::Edited,
        "",
        vec![field(DiffType::Edited, "Count", "1", "3")],
    );
    let mut down = group(
        DiffType::Edited,
        "",
        vec![field(DiffType::Edited, "Count", "3", "1")],
    );
    count_change(&mut up);
    count_change(&mut down);
    assert_eq!(up.fields[0].annotations, ["forces create"]);
    assert_eq!(down.fields[0].annotations, ["forces destroy"]);
}

#[test]
fn annotate_test_go_v1_10_5_task_non_edited() {
    let mut t = task(DiffType::None, vec![], vec![]);
    annotate_task(&mut t, DiffType::None, Switches::of(v(1, 10, 5)));
    assert!(t.annotations.is_empty());
}

/// The cases of `TestAnnotateTask`, each with the annotation at 1.10.5 and
/// at 1.5.4 (before the LogConfig `Disabled` rule and the in-place
/// affinity and spread rule).
#[test]
fn annotate_test_go_v1_10_5_task() {
    use DiffType::*;
    let f = field;
    let d = "forces create/destroy update";
    let i = "forces in-place update";
    let cases: Vec<(TaskDiff, DiffType, &str, &str)> = vec![
        (
            task(Edited, vec![f(Edited, "Driver", "docker", "exec")], vec![]),
            Edited,
            d,
            d,
        ),
        (
            task(Edited, vec![f(Edited, "User", "alice", "bob")], vec![]),
            Edited,
            d,
            d,
        ),
        (
            task(Edited, vec![f(Added, "Env[foo]", "foo", "bar")], vec![]),
            Edited,
            d,
            d,
        ),
        (
            task(Edited, vec![f(Added, "Meta[foo]", "foo", "bar")], vec![]),
            Edited,
            d,
            d,
        ),
        (
            task(
                Edited,
                vec![],
                vec![object(
                    Added,
                    "Artifact",
                    vec![f(Added, "GetterSource", "", "bam")],
                )],
            ),
            Edited,
            d,
            d,
        ),
        (
            task(
                Edited,
                vec![],
                vec![object(
                    Edited,
                    "Resources",
                    vec![f(Edited, "CPU", "100", "200")],
                )],
            ),
            Edited,
            d,
            d,
        ),
        (
            task(
                Edited,
                vec![],
                vec![object(
                    Edited,
                    "Config",
                    vec![f(Edited, "bam[1]", "b", "c")],
                )],
            ),
            Edited,
            d,
            d,
        ),
        (
            task(
                Edited,
                vec![],
                vec![object(
                    Added,
                    "Constraint",
                    vec![f(Added, "LTarget", "", "baz")],
                )],
            ),
            Edited,
            i,
            i,
        ),
        (
            task(
                Edited,
                vec![],
                vec![object(
                    Added,
                    "Affinity",
                    vec![f(Added, "LTarget", "", "baz")],
                )],
            ),
            Edited,
            i,
            d,
        ),
        (
            task(
                Edited,
                vec![],
                vec![object(
                    Added,
                    "Spread",
                    vec![f(Added, "LTarget", "", "baz")],
                )],
            ),
            Edited,
            i,
            d,
        ),
        (
            task(
                Edited,
                vec![],
                vec![object(
                    Added,
                    "LogConfig",
                    vec![
                        f(Added, "MaxFileSizeMB", "", "10"),
                        f(Added, "MaxFiles", "", "1"),
                    ],
                )],
            ),
            Edited,
            i,
            i,
        ),
        (
            task(
                Edited,
                vec![],
                vec![object(
                    Added,
                    "LogConfig",
                    vec![f(Added, "Disabled", "true", "false")],
                )],
            ),
            Edited,
            d,
            i,
        ),
        (
            task(
                Edited,
                vec![],
                vec![object(
                    Edited,
                    "Service",
                    vec![f(Edited, "PortLabel", "baz", "baz2")],
                )],
            ),
            Edited,
            i,
            i,
        ),
        (
            task(
                Edited,
                vec![f(Edited, "KillTimeout", "200", "2000000")],
                vec![],
            ),
            Edited,
            i,
            i,
        ),
        (
            task(Deleted, vec![f(Added, "Driver", "", "exec")], vec![]),
            Added,
            "forces destroy",
            "forces destroy",
        ),
        (
            task(Added, vec![f(Added, "Driver", "", "exec")], vec![]),
            Added,
            "forces create",
            "forces create",
        ),
        (
            task(Deleted, vec![f(Added, "Driver", "", "exec")], vec![]),
            Edited,
            d,
            d,
        ),
        (
            task(Added, vec![f(Added, "Driver", "", "exec")], vec![]),
            Edited,
            d,
            d,
        ),
    ];
    for (n, (diff, parent, at_1_10, at_1_5_4)) in cases.into_iter().enumerate() {
        for (release, want) in [(v(1, 10, 5), at_1_10), (v(1, 5, 4), at_1_5_4)] {
            let mut t = diff.clone();
            annotate_task(&mut t, parent, Switches::of(release));
            assert_eq!(t.annotations, [want], "case {} at {release:?}", n + 1);
        }
    }
}
