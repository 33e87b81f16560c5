//! How a release reads `distinct_hosts` (`DistinctHostsIterator`): whether a
//! job's or group's constraint applies, and whose allocations take a node.

use super::constraint::DISTINCT_HOSTS;
use crate::model::{Constraint, Release};
use crate::version::Switch;

/// The `distinct_hosts` rules of one release; the default is the seed's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DistinctHostsRules {
    /// #16907: an `RTarget` Go reads as `false` turns the constraint off.
    pub honors_false: bool,
    /// #19004: only the job's allocations in its own namespace collide.
    pub namespaced: bool,
}

impl DistinctHostsRules {
    /// The rules of `release`.
    pub fn of(release: Release) -> DistinctHostsRules {
        DistinctHostsRules {
            honors_false: Switch::DistinctHostsFalse.in_release(release),
            namespaced: Switch::DistinctHostsNamespace.in_release(release),
        }
    }

    /// Whether `constraints` (a job's or a group's) hold a `distinct_hosts`
    /// that applies. Nomad reads only the first one: an empty `RTarget` or
    /// one `strconv.ParseBool` refuses applies, as does any before #16907.
    pub fn applies(&self, constraints: &[Constraint]) -> bool {
        let Some(c) = constraints.iter().find(|c| c.operand == DISTINCT_HOSTS) else {
            return false;
        };
        !self.honors_false || go_parse_bool(&c.r_target) != Some(false)
    }
}

/// Go's `strconv.ParseBool`.
fn go_parse_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::v;

    fn hosts(r_target: &str) -> Vec<Constraint> {
        vec![
            Constraint {
                l_target: Default::default(),
                r_target: r_target.into(),
                operand: DISTINCT_HOSTS.into(),
            },
            Constraint {
                l_target: Default::default(),
                r_target: "true".into(),
                operand: DISTINCT_HOSTS.into(),
            },
        ]
    }

    /// `TestDistinctHostsIterator_JobDistinctHosts_Table`'s `RTarget`s
    /// (scheduler/feasible/feasible_test.go, 2.0.5), at the first tag of
    /// each series with #16907 and the one before.
    #[test]
    fn feasible_test_go_v2_0_5_distinct_hosts_r_target_by_release() {
        for (release, off) in [
            (v(1, 3, 13), false),
            (v(1, 3, 14), true),
            (v(1, 4, 8), false),
            (v(1, 4, 9), true),
            (v(1, 5, 3), false),
            (v(1, 5, 4), true),
            (v(2, 0, 5), true),
        ] {
            let rules = DistinctHostsRules::of(release);
            assert!(rules.applies(&hosts("")), "{release}");
            assert!(rules.applies(&hosts("true")), "{release}");
            assert!(rules.applies(&hosts("not_a_bool")), "{release}");
            // The second constraint's `true` is never read.
            assert_eq!(rules.applies(&hosts("false")), !off, "{release}");
            assert_eq!(rules.applies(&hosts("0")), !off, "{release}");
        }
        assert!(!DistinctHostsRules::default().applies(&[]));
    }
}
