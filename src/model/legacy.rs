//! The pre-0.9 `Resources`, `TaskResources` and `SharedResources` blocks an
//! allocation carries beside (or, in older dumps, instead of)
//! `AllocatedResources`. Nomad reads them only when `AllocatedResources` is
//! missing (`fit::usage`), so the model keeps them in one boxed block:
//! a pointer on every allocation instead of five words of empty fields.

use std::collections::BTreeMap;

use super::Resources;

/// The three pre-0.9 blocks of one allocation.
#[derive(Clone, Debug, Default)]
pub struct LegacyResources {
    /// The pre-0.9 total, read before 1.7.0 when `AllocatedResources` is
    /// absent.
    pub resources: Option<Resources>,
    /// The per-task resources, summed with `shared_resources` when
    /// `resources` is absent too.
    pub task_resources: BTreeMap<String, Resources>,
    pub shared_resources: Option<Resources>,
}

/// What an allocation without any of the blocks reads.
static NONE: LegacyResources = LegacyResources {
    resources: None,
    task_resources: BTreeMap::new(),
    shared_resources: None,
};

impl LegacyResources {
    /// The blocks of `legacy`, all absent for `None`.
    pub fn of(legacy: &Option<Box<LegacyResources>>) -> &LegacyResources {
        legacy.as_deref().unwrap_or(&NONE)
    }

    /// The blocks in a box; `None` when the allocation has none of them.
    pub fn boxed(self) -> Option<Box<LegacyResources>> {
        let none = self.resources.is_none()
            && self.task_resources.is_empty()
            && self.shared_resources.is_none();
        (!none).then(|| Box::new(self))
    }
}
