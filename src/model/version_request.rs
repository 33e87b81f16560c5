//! What `--nomad-version` and the snapshot's `NomadVersion` key ask for.

use std::fmt;
use std::str::FromStr;

use super::release::{Release, SERIES};

/// A requested profile: a release, or `auto` (decide from the snapshot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VersionRequest {
    /// The highest release the snapshot proves, else the seed.
    Auto,
    Release(Release),
}

/// A value that names no replayable release.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadVersion(pub String);

impl fmt::Display for BadVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a Nomad version plan-inspect replays; {}",
            self.0,
            accepted()
        )
    }
}

impl std::error::Error for BadVersion {}

/// The accepted forms, listed in every error.
pub fn accepted() -> String {
    let tags: Vec<String> = SERIES
        .iter()
        .map(|(ma, mi, last)| format!("{ma}.{mi}.0-{ma}.{mi}.{last}"))
        .collect();
    let (fm, fi, _) = SERIES[0];
    let (lm, li, _) = SERIES[SERIES.len() - 1];
    format!(
        "expected auto, seed (commit {}), head (commit {}), a series {fm}.{fi} ... {lm}.{li} \
         (its latest patch) or a release ({})",
        super::release::SEED_COMMIT,
        super::release::HEAD_COMMIT,
        tags.join(", ")
    )
}

/// Every value `--nomad-version` accepts, newest release last: what shells
/// complete.
pub fn names() -> Vec<String> {
    let mut names: Vec<String> = ["auto", "seed", "head"].map(String::from).to_vec();
    for (ma, mi, last) in SERIES {
        names.push(format!("{ma}.{mi}"));
        names.extend((0..=last).map(|p| format!("{ma}.{mi}.{p}")));
    }
    names
}

impl FromStr for VersionRequest {
    type Err = BadVersion;

    /// `auto`, `seed`, `head`, `1.8` (latest patch of 1.8) or `1.8.0`; a
    /// leading `v`, as in Nomad's tags, is allowed.
    fn from_str(s: &str) -> Result<VersionRequest, BadVersion> {
        let bad = || BadVersion(s.to_string());
        let text = s.trim();
        match text {
            "auto" => return Ok(VersionRequest::Auto),
            "seed" => return Ok(VersionRequest::Release(Release::Seed)),
            "head" => return Ok(VersionRequest::Release(Release::Head)),
            _ => {}
        }
        let digits = text.strip_prefix('v').unwrap_or(text);
        let parts: Vec<u8> = digits
            .split('.')
            .map(|p| {
                // No signs, no leading zeros: "01.8" names nothing Nomad tagged.
                if p.is_empty() || (p.len() > 1 && p.starts_with('0')) {
                    return None;
                }
                p.parse().ok()
            })
            .collect::<Option<_>>()
            .ok_or_else(bad)?;
        let release = match parts[..] {
            [ma, mi] => Release::latest_of(ma, mi),
            [ma, mi, p] => Release::tag(ma, mi, p),
            _ => None,
        };
        release.map(VersionRequest::Release).ok_or_else(bad)
    }
}

impl<'de> serde::Deserialize<'de> for VersionRequest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<VersionRequest, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::v;

    fn parse(s: &str) -> Result<VersionRequest, BadVersion> {
        s.parse()
    }

    #[test]
    fn every_completed_name_parses() {
        let names = names();
        assert_eq!(names[..4], ["auto", "seed", "head", "1.3"]);
        assert!(names.contains(&"2.0.5".to_string()), "{names:?}");
        for name in names {
            assert!(parse(&name).is_ok(), "{name}");
        }
    }

    #[test]
    fn names_series_releases_and_the_two_commits_are_accepted() {
        assert_eq!(parse("auto"), Ok(VersionRequest::Auto));
        assert_eq!(parse("seed"), Ok(VersionRequest::Release(Release::Seed)));
        assert_eq!(parse("head"), Ok(VersionRequest::Release(Release::Head)));
        assert_eq!(parse("1.8"), Ok(VersionRequest::Release(v(1, 8, 4))));
        assert_eq!(parse("2.0"), Ok(VersionRequest::Release(v(2, 0, 5))));
        assert_eq!(parse("1.4.2"), Ok(VersionRequest::Release(v(1, 4, 2))));
        assert_eq!(parse("v1.11.3"), Ok(VersionRequest::Release(v(1, 11, 3))));
    }

    #[test]
    fn untagged_or_malformed_versions_are_refused() {
        for bad in [
            "",
            "1",
            "1.2",
            "1.2.9",
            "1.4.15",
            "2.1",
            "2.0.6",
            "1.8.0-beta.1",
            "1.8.0+ent",
            "01.8",
            "1.8.x",
            "latest",
            "1.8.0.0",
            "-1.8",
        ] {
            assert_eq!(parse(bad), Err(BadVersion(bad.to_string())), "{bad}");
        }
    }

    #[test]
    fn the_error_lists_every_accepted_form() {
        assert_eq!(
            BadVersion("1.2.9".into()).to_string(),
            "\"1.2.9\" is not a Nomad version plan-inspect replays; expected auto, seed (commit \
             8ac3e642e6), head (commit aa026cc99c), a series 1.3 ... 2.0 (its latest patch) or a \
             release (1.3.0-1.3.16, 1.4.0-1.4.14, 1.5.0-1.5.17, 1.6.0-1.6.10, 1.7.0-1.7.7, \
             1.8.0-1.8.4, 1.9.0-1.9.7, 1.10.0-1.10.5, 1.11.0-1.11.3, 2.0.0-2.0.5)"
        );
    }
}
