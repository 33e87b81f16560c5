//! `checkConstraint`: whether a node meets one job, group or task constraint.

use std::collections::HashMap;

use regex::Regex;

use super::regexp;
use super::target::{Target, TargetRules, resolve};
use super::version::{Flavour, Version, VersionConstraints};
use crate::model::{Constraint, Node};

/// The answer for one constraint on one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    Met,
    Unmet,
    /// Unmet because the constraint itself is broken (its right side does
    /// not parse); Nomad says nothing and filters the node.
    Invalid(String),
}

impl Check {
    fn from(met: bool) -> Check {
        if met { Check::Met } else { Check::Unmet }
    }
}

/// Operands whose checks live elsewhere: `checkConstraint` lets them pass.
pub const DISTINCT_HOSTS: &str = "distinct_hosts";
pub const DISTINCT_PROPERTY: &str = "distinct_property";

/// Nomad's `Constraint.String`, the text a filtered node is reported with.
pub fn describe(c: &Constraint) -> String {
    format!("{} {} {}", c.l_target, c.operand, c.r_target)
}

/// Parsed regular expressions and version constraints, by their text, as
/// Nomad's evaluation context caches them: a constraint is parsed once per
/// job, not once per node.
#[derive(Debug, Default)]
pub struct Parsed {
    targets: TargetRules,
    regexps: HashMap<String, Option<Regex>>,
    versions: HashMap<(String, Flavour), Option<VersionConstraints>>,
}

impl Parsed {
    /// An empty cache for an evaluation whose targets resolve as `targets`.
    pub fn new(targets: TargetRules) -> Parsed {
        Parsed {
            targets,
            ..Parsed::default()
        }
    }
}

/// `meetsConstraint`: resolves both sides on `node` and checks them.
pub fn meets(c: &Constraint, node: &Node, parsed: &mut Parsed) -> Check {
    let targets = parsed.targets;
    check_with(
        &c.operand,
        &resolve(&c.l_target, node, targets),
        &resolve(&c.r_target, node, targets),
        parsed,
    )
}

/// `checkConstraint` on two resolved sides.
pub fn check(operand: &str, l: &Target<'_>, r: &Target<'_>) -> Check {
    check_with(operand, l, r, &mut Parsed::default())
}

fn check_with(operand: &str, l: &Target<'_>, r: &Target<'_>, parsed: &mut Parsed) -> Check {
    let both = l.found && r.found;
    let strings = || l.value.zip(r.value);
    match operand {
        DISTINCT_HOSTS | DISTINCT_PROPERTY => Check::Met,
        "=" | "==" | "is" => Check::from(both && l.value == r.value),
        "!=" | "not" => Check::from(l.value != r.value),
        "<" | "<=" | ">" | ">=" => Check::from(
            both && strings()
                .is_some_and(|(a, b)| order(operand, a, b, parsed.targets.numeric_order)),
        ),
        "is_set" => Check::from(l.found),
        "is_not_set" => Check::from(!l.found),
        "version" | "semver" if both => {
            let flavour = if operand == "version" {
                Flavour::Version
            } else {
                Flavour::Semver
            };
            version_match(
                flavour,
                l.value.unwrap_or(""),
                r.value.unwrap_or(""),
                parsed,
            )
        }
        "regexp" if both => regexp_match(l.value.unwrap_or(""), r.value.unwrap_or(""), parsed),
        "set_contains" | "set_contains_all" => {
            Check::from(both && strings().is_some_and(|(a, b)| contains_all(a, b)))
        }
        "set_contains_any" => {
            Check::from(both && strings().is_some_and(|(a, b)| contains_any(a, b)))
        }
        _ => Check::Unmet,
    }
}

/// `checkLexicalOrder`, and from #14722 `checkOrder`: integers when both
/// sides parse as Go's `strconv.ParseInt` reads one, else floats as
/// `ParseFloat` reads one, else strings byte by byte.
fn order(operand: &str, a: &str, b: &str, numeric: bool) -> bool {
    let ordering = if numeric {
        match (a.parse::<i64>(), b.parse::<i64>()) {
            (Ok(x), Ok(y)) => Some(x.partial_cmp(&y)),
            _ => go_float(a).zip(go_float(b)).map(|(x, y)| x.partial_cmp(&y)),
        }
    } else {
        None
    };
    // NaN orders with nothing: every comparison of it is false.
    let ordering = ordering.unwrap_or_else(|| Some(a.cmp(b)));
    ordering.is_some_and(|o| match operand {
        "<" => o.is_lt(),
        "<=" => o.is_le(),
        ">" => o.is_gt(),
        _ => o.is_ge(),
    })
}

/// A float as Go's `ParseFloat` reads one: a value beyond `f64`'s range is
/// an error there, not an infinity, unless the text spells infinity. Go
/// also reads hexadecimal floats (`0x1p4`), which no attribute carries in
/// practice; they compare as strings here.
fn go_float(text: &str) -> Option<f64> {
    let f: f64 = text.parse().ok()?;
    let spelled = || {
        let digits = text.trim_start_matches(['+', '-']).to_ascii_lowercase();
        digits == "inf" || digits == "infinity"
    };
    (f.is_finite() || f.is_nan() || spelled()).then_some(f)
}

/// `checkVersionMatch`. A left side that is no version just fails; a right
/// side that is no constraint is a broken constraint.
fn version_match(flavour: Flavour, left: &str, right: &str, parsed: &mut Parsed) -> Check {
    let Some(v) = Version::parse(left) else {
        return Check::Unmet;
    };
    let constraints = parsed
        .versions
        .entry((right.to_string(), flavour))
        .or_insert_with(|| VersionConstraints::parse(right, flavour));
    match constraints {
        Some(c) => Check::from(c.check(&v)),
        None => Check::Invalid(format!(
            "{right:?} is not a valid {} constraint",
            match flavour {
                Flavour::Version => "version",
                Flavour::Semver => "semver",
            }
        )),
    }
}

/// `checkRegexpMatch`: an unanchored search, with Go's syntax.
fn regexp_match(left: &str, pattern: &str, parsed: &mut Parsed) -> Check {
    let re = parsed
        .regexps
        .entry(pattern.to_string())
        .or_insert_with(|| regexp::compile(pattern));
    match re {
        Some(re) => Check::from(re.is_match(left)),
        None => Check::Invalid(format!("{pattern:?} is not a valid regular expression")),
    }
}

fn items(list: &str) -> impl Iterator<Item = &str> {
    list.split(',').map(str::trim)
}

/// Every comma-separated item of `right` is one of `left`'s.
fn contains_all(left: &str, right: &str) -> bool {
    let have: Vec<&str> = items(left).collect();
    items(right).all(|r| have.contains(&r))
}

/// Some item of `right` is one of `left`'s.
fn contains_any(left: &str, right: &str) -> bool {
    let have: Vec<&str> = items(left).collect();
    items(right).any(|r| have.contains(&r))
}
