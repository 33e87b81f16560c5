//! A group's class verdicts taken whole from another evaluation.
//!
//! The placement stage checks every computed class of the targeted nodes
//! for a group's first placement; in a cluster of many jobs with the same
//! constraints each evaluation would rebuild the same class cache, class
//! by class. A row is that cache as a fresh stack leaves it after the
//! checks of one group on one set of nodes: a later stack whose cache is
//! still empty, with the same check inputs (the memo's keys), adopts the
//! row instead of filling its own, and answers as if it had run them.

use std::collections::HashMap;
use std::sync::Arc;

use foldhash::fast::FixedState;

use super::stack::{Filter, InvalidConstraint, SystemStack};
use crate::model::{Name, TaskGroup};

/// The verdicts one group's class checks left in a fresh stack: the
/// job's per class, the group's per class, and the broken constraints met.
#[derive(Debug)]
pub struct ClassRow {
    pub(super) job: HashMap<Name, Result<(), Filter>, FixedState>,
    pub(super) group: HashMap<Name, Result<(), Filter>, FixedState>,
    invalid: Vec<InvalidConstraint>,
}

impl ClassRow {
    /// How many verdicts the row holds.
    pub fn len(&self) -> usize {
        self.job.len() + self.group.len()
    }

    /// Whether the row holds no verdict.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<'a> SystemStack<'a> {
    /// Whether no class was checked yet and no broken constraint met: the
    /// only state a row is made in and adopted in.
    pub fn is_fresh(&self) -> bool {
        self.job_classes.is_empty()
            && self.group_classes.is_empty()
            && self.adopted.is_none()
            && self.invalid.is_empty()
    }

    /// The inputs of `tg`'s class checks as the memo numbers them (the
    /// job's, the group's under the network the checker then holds), once
    /// other stacks asked for both; `None` where the checks escape their
    /// class or read volumes. Takes the group's network first, as the
    /// class checks do.
    pub fn row_key(&mut self, tg: &'a TaskGroup) -> Option<(u32, u32)> {
        let escaped = self
            .group_escaped
            .get(tg.name.as_str())
            .copied()
            .unwrap_or(false);
        if self.job_escaped || escaped {
            return None;
        }
        self.enter(tg);
        let job = self.job_memo_key()?.shared_id()?;
        let group = self.group_memo_key(tg, escaped)?.shared_id()?;
        Some((job, group))
    }

    /// The class cache of a stack that was fresh before the class checks
    /// of `tg` alone ran, as a row.
    pub fn row(&self, tg: &TaskGroup) -> ClassRow {
        ClassRow {
            job: self.job_classes.clone(),
            group: self
                .group_classes
                .iter()
                .filter(|((g, _), _)| *g == tg.name)
                .map(|((_, class), r)| (class.clone(), r.clone()))
                .collect(),
            invalid: self.invalid.iter().cloned().collect(),
        }
    }

    /// Takes `row` as this fresh stack's class cache for `tg`, as if its
    /// checks had run here.
    pub fn adopt(&mut self, tg: &'a TaskGroup, row: Arc<ClassRow>) {
        debug_assert!(self.is_fresh(), "a row is adopted by a fresh stack");
        self.enter(tg);
        self.invalid.extend(row.invalid.iter().cloned());
        self.adopted = Some((tg.name.as_str(), row));
    }
}
