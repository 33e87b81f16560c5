//! scheduler/scheduler_system_test.go: the system scheduler on system jobs.

use super::*;

#[test]
fn test_system_sched_job_register() {
    let c = Cluster::new(nodes(10));
    let job = system_job();
    c.run(Some(&job), |s| {
        assert_eq!(s.placements.len(), 10);
        let mut on: Vec<&str> = s.placements.iter().map(|p| p.node_id).collect();
        on.dedup();
        assert_eq!(on.len(), 10, "one per node");
        assert!(s.placements.iter().all(|p| p.name == "my-job.web[0]"));
        assert_eq!(s.desired["web"].place, 10);
        assert!(s.stops.is_empty());
    });
}

#[test]
fn test_system_sched_job_register_annotate() {
    // Nine linux nodes and one that is not: nine placements, and the
    // annotation's Place lowered for the filtered one.
    let mut ns = nodes(10);
    ns[9]
        .attributes
        .insert("kernel.name".into(), "darwin".into());
    ns[9].computed_class = "v1:darwin".into();
    let c = Cluster::new(ns);
    let job = system_job();
    c.run(Some(&job), |s| {
        assert_eq!(s.placements.len(), 9);
        assert_eq!(s.desired["web"].place, 9);
        assert_eq!(s.filtered.len(), 1);
        assert_eq!(s.filtered[0].node_id, "node-09");
    });
}

#[test]
fn test_system_sched_job_register_add_node() {
    let mut c = Cluster::new(nodes(10));
    let job = Arc::new(system_job());
    for n in 0..10 {
        let id = format!("node-{n:02}");
        c.allocs.push(alloc(
            &format!("a{n}"),
            &id,
            "my-job.web[0]",
            Arc::clone(&job),
        ));
    }
    c.nodes.push(node("node-10"));
    c.run(Some(&job), |s| {
        assert_eq!(s.placements.len(), 1);
        assert_eq!(s.placements[0].node_id, "node-10");
        assert!(s.stops.is_empty());
        assert_eq!(s.desired["web"].ignore, 10);
        assert_eq!(s.desired["web"].place, 1);
    });
}

#[test]
fn test_system_sched_job_modify() {
    let c = system_everywhere(nodes(10));
    let job = other_command(system_job());
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 10);
        assert!(s.stops.iter().all(|st| st.description == desc::UPDATING));
        assert_eq!(s.placements.len(), 10);
        for p in &s.placements {
            let prev = p.previous.expect("replaces the old allocation");
            assert_eq!(prev.node_id, p.node_id, "on the same node");
        }
        assert_eq!(s.desired["web"].destructive_update, 10);
        // Place was 0 before the evictions, and nothing was filtered.
        assert_eq!(s.desired["web"].place, 0);
        assert!(!s.limit_reached);
    });
}

#[test]
fn test_system_sched_job_modify_rolling() {
    let c = system_everywhere(nodes(10));
    let mut job = reregistered(system_job());
    job.update = Some(UpdateStrategy {
        stagger: 30 * crate::time::SECOND,
        max_parallel: 5,
        ..UpdateStrategy::default()
    });
    job.task_groups[0].tasks[0].config =
        GoValue::from(serde_json::json!({"command": "/bin/other"}));
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 5);
        assert_eq!(s.placements.len(), 5);
        assert!(s.limit_reached, "a rolling follow-up eval is due");
        assert_eq!(s.destructive.iter().filter(|d| d.evicted).count(), 5);
        assert_eq!(s.desired["web"].destructive_update, 10);
    });
}

#[test]
fn test_system_sched_job_modify_in_place() {
    let c = system_everywhere(nodes(10));
    let job = reregistered(system_job());
    c.run(Some(&job), |s| {
        assert!(s.stops.is_empty());
        assert!(s.placements.is_empty());
        assert_eq!(s.in_place.len(), 10);
        assert_eq!(s.desired["web"].in_place_update, 10);
    });
}

#[test]
fn test_system_sched_job_modify_remove_dc() {
    let mut ns = nodes(2);
    ns[1].datacenter = "dc2".into();
    let mut c = Cluster::new(ns);
    let mut old = system_job();
    old.datacenters = vec!["dc1".into(), "dc2".into()];
    running_everywhere(&mut c, &Arc::new(old));
    let job = reregistered(system_job());
    c.run(Some(&job), |s| {
        let stops: Vec<(&str, &str)> = s
            .stops
            .iter()
            .map(|st| (st.alloc.node_id.as_str(), st.description))
            .collect();
        assert_eq!(stops, [("node-01", desc::NOT_NEEDED)]);
        assert_eq!(s.in_place.len(), 1);
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_system_sched_job_deregister_purged() {
    let mut c = Cluster::new(nodes(10));
    running_everywhere(&mut c, &Arc::new(system_job()));
    c.run(None, |s| {
        assert_eq!(s.stops.len(), 10);
        assert!(s.stops.iter().all(|st| st.description == desc::NOT_NEEDED));
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_system_sched_job_deregister_stopped() {
    let mut c = Cluster::new(nodes(10));
    let mut job = system_job();
    running_everywhere(&mut c, &Arc::new(job.clone()));
    job.stop = true;
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 10);
        assert!(s.placements.is_empty());
        assert_eq!(s.desired["web"].stop, 10);
    });
}

#[test]
fn test_system_sched_node_down() {
    let mut n = node("down");
    n.status = "down".into();
    n.drain_strategy = GoValue::from(serde_json::json!({"Deadline": 0}));
    let mut c = Cluster::new(vec![n]);
    let job = Arc::new(system_job());
    running_everywhere(&mut c, &job);
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].description, desc::LOST);
        assert_eq!(s.stops[0].client_status, Some(ClientStatus::Lost));
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_system_sched_node_drain() {
    let mut n = node("drain");
    n.drain_strategy = GoValue::from(serde_json::json!({"Deadline": 0}));
    let mut c = Cluster::new(vec![n]);
    let job = Arc::new(system_job());
    running_everywhere(&mut c, &job);
    c.allocs[0].desired_transition.migrate = Some(true);
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].description, NODE_TAINTED);
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_system_sched_node_update() {
    let mut c = Cluster::new(vec![node("n")]);
    let job = Arc::new(system_job());
    running_everywhere(&mut c, &job);
    c.run(Some(&job), |s| {
        assert!(s.stops.is_empty() && s.placements.is_empty() && s.in_place.is_empty());
        assert_eq!(s.desired["web"].ignore, 1);
    });
}

#[test]
fn test_system_sched_queued_with_constraints() {
    let mut n = node("darwin");
    n.attributes.insert("kernel.name".into(), "darwin".into());
    let c = Cluster::new(vec![n]);
    let job = system_job();
    c.run(Some(&job), |s| {
        assert!(s.placements.is_empty());
        assert_eq!(s.desired["web"].place, 0);
    });
}

#[test]
fn test_system_sched_existing_alloc_no_nodes() {
    // The only node goes away: its allocation is lost, nothing is placed.
    let mut c = Cluster::new(vec![node("n")]);
    let job = Arc::new(system_job());
    running_everywhere(&mut c, &job);
    c.nodes.clear();
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].description, desc::LOST);
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_system_sched_chained_alloc() {
    // A destructive update chains each replacement to the allocation it replaces.
    let c = system_everywhere(nodes(3));
    assert_chained(c, &other_command(system_job()), "a");
}

#[test]
fn test_system_sched_plan_with_drained_node() {
    // A drained node (with a drain strategy, ineligible) keeps its
    // allocation of one group until it is marked to migrate; that one is stopped.
    let mut drained = node("drained");
    drained.drain_strategy = GoValue::from(serde_json::json!({"Deadline": 0}));
    drained.scheduling_eligibility = "ineligible".into();
    let mut c = Cluster::new(vec![drained, node("ready")]);
    let job = Arc::new(system_job());
    running_everywhere(&mut c, &job);
    c.allocs[0].desired_transition.migrate = Some(true);
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].alloc.node_id, "drained");
        assert_eq!(s.stops[0].description, NODE_TAINTED);
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_system_sched_queued_allocs_mult_tg() {
    let mut job = system_job();
    let mut second = job.task_groups[0].clone();
    second.name = "web2".into();
    second.constraints.push(Constraint {
        l_target: "${node.class}".into(),
        r_target: "gpu".into(),
        operand: "=".into(),
    });
    job.task_groups.push(second);
    let mut gpu = node("gpu");
    gpu.node_class = "gpu".into();
    gpu.computed_class = "v1:gpu".into();
    let c = Cluster::new(vec![node("plain"), gpu]);
    c.run(Some(&job), |s| {
        assert_eq!(s.placements.len(), 3);
        assert_eq!(s.desired["web"].place, 2);
        assert_eq!(s.desired["web2"].place, 1);
    });
}

#[test]
fn test_system_sched_constraint_errors() {
    constraint_errors(system_job());
}

#[test]
fn a_broken_version_constraint_makes_nodes_infeasible_and_is_reported() {
    // A broken version constraint makes every node infeasible, without a
    // panic, and is reported for a warning.
    let mut job = system_job();
    job.constraints.push(Constraint {
        l_target: "${attr.nomad.version}".into(),
        r_target: ">= not-a-version".into(),
        operand: "version".into(),
    });
    let mut n = node("n");
    n.attributes.insert("nomad.version".into(), "1.3.0".into());
    let c = Cluster::new(vec![n]);
    c.run(Some(&job), |s| {
        assert!(s.placements.is_empty());
        assert_eq!(s.invalid_constraints.len(), 1);
        assert_eq!(
            s.invalid_constraints[0].constraint,
            "${attr.nomad.version} version >= not-a-version"
        );
    });
}

#[test]
fn place_wraps_below_zero_for_a_filtered_replacement() {
    // contract 4: a destructive update's replacement that the node now
    // filters lowers Place, which Nomad never raised for it: uint64 wraps.
    let c = system_everywhere(vec![node("n")]);
    let mut job = reregistered(system_job());
    job.task_groups[0].tasks[0].driver = "docker".into();
    c.run(Some(&job), |s| {
        assert_eq!(s.destructive.len(), 1);
        assert!(s.placements.is_empty());
        assert_eq!(s.desired["web"].place, u64::MAX);
    });
}

#[test]
fn test_system_sched_job_register_sticky_allocs() {
    // A failed allocation is replaced on its node, chained to it.
    let mut c = Cluster::new(nodes(10));
    let job = Arc::new(system_job());
    running_everywhere(&mut c, &job);
    c.allocs[4].client_status = "failed".into();
    c.run(Some(&job), |s| {
        assert_eq!(s.placements.len(), 1);
        let p = &s.placements[0];
        assert_eq!(p.node_id, "node-04");
        assert_eq!(p.previous.map(|a| a.id.to_string()).as_deref(), Some("a04"));
        assert!(s.stops.is_empty());
    });
}

#[test]
fn test_system_sched_job_register_alloc_fail() {
    // No nodes: nothing to place, no plan.
    let c = Cluster::new(Vec::new());
    let job = system_job();
    c.run(Some(&job), |s| {
        assert!(s.placements.is_empty() && s.stops.is_empty() && s.filtered.is_empty());
        assert!(s.desired.is_empty());
    });
}

#[test]
fn test_system_sched_job_constraint_add_node() {
    job_constraint_add_node(system_job());
}

#[test]
fn test_system_sched_node_drain_down() {
    // A drained node that went down: its allocation is lost.
    let mut n = node("n");
    n.drain_strategy = GoValue::from(serde_json::json!({"Deadline": 0}));
    n.status = "down".into();
    let mut c = Cluster::new(vec![n]);
    let job = Arc::new(system_job());
    running_everywhere(&mut c, &job);
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].description, desc::LOST);
        assert_eq!(s.stops[0].client_status, Some(ClientStatus::Lost));
    });
}
