//! The scheduler configuration a placement ran with, told where the job's
//! node pool set part of it: which setting is the pool's, which the
//! cluster's.

use super::explanation::Step;
use crate::report::PlanSchedulerConfig;

/// The step for `c`.
pub(super) fn step(c: &PlanSchedulerConfig) -> Step {
    let from = |field: &str| match c.set_by_node_pool.contains(&field) {
        true => format!("set by node pool {}", c.node_pool),
        false => "the cluster's".to_string(),
    };
    let (oversubscription, reaches) = match c.memory_oversubscription_enabled {
        true => ("on", "reaches"),
        false => ("off", "does not reach"),
    };
    Step::new(
        "Scheduler configuration",
        format!(
            "the cluster's, with what node pool {} sets of its own (from Nomad 1.6.0; only Nomad \
             Enterprise stores a pool's configuration)",
            c.node_pool
        ),
    )
    .fact(
        "scheduler algorithm",
        format!(
            "{} ({})",
            c.scheduler_algorithm,
            from("scheduler_algorithm")
        ),
    )
    .fact(
        "memory oversubscription",
        format!(
            "{oversubscription} ({}): a task's memory_max {reaches} its allocation",
            from("memory_oversubscription_enabled"),
        ),
    )
}
