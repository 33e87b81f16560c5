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
use super::stack::{Filter, InvalidConstraint, group_constraints};
use super::target::TargetRules;
use crate::model::{Job, NetworkResource, Node, TaskGroup};

/// The outcome of one check on one node: its verdict and the broken
/// constraints it met on the way.
#[derive(Debug)]
pub(super) struct Outcome {
    pub result: Result<(), Filter>,
    pub invalid: Vec<InvalidConstraint>,
}

/// The check inputs seen so far (by their key text, with how many stacks
/// asked for each) and the outcomes kept, by input and node.
#[derive(Default)]
struct Table {
    keys: HashMap<String, (u32, u32), FixedState>,
    outcomes: HashMap<(u32, usize), Arc<Outcome>, FixedState>,
}

/// The outcomes of the replay's class checks. Inputs that only one
/// evaluation asks for are not kept, and the memo holds a bounded number
/// of outcomes: past it, checks run as if there were no memo.
#[derive(Default)]
pub struct ClassMemo {
    table: Mutex<Table>,
}

impl std::fmt::Debug for ClassMemo {
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

/// The memo key of a node: its place in memory, which the snapshot keeps
/// for the replay, so that two nodes with equal IDs but different
/// attributes never share an outcome.
fn node_key(node: &Node) -> usize {
    std::ptr::from_ref(node) as usize
}

impl ClassMemo {
    /// The key of a check's inputs, written out in full by the caller.
    pub(super) fn key(&self, text: String) -> Key {
        let mut guard = self.table.lock().unwrap_or_else(|e| e.into_inner());
        let next = guard.keys.len() as u32;
        let (id, asked) = guard.keys.entry(text).or_insert((next, 0));
        *asked += 1;
        Key {
            id: *id,
            shared: *asked > 1,
        }
    }

    /// The outcome kept for `key` on `node`, if any.
    pub(super) fn get(&self, key: Key, node: &Node) -> Option<Arc<Outcome>> {
        if !key.shared {
            return None;
        }
        let guard = self.table.lock().unwrap_or_else(|e| e.into_inner());
        guard.outcomes.get(&(key.id, node_key(node))).cloned()
    }

    /// Keeps `outcome` for `key` on `node` where the input is shared and
    /// the bound allows.
    pub(super) fn put(&self, key: Key, node: &Node, outcome: Outcome) {
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
pub(super) fn job_key(job: &Job, targets: TargetRules) -> String {
    format!("job|{:?}|{targets:?}", job.constraints)
}

/// Everything a group's class checks read but the node and the
/// allocation's name (the group has no volumes): its drivers, the group's
/// and tasks' constraints, the devices asked for, the network the checker
/// holds, the secrets providers, and how targets resolve.
pub(super) fn group_key(
    tg: &TaskGroup,
    network: Option<&NetworkResource>,
    targets: TargetRules,
) -> String {
    let drivers: std::collections::BTreeSet<&str> =
        tg.tasks.iter().map(|t| t.driver.as_str()).collect();
    let devices: Vec<_> = tg
        .tasks
        .iter()
        .flat_map(|t| t.resources.iter().flat_map(|r| &r.devices))
        .collect();
    format!(
        "group|{drivers:?}|{:?}|{devices:?}|{network:?}|{:?}|{targets:?}",
        group_constraints(tg),
        secrets_providers(tg),
    )
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::stack::SystemStack;
    use super::super::target::TargetRules;
    use super::ClassMemo;
    use crate::model::{Job, Node, from_slice, v};

    fn parse<T: for<'de> serde::Deserialize<'de>>(v: Value) -> T {
        from_slice(v.to_string().as_bytes()).unwrap()
    }

    /// A small deterministic generator, so that a failure reproduces.
    struct Draw(u64);

    impl Draw {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 33) % n
        }

        fn pick<T: Clone>(&mut self, from: &[T]) -> T {
            from[self.below(from.len() as u64) as usize].clone()
        }
    }

    /// A node that differs from the others in every input the class
    /// checks read: attributes, meta, drivers, networks, devices, secrets
    /// providers; some share a computed class.
    fn node(i: usize, d: &mut Draw) -> Node {
        let mut attributes = json!({
            "kernel.name": d.pick(&["linux", "windows"]),
            "os.name": d.pick(&["ubuntu", "debian"]),
            "arch": d.pick(&["amd64", "arm64"]),
            "nomad.version": d.pick(&["1.3.0", "1.6.2", "0.11.0"]),
        });
        if d.below(2) == 0 {
            attributes["plugins.secrets.vault.version"] = json!("1.0.0");
        }
        let healthy = |d: &mut Draw| json!({"Detected": true, "Healthy": d.below(3) > 0});
        let mut networks = vec![json!({"Mode": "host", "Device": "eth0"})];
        if d.below(2) == 0 {
            networks.push(json!({"Mode": "bridge"}));
        }
        let aliases = match d.below(2) {
            0 => json!([{"Addresses": [{"Alias": "public", "Address": "10.0.0.1"}]}]),
            _ => json!([]),
        };
        let devices = match d.below(2) {
            0 => json!([{"Vendor": "nvidia", "Type": "gpu", "Name": "t4",
                         "Instances": [{"ID": "g0", "Healthy": true}]}]),
            _ => json!([]),
        };
        let class = match d.below(3) {
            0 => String::new(),
            _ => format!("v1:{}", d.below(4)),
        };
        parse(json!({
            "ID": format!("node-{i:02}"), "Status": "ready", "ComputedClass": class,
            "NodePool": d.pick(&["default", "gpu"]),
            "Attributes": attributes,
            "Meta": {"rack": d.pick(&["r1", "r2"])},
            "Drivers": {"docker": healthy(d), "exec": healthy(d)},
            "NodeResources": {"Networks": networks, "NodeNetworks": aliases, "Devices": devices},
        }))
    }

    fn constraint(l: &str, op: &str, r: &str) -> Value {
        json!({"LTarget": l, "RTarget": r, "Operand": op})
    }

    /// A job of one or two groups drawn from a few choices of every input.
    fn job(i: usize, d: &mut Draw) -> Job {
        let job_constraints = [
            json!([]),
            json!([constraint("${attr.kernel.name}", "=", "linux")]),
            json!([constraint("${attr.os.name}", "regexp", "[")]),
            json!([constraint("${node.pool}", "!=", "gpu")]),
        ];
        let group_constraints = [
            json!([]),
            json!([constraint("${meta.rack}", "=", "r1")]),
            json!([constraint("${attr.nomad.version}", "version", ">= 1.4")]),
        ];
        let task_constraints = [json!([]), json!([constraint("${attr.arch}", "=", "amd64")])];
        let networks = [
            json!([]),
            json!([{"Mode": "host"}]),
            json!([{"Mode": "bridge"}]),
            json!([{"Mode": "host", "DynamicPorts": [{"Label": "http", "HostNetwork": "public"}]}]),
        ];
        let devices = [json!([]), json!([{"Name": "nvidia/gpu", "Count": 1}])];
        let secrets = [
            json!([]),
            json!([{"Name": "s", "Provider": "vault", "Path": "x"}]),
        ];
        let groups: Vec<Value> = (0..1 + d.below(2))
            .map(|g| {
                json!({"Name": format!("g{g}"), "Count": 1,
                       "Constraints": d.pick(&group_constraints),
                       "Networks": d.pick(&networks),
                       "Tasks": [{"Name": "t", "Driver": d.pick(&["docker", "exec"]),
                                  "Constraints": d.pick(&task_constraints),
                                  "Resources": {"CPU": 100, "MemoryMB": 64,
                                                "Devices": d.pick(&devices)},
                                  "Secrets": d.pick(&secrets)}]})
            })
            .collect();
        parse(
            json!({"ID": format!("job-{i}"), "Namespace": "default", "Type": "service",
                     "Constraints": d.pick(&job_constraints), "TaskGroups": groups}),
        )
    }

    /// Every job's class checks on every node, with the replay's memo and
    /// without, give the same verdicts, broken constraints and class
    /// eligibility: the memo's key holds every input the checks read (a
    /// key that left one out would hand a job another's verdict).
    #[test]
    fn shared_verdicts_equal_the_checks_run_per_evaluation() {
        let mut d = Draw(32);
        let nodes: Vec<Node> = (0..16).map(|i| node(i, &mut d)).collect();
        let jobs: Vec<Job> = (0..300).map(|i| job(i, &mut d)).collect();
        let memo = ClassMemo::default();
        let mut shared = 0;
        for (k, j) in jobs.iter().enumerate() {
            let targets = TargetRules::of([v(1, 3, 0), v(1, 6, 0), v(2, 0, 5)][k % 3]);
            let mut plain = SystemStack::new(j, Vec::new()).with_targets(targets);
            let mut memoized = SystemStack::new(j, Vec::new())
                .with_targets(targets)
                .with_memo(&memo);
            let kept = memo.kept();
            for tg in &j.task_groups {
                for n in 0..nodes.len() {
                    let node = &nodes[(n + k) % nodes.len()];
                    let name = format!("{}.{}[0]", j.id, tg.name);
                    assert_eq!(
                        memoized.class_checks(tg, &name, node),
                        plain.class_checks(tg, &name, node),
                        "job {k} group {} node {}",
                        tg.name,
                        node.id
                    );
                }
            }
            shared += usize::from(memo.kept() == kept);
            assert_eq!(memoized.invalid_constraints(), plain.invalid_constraints());
            assert_eq!(memoized.class_eligibility(), plain.class_eligibility());
        }
        // Most jobs found every outcome they needed already kept.
        assert!(shared > 150, "{shared} jobs ran on kept outcomes only");
        assert!(memo.kept() > 0);
    }
}
