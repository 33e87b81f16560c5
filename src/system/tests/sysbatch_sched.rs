//! scheduler/scheduler_sysbatch_test.go: the system scheduler on sysbatch
//! jobs.

use super::*;

#[test]
fn test_sys_batch_constraint_errors() {
    constraint_errors(sysbatch_job());
}

#[test]
fn test_sys_batch_job_register_add_node_dead() {
    // A finished sysbatch allocation is not run again; a new node gets one.
    let mut c = Cluster::new(nodes(2));
    let job = Arc::new(job("sysbatch", "pinger", 1));
    for (i, n) in ["node-00"].iter().enumerate() {
        let mut a = alloc(
            &format!("d{i}"),
            n,
            "my-sysbatch.pinger[0]",
            Arc::clone(&job),
        );
        a.client_status = "complete".into();
        c.allocs.push(a);
    }
    c.run(Some(&job), |s| {
        assert_eq!(s.placements.len(), 1);
        assert_eq!(s.placements[0].node_id, "node-01");
        assert_eq!(s.desired["pinger"].ignore, 1);
    });
}

#[test]
fn test_sys_batch_job_modify() {
    // Finished allocations of an older job version run again.
    let mut c = Cluster::new(nodes(3));
    let old = Arc::new(job("sysbatch", "pinger", 1));
    for (i, n) in c.nodes.clone().iter().enumerate() {
        let mut a = alloc(
            &format!("d{i}"),
            &n.id,
            "my-sysbatch.pinger[0]",
            Arc::clone(&old),
        );
        a.client_status = "complete".into();
        c.allocs.push(a);
    }
    let new = other_command(job("sysbatch", "pinger", 1));
    c.run(Some(&new), |s| {
        assert_eq!(s.placements.len(), 3);
        assert!(s.placements.iter().all(|p| p.previous.is_some()));
        assert_eq!(s.desired["pinger"].destructive_update, 3);
    });
}

#[test]
fn test_sys_batch_job_modify_in_place() {
    // A finished allocation updated in place is counted, not planned.
    let mut c = Cluster::new(nodes(2));
    let old = Arc::new(job("sysbatch", "pinger", 1));
    for (i, n) in c.nodes.clone().iter().enumerate() {
        let mut a = alloc(
            &format!("d{i}"),
            &n.id,
            "my-sysbatch.pinger[0]",
            Arc::clone(&old),
        );
        a.client_status = "complete".into();
        c.allocs.push(a);
    }
    let new = reregistered(job("sysbatch", "pinger", 1));
    c.run(Some(&new), |s| {
        assert!(s.placements.is_empty() && s.in_place.is_empty() && s.stops.is_empty());
        assert_eq!(s.desired["pinger"].in_place_update, 2);
    });
}

#[test]
fn test_sys_batch_job_constraint_add_node() {
    job_constraint_add_node(sysbatch_job());
}

#[test]
fn test_sys_batch_job_register() {
    let c = Cluster::new(nodes(10));
    let job = sysbatch_job();
    c.run(Some(&job), |s| {
        assert_eq!(s.placements.len(), 10);
        assert!(
            s.placements
                .iter()
                .all(|p| p.name == "my-sysbatch.pinger[0]")
        );
    });
}

#[test]
fn test_sys_batch_job_register_add_node_running() {
    let mut c = Cluster::new(nodes(10));
    let job = Arc::new(sysbatch_job());
    sysbatch_everywhere(&mut c, &job, "running");
    c.nodes.push(node("node-10"));
    c.run(Some(&job), |s| {
        assert!(s.stops.is_empty());
        assert_eq!(s.placements.len(), 1);
        assert_eq!(s.placements[0].node_id, "node-10");
        assert_eq!(s.desired["pinger"].ignore, 10);
    });
}

#[test]
fn test_sys_batch_job_deregister_purged() {
    let mut c = Cluster::new(nodes(10));
    sysbatch_everywhere(&mut c, &Arc::new(sysbatch_job()), "running");
    c.run(None, |s| {
        assert_eq!(s.stops.len(), 10);
        assert!(s.stops.iter().all(|st| st.description == desc::NOT_NEEDED));
    });
}

#[test]
fn test_sys_batch_job_deregister_stopped() {
    let mut c = Cluster::new(nodes(10));
    let mut job = sysbatch_job();
    sysbatch_everywhere(&mut c, &Arc::new(job.clone()), "running");
    job.stop = true;
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 10);
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_sys_batch_node_down() {
    let mut n = node("n");
    n.status = "down".into();
    let mut c = Cluster::new(vec![n]);
    let job = Arc::new(sysbatch_job());
    sysbatch_everywhere(&mut c, &job, "running");
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].description, desc::LOST);
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_sys_batch_node_drain_down() {
    let mut n = node("n");
    n.drain_strategy = GoValue::from(serde_json::json!({"Deadline": 0}));
    n.status = "down".into();
    let mut c = Cluster::new(vec![n]);
    let job = Arc::new(sysbatch_job());
    sysbatch_everywhere(&mut c, &job, "running");
    c.run(Some(&job), |s| {
        let lost: Vec<String> = s.stops.iter().map(|st| st.alloc.id.to_string()).collect();
        assert_eq!(lost, ["s00"]);
        assert_eq!(s.stops[0].client_status, Some(ClientStatus::Lost));
    });
}

#[test]
fn test_sys_batch_node_drain() {
    let mut n = node("n");
    n.drain_strategy = GoValue::from(serde_json::json!({"Deadline": 0}));
    let mut c = Cluster::new(vec![n]);
    let job = Arc::new(sysbatch_job());
    sysbatch_everywhere(&mut c, &job, "running");
    c.allocs[0].desired_transition.migrate = Some(true);
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].description, NODE_TAINTED);
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_sys_batch_node_update() {
    let mut c = Cluster::new(vec![node("n")]);
    let job = Arc::new(sysbatch_job());
    sysbatch_everywhere(&mut c, &job, "running");
    c.run(Some(&job), |s| {
        assert!(s.stops.is_empty() && s.placements.is_empty());
    });
}

#[test]
fn test_sys_batch_queued_with_constraints() {
    let mut n = node("darwin");
    n.attributes.insert("kernel.name".into(), "darwin".into());
    let c = Cluster::new(vec![n]);
    let job = sysbatch_job();
    c.run(Some(&job), |s| {
        assert!(s.placements.is_empty());
        assert_eq!(s.desired["pinger"].place, 0);
    });
}

#[test]
fn test_sys_batch_queued_with_constraints_partial_match() {
    // Three linux and three darwin nodes: placements on the linux ones.
    let mut ns = nodes(6);
    for n in &mut ns[3..] {
        n.attributes.insert("kernel.name".into(), "darwin".into());
        n.computed_class = "v1:darwin".into();
    }
    let c = Cluster::new(ns);
    let job = sysbatch_job();
    c.run(Some(&job), |s| {
        let on: Vec<&str> = s.placements.iter().map(|p| p.node_id).collect();
        assert_eq!(on, ["node-00", "node-01", "node-02"]);
        assert_eq!(s.desired["pinger"].place, 3);
    });
}

#[test]
fn test_sys_batch_existing_alloc_no_nodes() {
    let mut c = Cluster::new(vec![node("n")]);
    let job = Arc::new(sysbatch_job());
    sysbatch_everywhere(&mut c, &job, "running");
    c.nodes.clear();
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].description, desc::LOST);
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_sys_batch_plan_with_drained_node() {
    let mut drained = node("drained");
    drained.drain_strategy = GoValue::from(serde_json::json!({"Deadline": 0}));
    drained.scheduling_eligibility = "ineligible".into();
    let mut c = Cluster::new(vec![drained, node("ready")]);
    let job = Arc::new(sysbatch_job());
    sysbatch_everywhere(&mut c, &job, "running");
    c.allocs[0].desired_transition.migrate = Some(true);
    c.run(Some(&job), |s| {
        assert_eq!(s.stops.len(), 1);
        assert_eq!(s.stops[0].alloc.node_id, "drained");
        assert!(s.placements.is_empty());
    });
}

#[test]
fn test_sys_batch_queued_allocs_mult_tg() {
    let mut job = sysbatch_job();
    let mut second = job.task_groups[0].clone();
    second.name = "pinger2".into();
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
        assert_eq!(s.desired["pinger"].place, 2);
        assert_eq!(s.desired["pinger2"].place, 1);
    });
}

#[test]
fn test_sys_batch_chained_alloc() {
    let mut c = Cluster::new(nodes(3));
    sysbatch_everywhere(&mut c, &Arc::new(sysbatch_job()), "running");
    assert_chained(c, &other_command(sysbatch_job()), "s");
}
