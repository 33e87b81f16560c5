//! Class check verdicts shared by the evaluations of one replay.
//!
//! Nomad caches the class checks per computed class within one
//! evaluation only; a replay of thousands of jobs whose checks read the
//! same inputs would run the same checks on the same node thousands of
//! times. The memo keeps the outcome of a check by what it reads (a key
//! made of every input of the check) and by the node it ran on, so an
//! evaluation that would run it again takes the outcome instead. Only the
//! computation is shared: each evaluation still keeps its own class cache,
//! metrics and blocked evaluation, exactly as if it had run the checks.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use foldhash::fast::FixedState;

use super::node_checks::secrets_providers;
use super::target::TargetRules;
use crate::model::{Job, NetworkResource, Node, TaskGroup, value_hash};

/// The check inputs seen so far (by their key text, with how many stacks
/// asked for each) and the outcomes kept, by input and node.
struct Table<T> {
    keys: HashMap<u128, (u32, u32), FixedState>,
    outcomes: HashMap<(u32, usize), Arc<T>, FixedState>,
}

/// The outcomes of the replay's class checks. Inputs that only one
/// evaluation asks for are not kept, and the memo holds a bounded number
/// of outcomes: past it, checks run as if there were no memo.
pub struct Memo<T> {
    table: Mutex<Table<T>>,
}

impl<T> Default for Memo<T> {
    fn default() -> Memo<T> {
        Memo {
            table: Mutex::new(Table {
                keys: HashMap::default(),
                outcomes: HashMap::default(),
            }),
        }
    }
}

impl<T> std::fmt::Debug for Memo<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ClassMemo")
    }
}

/// At most this many outcomes are kept (a few hundred bytes each).
const MAX_OUTCOMES: usize = 500_000;

/// An interned input of the checks, as one stack holds it: `shared` once
/// a second stack asked for the same input.
#[derive(Clone, Copy, Debug)]
pub(super) struct Key {
    id: u32,
    shared: bool,
}

impl Key {
    /// The input's number, once a second stack asked for the same input.
    pub(super) fn shared_id(self) -> Option<u32> {
        self.shared.then_some(self.id)
    }
}

/// The memo key of a node: its place in memory, which the snapshot keeps
/// for the replay, so that two nodes with equal IDs but different
/// attributes never share an outcome.
fn node_key(node: &Node) -> usize {
    std::ptr::from_ref(node) as usize
}

impl<T> Memo<T> {
    /// The key of a check's inputs, as the caller hashed them in full.
    pub(super) fn key(&self, inputs: u128) -> Key {
        let mut guard = self.table.lock().unwrap_or_else(|e| e.into_inner());
        let next = guard.keys.len() as u32;
        let (id, asked) = guard.keys.entry(inputs).or_insert((next, 0));
        *asked += 1;
        Key {
            id: *id,
            shared: *asked > 1,
        }
    }

    /// The outcome kept for `key` on `node`, if any.
    pub(super) fn get(&self, key: Key, node: &Node) -> Option<Arc<T>> {
        if !key.shared {
            return None;
        }
        let guard = self.table.lock().unwrap_or_else(|e| e.into_inner());
        guard.outcomes.get(&(key.id, node_key(node))).cloned()
    }

    /// Keeps `outcome` for `key` on `node` where the input is shared and
    /// the bound allows.
    pub(super) fn put(&self, key: Key, node: &Node, outcome: T) {
        if !key.shared {
            return;
        }
        let mut guard = self.table.lock().unwrap_or_else(|e| e.into_inner());
        if guard.outcomes.len() < MAX_OUTCOMES {
            guard
                .outcomes
                .entry((key.id, node_key(node)))
                .or_insert_with(|| Arc::new(outcome));
        }
    }

    /// How many outcomes are kept.
    #[cfg(test)]
    pub(super) fn kept(&self) -> usize {
        let guard = self.table.lock().unwrap_or_else(|e| e.into_inner());
        guard.outcomes.len()
    }
}

/// Everything the job-level checks read but the node: the job's
/// constraints and how targets resolve.
pub(super) fn job_key(job: &Job, targets: TargetRules) -> u128 {
    value_hash(&("job", &job.constraints, targets))
}

/// Everything a group's class checks read but the node and the
/// allocation's name (the group has no volumes): its drivers, the group's
/// and tasks' constraints, the devices asked for, the network the checker
/// holds, the secrets providers, and how targets resolve.
pub(super) fn group_key(
    tg: &TaskGroup,
    network: Option<&NetworkResource>,
    targets: TargetRules,
) -> u128 {
    let drivers: std::collections::BTreeSet<&str> =
        tg.tasks.iter().map(|t| t.driver.as_str()).collect();
    let devices: Vec<_> = tg
        .tasks
        .iter()
        .flat_map(|t| t.resources.iter().flat_map(|r| &r.devices))
        .collect();
    let constraints: Vec<_> = tg
        .constraints
        .iter()
        .chain(tg.tasks.iter().flat_map(|t| &t.constraints))
        .collect();
    value_hash(&(
        "group",
        drivers,
        constraints,
        devices,
        network,
        secrets_providers(tg),
        targets,
    ))
}
