//! The system scheduler's changes after the seed that plan-inspect does not
//! replay yet (docs/nomad-versions.md, "System scheduler"): a profile that
//! has any says which, once, instead of implying fidelity.

use super::profile::Profile;
use crate::model::Snapshot;
use crate::model::{Release, v};
use crate::warning::Warning;

/// The system scheduler changes not replayed, with the first tag of each.
const NOT_REPLAYED: [(Release, &str); 1] = [(
    v(1, 11, 0),
    "the node reconciler and system deployments (1.11.0)",
)];

/// The warning for a profile whose system scheduler differs from the
/// replay, on a snapshot with system or sysbatch jobs.
pub fn system_scheduler_warning(profile: &Profile, snapshot: &Snapshot) -> Option<Warning> {
    let missing: Vec<&str> = NOT_REPLAYED
        .iter()
        .filter(|(first, _)| profile.release.has(&[*first]))
        .map(|(_, what)| *what)
        .collect();
    if missing.is_empty() {
        return None;
    }
    let mut system: Vec<String> = snapshot
        .jobs
        .iter()
        .filter(|j| j.is_system())
        .map(|j| format!("{}/{}", j.namespace, j.id))
        .collect();
    system.sort();
    let first = system.first()?;
    let more = match system.len() {
        1 => String::new(),
        n => format!(" and {} more", n - 1),
    };
    Some(Warning::new(
        "system_scheduler_seed",
        format!(
            "system and sysbatch jobs ({first}{more}) are replayed without these changes of \
             Nomad {}'s system scheduler, as the seed (8ac3e642e6) has them: {}",
            profile.release,
            missing.join("; ")
        ),
    ))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::model::{Job, JobType};
    use crate::version::v;

    fn snapshot(types: &[&str]) -> Snapshot {
        let mut s = Snapshot::default();
        for (i, t) in types.iter().enumerate() {
            let job = Job {
                id: format!("j{i}"),
                namespace: "default".into(),
                job_type: JobType::from(*t),
                ..Job::default()
            };
            s.jobs.push(Arc::new(job));
        }
        s
    }

    fn profile(release: Release) -> Profile {
        Profile {
            release,
            ..Profile::choose(None, None, &[])
        }
    }

    #[test]
    fn later_profiles_with_system_jobs_warn_once_naming_the_first() {
        let s = snapshot(&["service", "sysbatch", "system"]);
        let w = system_scheduler_warning(&profile(v(1, 11, 0)), &s).unwrap();
        assert_eq!(w.code, "system_scheduler_seed");
        assert_eq!(
            w.message,
            "system and sysbatch jobs (default/j1 and 1 more) are replayed without these \
             changes of Nomad 1.11.0's system scheduler, as the seed (8ac3e642e6) has them: \
             the node reconciler and system deployments (1.11.0)"
        );
    }

    #[test]
    fn the_seed_a_fully_replayed_release_or_no_system_job_gives_no_warning() {
        let system = snapshot(&["system"]);
        assert!(system_scheduler_warning(&profile(Release::Seed), &system).is_none());
        assert!(system_scheduler_warning(&profile(v(1, 10, 5)), &system).is_none());
        assert!(system_scheduler_warning(&profile(v(1, 11, 0)), &system).is_some());
        let service = snapshot(&["service", "batch"]);
        assert!(system_scheduler_warning(&profile(Release::Head), &service).is_none());
    }
}
