//! Placeholder until the tasksUpdated port lands (branch `update`).
use crate::model::{Allocation, Job, Node, TaskGroup};

pub enum UpdateKind {
    Ignore,
    Destructive(String),
    InPlace,
}

pub fn alloc_update_kind(
    existing: &Allocation,
    new_job: &Job,
    _tg: &TaskGroup,
    _node: Option<&Node>,
) -> UpdateKind {
    match &existing.job {
        Some(j) if j.job_modify_index == new_job.job_modify_index => UpdateKind::Ignore,
        _ => UpdateKind::Destructive("job changed".into()),
    }
}
