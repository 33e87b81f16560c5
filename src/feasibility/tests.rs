//! The operands of `checkConstraint` and the version parsers, after Nomad's
//! scheduler/feasible_test.go (`TestCheckConstraint`, `TestCheckVersionConstraint`,
//! `TestCheckSemverConstraint`, `TestCheckRegexpConstraint`,
//! `TestCheckSetContainsAll/Any`) and go-version v1.4.0's tests, 8ac3e642e6.

use super::*;
use crate::model::{Constraint, Node};

fn found(v: &str) -> Target<'_> {
    Target {
        value: Some(v),
        found: true,
    }
}

fn ok(op: &str, l: &str, r: &str) -> bool {
    check(op, &found(l), &found(r)) == Check::Met
}

#[test]
fn equality_operands_need_both_sides() {
    for op in ["=", "==", "is"] {
        assert!(ok(op, "foo", "foo"));
        assert!(!ok(op, "foo", "bar"));
        let missing = Target {
            value: Some(""),
            found: false,
        };
        assert_eq!(check(op, &missing, &found("")), Check::Unmet);
    }
}

#[test]
fn not_equal_compares_go_values_found_or_not() {
    for op in ["!=", "not"] {
        assert!(ok(op, "foo", "bar"));
        assert!(!ok(op, "foo", "foo"));
        // A missing attribute is "": equal to a literal "".
        let missing_attr = Target {
            value: Some(""),
            found: false,
        };
        assert_eq!(check(op, &missing_attr, &found("")), Check::Unmet);
        assert_eq!(check(op, &missing_attr, &found("x")), Check::Met);
        // An unknown interpolation is nil: unequal to any string.
        let nil = Target {
            value: None,
            found: false,
        };
        assert_eq!(check(op, &nil, &found("")), Check::Met);
        assert_eq!(check(op, &nil, &nil), Check::Unmet);
    }
}

#[test]
fn ordering_is_lexical() {
    assert!(ok("<", "1", "2"));
    assert!(ok("<", "10", "9"), "lexical, not numeric");
    assert!(ok("<=", "abc", "abc"));
    assert!(ok(">", "b", "a"));
    assert!(ok(">=", "b", "b"));
    assert!(!ok(">", "a", "b"));
}

#[test]
fn is_set_and_is_not_set_look_at_the_left_side_only() {
    let missing = Target {
        value: Some(""),
        found: false,
    };
    assert_eq!(check("is_set", &found("x"), &missing), Check::Met);
    assert_eq!(check("is_set", &missing, &found("x")), Check::Unmet);
    assert_eq!(check("is_not_set", &missing, &missing), Check::Met);
    assert_eq!(check("is_not_set", &found(""), &missing), Check::Unmet);
}

#[test]
fn distinct_operands_pass_the_constraint_checker() {
    assert!(ok("distinct_hosts", "", ""));
    assert!(ok("distinct_property", "", ""));
    assert!(!ok("bogus", "a", "a"));
}

#[test]
fn version_operand_follows_go_version() {
    let cases = [
        ("1.2.3", "~> 1.0", true),
        ("1.2.3", ">= 1.0, < 1.4", true),
        ("2.0.1", "~> 1.0", false),
        ("1.4", ">= 1.0, < 1.4", false),
        ("1", "~> 1.0", true),
        ("1.3.0-beta1", ">= 0.6.1", false),
        ("1.3.0-beta1", ">= 1.3.0-beta1", true),
        ("1.3.0-beta2", ">= 1.3.0-beta1", true),
        ("1.7.1+ent", "= 1.7.1", true),
        ("v1.2", "1.2.0", true),
        ("1.2.3.4", "> 1.2.3", true),
        ("1.2.3.0", "= 1.2.3", true),
        ("1.0.0", "~> 1.0.0-beta", false),
    ];
    for (v, c, want) in cases {
        assert_eq!(ok("version", v, c), want, "{v} {c}");
    }
}

#[test]
fn semver_operand_orders_prereleases_without_the_go_version_check() {
    let cases = [
        ("1.3.0-beta1", ">= 0.6.1", true),
        ("1.3.0-beta1", "< 1.3.0", true),
        ("1.2.3", ">= 1.0.0, < 2.0.0", true),
        ("1.0.0-alpha", "< 1.0.0-alpha.1", true),
        ("1.0.0-alpha.beta", "> 1.0.0-alpha.1", true),
        ("1.0.0-rc.1", "< 1.0.0", true),
    ];
    for (v, c, want) in cases {
        assert_eq!(ok("semver", v, c), want, "{v} {c}");
    }
}

#[test]
fn unparsable_versions_fail_and_bad_constraints_are_invalid() {
    // The node's version is not one: simply unmet.
    assert_eq!(
        check("version", &found("foo"), &found(">= 1.0")),
        Check::Unmet
    );
    assert_eq!(
        check(
            "version",
            &found("99999999999999999999.0"),
            &found(">= 1.0")
        ),
        Check::Unmet
    );
    // The constraint does not parse: invalid.
    assert_eq!(
        check("version", &found("1.2.3"), &found(">= abc")),
        Check::Invalid("\">= abc\" is not a valid version constraint".into())
    );
    // `~>` is go-version only; semver wants a dash before a pre-release.
    assert!(matches!(
        check("semver", &found("1.2.3"), &found("~> 1.2")),
        Check::Invalid(_)
    ));
    assert!(matches!(
        check("semver", &found("1.2.3"), &found(">= 1.2.3beta")),
        Check::Invalid(_)
    ));
    assert!(ok("version", "1.2.4", ">= 1.2.3beta"));
}

#[test]
fn version_parsers_edge_cases() {
    assert!(Version::parse("1.2.3beta").is_some());
    assert!(Version::parse_semver("1.2.3beta").is_none());
    assert!(Version::parse("v1.2.3-rc.1+build.5").is_some());
    assert!(Version::parse("1..2").is_none());
    assert!(Version::parse("").is_none());
    assert!(
        Version::parse(" 1.2").is_none(),
        "no surrounding spaces in a version"
    );
    let v = |s| Version::parse(s).unwrap();
    use std::cmp::Ordering::*;
    assert_eq!(v("1.2").compare(&v("1.2.0")), Equal);
    assert_eq!(v("1.2.0.1").compare(&v("1.2")), Greater);
    assert_eq!(v("1.0.0-alpha").compare(&v("1.0.0")), Less);
    assert_eq!(v("1.0.0-2").compare(&v("1.0.0-10")), Less);
    assert_eq!(v("1.0.0-a").compare(&v("1.0.0-1")), Greater);
    assert_eq!(v("1.0.0+a").compare(&v("1.0.0+b")), Equal);
    assert!(VersionConstraints::parse(" >= 1.0 ,< 2", Flavour::Version).is_some());
    assert!(VersionConstraints::parse(">= 1.0,", Flavour::Version).is_none());
}

#[test]
fn regexp_operand_searches_unanchored() {
    assert!(ok("regexp", "foobarbaz", "bar"));
    assert!(ok("regexp", "linux-5.4", "^linux-[0-9]+"));
    assert!(!ok("regexp", "darwin", "^linux"));
    assert_eq!(
        check("regexp", &found("x"), &found("(")),
        Check::Invalid("\"(\" is not a valid regular expression".into())
    );
}

#[test]
fn set_contains_operands_split_on_commas_and_trim() {
    for op in ["set_contains", "set_contains_all"] {
        assert!(ok(op, "a, b ,c", "c,a"));
        assert!(!ok(op, "a,b", "a,d"));
    }
    assert!(ok("set_contains_any", "a,b", "d, b"));
    assert!(!ok("set_contains_any", "a,b", "c,d"));
}

#[test]
fn targets_interpolate_node_fields_attributes_and_meta() {
    let mut node = Node {
        id: "n1".into(),
        name: "host-1".into(),
        datacenter: "dc2".into(),
        node_class: "gpu".into(),
        ..Node::default()
    };
    node.attributes.insert("kernel.name".into(), "linux".into());
    node.meta.insert("rack".into(), "r1".into());
    assert_eq!(
        resolve("${node.unique.id}", &node, TargetRules::default()).text(),
        Some("n1")
    );
    assert_eq!(
        resolve("${node.unique.name}", &node, TargetRules::default()).text(),
        Some("host-1")
    );
    assert_eq!(
        resolve("${node.datacenter}", &node, TargetRules::default()).text(),
        Some("dc2")
    );
    assert_eq!(
        resolve("${node.class}", &node, TargetRules::default()).text(),
        Some("gpu")
    );
    assert_eq!(
        resolve("${attr.kernel.name}", &node, TargetRules::default()).text(),
        Some("linux")
    );
    assert_eq!(
        resolve("${meta.rack}", &node, TargetRules::default()).text(),
        Some("r1")
    );
    assert_eq!(
        resolve("${meta.missing}", &node, TargetRules::default()).value,
        Some("")
    );
    assert_eq!(
        resolve("${node.bogus}", &node, TargetRules::default()).value,
        None
    );
    assert_eq!(
        resolve("literal", &node, TargetRules::default()).text(),
        Some("literal")
    );
    let c = Constraint {
        l_target: "${attr.kernel.name}".into(),
        r_target: "linux".into(),
        operand: "=".into(),
    };
    assert_eq!(meets(&c, &node, &mut Parsed::default()), Check::Met);
    assert_eq!(describe(&c), "${attr.kernel.name} = linux");
}

/// The `DistinctPropertyIterator` cases of scheduler/feasible_test.go at
/// v1.3.0 and scheduler/feasible/feasible_test.go at v2.0.5 (the same
/// cases) over the property sets alone: nodes whose `${meta.rack}` is
/// their index, the job's existing allocations (state), the plan's stops
/// and placements, as (group, node). Allocations of other jobs, which the
/// Go tests mix in to show they are ignored, never reach the sets: the
/// placement stage hands them the job's own.
mod distinct_property_iterator {
    use super::super::distinct_property::PropertySet;
    use super::*;
    use crate::model::{from_slice, v};

    fn racks(n: usize) -> Vec<Node> {
        (0..n)
            .map(|i| {
                let j = format!(r#"{{"ID": "n{i}", "Meta": {{"rack": "{i}"}}}}"#);
                from_slice(j.as_bytes()).unwrap()
            })
            .collect()
    }

    fn at<'a>(nodes: &'a [Node], allocs: &[(&'a str, usize)]) -> Vec<Placed<'a>> {
        allocs
            .iter()
            .map(|&(tg, i)| Placed {
                node: Some(&nodes[i]),
                task_group: tg,
            })
            .collect()
    }

    fn distinct(count: &str) -> Vec<Constraint> {
        vec![Constraint {
            l_target: "${meta.rack}".into(),
            r_target: count.into(),
            operand: "distinct_property".into(),
        }]
    }

    /// The target rules at 1.3.0 and 2.0.5; the property sets read nothing
    /// else that differs between them.
    fn tags() -> [TargetRules; 2] {
        [TargetRules::of(v(1, 3, 0)), TargetRules::of(v(2, 0, 5))]
    }

    /// The nodes every set of `sets` lets `tg` onto.
    fn feasible(
        sets: &[PropertySet],
        nodes: &[Node],
        stopping: &[Placed<'_>],
        proposed: &[Placed<'_>],
    ) -> Vec<usize> {
        (0..nodes.len())
            .filter(|&i| {
                sets.iter()
                    .all(|s| s.satisfied(&nodes[i], stopping, proposed).is_ok())
            })
            .collect()
    }

    /// `TestDistinctPropertyIterator_JobDistinctProperty`: one allocation
    /// per rack across the job's groups; alloc1 is both in the state and
    /// in the plan (an update), counted twice; rack 4's only allocation is
    /// stopped by the plan, so only node 4 takes group "baz".
    #[test]
    fn feasible_test_go_v1_3_0_v2_0_5_job_distinct_property() {
        for rules in tags() {
            let n = racks(5);
            let existing = at(&n, &[("bar", 0), ("bar", 1), ("baz", 3), ("baz", 4)]);
            let sets = PropertySet::all(&distinct(""), None, &existing, rules);
            let proposed = at(&n, &[("bar", 0), ("baz", 2)]);
            let stopping = at(&n, &[("baz", 4)]);
            assert_eq!(feasible(&sets, &n, &stopping, &proposed), [4]);
            assert_eq!(
                sets[0].satisfied(&n[0], &stopping, &proposed),
                Err("distinct_property: ${meta.rack}=0 used by 2 allocs".to_string())
            );
        }
    }

    /// `..._JobDistinctProperty_Count`: two per rack; racks 0 and 1 are
    /// full, and rack 2's one placement is offset by a stop there (a single
    /// stop of a value placed again still clears it).
    #[test]
    fn feasible_test_go_v1_3_0_v2_0_5_job_distinct_property_count() {
        for rules in tags() {
            let n = racks(3);
            let existing = at(&n, &[("bar", 0), ("bar", 1), ("baz", 0)]);
            let sets = PropertySet::all(&distinct("2"), None, &existing, rules);
            let proposed = at(
                &n,
                &[("bar", 0), ("baz", 0), ("bar", 1), ("baz", 1), ("bar", 2)],
            );
            let stopping = at(&n, &[("baz", 2)]);
            assert_eq!(feasible(&sets, &n, &stopping, &proposed), [2]);
        }
    }

    /// `..._JobDistinctProperty_RemoveAndReplace`: the rack's allocation is
    /// stopped and replaced in the same plan, so it is still used.
    #[test]
    fn feasible_test_go_v1_3_0_v2_0_5_job_distinct_property_remove_and_replace() {
        for rules in tags() {
            let n = racks(1);
            let existing = at(&n, &[("bar", 0)]);
            let sets = PropertySet::all(&distinct(""), None, &existing, rules);
            let (stopping, proposed) = (at(&n, &[("bar", 0)]), at(&n, &[("bar", 0)]));
            assert!(feasible(&sets, &n, &stopping, &proposed).is_empty());
        }
    }

    /// `..._JobDistinctProperty_Infeasible` and `..._Infeasible_Count`:
    /// both racks already used (once, then twice) by other groups.
    #[test]
    fn feasible_test_go_v1_3_0_v2_0_5_job_distinct_property_infeasible() {
        for rules in tags() {
            let n = racks(2);
            let sets = PropertySet::all(&distinct(""), None, &at(&n, &[("baz", 1)]), rules);
            assert!(feasible(&sets, &n, &[], &at(&n, &[("bar", 0)])).is_empty());
            let existing = at(&n, &[("bar", 1), ("baz", 1)]);
            let sets = PropertySet::all(&distinct("2"), None, &existing, rules);
            let proposed = at(&n, &[("bar", 0), ("baz", 0)]);
            assert!(feasible(&sets, &n, &[], &proposed).is_empty());
        }
    }

    /// `TestDistinctPropertyIterator_TaskGroupDistinctProperty`: the group
    /// "example" is distinct per rack; rack 0 is proposed, rack 1 used and
    /// rack 2's allocation stopped, so node 2 alone; group "baz", without
    /// the constraint, has no set and takes all three.
    #[test]
    fn feasible_test_go_v1_3_0_v2_0_5_task_group_distinct_property() {
        for rules in tags() {
            let n = racks(3);
            let existing = at(&n, &[("example", 1), ("example", 2)]);
            let sets = PropertySet::all(&distinct(""), Some("example"), &existing, rules);
            let proposed = at(&n, &[("example", 0)]);
            let stopping = at(&n, &[("example", 2)]);
            assert_eq!(feasible(&sets, &n, &stopping, &proposed), [2]);
            let none = PropertySet::all(&[], Some("baz"), &existing, rules);
            assert_eq!(feasible(&none, &n, &stopping, &proposed), [0, 1, 2]);
        }
    }
}

/// `TestCheckConstraint` and `TestCheckLexicalOrder` (scheduler/feasible_test.go,
/// v1.3.0): every operand with found values and with Go's nil (not found).
#[test]
fn feasible_test_go_v1_3_0_check_constraint() {
    let side = |v: Option<&'static str>| Target {
        value: v,
        found: v.is_some(),
    };
    let cases: &[(&str, Option<&str>, Option<&str>, bool)] = &[
        ("=", Some("foo"), Some("foo"), true),
        ("is", Some("foo"), Some("foo"), true),
        ("==", Some("foo"), Some("foo"), true),
        ("==", Some("foo"), None, false),
        ("==", None, Some("foo"), false),
        ("==", None, None, false),
        ("!=", Some("foo"), Some("foo"), false),
        ("!=", Some("foo"), Some("bar"), true),
        ("!=", None, Some("foo"), true),
        ("!=", Some("foo"), None, true),
        ("!=", None, None, false),
        ("not", Some("foo"), Some("bar"), true),
        ("version", Some("1.2.3"), Some("~> 1.0"), true),
        ("version", None, Some("~> 1.0"), false),
        ("regexp", Some("foobarbaz"), Some("[\\w]+"), true),
        ("regexp", None, Some("[\\w]+"), false),
        ("<", Some("foo"), Some("bar"), false),
        ("<", None, Some("bar"), false),
        (
            "set_contains",
            Some("foo,bar,baz"),
            Some("foo,  bar  "),
            true,
        ),
        ("set_contains", Some("foo,bar,baz"), Some("foo,bam"), false),
        ("is_set", Some("foo"), None, true),
        ("is_set", None, None, false),
        ("is_not_set", None, None, true),
        ("is_not_set", Some("foo"), None, false),
        // TestCheckLexicalOrder.
        ("<", Some("bar"), Some("foo"), true),
        ("<=", Some("foo"), Some("foo"), true),
        (">", Some("bar"), Some("foo"), false),
        (">=", Some("bar"), Some("bar"), true),
    ];
    for &(op, l, r, want) in cases {
        let got = check(op, &side(l), &side(r)) == Check::Met;
        assert_eq!(got, want, "{l:?} {op} {r:?}");
    }
}

/// #17548 (v1.6.0 scheduler/feasible.go:812): `${node.pool}` is the node's
/// pool (a node from before pools is in `default`); without the row it is
/// unknown, nil until #13651 (v1.3.0 feasible.go:800), then the empty
/// string (v1.4.0 feasible.go:800).
#[test]
fn node_pool_target_resolves_from_1_6_0_and_unknown_targets_by_release() {
    use crate::model::v;
    let mut node = Node {
        node_pool: "gpu".into(),
        ..Node::default()
    };
    let at = |release| TargetRules::of(release);
    assert_eq!(
        resolve("${node.pool}", &node, at(v(1, 6, 0))).text(),
        Some("gpu")
    );
    assert_eq!(
        resolve("${node.pool}", &node, at(v(2, 0, 5))).text(),
        Some("gpu")
    );
    let before = resolve("${node.pool}", &node, at(v(1, 5, 6)));
    assert_eq!((before.value, before.found), (Some(""), false));
    let seed = resolve("${node.pool}", &node, at(v(1, 3, 0)));
    assert_eq!((seed.value, seed.found), (None, false));
    let backport = resolve("${node.bogus}", &node, at(v(1, 3, 2)));
    assert_eq!((backport.value, backport.found), (Some(""), false));
    node.node_pool = "".into();
    assert_eq!(
        resolve("${node.pool}", &node, at(v(1, 6, 0))).text(),
        Some("default")
    );
    // `!=` against "" tells nil from the empty string.
    let c = Constraint {
        l_target: "${node.bogus}".into(),
        r_target: Default::default(),
        operand: "!=".into(),
    };
    let met = |release| meets(&c, &node, &mut Parsed::new(at(release)));
    assert_eq!(met(v(1, 3, 1)), Check::Met);
    assert_eq!(met(v(1, 3, 2)), Check::Unmet);
    assert_eq!(met(v(2, 0, 5)), Check::Unmet);
}
