//! The release a replay follows, where that choice came from, and what it
//! leaves out.

use serde::{Serialize, Serializer};

use super::evidence::Evidence;
use super::switch::Switch;
use crate::model::VersionRequest;
use crate::model::{Release, SEED_COMMIT};
use crate::warning::Warning;

/// The replayed release, chosen once per replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Profile {
    #[serde(rename = "profile", serialize_with = "as_text")]
    pub release: Release,
    pub source: VersionSource,
    /// The strongest later-release fact the snapshot holds, whatever the
    /// source; null when it proves nothing past the seed.
    #[serde(serialize_with = "fact")]
    pub evidence: Option<Evidence>,
    /// Whether `auto` was asked for (the release then comes from the evidence).
    #[serde(skip)]
    pub auto: bool,
}

/// Who asked for the profile. `auto` (the default) resolves to the highest
/// release the evidence proves, else the seed, whoever asked for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VersionSource {
    /// `--nomad-version`.
    Flag,
    /// The snapshot's `NomadVersion` key.
    Snapshot,
    /// Neither: `auto`.
    Default,
}

fn as_text<S: Serializer>(r: &Release, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(r)
}

fn fact<S: Serializer>(e: &Option<Evidence>, s: S) -> Result<S::Ok, S::Error> {
    match e {
        Some(e) => s.collect_str(&format_args!("Nomad {} or later: {}", e.release, e.fact)),
        None => s.serialize_none(),
    }
}

impl Profile {
    /// The profile for a flag (which wins) or snapshot key, given the
    /// evidence `Evidence::find` returned (strongest first).
    pub fn choose(
        flag: Option<VersionRequest>,
        key: Option<VersionRequest>,
        evidence: &[Evidence],
    ) -> Profile {
        let (request, source) = match (flag, key) {
            (Some(f), _) => (f, VersionSource::Flag),
            (None, Some(k)) => (k, VersionSource::Snapshot),
            (None, None) => (VersionRequest::Auto, VersionSource::Default),
        };
        let strongest = evidence.first().cloned();
        let release = match request {
            VersionRequest::Release(r) => r,
            VersionRequest::Auto => strongest.as_ref().map_or(Release::Seed, |e| e.release),
        };
        Profile {
            release,
            source,
            evidence: strongest,
            auto: request == VersionRequest::Auto,
        }
    }

    /// The one-line account the table header and `--explain` print.
    pub fn describe(&self) -> String {
        let name = match self.release {
            Release::Seed => format!("Nomad seed ({SEED_COMMIT})"),
            Release::Head => format!("Nomad head ({})", crate::model::HEAD_COMMIT),
            r @ Release::Tag { .. } => format!("Nomad {r}"),
        };
        let why = match (self.auto, self.source, &self.evidence) {
            (true, _, None) => "the default: the snapshot shows no later release".to_string(),
            (true, _, Some(e)) => format!("auto: {}", e.fact),
            (false, VersionSource::Snapshot, _) => {
                "as the snapshot's NomadVersion asks".to_string()
            }
            (false, _, _) => "as --nomad-version asks".to_string(),
        };
        format!("Replaying {name}, {why}")
    }

    /// Whether the replay follows this change of the reconciler. Changes not
    /// replayed yet keep the seed's rule, and [`Profile::warnings`] says so.
    pub fn follows(&self, switch: Switch) -> bool {
        switch.implemented() && switch.in_release(self.release)
    }

    /// Why the answer may not be the servers': a profile chosen from
    /// evidence is only a lower bound, an explicit one may be older than
    /// what the snapshot proves, and changes not yet replayed follow the
    /// seed.
    pub fn warnings(&self) -> Vec<Warning> {
        let mut out = Vec::new();
        if let Some(e) = &self.evidence {
            if self.auto {
                out.push(Warning::new(
                    "nomad_version_lower_bound",
                    format!(
                        "replaying Nomad {}, the oldest release that writes what the snapshot holds \
                         ({}); the servers may run a newer release: pass --nomad-version to replay it",
                        e.release, e.fact
                    ),
                ));
            } else if e.release > self.release {
                out.push(Warning::new(
                    "nomad_version_older_than_evidence",
                    format!(
                        "replaying Nomad {} as asked, but the snapshot was written by Nomad {} or \
                         later ({})",
                        self.release, e.release, e.fact
                    ),
                ));
            }
        }
        let missing: Vec<&str> = Switch::ALL
            .iter()
            .filter(|s| s.in_release(self.release) && !s.implemented())
            .map(|s| s.id())
            .collect();
        if !missing.is_empty() {
            out.push(Warning::new(
                "nomad_version_partial",
                format!(
                    "Nomad {} has {} plan-inspect does not replay yet ({} in docs/nomad-versions.md); \
                     there the replay keeps the rule of earlier releases",
                    self.release,
                    if missing.len() == 1 { "a change" } else { "changes" },
                    missing.join(", "),
                ),
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::version::v;

    fn evidence(r: Release) -> Vec<Evidence> {
        vec![Evidence {
            release: r,
            fact: "a task group has a disconnect block (default/web version 0 group web)".into(),
        }]
    }

    #[test]
    fn the_flag_wins_over_the_snapshot_key_and_auto_takes_the_evidence() {
        let key = Some(VersionRequest::Release(v(1, 5, 0)));
        let p = Profile::choose(Some(VersionRequest::Release(Release::Seed)), key, &[]);
        assert_eq!((p.release, p.source), (Release::Seed, VersionSource::Flag));
        let p = Profile::choose(None, key, &[]);
        assert_eq!((p.release, p.source), (v(1, 5, 0), VersionSource::Snapshot));
        let p = Profile::choose(None, None, &evidence(v(1, 8, 0)));
        assert_eq!((p.release, p.source), (v(1, 8, 0), VersionSource::Default));
        let p = Profile::choose(Some(VersionRequest::Auto), key, &[]);
        assert_eq!((p.release, p.source), (Release::Seed, VersionSource::Flag));
    }

    #[test]
    fn no_evidence_and_no_request_is_the_seed_without_a_warning() {
        let p = Profile::choose(None, None, &[]);
        assert_eq!(p.release, Release::Seed);
        assert_eq!(p.warnings(), []);
        assert_eq!(
            p.describe(),
            "Replaying Nomad seed (8ac3e642e6), the default: the snapshot shows no later release"
        );
        assert_eq!(
            serde_json::to_string(&p).unwrap(),
            r#"{"profile":"seed","source":"default","evidence":null}"#
        );
    }

    #[test]
    fn an_explicit_profile_older_than_the_evidence_is_warned_about() {
        let p = Profile::choose(
            Some(VersionRequest::Release(Release::Seed)),
            None,
            &evidence(v(1, 8, 0)),
        );
        assert_eq!(
            p.warnings(),
            [Warning::new(
                "nomad_version_older_than_evidence",
                "replaying Nomad seed as asked, but the snapshot was written by Nomad 1.8.0 or later \
                 (a task group has a disconnect block (default/web version 0 group web))"
            )]
        );
        assert_eq!(
            serde_json::to_string(&p).unwrap(),
            r#"{"profile":"seed","source":"flag","evidence":"Nomad 1.8.0 or later: a task group has a disconnect block (default/web version 0 group web)"}"#
        );
    }

    #[test]
    fn auto_says_the_evidence_is_a_lower_bound_and_which_changes_follow_the_seed() {
        // Every change is replayed: only the lower bound is warned.
        for release in [v(1, 10, 4), v(1, 10, 5), v(2, 0, 5)] {
            let p = Profile::choose(None, None, &evidence(release));
            let codes: Vec<String> = p.warnings().into_iter().map(|w| w.code).collect();
            assert_eq!(codes, ["nomad_version_lower_bound"], "{release:?}");
        }
    }
}
