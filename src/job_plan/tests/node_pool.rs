//! The node pool validator (`jobNodePoolValidatingHook`, #17386, from
//! 1.6.0): Nomad's `TestJobEndpoint_Register_NodePool` (v1.6.0
//! nomad/job_endpoint_oss_test.go:340, v2.0.5 job_endpoint_ce_test.go:19) and
//! `TestStateStore_UpsertJob_NodePool` (v1.6.0
//! nomad/state/state_store_test.go:2399, v2.0.5 :2285), through the plan.

use serde_json::{Map, Value, json};

use super::super::{JobPlan, PlanError, admit, plan_job};
use super::endpoint::{mock_job, options_at};
use crate::model::{NodePool, Release, Snapshot, v};

/// A snapshot whose `NodePools` lists `pools` (the built-ins left out, as a
/// hand-made list may) and whose `Namespaces` lists `default` and
/// `namespaces`.
fn listing(pools: &[&str], namespaces: &[&str]) -> Snapshot {
    Snapshot {
        node_pools: pools
            .iter()
            .map(|p| NodePool {
                name: (*p).into(),
                ..NodePool::default()
            })
            .collect(),
        node_pools_listed: true,
        namespaces: Some(
            ["default"]
                .iter()
                .chain(namespaces)
                .map(|n| (*n).to_string())
                .collect(),
        ),
        ..Snapshot::default()
    }
}

fn job_in(namespace: &str, pool: &str) -> Map<String, Value> {
    let mut job = mock_job();
    job["Namespace"] = json!(namespace);
    job["NodePool"] = json!(pool);
    job
}

/// The node pool the plan registers the new job in, as its diff adds it.
fn stored_pool(plan: &JobPlan) -> &str {
    plan.diff
        .fields
        .iter()
        .find(|f| f.name == "NodePool")
        .map_or("", |f| f.new.as_str())
}

fn plan_in(s: &Snapshot, job: Map<String, Value>, r: Release) -> Result<JobPlan, PlanError> {
    plan_job(s, job, &options_at(r)).map(|(_, plan)| plan)
}

/// The Go test's namespace and pool are `mock.Namespace()` and
/// `mock.NodePool()` (random names); these stand for them.
fn register_node_pool(r: Release) {
    let s = listing(&["pool-test"], &["ns-test"]);
    for (name, namespace, pool, want) in [
        (
            "job in default namespace uses default node pool",
            "default",
            "",
            "default",
        ),
        (
            "job without node pool uses default node pool",
            "ns-test",
            "",
            "default",
        ),
        ("job can set node pool", "ns-test", "pool-test", "pool-test"),
    ] {
        let plan = plan_in(&s, job_in(namespace, pool), r).expect(name);
        assert_eq!(stored_pool(&plan), want, "{name} at {r}");
    }
}

#[test]
fn job_endpoint_oss_test_go_v1_6_0_register_node_pool() {
    register_node_pool(v(1, 6, 0));
}

#[test]
fn job_endpoint_ce_test_go_v2_0_5_register_node_pool() {
    register_node_pool(v(2, 0, 5));
}

/// The Go test upserts into a state that holds only the built-in pools. A
/// plan meets the same words first in the endpoint's hook; the state
/// store's own check (v1.6.0 nomad/state/state_store.go:1709, v2.0.5
/// :1816) is never reached.
fn upsert_job_node_pool(r: Release) {
    let s = listing(&[], &[]);
    for (name, pool) in [
        ("empty node pool uses default", ""),
        ("job uses pool defined", "default"),
    ] {
        let plan = plan_in(&s, job_in("default", pool), r).expect(name);
        assert_eq!(stored_pool(&plan), "default", "{name} at {r}");
    }
    let err = plan_in(&s, job_in("default", "nonexisting"), r).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Nomad would reject the job: 1 error occurred:\n\t* job \"mock-service\" is in \
         nonexistent node pool \"nonexisting\"",
        "error when pool doesn't exist at {r}"
    );
}

#[test]
fn state_store_test_go_v1_6_0_upsert_job_node_pool() {
    upsert_job_node_pool(v(1, 6, 0));
}

#[test]
fn state_store_test_go_v2_0_5_upsert_job_node_pool() {
    upsert_job_node_pool(v(2, 0, 5));
}

/// `all` exists in every state, so a job may name it (its nodes are all
/// nodes); only a node is refused there (v1.6.0 nomad/node_endpoint.go:147,
/// v2.0.5 nomad/structs/node.go:621).
#[test]
fn a_job_may_use_the_built_in_all_pool() {
    for r in [v(1, 6, 0), v(2, 0, 5)] {
        let plan = plan_in(&listing(&["gpu"], &[]), job_in("default", "all"), r).unwrap();
        assert_eq!(stored_pool(&plan), "all", "{r}");
    }
}

/// Without a `NodePools` list there is nothing to check against: any pool
/// is taken to exist. Before 1.6.0 no release checks.
#[test]
fn the_pool_is_checked_only_against_a_list_and_from_1_6_0() {
    let job = || job_in("default", "gpu");
    assert!(plan_in(&Snapshot::default(), job(), v(2, 0, 5)).is_ok());
    assert!(plan_in(&listing(&[], &[]), job(), v(1, 5, 17)).is_ok());
    assert!(plan_in(&listing(&["gpu"], &[]), job(), v(1, 6, 0)).is_ok());
    assert!(plan_in(&listing(&["cpu"], &[]), job(), v(1, 6, 0)).is_err());
}

/// The hook's error follows the Connect, expose-check and Consul hooks' and
/// precedes `jobValidate`'s (v2.0.5 nomad/job_endpoint.go:77-88), as
/// go-multierror lists them.
#[test]
fn job_endpoint_go_v2_0_5_the_node_pool_hook_runs_before_job_validate() {
    let mut job = job_in("default", "gpu");
    job["Priority"] = json!(200);
    let pools = [NodePool {
        name: "cpu".into(),
        ..NodePool::default()
    }];
    let err = admit(job, v(2, 0, 5), Some(&pools)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Nomad would reject the job: 2 errors occurred:\n\t* job \"mock-service\" is in \
         nonexistent node pool \"gpu\"\n\t* job priority must be between [1, 100]"
    );
}
