//! Version strings and version constraints as Nomad's `version` and `semver`
//! constraint operands read them: hashicorp/go-version v1.4.0 (the release in
//! Nomad 1.3's go.mod) and Nomad's `helper/constraints/semver`, which reuses
//! go-version's parser with stricter syntax and plain ordering.

use std::cmp::Ordering;
use std::sync::LazyLock;

use regex::Regex;

/// go-version's version syntax: an optional `v`, dotted numbers, then a
/// pre-release (with or without a dash) and build metadata.
const VERSION: &str = r"v?([0-9]+(\.[0-9]+)*?)(-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)))?(\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))??";
/// The same, but a pre-release must follow a dash.
const SEMVER: &str = r"v?([0-9]+(\.[0-9]+)*?)(-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)))?(\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))??";
/// Go's `\s` is ASCII whitespace only.
const SPACE: &str = r"[\t\n\f\r ]*";

fn anchored(body: &str) -> Regex {
    Regex::new(&format!("^{body}$")).expect("the version syntax compiles")
}

static VERSION_RE: LazyLock<Regex> = LazyLock::new(|| anchored(VERSION));
static SEMVER_RE: LazyLock<Regex> = LazyLock::new(|| anchored(SEMVER));
static VERSION_CONSTRAINT_RE: LazyLock<Regex> = LazyLock::new(|| {
    anchored(&format!(
        "{SPACE}(~>|>=|<=|!=|=|>|<|){SPACE}({VERSION}){SPACE}"
    ))
});
static SEMVER_CONSTRAINT_RE: LazyLock<Regex> =
    LazyLock::new(|| anchored(&format!("{SPACE}(>=|<=|!=|=|>|<|){SPACE}({SEMVER}){SPACE}")));

/// A parsed version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Version {
    /// At least three: missing ones are zeros.
    segments: Vec<i64>,
    /// How many segments the text had.
    given: usize,
    pre: String,
    metadata: String,
}

/// The flavour of a constraint string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flavour {
    /// The `version` operand: go-version's rules, `~>` and pre-release checks.
    Version,
    /// The `semver` operand: strict syntax, Semver 2.0 ordering only.
    Semver,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Gt,
    Lt,
    Ge,
    Le,
    Pessimistic,
}

/// A comma-separated list of constraints, all of which must hold.
#[derive(Clone, Debug)]
pub struct VersionConstraints {
    flavour: Flavour,
    parts: Vec<(Op, Version)>,
}

impl Version {
    /// `version.NewVersion`: the lenient syntax.
    pub fn parse(text: &str) -> Option<Version> {
        Version::parse_with(text, &VERSION_RE)
    }

    /// `version.NewSemver`: a pre-release must follow a dash.
    pub fn parse_semver(text: &str) -> Option<Version> {
        Version::parse_with(text, &SEMVER_RE)
    }

    fn parse_with(text: &str, re: &Regex) -> Option<Version> {
        let caps = re.captures(text)?;
        let numbers = caps.get(1)?.as_str();
        // A segment beyond i64 is a parse error, as strconv.ParseInt makes it.
        let mut segments: Vec<i64> = numbers
            .split('.')
            .map(|s| s.parse().ok())
            .collect::<Option<_>>()?;
        let given = segments.len();
        segments.resize(given.max(3), 0);
        let group = |i: usize| caps.get(i).map_or("", |m| m.as_str());
        let pre = if group(7).is_empty() {
            group(4)
        } else {
            group(7)
        };
        Some(Version {
            segments,
            given,
            pre: pre.to_string(),
            metadata: group(10).to_string(),
        })
    }

    fn canonical(&self) -> String {
        let mut s = self
            .segments
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(".");
        if !self.pre.is_empty() {
            s = format!("{s}-{}", self.pre);
        }
        if !self.metadata.is_empty() {
            s = format!("{s}+{}", self.metadata);
        }
        s
    }

    /// `Version.Compare`: segments (a longer one is greater only by a
    /// non-zero extra segment), then pre-releases; metadata never matters.
    pub fn compare(&self, other: &Version) -> Ordering {
        if self.canonical() == other.canonical() {
            return Ordering::Equal;
        }
        if self.segments == other.segments {
            return match (self.pre.is_empty(), other.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => compare_prereleases(&self.pre, &other.pre),
            };
        }
        let (a, b) = (&self.segments, &other.segments);
        for i in 0..a.len().max(b.len()) {
            match (a.get(i), b.get(i)) {
                (None, _) => {
                    return if b[i..].iter().all(|s| *s == 0) {
                        Ordering::Equal
                    } else {
                        Ordering::Less
                    };
                }
                (_, None) => {
                    return if a[i..].iter().all(|s| *s == 0) {
                        Ordering::Equal
                    } else {
                        Ordering::Greater
                    };
                }
                (Some(x), Some(y)) if x != y => return x.cmp(y),
                _ => {}
            }
        }
        Ordering::Equal
    }
}

fn compare_prereleases(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let (xs, ys): (Vec<&str>, Vec<&str>) = (a.split('.').collect(), b.split('.').collect());
    for i in 0..xs.len().max(ys.len()) {
        let c = compare_part(
            xs.get(i).copied().unwrap_or(""),
            ys.get(i).copied().unwrap_or(""),
        );
        if c != Ordering::Equal {
            return c;
        }
    }
    Ordering::Equal
}

/// One dot-separated pre-release part. go-version's rule, including its
/// quirk that two different numeric parts of equal value (`01` and `1`)
/// compare as less.
fn compare_part(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let (na, nb) = (a.parse::<i64>().ok(), b.parse::<i64>().ok());
    if a.is_empty() {
        return if nb.is_some() {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    if b.is_empty() {
        return if na.is_some() {
            Ordering::Greater
        } else {
            Ordering::Less
        };
    }
    match (na, nb) {
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) if a > b => Ordering::Greater,
        (Some(x), Some(y)) if x > y => Ordering::Greater,
        _ => Ordering::Less,
    }
}

impl VersionConstraints {
    /// `version.NewConstraint` or `semver.NewConstraint`; `None` when any
    /// part is malformed.
    pub fn parse(text: &str, flavour: Flavour) -> Option<VersionConstraints> {
        let (re, parse): (&Regex, fn(&str) -> Option<Version>) = match flavour {
            Flavour::Version => (&VERSION_CONSTRAINT_RE, Version::parse),
            Flavour::Semver => (&SEMVER_CONSTRAINT_RE, Version::parse_semver),
        };
        let parts = text
            .split(',')
            .map(|single| {
                let caps = re.captures(single)?;
                let op = match &caps[1] {
                    "" | "=" => Op::Eq,
                    "!=" => Op::Ne,
                    ">" => Op::Gt,
                    "<" => Op::Lt,
                    ">=" => Op::Ge,
                    "<=" => Op::Le,
                    _ => Op::Pessimistic,
                };
                Some((op, parse(&caps[2])?))
            })
            .collect::<Option<_>>()?;
        Some(VersionConstraints { flavour, parts })
    }

    /// Whether `v` satisfies every constraint.
    pub fn check(&self, v: &Version) -> bool {
        self.parts.iter().all(|(op, c)| self.check_one(*op, c, v))
    }

    fn check_one(&self, op: Op, c: &Version, v: &Version) -> bool {
        let ord = v.compare(c);
        let pre_ok = self.flavour == Flavour::Semver || prerelease_check(v, c);
        match op {
            Op::Eq => ord == Ordering::Equal,
            Op::Ne => ord != Ordering::Equal,
            Op::Gt => pre_ok && ord == Ordering::Greater,
            Op::Lt => pre_ok && ord == Ordering::Less,
            Op::Ge => pre_ok && ord != Ordering::Less,
            Op::Le => pre_ok && ord != Ordering::Greater,
            Op::Pessimistic => pessimistic(v, c),
        }
    }
}

/// A constraint with a pre-release matches only pre-releases of the same
/// segments; one without matches no pre-release.
fn prerelease_check(v: &Version, c: &Version) -> bool {
    match (v.pre.is_empty(), c.pre.is_empty()) {
        (false, false) => v.segments == c.segments,
        (false, true) => false,
        _ => true,
    }
}

/// `~>`: at least `c`, and the same in every segment `c` gave but its last.
fn pessimistic(v: &Version, c: &Version) -> bool {
    if !prerelease_check(v, c) || (!c.pre.is_empty() && v.pre.is_empty()) {
        return false;
    }
    if v.compare(c) == Ordering::Less {
        return false;
    }
    let cs = c.segments.len();
    if cs > v.segments.len() {
        return false;
    }
    if (0..c.given.saturating_sub(1)).any(|i| v.segments[i] != c.segments[i]) {
        return false;
    }
    c.segments[cs - 1] <= v.segments[cs - 1]
}
