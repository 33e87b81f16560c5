//! The system scheduler is replayed as of the seed for every profile: its
//! changes after the seed are not catalogued as switches yet. From 1.3.0 on
//! Nomad's `scheduler_system.go` marks allocations on disconnected nodes
//! unknown (v1.3.0 scheduler_system.go:256) and later releases change it
//! further, so a later profile says so once instead of implying fidelity.

use super::profile::Profile;
use super::release::Release;
use crate::model::Snapshot;
use crate::warning::Warning;

/// The warning for a profile later than the seed on a snapshot with system
/// or sysbatch jobs.
pub fn system_scheduler_warning(profile: &Profile, snapshot: &Snapshot) -> Option<Warning> {
    if profile.release == Release::Seed {
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
            "system and sysbatch jobs ({first}{more}) are replayed with the seed's system \
             scheduler (8ac3e642e6), not Nomad {}'s: from 1.3.0 on Nomad marks their \
             allocations on disconnected nodes unknown, and later releases change the system \
             scheduler further",
            profile.release
        ),
    ))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::model::Job;
    use crate::version::v;

    fn snapshot(types: &[&str]) -> Snapshot {
        let mut s = Snapshot::default();
        for (i, t) in types.iter().enumerate() {
            let job = Job {
                id: format!("j{i}"),
                namespace: "default".into(),
                job_type: (*t).to_string(),
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
        let w = system_scheduler_warning(&profile(v(1, 8, 0)), &s).unwrap();
        assert_eq!(w.code, "system_scheduler_seed");
        assert_eq!(
            w.message,
            "system and sysbatch jobs (default/j1 and 1 more) are replayed with the seed's \
             system scheduler (8ac3e642e6), not Nomad 1.8.0's: from 1.3.0 on Nomad marks their \
             allocations on disconnected nodes unknown, and later releases change the system \
             scheduler further"
        );
    }

    #[test]
    fn the_seed_or_no_system_job_gives_no_warning() {
        let system = snapshot(&["system"]);
        assert!(system_scheduler_warning(&profile(Release::Seed), &system).is_none());
        let service = snapshot(&["service", "batch"]);
        assert!(system_scheduler_warning(&profile(Release::Head), &service).is_none());
    }
}
