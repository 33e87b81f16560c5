//! Nomad's scheduler/spread_test.go at v1.3.0 and v1.6.0 (the last tag
//! whose spread behaviour differs; 2.0.5 moves the file to
//! scheduler/feasible/ unchanged): the iterator alone over a static list of
//! nodes, each final score the mean of the spread score alone.

use serde_json::json;

use super::*;
use crate::fit::score::final_score;
use crate::model::from_slice;

const V1_3_0: SpreadRules = SpreadRules {
    lowest_boost: false,
    implicit_as_one: false,
};
const V1_6_0: SpreadRules = SpreadRules {
    lowest_boost: true,
    implicit_as_one: true,
};

fn node(i: usize, dc: &str, rack: &str) -> Node {
    let n = json!({"ID": format!("node-{i}"), "Datacenter": dc, "Meta": {"rack": rack}});
    from_slice(n.to_string().as_bytes()).unwrap()
}

fn nodes(dcs: &[&str]) -> Vec<Node> {
    dcs.iter()
        .enumerate()
        .map(|(i, dc)| node(i, dc, ""))
        .collect()
}

fn job_with(count: i64, spreads: serde_json::Value) -> Job {
    let j =
        json!({"ID": "web", "TaskGroups": [{"Name": "web", "Count": count, "Spreads": spreads}]});
    from_slice(j.to_string().as_bytes()).unwrap()
}

fn on<'a>(nodes: &'a [Node], at: &[usize]) -> Vec<Placed<'a>> {
    at.iter()
        .map(|&i| Placed {
            node: Some(&nodes[i]),
            task_group: "web",
        })
        .collect()
}

/// The final score of every node, ranked in order by a fresh iterator.
fn scores(
    job: &Job,
    nodes: &[Node],
    existing: &[usize],
    proposed: &[Placed<'_>],
    rules: SpreadRules,
) -> Vec<f64> {
    let mut spreads = Spreads::new(job, on(nodes, existing), rules, TargetRules::default());
    let round = spreads.round(&job.task_groups[0], &[], proposed).unwrap();
    nodes
        .iter()
        .map(|n| final_score(&spreads.score(&round, n).into_iter().collect::<Vec<_>>()))
        .collect()
}

fn rounded(scores: &[f64]) -> Vec<String> {
    scores.iter().map(|s| format!("{s:.3}")).collect()
}

/// `TestSpreadIterator_SingleAttribute`: 80% of 10 in dc1 (so 20% in
/// dc2), two allocations in dc1; then five more proposed in dc1, and one of
/// another group that does not count.
#[test]
fn spread_test_go_v1_3_0_single_attribute() {
    let ns = nodes(&["dc1", "dc2", "dc1", "dc1"]);
    let job = job_with(
        10,
        json!([{"Weight": 100, "Attribute": "${node.datacenter}",
                "SpreadTarget": [{"Value": "dc1", "Percent": 80}]}]),
    );
    let s = scores(&job, &ns, &[0, 2], &[], V1_3_0);
    assert_eq!(s, [0.625, 0.5, 0.625, 0.625]);
    let mut proposed = on(&ns, &[0, 0, 3, 3, 3]);
    proposed.push(Placed {
        node: Some(&ns[0]),
        task_group: "bbb",
    });
    let s = scores(&job, &ns, &[0, 2], &proposed, V1_3_0);
    assert_eq!(s, [0.0, 0.5, 0.0, 0.0]);
}

/// `TestSpreadIterator_MultipleAttributes`: dc 60/40 at weight 100 and
/// rack 40/60 at weight 50; the empty dc2/r1 node scores best.
#[test]
fn spread_test_go_v1_3_0_multiple_attributes() {
    let ns: Vec<Node> = [("dc1", "r1"), ("dc2", "r1"), ("dc1", "r2"), ("dc1", "r2")]
        .iter()
        .enumerate()
        .map(|(i, (dc, rack))| node(i, dc, rack))
        .collect();
    let job = job_with(
        10,
        json!([{"Weight": 100, "Attribute": "${node.datacenter}",
                "SpreadTarget": [{"Value": "dc1", "Percent": 60}, {"Value": "dc2", "Percent": 40}]},
               {"Weight": 50, "Attribute": "${meta.rack}",
                "SpreadTarget": [{"Value": "r1", "Percent": 40}, {"Value": "r2", "Percent": 60}]}]),
    );
    let s = scores(&job, &ns, &[0, 2], &[], V1_3_0);
    assert_eq!(rounded(&s), ["0.500", "0.667", "0.556", "0.556"]);
}

/// `TestSpreadIterator_EvenSpread`: no targets; nothing placed scores 0,
/// then the less used datacenter is boosted, and a new empty one most.
#[test]
fn spread_test_go_v1_3_0_even_spread() {
    let dcs = [
        "dc1", "dc2", "dc1", "dc2", "dc1", "dc2", "dc2", "dc1", "dc1", "dc1",
    ];
    let mut ns = nodes(&dcs);
    let job = job_with(
        10,
        json!([{"Weight": 100, "Attribute": "${node.datacenter}"}]),
    );
    let by_dc = |ns: &[Node], s: Vec<f64>| -> BTreeMap<String, String> {
        ns.iter()
            .zip(rounded(&s))
            .map(|(n, s)| (n.datacenter.to_string(), s))
            .collect()
    };
    let s = scores(&job, &ns, &[], &[], V1_3_0);
    assert!(s.iter().all(|s| *s == 0.0));
    let s = scores(&job, &ns, &[], &on(&ns, &[0, 2]), V1_3_0);
    let expect = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(d, s)| (d.to_string(), s.to_string()))
            .collect()
    };
    assert_eq!(
        by_dc(&ns, s),
        expect(&[("dc1", "-1.000"), ("dc2", "1.000")])
    );
    let s = scores(&job, &ns, &[], &on(&ns, &[0, 2, 1, 1, 3]), V1_3_0);
    assert_eq!(
        by_dc(&ns, s),
        expect(&[("dc1", "0.500"), ("dc2", "-0.500")])
    );
    ns.push(node(10, "dc3", ""));
    let s = scores(&job, &ns, &[], &on(&ns, &[0, 2, 1, 1, 3, 4]), V1_3_0);
    assert_eq!(
        by_dc(&ns, s),
        expect(&[("dc1", "-1.000"), ("dc2", "-1.000"), ("dc3", "1.000")])
    );
}

/// `TestSpreadIterator_MaxPenalty`: a value no target names (with no
/// implicit remainder) and an attribute no node has both score -1.
#[test]
fn spread_test_go_v1_3_0_max_penalty() {
    let ns = nodes(&["dc3"; 5]);
    let targets = |attr: &str, a: &str, b: &str| {
        job_with(
            5,
            json!([{"Weight": 100, "Attribute": attr,
                    "SpreadTarget": [{"Value": a, "Percent": 80}, {"Value": b, "Percent": 20}]}]),
        )
    };
    for job in [
        targets("${node.datacenter}", "dc1", "dc2"),
        targets("${meta.foo}", "bar", "baz"),
    ] {
        for rules in [V1_3_0, V1_6_0] {
            assert_eq!(scores(&job, &ns, &[], &[], rules), [-1.0; 5]);
        }
    }
}

/// `Test_evenSpreadScoreBoost`: dc2's only allocation is stopped, so its
/// count is 0 while dc1's is 1: a boost of 1, not +Inf.
#[test]
fn spread_test_go_v1_3_0_even_spread_score_boost() {
    let ns = nodes(&["dc1", "dc2", "dc3"]);
    let set = ValueSet {
        attribute: "${node.datacenter}".to_string(),
        explicit: BTreeSet::new(),
        existing: BTreeMap::new(),
        targets: TargetRules::default(),
    };
    let uses = set.combined("web", &on(&ns, &[1, 2]), &on(&ns, &[0, 1, 2]));
    assert_eq!(uses["dc2"], 0);
    assert_eq!(even_spread_boost(&uses, "dc2"), 1.0);
    assert_eq!(even_spread_boost(&BTreeMap::new(), "dc1"), 0.0);
}

/// `TestSpreadIterator_NoInfinity` (v1.6.0, #17198): a 0% implicit
/// target scores the lowest boost seen so far, -1 at first; before, the
/// division by zero gave -Inf.
#[test]
fn spread_test_go_v1_6_0_no_infinity() {
    let ns = nodes(&["dc1", "dc2", "dc3"]);
    let job = |a: i64, b: i64| {
        job_with(
            8,
            json!([{"Weight": 100, "Attribute": "${node.datacenter}",
                    "SpreadTarget": [{"Value": "dc1", "Percent": a}, {"Value": "dc2", "Percent": b},
                                     {"Value": "*", "Percent": 0}]}]),
        )
    };
    assert_eq!(
        scores(&job(50, 50), &ns, &[], &[], V1_6_0),
        [0.75, 0.75, -1.0]
    );
    let desired = 8.0 * 0.99;
    let s = scores(&job(99, 1), &ns, &[], &[], V1_6_0);
    assert_eq!(s, [(desired - 1.0) / desired, -11.5, -11.5]);
    // Before #17198 (1.3.0 to 1.3.14, 1.4.9, 1.5.5) dc3 sinks to -Inf.
    let s = scores(&job(50, 50), &ns, &[], &[], V1_3_0);
    assert_eq!(s, [0.75, 0.75, f64::NEG_INFINITY]);
}

/// `TestSpread_ImplicitTargets` (v1.6.0, #17195) at the iterator: with
/// 50% of 4 in dc1, one allocation each in dc2 and dc3 fill the implicit
/// remainder of 2 together; before, dc2 saw only its own.
#[test]
fn spread_test_go_v1_6_0_implicit_targets_count_as_one() {
    let ns = nodes(&["dc1", "dc2", "dc3"]);
    let job = job_with(
        4,
        json!([{"Weight": 100, "Attribute": "${node.datacenter}",
                "SpreadTarget": [{"Value": "dc1", "Percent": 50}]}]),
    );
    assert_eq!(scores(&job, &ns, &[1, 2], &[], V1_3_0), [0.5, 0.0, 0.0]);
    assert_eq!(scores(&job, &ns, &[1, 2], &[], V1_6_0), [0.5, -0.5, -0.5]);
}

/// The weights of every group the evaluation has seen are summed and never
/// reset (v1.3.0 spread.go:269): the second group's block of weight 50
/// weighs 50 / 150 once the first group's 100 was seen.
#[test]
fn spread_weights_sum_over_the_groups_of_an_evaluation() {
    let ns = nodes(&["dc1", "dc2"]);
    let j = json!({"ID": "web", "TaskGroups": [
        {"Name": "a", "Count": 2, "Spreads": [{"Weight": 100, "Attribute": "${node.datacenter}",
            "SpreadTarget": [{"Value": "dc1", "Percent": 50}, {"Value": "dc2", "Percent": 50}]}]},
        {"Name": "b", "Count": 2, "Spreads": [{"Weight": 50, "Attribute": "${node.datacenter}",
            "SpreadTarget": [{"Value": "dc1", "Percent": 50}, {"Value": "dc2", "Percent": 50}]}]}]});
    let job: Job = from_slice(j.to_string().as_bytes()).unwrap();
    let mut spreads = Spreads::new(&job, Vec::new(), V1_6_0, TargetRules::default());
    let b = &job.task_groups[1];
    let mut alone = spreads.clone();
    let r = alone.round(b, &[], &[]).unwrap();
    assert_eq!(alone.score(&r, &ns[0]), None);
    // Placing in dc1 once: (1 - 2) / 1 of the block's share.
    let placed = [Placed {
        node: Some(&ns[0]),
        task_group: "b",
    }];
    let mut only_b = spreads.clone();
    let r = only_b.round(b, &[], &placed).unwrap();
    assert_eq!(only_b.score(&r, &ns[0]), Some(-1.0));
    spreads.round(&job.task_groups[0], &[], &[]);
    let r = spreads.round(b, &[], &placed).unwrap();
    assert_eq!(spreads.score(&r, &ns[0]), Some(-1.0 / 3.0));
}

/// A job's block and a group's block on one attribute share the job's
/// targets, and both weights count.
#[test]
fn a_job_block_on_the_group_s_attribute_takes_its_targets() {
    let ns = nodes(&["dc1", "dc2"]);
    let j = json!({"ID": "web",
        "Spreads": [{"Weight": 50, "Attribute": "${node.datacenter}",
                     "SpreadTarget": [{"Value": "dc1", "Percent": 100}]}],
        "TaskGroups": [{"Name": "web", "Count": 4,
            "Spreads": [{"Weight": 50, "Attribute": "${node.datacenter}",
                         "SpreadTarget": [{"Value": "dc2", "Percent": 100}]}]}]});
    let job: Job = from_slice(j.to_string().as_bytes()).unwrap();
    // dc1: two sets, each (4 - 1) / 4 * 50 / 100.
    assert_eq!(scores(&job, &ns, &[], &[], V1_3_0), [0.75, -2.0]);
}
