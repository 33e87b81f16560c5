//! [`alloc_update_kind`](super::alloc_update_kind) over many allocations.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ptr;
use std::sync::Arc;

use super::{UpdateKind, tasks_updated, update_kind};
use crate::model::{Allocation, Job, Node, TaskGroup};
use crate::reconciler::Rules;

/// [`alloc_update_kind`](super::alloc_update_kind) for many allocations: all
/// allocations of one job version compare the same with the new job, so each
/// pair of versions (and group) is compared once, not once per allocation.
///
/// Pairs are keyed by address, so the jobs must outlive the check, as a
/// snapshot's jobs outlive its replay.
#[derive(Default)]
pub struct UpdateCheck {
    rules: Rules,
    diffs: RefCell<HashMap<DiffKey, Option<Arc<str>>>>,
}

/// The old job (none when the allocation embeds none), the new job and group.
type DiffKey = (Option<*const Job>, *const Job, *const TaskGroup);

impl UpdateCheck {
    /// A check following `rules`.
    pub fn new(rules: Rules) -> UpdateCheck {
        UpdateCheck {
            rules,
            diffs: RefCell::default(),
        }
    }

    /// `node` finds the allocation's node, looked up only if needed.
    pub fn kind<'n>(
        &self,
        existing: &Allocation,
        new_job: &Job,
        new_group: &TaskGroup,
        node: impl FnOnce() -> Option<&'n Node>,
    ) -> UpdateKind {
        let key = (
            existing.job.as_ref().map(Arc::as_ptr),
            ptr::from_ref(new_job),
            ptr::from_ref(new_group),
        );
        let rules = &self.rules;
        let diff = |old_job: &Job| {
            self.diffs
                .borrow_mut()
                .entry(key)
                .or_insert_with(|| {
                    tasks_updated(new_job, old_job, &new_group.name, rules).map(Arc::from)
                })
                .clone()
        };
        update_kind(existing, new_job, node, diff, rules)
    }
}
