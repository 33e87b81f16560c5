//! One Nomad release whose reconciler can be replayed.

use std::fmt;

/// The latest patch of every release series from 1.3 on, as tagged in
/// hashicorp/nomad (`git tag`). Every patch from `.0` to the latest is a
/// real tag, so this table is the whole list of accepted releases.
/// Enterprise-only patches (1.10.6+ent, 1.11.4+ent, ...) are not in it:
/// their code is not public.
pub const SERIES: [(u8, u8, u8); 10] = [
    (1, 3, 16),
    (1, 4, 14),
    (1, 5, 17),
    (1, 6, 10),
    (1, 7, 7),
    (1, 8, 4),
    (1, 9, 7),
    (1, 10, 5),
    (1, 11, 3),
    (2, 0, 5),
];

/// The commit plan-inspect was first written against: Nomad's PR #12333,
/// before 1.3.0 was tagged.
pub const SEED_COMMIT: &str = "8ac3e642e6";

/// The main-branch commit `head` stands for (its version string is 2.0.6-dev).
pub const HEAD_COMMIT: &str = "aa026cc99c";

/// A release of Nomad, ordered by age: the seed is older than every tag and
/// `head` newer than every tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Release {
    /// Commit 8ac3e642e6 (PR #12333), a pre-release of 1.3.0.
    Seed,
    /// A tagged release `major.minor.patch`.
    Tag { major: u8, minor: u8, patch: u8 },
    /// The main branch at [`HEAD_COMMIT`].
    Head,
}

impl Release {
    /// The tag `major.minor.patch`, if Nomad tagged it (see [`SERIES`]).
    pub fn tag(major: u8, minor: u8, patch: u8) -> Option<Release> {
        let (_, _, last) = SERIES
            .iter()
            .find(|(ma, mi, _)| (*ma, *mi) == (major, minor))?;
        (patch <= *last).then_some(Release::Tag {
            major,
            minor,
            patch,
        })
    }

    /// The latest patch of the series `major.minor`.
    pub fn latest_of(major: u8, minor: u8) -> Option<Release> {
        let (_, _, last) = SERIES
            .iter()
            .find(|(ma, mi, _)| (*ma, *mi) == (major, minor))?;
        Release::tag(major, minor, *last)
    }

    /// The newest tag of all.
    pub fn newest_tag() -> Release {
        let (ma, mi, p) = SERIES[SERIES.len() - 1];
        Release::Tag {
            major: ma,
            minor: mi,
            patch: p,
        }
    }

    /// Whether a behaviour that arrived in the given first patches (one per
    /// series, oldest series first, as the changelog lists backports) is in
    /// this release. Series newer than the last listed have it; older ones,
    /// and series between listed ones that are not listed, do not. `head`
    /// has every behaviour that reached any tag; the seed has none.
    pub fn has(self, firsts: &[Release]) -> bool {
        let Release::Tag {
            major,
            minor,
            patch,
        } = self
        else {
            return self == Release::Head && !firsts.is_empty();
        };
        let series = (major, minor);
        for first in firsts {
            if let Release::Tag {
                major: fm,
                minor: fi,
                patch: fp,
            } = *first
                && (fm, fi) == series
            {
                return patch >= fp;
            }
        }
        match firsts.last() {
            Some(Release::Tag {
                major: lm,
                minor: li,
                ..
            }) => series > (*lm, *li),
            Some(Release::Head) => false,
            Some(Release::Seed) | None => false,
        }
    }
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Release::Seed => f.write_str("seed"),
            Release::Tag {
                major,
                minor,
                patch,
            } => write!(f, "{major}.{minor}.{patch}"),
            Release::Head => f.write_str("head"),
        }
    }
}

/// Shorthand for the tables of first patches: `v(1, 4, 3)` is 1.4.3.
pub const fn v(major: u8, minor: u8, patch: u8) -> Release {
    Release::Tag {
        major,
        minor,
        patch,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_order_by_age_with_the_seed_first_and_head_last() {
        assert!(Release::Seed < v(1, 3, 0));
        assert!(v(1, 3, 16) < v(1, 4, 0));
        assert!(v(1, 9, 7) < v(1, 10, 0));
        assert!(v(2, 0, 5) < Release::Head);
    }

    #[test]
    fn only_tagged_patches_exist() {
        assert_eq!(Release::tag(1, 4, 14), Some(v(1, 4, 14)));
        assert_eq!(Release::tag(1, 4, 15), None);
        assert_eq!(Release::tag(1, 2, 0), None);
        assert_eq!(Release::tag(2, 1, 0), None);
        assert_eq!(Release::latest_of(1, 8), Some(v(1, 8, 4)));
        assert_eq!(Release::newest_tag(), v(2, 0, 5));
    }

    #[test]
    fn a_backported_behaviour_is_in_its_first_patch_of_each_series_and_in_newer_series() {
        // C-1: 1.3.8, 1.4.3, mainline 1.5.0.
        let c1 = [v(1, 3, 8), v(1, 4, 3), v(1, 5, 0)];
        assert!(!Release::Seed.has(&c1));
        assert!(!v(1, 3, 7).has(&c1));
        assert!(v(1, 3, 8).has(&c1));
        assert!(!v(1, 4, 2).has(&c1));
        assert!(v(1, 4, 3).has(&c1));
        assert!(v(1, 5, 0).has(&c1));
        assert!(v(2, 0, 5).has(&c1));
        assert!(Release::Head.has(&c1));
        // D-1 never reached 1.3.x.
        let d1 = [v(1, 4, 14), v(1, 5, 10), v(1, 6, 3), v(1, 7, 0)];
        assert!(!v(1, 3, 16).has(&d1));
        assert!(!v(1, 4, 13).has(&d1));
        assert!(v(1, 4, 14).has(&d1));
        assert!(!v(1, 6, 2).has(&d1));
        assert!(v(1, 8, 0).has(&d1));
    }

    #[test]
    fn a_behaviour_only_on_the_main_branch_is_in_head_alone() {
        let h4 = [Release::Head];
        assert!(!v(2, 0, 5).has(&h4));
        assert!(Release::Head.has(&h4));
    }
}
