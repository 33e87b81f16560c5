//! The replay's shared class check outcomes against the checks run per
//! evaluation ([`ClassMemo`]).

use serde_json::{Value, json};

use super::stack::{ClassMemo, SystemStack};
use super::target::TargetRules;
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
