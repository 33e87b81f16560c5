//! From D-1 (1.4.14, 1.5.10, 1.6.3, 1.7.0) until E-3 (1.9.7, 1.10.0)
//! Nomad's `NextRescheduleTime` reads the reschedule policy's attempts
//! before checking that there is a policy (v1.6.3
//! nomad/structs/structs.go:10741), so its scheduler panics on an
//! allocation whose job version's group has none, where plan-inspect, like
//! the fixed releases, answers "not eligible".

use crate::model::Id;
use crate::reconciler::{Reconciliation, Rules};
use crate::report::JobReport;
use crate::warning::Warning;

/// The warning for a job whose replay asked a missing policy, if the
/// release replayed would have panicked there.
pub(super) fn missing_policy_warning(
    rules: &Rules,
    job: &JobReport,
    rec: &Reconciliation<'_>,
) -> Option<Warning> {
    if !rules.panics_without_reschedule_policy() {
        return None;
    }
    let mut allocs: Vec<&Id> = rec
        .groups
        .values()
        .flat_map(|g| g.without_policy.iter().map(|a| &a.id))
        .collect();
    allocs.sort_unstable();
    let first = allocs.first()?;
    let more = match allocs.len() - 1 {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    Some(Warning::new(
        "nomad_would_panic",
        format!(
            "Nomad {} would panic replaying {}/{}: allocation {first}{more} has no reschedule \
             policy in its job version's group, which NextRescheduleTime dereferences until \
             1.9.7 and 1.10.0 (E-3); replayed as not eligible for rescheduling, as those \
             releases answer",
            rules.release(),
            job.namespace,
            job.id
        ),
    ))
}
