//! Inputs of later releases that the replayed profile does not read: each
//! kind is warned about once, naming its first example and a count, so no
//! setting is silently dropped.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::profile::Profile;
use super::setting::Setting;
use super::survey::Survey;
use super::switch::Switch;
use crate::model::{ReconcileStrategy, Snapshot, TaskGroup, reconcile_option};
use crate::time::format_duration;
use crate::warning::Warning;

/// One input and the change that reads it.
struct Input {
    /// What is ignored, e.g. "the disconnect block".
    what: String,
    /// The change from which Nomad reads it; `None` for what the seed reads.
    read_from: Option<Switch>,
    /// The change from which Nomad ignores it again, if any.
    ignored_from: Option<Switch>,
    examples: BTreeSet<String>,
}

impl Input {
    fn new(
        what: impl Into<String>,
        read_from: Option<Switch>,
        ignored_from: Option<Switch>,
    ) -> Input {
        Input {
            what: what.into(),
            read_from,
            ignored_from,
            examples: BTreeSet::new(),
        }
    }

    /// The warning, unless the replay reads it or there is none of it.
    fn warning(&self, profile: &Profile, of: &str) -> Option<Warning> {
        self.warning_of(&self.examples, profile, of)
    }

    /// The warning for `examples` of the input.
    fn warning_of(
        &self,
        examples: &BTreeSet<String>,
        profile: &Profile,
        of: &str,
    ) -> Option<Warning> {
        let first = examples.iter().next()?;
        let release = profile.release;
        let reason = if let Some(read_from) = self.read_from.filter(|s| !s.in_release(release)) {
            format!(
                "replaying Nomad {release} semantics, which read it only from Nomad {} on ({})",
                read_from.firsts()[0],
                read_from.id()
            )
        } else if let Some(later) = self.ignored_from.filter(|s| s.in_release(release)) {
            if profile.follows(later) {
                format!("Nomad {release} no longer reads it ({})", later.id())
            } else {
                return None;
            }
        } else if let Some(read_from) = self.read_from.filter(|s| !profile.follows(*s)) {
            format!(
                "plan-inspect does not replay how Nomad {release} reads it ({}) yet, so it is \
                 replayed as the seed does",
                read_from.id()
            )
        } else {
            return None;
        };
        let more = match examples.len() - 1 {
            0 => String::new(),
            n => format!(" and of {n} more {of}"),
        };
        Some(Warning::new(
            "input_ignored",
            format!("{} of {first}{more} ignored: {reason}", self.what),
        ))
    }
}

/// The warnings for every ignored kind of input in `snapshot`, whose
/// allocations `survey` went through.
pub fn ignored_inputs(profile: &Profile, snapshot: &Snapshot, survey: &Survey<'_>) -> Vec<Warning> {
    let mut disconnect = Input::new("the disconnect block", Some(Switch::D4a), None);
    let mut prevent = Input::new(
        Setting::PreventRescheduleOnLost.name(),
        Some(Switch::D3),
        Some(Switch::F1),
    );
    let mut legacy = Input::new(
        format!(
            "{} and {}",
            Setting::MaxClientDisconnect.name(),
            Setting::StopAfterClientDisconnect.name()
        ),
        None,
        Some(Switch::F1),
    );
    let mut run = Input::new(Setting::MaxRunDuration.name(), Some(Switch::H2), None);
    let last = Input::new(
        "the reschedule tracker's LastReschedule",
        Some(Switch::E1),
        None,
    );
    let no_migrate = Input::new("MigrateDisablePlacement", Some(Switch::G0), None);
    let mut numa = Input::new("the numa block", Some(Switch::NumaCores), None);
    let mut pools = Input::new(
        "the scheduler configuration",
        Some(Switch::NodePoolSchedulerConfig),
        None,
    );
    for pool in &snapshot.node_pools {
        if pool.scheduler_configuration.is_some() {
            pools.examples.insert(format!("node pool {}", pool.name));
        }
    }
    let mut strategies = BTreeSet::new();
    let mut seen = std::collections::HashSet::new();
    for job in snapshot.jobs.iter().chain(survey.embedded.iter().copied()) {
        if !seen.insert(Arc::as_ptr(job)) {
            continue;
        }
        for tg in &job.task_groups {
            // Named only for the examples a group gives: most give none.
            let group = || format!("{}/{} group {}", job.namespace, job.id, tg.name);
            if let Some(settings) = disconnect_settings(tg) {
                disconnect
                    .examples
                    .insert(format!("{} ({settings})", group()));
            }
            if let Some(d) = tg
                .disconnect
                .as_ref()
                .filter(|d| ReconcileStrategy::parse(&d.reconcile).is_none())
            {
                strategies.insert(format!("{} (reconcile = {})", group(), d.reconcile));
            }
            if tg.prevent_reschedule_on_lost {
                prevent.examples.insert(group());
            }
            if tg.max_client_disconnect.is_some() || tg.stop_after_client_disconnect.is_some() {
                legacy.examples.insert(group());
            }
            if tg.max_run_duration.is_some() {
                run.examples.insert(group());
            }
            for task in &tg.tasks {
                let affinity = task.resources.as_ref().and_then(|r| r.numa.as_ref());
                if let Some(a) = affinity.filter(|a| !matches!(a.affinity.as_str(), "" | "none")) {
                    let example =
                        format!("{} task {} (affinity = {})", group(), task.name, a.affinity);
                    numa.examples.insert(example);
                }
            }
        }
    }
    let strategy = strategies
        .iter()
        .next()
        .filter(|_| profile.follows(Switch::D4a))
        .map(|first| {
            let more = match strategies.len() - 1 {
                0 => String::new(),
                n => format!(" and of {n} more groups"),
            };
            Warning::new(
                "input_ignored",
                format!(
                    "the disconnect block's reconcile strategy of {first}{more} ignored: Nomad \
                     knows only {} (its job validation rejects any other), so it is replayed \
                     as best_score",
                    reconcile_option::ALL.join(", ")
                ),
            )
        });
    [
        disconnect.warning(profile, "groups"),
        strategy,
        prevent.warning(profile, "groups"),
        legacy.warning(profile, "groups"),
        run.warning(profile, "groups"),
        numa.warning(profile, "tasks")
            .or_else(|| numa_affinity_warning(&numa.examples, profile)),
        last.warning_of(&survey.last_reschedule, profile, "allocations"),
        no_migrate.warning_of(&survey.no_migrate, profile, "allocations"),
        pools.warning(profile, "node pools"),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// From #18818 on: a task's NUMA affinity is read only by Nomad
/// Enterprise's core selector, which the replay does not follow.
fn numa_affinity_warning(examples: &BTreeSet<String>, profile: &Profile) -> Option<Warning> {
    let first = examples.iter().next()?;
    if !profile.follows(Switch::NumaCores) {
        return None;
    }
    let more = match examples.len() - 1 {
        0 => String::new(),
        n => format!(" and of {n} more tasks"),
    };
    Some(Warning::new(
        "input_ignored",
        format!(
            "the numa affinity of {first}{more} ignored: Nomad Enterprise places such a task's \
             reserved cores on one NUMA node ({}), which plan-inspect does not replay; it takes \
             the lowest free cores, as the community edition does (whose job registration \
             rejects the affinity)",
            Switch::NumaCores.id()
        ),
    ))
}

/// The settings of a group's disconnect block, as a job file writes them.
fn disconnect_settings(tg: &TaskGroup) -> Option<String> {
    let d = tg.disconnect.as_ref()?;
    let mut parts = vec![format!("lost_after = {}", format_duration(d.lost_after))];
    if let Some(r) = d.replace {
        parts.push(format!("replace = {r}"));
    }
    if !d.reconcile.is_empty() {
        parts.push(format!("reconcile = {}", d.reconcile));
    }
    if let Some(s) = d.stop_on_client_after {
        parts.push(format!("stop_on_client_after = {}", format_duration(s)));
    }
    Some(parts.join(", "))
}
