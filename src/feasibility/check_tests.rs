//! The operand tables of scheduler/feasible_test.go at v1.3.0 and
//! scheduler/feasible/feasible_test.go at v2.0.5, case by case:
//! `TestCheckLexicalOrder` (v1.3.0) and `TestCheckOrder` (v2.0.5),
//! `TestCheckVersionConstraint`, `TestCheckSemverConstraint`,
//! `TestCheckRegexpConstraint`, `TestSetContainsAny`,
//! `TestResolveConstraintTarget` and `TestConstraintChecker`. Go's tests
//! also pass an integer as the left side; a node's attributes are strings,
//! so the replay never sees one: the integer rows of the version tables
//! are ported as its decimal text, which `checkVersionMatch` formats it
//! to, and those of the order and regexp tables (false for a non-string)
//! have no counterpart.

use super::*;
use crate::model::{Constraint, Node, Release, from_slice, v};

const V1_3_0: Release = v(1, 3, 0);
const V2_0_5: Release = v(2, 0, 5);

/// `checkConstraint` on two found sides as `release` compares them.
fn at(release: Release, op: &str, l: &str, r: &str) -> bool {
    let c = Constraint {
        l_target: l.into(),
        r_target: r.into(),
        operand: op.into(),
    };
    let node = Node::default();
    meets(&c, &node, &mut Parsed::new(TargetRules::of(release))) == Check::Met
}

/// `TestCheckLexicalOrder` (v1.3.0 feasible_test.go:1132): strings compare
/// byte by byte, numbers too.
#[test]
fn feasible_test_go_v1_3_0_check_lexical_order() {
    let cases = [
        ("<", "bar", "foo", true),
        ("<=", "foo", "foo", true),
        (">", "bar", "foo", false),
        (">=", "bar", "bar", true),
    ];
    for (op, l, r, want) in cases {
        assert_eq!(at(V1_3_0, op, l, r), want, "{l} {op} {r}");
    }
    // Lexical before #14722: "10" sorts before "9".
    assert!(at(V1_3_0, "<", "10", "9"));
    assert!(at(V1_3_0, "<", "10.5", "9"));
}

/// `TestCheckOrder` (v2.0.5 feasible_test.go:1935, from #14722 in
/// v1.4.0): both sides compare as integers when both parse as one, else
/// as floats, else as strings.
#[test]
fn feasible_test_go_v2_0_5_check_order() {
    let cases = [
        ("<", "bar", "foo", true),
        ("<=", "foo", "foo", true),
        (">", "bar", "foo", false),
        (">=", "bar", "bar", true),
        (">", "1", "foo", false),
        ("<", "10", "1", false),
        ("<", "1", "10", true),
        ("<", "10.5", "1.5", false),
        ("<", "1.5", "10.5", true),
    ];
    for release in [v(1, 4, 0), V2_0_5] {
        for (op, l, r, want) in cases {
            assert_eq!(at(release, op, l, r), want, "{release:?}: {l} {op} {r}");
        }
    }
    // Nomad's rows answer the same lexically; these do not.
    for (l, r) in [("9", "10"), ("9.5", "10.5")] {
        assert!(at(V2_0_5, "<", l, r), "{l} < {r}");
        assert!(!at(v(1, 3, 16), "<", l, r), "{l} < {r} before #14722");
    }
}

/// The numeric rule's edges, as Go's `strconv` parses: a sign is a
/// number, an integer too large for 64 bits is compared as a float, a
/// float out of range and text around a number are strings, and one
/// number against one string is lexical.
#[test]
fn numeric_order_follows_go_strconv() {
    let r = V2_0_5;
    assert!(at(r, "<", "-5", "3"), "signed integers");
    assert!(at(r, ">", "+7", "3"), "a plus sign is a number");
    assert!(
        at(r, "<", "9", "18446744073709551616"),
        "beyond i64: a float"
    );
    assert!(at(r, "<", "2", "1e3"), "an exponent is a float");
    assert!(at(r, "==", "1e3", "1e3"));
    assert!(at(r, "<", "1e400", "2"), "out of range: no float, lexical");
    assert!(
        at(r, ">", "inf", "2"),
        "infinity is spelled, not overflowed"
    );
    assert!(at(r, "<", " 5", "3"), "a space is no number: lexical");
    assert!(at(r, "<", "10", "9a"), "one side text: lexical");
    assert!(at(r, ">=", "2.0", "2"), "2.0 and 2 compare as floats");
    assert!(
        !at(r, "<", "nan", "1") && !at(r, ">=", "nan", "1"),
        "NaN orders with nothing"
    );
}

/// `TestCheckVersionConstraint` (v1.3.0 feasible_test.go:1174, v2.0.5
/// :1997; the same table).
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_check_version_constraint() {
    let cases = [
        ("1.2.3", "~> 1.0", true),
        ("1.2.3", ">= 1.0, < 1.4", true),
        ("2.0.1", "~> 1.0", false),
        ("1.4", ">= 1.0, < 1.4", false),
        ("1", "~> 1.0", true),
        ("1.3.0-beta1", ">= 0.6.1", false),
        ("1.7.0-alpha1", ">= 1.6.0-beta1", false),
        ("1.3.0-beta1+ent", "= 1.3.0-beta1", true),
    ];
    for release in [V1_3_0, V2_0_5] {
        for (l, r, want) in cases {
            assert_eq!(at(release, "version", l, r), want, "{release:?}: {l} {r}");
        }
    }
}

/// `TestCheckSemverConstraint` (v1.3.0 feasible_test.go:1227: the first
/// eight rows; v2.0.5 :2050 adds four on pre-releases of the same version).
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_check_semver_constraint() {
    let v1_3_0 = [
        ("1.2.3", "~> 1.0", false),
        ("1.2.3", ">= 1.0, < 1.4", true),
        ("2.0.1", "~> 1.0", false),
        ("1.4", ">= 1.0, < 1.4", false),
        ("1", "~> 1.0", false),
        ("1.3.0-beta1", ">= 0.6.1", true),
        ("1.7.0-alpha1", ">= 1.6.0-beta1", true),
        ("1.3.0-beta1+ent", "= 1.3.0-beta1", true),
    ];
    let v2_0_5 = [
        ("1.7.0-beta", ">= 1.7.0", false),
        ("1.7.0", ">= 1.7.0-dev", true),
        ("1.7.0-beta.1", ">= 1.7.0-a", true),
        ("1.7.0-rc.1", ">= 1.7.0-dev", true),
    ];
    for (l, r, want) in v1_3_0 {
        assert_eq!(at(V1_3_0, "semver", l, r), want, "{l} {r}");
    }
    for (l, r, want) in v1_3_0.iter().chain(&v2_0_5) {
        assert_eq!(at(V2_0_5, "semver", l, r), *want, "{l} {r}");
    }
}

/// `TestCheckRegexpConstraint` (v1.3.0 feasible_test.go:1289, v2.0.5
/// :2131).
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_check_regexp_constraint() {
    let cases = [
        ("foobar", "bar", true),
        ("foobar", "^foo", true),
        ("foobar", "^bar", false),
        ("zipzap", "foo", false),
    ];
    for release in [V1_3_0, V2_0_5] {
        for (l, r, want) in cases {
            assert_eq!(at(release, "regexp", l, r), want, "{l} {r}");
        }
    }
}

/// `TestSetContainsAny` (v1.3.0 feasible_test.go:2465, v2.0.5 :3416).
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_set_contains_any() {
    let cases = [
        ("a", "a", true),
        ("a,b", "a", true),
        ("  a,b  ", "a ", true),
        ("b", "a", false),
    ];
    for release in [V1_3_0, V2_0_5] {
        for (l, r, want) in cases {
            assert_eq!(at(release, "set_contains_any", l, r), want, "{l} {r}");
        }
    }
}

/// `mock.Node()` as far as constraints read it.
fn mock_node() -> Node {
    from_slice(
        br#"{"ID": "e5a6f4b0-6f1d-4a38-9b7c-62d2c5f5d6a1", "Name": "foobar",
             "Datacenter": "dc1", "NodeClass": "linux-medium-pci", "NodePool": "default",
             "Attributes": {"kernel.name": "linux", "arch": "x86", "nomad.version": "0.5.0",
                            "driver.exec": "1", "driver.mock_driver": "1",
                            "consul.version": "1.11.4"},
             "Meta": {"pci-dss": "true", "database": "mysql", "version": "5.6"}}"#,
    )
    .unwrap()
}

/// `TestResolveConstraintTarget` (v1.3.0 feasible_test.go:916, v2.0.5
/// :1721): node fields, attributes and meta resolve and are found; an
/// unknown `${node.*}` and a missing attribute or meta key are not.
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_resolve_constraint_target() {
    let node = mock_node();
    let cases = [
        ("${node.unique.id}", Some(node.id.as_str())),
        ("${node.datacenter}", Some("dc1")),
        ("${node.unique.name}", Some("foobar")),
        ("${node.class}", Some("linux-medium-pci")),
        ("${node.foo}", None),
        ("${attr.kernel.name}", Some("linux")),
        ("${attr.rand}", None),
        ("${meta.pci-dss}", Some("true")),
        ("${meta.rand}", None),
    ];
    for release in [V1_3_0, V2_0_5] {
        for (target, want) in cases {
            let got = resolve(target, &node, TargetRules::of(release));
            assert_eq!(got.found, want.is_some(), "{target}");
            assert_eq!(got.text(), want, "{target}");
        }
    }
}

fn constraint(op: &str, l: &str, r: &str) -> Constraint {
    Constraint {
        l_target: l.into(),
        r_target: r.into(),
        operand: op.into(),
    }
}

/// `TestConstraintChecker` (v1.3.0 feasible_test.go:854, v2.0.5 :1648):
/// four `mock.Node()`s, each but one missing a constraint. v1.6.0 adds a
/// `${node.pool} != prod` constraint and a fourth node in pool `prod`.
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_constraint_checker() {
    let mut nodes = vec![mock_node(), mock_node(), mock_node(), mock_node()];
    nodes[0]
        .attributes
        .insert("kernel.name".into(), "freebsd".into());
    nodes[1].datacenter = "dc2".into();
    nodes[2].node_class = "large".into();
    nodes[2].attributes.insert("foo".into(), "bar".into());
    nodes[3].node_pool = "prod".into();
    let mut constraints = vec![
        constraint("=", "${node.datacenter}", "dc1"),
        constraint("is", "${attr.kernel.name}", "linux"),
        constraint("!=", "${node.class}", "linux-medium-pci"),
        constraint("is_set", "${attr.foo}", ""),
    ];
    let feasible = |release: Release, nodes: &[Node], constraints: &[Constraint]| -> Vec<bool> {
        let mut parsed = Parsed::new(TargetRules::of(release));
        nodes
            .iter()
            .map(|n| {
                constraints
                    .iter()
                    .all(|c| meets(c, n, &mut parsed) == Check::Met)
            })
            .collect()
    };
    assert_eq!(
        feasible(V1_3_0, &nodes, &constraints)[..3],
        [false, false, true]
    );
    constraints.insert(3, constraint("!=", "${node.pool}", "prod"));
    for release in [v(1, 6, 0), V2_0_5] {
        assert_eq!(
            feasible(release, &nodes, &constraints),
            [false, false, true, false]
        );
    }
    // Node 3 also fails the class constraint; as node 2 in pool `prod` it
    // fails on the pool alone, which before #17548 is an unknown target.
    nodes[2].node_pool = "prod".into();
    assert!(!feasible(V2_0_5, &nodes, &constraints)[2]);
    assert!(feasible(v(1, 5, 6), &nodes, &constraints)[2]);
}
