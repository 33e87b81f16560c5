//! What one reconcile returns: the job's changes and each group's trace.

use std::collections::BTreeMap;

use super::results::ReconcileResults;
use super::trace::GroupTrace;

/// The reconciler's decisions with what it saw on the way.
#[derive(Clone, Debug)]
pub struct Reconciliation<'a> {
    pub results: ReconcileResults<'a>,
    pub groups: BTreeMap<String, GroupTrace<'a>>,
}
