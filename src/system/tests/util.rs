//! The node checks and eviction order of scheduler/util.go and
//! feasible/propertyset.go as the system scheduler meets them.

use super::*;

#[test]
fn computed_class_results_are_shared_unless_a_unique_target_escapes() {
    // Two nodes claim one computed class; only the first is checked for the
    // job constraint on a non-unique attribute. A constraint on a unique
    // attribute is checked on every node.
    let mut first = node("first");
    first
        .attributes
        .insert("kernel.name".into(), "darwin".into());
    let second = node("second");
    let c = Cluster::new(vec![first, second]);
    let job = system_job();
    c.run(Some(&job), |s| {
        assert!(
            s.placements.is_empty(),
            "the class is ineligible after the first node"
        );
        assert!(matches!(
            s.filtered[1].filter,
            crate::feasibility::Filter::ClassIneligible { .. }
        ));
    });
    let mut unique = system_job();
    unique.constraints[0].l_target = "${attr.unique.kernel}".into();
    let mut first = node("first");
    first
        .attributes
        .insert("unique.kernel".into(), "darwin".into());
    let mut second = node("second");
    second
        .attributes
        .insert("unique.kernel".into(), "linux".into());
    let c = Cluster::new(vec![first, second]);
    c.run(Some(&unique), |s| {
        assert_eq!(s.placements.len(), 1);
        assert_eq!(s.placements[0].node_id, "second");
    });
}

fn rack(id: &str, status: &str) -> Node {
    let mut n = node(id);
    n.status = status.into();
    n.meta.insert("rack".into(), "r1".into());
    n
}

#[test]
fn util_1020_propertyset_166_a_lost_mark_frees_its_distinct_property_value() {
    // Seed util.go:1020-1024 stops again, as lost, an allocation already
    // told to stop but running on a down node; propertyset.go:166-192 and
    // :258-272 count every stop in the plan as freeing its node's value,
    // though the existing use (terminal allocations left out) never counted
    // it. Rack r1 is used once by `up` and freed once by `gone`: `new` fits.
    let mut c = Cluster::new(vec![
        rack("down", "down"),
        rack("new", "ready"),
        rack("up", "ready"),
    ]);
    let mut job = system_job();
    job.constraints.push(Constraint {
        l_target: "${meta.rack}".into(),
        r_target: Default::default(),
        operand: "distinct_property".into(),
    });
    let job = Arc::new(job);
    c.allocs
        .push(alloc("up0", "up", "my-job.web[0]", Arc::clone(&job)));
    let mut gone = alloc("gone", "down", "my-job.web[0]", Arc::clone(&job));
    gone.desired_status = "stop".into();
    c.allocs.push(gone);
    c.run(Some(&job), |s| {
        let stops: Vec<(String, &str)> = s
            .stops
            .iter()
            .map(|s| (s.alloc.id.to_string(), s.description))
            .collect();
        assert_eq!(stops, [("gone".to_string(), desc::LOST)]);
        let on: Vec<&str> = s.placements.iter().map(|p| p.node_id).collect();
        assert_eq!(on, ["new"], "filtered: {:?}", s.filtered);
    });
}

#[test]
fn util_79_270_861_a_node_evicts_its_lowest_allocation_id_first() {
    // Seed util.go:79 and :270 take a node's allocations in the state
    // store's order, ascending ID, and :861 evicts the first under
    // `max_parallel`: `web` (ID a0) before `api` (ID b0), whatever their
    // names. `web` no longer fits the node, so its replacement is filtered
    // and its annotated Place wraps.
    let mut c = Cluster::new(vec![node("n")]);
    let mut old = system_job();
    let mut api = old.task_groups[0].clone();
    api.name = "api".into();
    old.task_groups.push(api);
    let old = Arc::new(old);
    let mut web = alloc("a0", "n", "my-job.web[0]", Arc::clone(&old));
    web.task_group = "web".into();
    let mut api = alloc("b0", "n", "my-job.api[0]", Arc::clone(&old));
    api.task_group = "api".into();
    c.allocs.extend([api, web]);
    let mut job = reregistered((*old).clone());
    job.update = Some(UpdateStrategy {
        stagger: 30 * crate::time::SECOND,
        max_parallel: 1,
        ..UpdateStrategy::default()
    });
    for tg in &mut job.task_groups {
        tg.tasks[0].config = GoValue::from(serde_json::json!({"command": "/bin/other"}));
    }
    job.task_groups[0].constraints.push(Constraint {
        l_target: "${node.class}".into(),
        r_target: "gpu".into(),
        operand: "=".into(),
    });
    c.run(Some(&job), |s| {
        let evicted: Vec<String> = s
            .destructive
            .iter()
            .filter(|d| d.evicted)
            .map(|d| d.alloc.id.to_string())
            .collect();
        assert_eq!(evicted, ["a0"]);
        assert!(s.limit_reached);
        assert!(s.placements.is_empty());
        assert_eq!(s.desired["web"].place, u64::MAX);
        assert_eq!(s.desired["api"].place, 0);
    });
}
