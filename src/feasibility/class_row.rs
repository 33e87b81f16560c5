//! A group's class verdicts taken whole from another evaluation.
//!
//! The placement stage checks every computed class of the targeted nodes
//! for a group's first placement; in a cluster of many jobs with the same
//! constraints each evaluation would rebuild the same class cache, class
//! by class. A row is that cache as a fresh stack leaves it after the
//! checks of one group on one set of nodes: a later stack whose cache is
//! still empty, with the same check inputs (the memo's keys), adopts the
//! row instead of filling its own, and answers as if it had run them.

use foldhash::fast::FixedState;
use std::collections::HashMap;

use super::filter::{Filter, InvalidConstraint};
use crate::model::Name;

/// The verdicts one group's class checks left in a fresh stack: the
/// job's per class, the group's per class, and the broken constraints met.
#[derive(Debug)]
pub struct ClassRow {
    pub(super) job: HashMap<Name, Result<(), Filter>, FixedState>,
    pub(super) group: HashMap<Name, Result<(), Filter>, FixedState>,
    pub(super) invalid: Vec<InvalidConstraint>,
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
