//! The class checks of a group's first placement, shared by jobs whose
//! checks read the same inputs on the same nodes: the group's class
//! verdicts, the counts they add to the metrics and the stack's class
//! cache ([`ClassRow`]), kept by the memo's numbers of the job's and the
//! group's check inputs and the node groups the job targets. A job whose
//! stack has checked nothing yet takes them instead of checking every
//! class again, which made the placement stage cost jobs x classes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::metric::AllocMetric;
use crate::feasibility::ClassRow;

/// The job's and the group's check inputs, and the targeted node groups.
pub type RowKey = (u32, u32, Vec<u32>);

/// What the class checks of one group on a fresh stack left.
#[derive(Debug)]
pub struct Row {
    /// The group's verdict per computed class.
    pub classes: Vec<u8>,
    /// What they added to the placement's metrics.
    pub metric: AllocMetric,
    pub stack: Arc<ClassRow>,
}

/// The rows of a replay, up to a bound on the verdicts they hold.
#[derive(Debug, Default)]
pub struct ClassRows {
    rows: Mutex<(HashMap<RowKey, Arc<Row>>, usize)>,
}

/// At most this many class verdicts in all rows (a few dozen bytes each).
const MAX_VERDICTS: usize = 1_000_000;

impl ClassRows {
    /// The row kept for `key`.
    pub fn get(&self, key: &RowKey) -> Option<Arc<Row>> {
        let guard = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        guard.0.get(key).cloned()
    }

    /// Keeps `row` for `key`, unless one is kept or the bound is reached.
    pub fn put(&self, key: RowKey, row: Row) {
        let mut guard = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        let (rows, verdicts) = &mut *guard;
        let n = row.stack.len();
        if *verdicts + n <= MAX_VERDICTS && !rows.contains_key(&key) {
            *verdicts += n;
            rows.insert(key, Arc::new(row));
        }
    }

    /// How many rows are kept.
    #[cfg(test)]
    pub fn kept(&self) -> usize {
        let guard = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        guard.0.len()
    }
}
