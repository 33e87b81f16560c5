//! What a snapshot proves about the servers that wrote it.
//!
//! `nomad operator snapshot state` re-encodes the state with the CLI's own
//! structs, so the keys present describe the CLI; only non-zero values that
//! servers write are evidence about the servers, and each one is a lower
//! bound: "a server at least this new wrote it".

use std::collections::BTreeSet;
use std::sync::Arc;

use super::survey::Survey;
use crate::model::{Job, Snapshot};
use crate::model::{Release, SERIES, v};

/// One kind of later-release fact found in the snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evidence {
    /// The oldest release that writes it.
    pub release: Release,
    /// The fact, with its first example (in sorted order) and how many more.
    pub fact: String,
}

/// Facts of one kind, collected with their examples kept sorted.
struct Kind {
    release: Release,
    what: &'static str,
    examples: BTreeSet<String>,
}

impl Kind {
    fn new(release: Release, what: &'static str) -> Kind {
        Kind {
            release,
            what,
            examples: BTreeSet::new(),
        }
    }

    fn evidence(self, of: &str) -> Option<Evidence> {
        evidence(self.release, self.what, &self.examples, of)
    }
}

/// The fact `what` of `release`, with the first of its `examples` (of kind
/// `of`) and how many more, if there are any.
fn evidence(
    release: Release,
    what: &str,
    examples: &BTreeSet<String>,
    of: &str,
) -> Option<Evidence> {
    let first = examples.iter().next()?;
    let fact = match examples.len() - 1 {
        0 => format!("{what} ({first})"),
        n => format!("{what} ({first}, and {n} more {of})"),
    };
    Some(Evidence { release, fact })
}

impl Evidence {
    /// Every kind of evidence in `snapshot`, whose allocations `survey`
    /// went through, strongest (newest) first.
    pub fn find(snapshot: &Snapshot, survey: &Survey<'_>) -> Vec<Evidence> {
        let mut found = Vec::new();
        found.extend(client_version(snapshot));
        found.extend(job_facts(snapshot, survey));
        found.extend(alloc_facts(survey));
        found.extend(node_pools(snapshot));
        let mut reschedule_trigger =
            Kind::new(v(1, 11, 0), "an evaluation triggered by alloc-reschedule");
        // F-3 (v1.10.2 nomad/state/state_store.go:4079): the state store
        // cancels a reconnected allocation's follow-up evaluation.
        let mut reconnect_canceled = Kind::new(
            v(1, 10, 2),
            "an evaluation was canceled because its allocations reconnected",
        );
        for e in &snapshot.evals {
            if e.triggered_by == "alloc-reschedule" {
                reschedule_trigger
                    .examples
                    .insert(format!("evaluation {}", e.id));
            }
            if e.status == "canceled" && e.status_description == "allocs reconnected" {
                reconnect_canceled
                    .examples
                    .insert(format!("evaluation {}", e.id));
            }
        }
        found.extend(reschedule_trigger.evidence("evaluations"));
        found.extend(reconnect_canceled.evidence("evaluations"));
        let mut annotated = Kind::new(
            v(1, 11, 0),
            "a completed evaluation keeps its PlanAnnotations",
        );
        for e in &snapshot.evals {
            if e.status == "complete" && e.plan_annotations.is_some() {
                annotated.examples.insert(format!("evaluation {}", e.id));
            }
        }
        found.extend(annotated.evidence("evaluations"));
        found.sort_by(|a, b| b.release.cmp(&a.release).then_with(|| a.fact.cmp(&b.fact)));
        found
    }
}

/// The newest client agent: servers are upgraded first, so it is a
/// practical lower bound for them.
fn client_version(snapshot: &Snapshot) -> Option<Evidence> {
    let (release, node, text) = snapshot
        .nodes
        .iter()
        .filter_map(|n| {
            let text = n.agent_version()?;
            Some((agent_release(text)?, n.id.as_str(), text))
        })
        // Newest first; among equals the smallest node ID.
        .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(a.1)))?;
    Some(Evidence {
        release,
        fact: format!("client node {node} reports nomad.version {text}"),
    })
}

/// The release a client's `nomad.version` attribute proves, if at least
/// 1.3.0: `1.8.2`, `1.8.2+ent` or `v1.8.2` is 1.8.2; a pre-release such as
/// `1.8.0-beta.1` only proves the release before it; an Enterprise patch
/// beyond the public tags proves its series' newest tag; a version newer
/// than every tag proves `head`.
pub fn agent_release(text: &str) -> Option<Release> {
    let text = text.trim().trim_start_matches('v');
    let text = text.split('+').next()?;
    let (core, pre) = match text.split_once('-') {
        Some((core, _)) => (core, true),
        None => (text, false),
    };
    let parts: Vec<u8> = core
        .split('.')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let [major, minor, patch] = parts[..] else {
        return None;
    };
    let newest = Release::newest_tag();
    let exact = Release::Tag {
        major,
        minor,
        patch,
    };
    if exact > newest && !SERIES.iter().any(|(a, b, _)| (*a, *b) == (major, minor)) {
        return Some(Release::Head);
    }
    let mut known = SERIES.iter().flat_map(|&(a, b, last)| {
        (0..=last).map(move |p| Release::Tag {
            major: a,
            minor: b,
            patch: p,
        })
    });
    if pre {
        known.rfind(|r| *r < exact)
    } else {
        known.rfind(|r| *r <= exact)
    }
}

/// Group and job fields only later servers write, over the current jobs,
/// older versions and the jobs allocations embed.
fn job_facts(snapshot: &Snapshot, survey: &Survey<'_>) -> Vec<Evidence> {
    let mut disconnect = Kind::new(v(1, 8, 0), "a task group has a disconnect block");
    let mut prevent = Kind::new(v(1, 7, 2), "a task group sets prevent_reschedule_on_lost");
    let mut run = Kind::new(v(2, 0, 3), "a task group sets max_run_duration");
    let mut tag = Kind::new(v(1, 9, 0), "a job version is tagged");
    let mut pool = Kind::new(v(1, 6, 0), "a job names a node pool");
    let mut seen = std::collections::HashSet::new();
    for job in snapshot
        .jobs
        .iter()
        .chain(&snapshot.job_versions)
        .chain(survey.embedded.iter().copied())
    {
        if !seen.insert(Arc::as_ptr(job)) {
            continue;
        }
        // Named only for the examples a fact gives: most jobs give none.
        let name = || job_name(job);
        if !job.version_tag.is_null() {
            tag.examples.insert(name());
        }
        if !job.node_pool.is_empty() {
            pool.examples
                .insert(format!("{}/{}", job.namespace, job.id));
        }
        for tg in &job.task_groups {
            let group = || format!("{} group {}", name(), tg.name);
            if tg.disconnect.is_some() {
                disconnect.examples.insert(group());
            }
            if tg.prevent_reschedule_on_lost {
                prevent.examples.insert(group());
            }
            if tg.max_run_duration.is_some() {
                run.examples.insert(group());
            }
        }
    }
    [
        disconnect.evidence("groups"),
        prevent.evidence("groups"),
        run.evidence("groups"),
        tag.evidence("job versions"),
        pool.evidence("jobs"),
    ]
    .into_iter()
    .flatten()
    .collect()
}

fn job_name(job: &Job) -> String {
    format!("{}/{} version {}", job.namespace, job.id, job.version)
}

/// Allocation fields only later servers write.
fn alloc_facts(survey: &Survey<'_>) -> Vec<Evidence> {
    [
        (
            v(1, 3, 8),
            "an allocation's AllocStates record a reconnect (running after unknown)",
            &survey.reconnected,
        ),
        (
            v(1, 8, 1),
            "a reschedule tracker records LastReschedule",
            &survey.last_reschedule,
        ),
        (
            v(1, 11, 0),
            "an allocation has MigrateDisablePlacement set",
            &survey.no_migrate,
        ),
        (
            v(1, 11, 1),
            "an allocation whose replacement could not be placed is still desired to run",
            &survey.kept_run,
        ),
    ]
    .into_iter()
    .filter_map(|(release, what, examples)| evidence(release, what, examples, "allocations"))
    .collect()
}

/// Nodes in a pool, and the pools `NodePools` lists besides the built-in
/// ones. Any 1.6 state store creates `all` and `default` at start, the
/// CLI's own included (v1.6.0 nomad/state/state_store_node_pools.go:15-30),
/// so they prove nothing about the servers; another pool was written
/// through a server, which takes one only when every server runs 1.6.0 or
/// later (v1.6.0 nomad/node_pool_endpoint.go:203-206, nomad/leader.go:80),
/// or created for a node that registers in it (v1.6.0
/// nomad/node_endpoint.go:220-221).
fn node_pools(snapshot: &Snapshot) -> Vec<Evidence> {
    let mut pool = Kind::new(v(1, 6, 0), "a node is in a node pool");
    for n in &snapshot.nodes {
        if !n.node_pool.is_empty() {
            pool.examples.insert(format!("node {}", n.id));
        }
    }
    let mut listed = Kind::new(
        v(1, 6, 0),
        "a node pool besides the built-in all and default is listed",
    );
    for p in &snapshot.node_pools {
        if !matches!(p.name.as_str(), "all" | "default") {
            listed.examples.insert(format!("node pool {}", p.name));
        }
    }
    [pool.evidence("nodes"), listed.evidence("node pools")]
        .into_iter()
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_version_proves_its_release_or_the_one_before_a_pre_release() {
        assert_eq!(agent_release("1.8.2"), Some(v(1, 8, 2)));
        assert_eq!(agent_release("v1.8.2"), Some(v(1, 8, 2)));
        assert_eq!(agent_release("1.8.2+ent"), Some(v(1, 8, 2)));
        assert_eq!(agent_release("1.8.0-beta.1"), Some(v(1, 7, 7)));
        assert_eq!(agent_release("1.8.3-dev"), Some(v(1, 8, 2)));
        assert_eq!(agent_release("1.10.9+ent"), Some(v(1, 10, 5)));
        assert_eq!(agent_release("2.0.6-dev"), Some(v(2, 0, 5)));
        assert_eq!(agent_release("2.1.0"), Some(Release::Head));
        assert_eq!(agent_release("1.3.0-rc.1"), None);
        assert_eq!(agent_release("1.2.6"), None);
        assert_eq!(agent_release("1.8"), None);
        assert_eq!(agent_release("nightly"), None);
    }
}
