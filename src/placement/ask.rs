//! What one allocation of a task group asks of a node.

use crate::fit::{GroupAsk, TaskAsk};
use crate::model::TaskGroup;
use crate::model::resources::EphemeralDisk;

/// The group's ask: its disk, its first network, and each task's
/// resources and lifecycle.
pub fn ask_of(tg: &TaskGroup) -> GroupAsk<'_> {
    let disk: EphemeralDisk =
        serde_json::from_value(tg.ephemeral_disk.to_value()).unwrap_or_default();
    GroupAsk {
        disk_mb: disk.size_mb,
        network: tg.networks.first(),
        tasks: tg
            .tasks
            .iter()
            .filter_map(|t| {
                t.resources.as_ref().map(|r| TaskAsk {
                    name: &t.name,
                    resources: r,
                    lifecycle: t.lifecycle.as_ref(),
                })
            })
            .collect(),
    }
}
