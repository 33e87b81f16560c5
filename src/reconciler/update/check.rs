//! [`alloc_update_kind`](super::alloc_update_kind) over many allocations.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::ptr;
use std::sync::Arc;

use foldhash::fast::FixedState;

use super::difference::Difference;
use super::tasks::tasks_updated;
use super::{UpdateKind, update_kind};
use crate::model::{Allocation, Job, Node, TaskGroup};
use crate::reconciler::rules::Rules;

/// [`alloc_update_kind`](super::alloc_update_kind) for many allocations: all
/// allocations of one job version compare the same with the new job, so each
/// pair of versions (and group) is compared once, not once per allocation.
///
/// The check borrows the jobs it has compared for `'j`, so they cannot be
/// dropped or moved while it remembers them.
#[derive(Default)]
pub struct UpdateCheck<'j> {
    rules: Rules,
    /// Asked once per allocation, so with a fast hash.
    diffs: RefCell<HashMap<DiffKey<'j>, Option<Arc<Difference>>, FixedState>>,
}

/// The old job (none when the allocation embeds none), the new job and group.
type DiffKey<'j> = (Option<Same<'j, Job>>, Same<'j, Job>, Same<'j, TaskGroup>);

/// A borrowed value as a key: equal only to itself. Jobs of one replay are
/// shared, not copied, so the same value is the same job version, and
/// comparing where it is costs nothing, unlike comparing whole jobs.
#[derive(Clone, Copy)]
struct Same<'j, T>(&'j T);

impl<T> PartialEq for Same<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        ptr::eq(self.0, other.0)
    }
}

impl<T> Eq for Same<'_, T> {}

impl<T> Hash for Same<'_, T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        ptr::hash(self.0, state);
    }
}

impl<'j> UpdateCheck<'j> {
    /// A check following `rules`.
    pub fn new(rules: Rules) -> UpdateCheck<'j> {
        UpdateCheck {
            rules,
            diffs: RefCell::default(),
        }
    }

    /// `node` finds the allocation's node, looked up only if needed.
    pub fn kind<'n>(
        &self,
        existing: &'j Allocation,
        new_job: &'j Job,
        new_group: &'j TaskGroup,
        node: impl FnOnce() -> Option<&'n Node>,
    ) -> UpdateKind {
        let key = (
            existing.job.as_deref().map(Same),
            Same(new_job),
            Same(new_group),
        );
        let rules = &self.rules;
        let diff = |old_job: &Job| {
            self.diffs
                .borrow_mut()
                .entry(key)
                .or_insert_with(|| {
                    tasks_updated(new_job, old_job, &new_group.name, rules).map(Arc::new)
                })
                .clone()
        };
        update_kind(existing, new_job, node, diff, rules)
    }
}
