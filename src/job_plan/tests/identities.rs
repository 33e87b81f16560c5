//! nomad/job_endpoint_hooks_test.go `Test_jobValidate_Validate_vault`,
//! `Test_jobValidate_Validate_consul_service`, job_endpoint_hook_implicit_identities_test.go
//! and job_endpoint_test.go `TestJobEndpoint_Register_ValidateMemoryMax`
//! (v1.7.0 and v2.0.5) and `..._NodePool` (v1.6.0 and v2.0.5): the cases
//! that need no Consul or Vault configuration.

use serde_json::{Map, Value, json};

use super::super::{admit, plan_job};
use super::endpoint::{mock_job, options};
use crate::model::{NodePool, NodePoolSchedulerConfig, Release, SchedulerConfig, Snapshot, v};
use crate::replay::Options;
use crate::version::VersionRequest;

/// `mock.Job()` with its first task's Vault block and identities set.
fn vault_job(vault: Value, identities: Value) -> Map<String, Value> {
    let mut job = mock_job();
    let task = &mut job["TaskGroups"][0]["Tasks"][0];
    task["ShutdownDelay"] = json!(60_000_000_000_i64);
    task["Vault"] = vault;
    task["Identities"] = identities;
    job
}

fn vault_identity(name: &str) -> Value {
    json!([{"Name": name, "Audience": ["vault.io"], "TTL": 3_600_000_000_000_i64}])
}

/// The admission's errors (empty when admitted) and warnings.
fn admission(job: Map<String, Value>, release: Release) -> (String, Vec<String>) {
    let at = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..options()
    };
    match plan_job(&Snapshot::default(), job, &at) {
        Ok((_, plan)) => (String::new(), plan.warnings),
        Err(e) => (e.to_string(), Vec::new()),
    }
}

#[test]
fn job_endpoint_hooks_test_go_v2_0_5_validate_vault() {
    let at = v(2, 0, 5);
    let default = json!({"Cluster": "default"});
    let other = json!({"Cluster": "other"});
    // no error when vault identity is provided via task
    let (err, warns) = admission(
        vault_job(default.clone(), vault_identity("vault_default")),
        at,
    );
    assert_eq!((err.as_str(), warns.len()), ("", 0), "{warns:?}");
    // ... for non-default cluster
    let (err, _) = admission(vault_job(other.clone(), vault_identity("vault_other")), at);
    assert_eq!(err, "");
    // error when no identity is available for non-default cluster
    let (err, _) = admission(vault_job(other, Value::Null), at);
    assert!(
        err.ends_with(
            "* Task web uses Vault cluster other but does not have an identity named vault_other \
             and no default identity is provided in agent configuration"
        ),
        "{err}"
    );
    // warn when vault identity is provided but task does not have vault block
    let (err, warns) = admission(vault_job(Value::Null, vault_identity("vault_default")), at);
    assert_eq!(err, "");
    assert_eq!(
        warns,
        ["Task web has an identity called vault_default but no vault block"]
    );
    // From 1.10.0 the legacy token flow is gone: a default-cluster block
    // without policies or identity is admitted.
    let (err, _) = admission(vault_job(default, Value::Null), at);
    assert_eq!(err, "");
}

#[test]
fn job_endpoint_hooks_test_go_v1_7_0_validate_vault() {
    let at = v(1, 7, 0);
    let with = |policies: Value| json!({"Cluster": "default", "Policies": policies});
    // no error when task uses legacy flow with default cluster
    let (err, warns) = admission(vault_job(with(json!(["nomad-workload"])), Value::Null), at);
    assert_eq!((err.as_str(), warns.len()), ("", 0), "{warns:?}");
    // error when not using vault identity and vault block is missing policies
    let (err, _) = admission(vault_job(with(Value::Null), Value::Null), at);
    assert!(
        err.ends_with("* Task web has a Vault block with an empty list of policies"),
        "{err}"
    );
    // warn when using task vault identity but task has vault policies
    let (err, warns) = admission(
        vault_job(
            with(json!(["nomad-workload"])),
            vault_identity("vault_default"),
        ),
        at,
    );
    assert_eq!(err, "");
    assert_eq!(
        warns,
        [
            "Task web has a Vault block with policies but uses workload identity to authenticate \
          with Vault, policies will be ignored"
        ]
    );
    // Before 1.7.0 there are no identity checks, but `Vault.Validate`
    // itself refuses the empty policy list (#18343 lifted it).
    let (err, _) = admission(vault_job(with(Value::Null), Value::Null), v(1, 6, 0));
    assert!(
        err.ends_with(
            "* Vault validation failed: 1 error occurred:\n\t* Policy list cannot be empty"
        ),
        "{err}"
    );
}

/// The Vault block from `nomad job run -output` (the HCL parser fills the
/// environment, file and change mode, not the signal) is made canonical as
/// the API does, so it equals the stored one.
#[test]
fn api_vault_canonicalize_fills_the_change_signal_and_cluster() {
    let job = vault_job(
        json!({"Policies": ["p"], "Env": true, "DisableFile": false, "ChangeMode": "restart"}),
        Value::Null,
    );
    let admitted = admit(job.clone(), v(1, 7, 0)).unwrap();
    assert_eq!(
        admitted["TaskGroups"][0]["Tasks"][0]["Vault"],
        json!({"Policies": ["p"], "Env": true, "DisableFile": false, "ChangeMode": "restart",
               "ChangeSignal": "SIGHUP", "Namespace": "", "Cluster": "default"})
    );
    let before = admit(job, v(1, 6, 0)).unwrap();
    assert!(
        before["TaskGroups"][0]["Tasks"][0]["Vault"]
            .get("Cluster")
            .is_none()
    );
}

fn service_job(service: Value) -> Map<String, Value> {
    let mut job = mock_job();
    job["TaskGroups"][0]["Services"] = json!([service.clone()]);
    job["TaskGroups"][0]["Tasks"][0]["Services"] = json!([service]);
    job
}

/// `Test_jobImplicitIdentitiesHook_Mutate_consul_service` and
/// `Test_jobValidate_Validate_consul_service`: a Consul service's own
/// identity is named by the server; the group gets the client constraint.
#[test]
fn job_endpoint_hook_implicit_identities_test_go_v2_0_5_consul_service() {
    let nomad_version = json!({"LTarget": "${attr.nomad.version}", "RTarget": ">= 1.7.0-a",
                               "Operand": "semver"});
    // no mutation when no service identity is configured
    let plain = admit(
        service_job(json!({"Name": "web", "Provider": "consul"})),
        v(2, 0, 5),
    )
    .unwrap();
    assert!(plain["TaskGroups"][0]["Services"][0]["Identity"].is_null());
    assert!(
        !plain["TaskGroups"][0]["Constraints"]
            .as_array()
            .unwrap()
            .contains(&nomad_version)
    );
    // mutate identity name and service name when custom identity is provided
    let identity = json!({"Audience": ["consul.io"], "TTL": 3_600_000_000_000_i64});
    let job = service_job(json!({"Name": "web", "PortLabel": "http", "Identity": identity}));
    let admitted = admit(job.clone(), v(2, 0, 5)).unwrap();
    let group = &admitted["TaskGroups"][0];
    assert_eq!(
        group["Services"][0]["Identity"]["Name"],
        json!("consul-service_web-http")
    );
    assert_eq!(
        group["Services"][0]["Identity"]["ServiceName"],
        json!("web")
    );
    assert_eq!(
        group["Tasks"][0]["Services"][0]["Identity"]["Name"],
        json!("consul-service_web-web-http")
    );
    let constraints = group["Constraints"].as_array().unwrap();
    assert_eq!(constraints.last(), Some(&nomad_version));
    // Before 1.7.0 the block is left as it is.
    let before = admit(job, v(1, 6, 0)).unwrap();
    assert!(
        before["TaskGroups"][0]["Services"][0]["Identity"]
            .get("Name")
            .is_none()
    );
}

/// No mutation for a Nomad service; its identity without a name is refused
/// by `validateServiceIdentity`.
#[test]
fn job_endpoint_hooks_test_go_v2_0_5_nomad_service_identity_needs_a_name() {
    let job = service_job(json!({"Name": "web", "Provider": "nomad",
                                 "Identity": {"Audience": ["a"]}}));
    let (err, _) = admission(job, v(2, 0, 5));
    assert!(
        err.ends_with(
            "* Service web in task group web has an identity with an empty name\n\t\
             * Service web in task web has an identity with an empty name"
        ),
        "{err}"
    );
}

/// `TestJobEndpoint_Register_ValidateMemoryMax`: a task's `memory_max` is
/// warned about while the scheduler configuration has oversubscription off
/// (the server's default), and not once it is on.
#[test]
fn job_endpoint_test_go_v2_0_5_register_validate_memory_max() {
    let mut job = mock_job();
    job["TaskGroups"][0]["Tasks"][0]["Resources"]["MemoryMaxMB"] = json!(2000);
    job["TaskGroups"][0]["Tasks"][0]["ShutdownDelay"] = json!(1_000_000_000);
    let warning = "Memory oversubscription is not enabled; Task \"web.web\" memory_max value will \
                   be ignored. Update the Scheduler Configuration to allow oversubscription.";
    for release in [v(1, 3, 0), v(2, 0, 5)] {
        let (err, warns) = admission(job.clone(), release);
        assert_eq!(err, "");
        assert_eq!(warns, [warning], "{release}");
    }
    let enabled = Snapshot {
        scheduler_config: Some(SchedulerConfig {
            memory_oversubscription_enabled: true,
            ..SchedulerConfig::server_default()
        }),
        ..Snapshot::default()
    };
    let (_, plan) = plan_job(&enabled, job, &options()).unwrap();
    assert_eq!(plan.warnings, Vec::<String>::new());
}

/// `TestJobEndpoint_Register_ValidateMemoryMax_NodePool` (nomad/
/// job_endpoint_test.go:2167 at 1.6.0, :2006 at 2.0.5, the same cases):
/// a pool without a configuration of its own leaves the cluster's
/// setting; a pool's own oversubscription, on or off, overrides it.
#[test]
fn job_endpoint_test_go_v1_6_0_v2_0_5_register_validate_memory_max_node_pool() {
    let cases = [
        ("pool-none", true, false),
        ("pool-on", false, false),
        ("pool-off", true, true),
    ];
    for release in [v(1, 6, 0), v(2, 0, 5)] {
        for (pool, cluster, warned) in cases {
            let (err, warns) = plan_in_pool(pool, cluster, release);
            assert_eq!(err, "", "{release} {pool}");
            assert_eq!(
                warns
                    .iter()
                    .any(|w| w.contains("Memory oversubscription is not enabled")),
                warned,
                "{release} {pool}: {warns:?}"
            );
        }
    }
}

/// Before 1.6.0 `memoryOversubscriptionValidate` reads the cluster's
/// setting alone (v1.5.0 nomad/job_endpoint_hooks.go), whatever the pool.
#[test]
fn the_memory_max_warning_reads_the_node_pool_from_1_6_0() {
    for (pool, cluster) in [("pool-on", false), ("pool-off", true)] {
        let (_, before) = plan_in_pool(pool, cluster, v(1, 5, 17));
        let (_, from) = plan_in_pool(pool, cluster, v(1, 6, 0));
        assert_eq!(before.is_empty(), cluster, "{pool}: {before:?}");
        assert_eq!(from.is_empty(), !cluster, "{pool}: {from:?}");
    }
}

/// The warnings of a plan of `mock.Job()` with `memory_max` in node pool
/// `pool`, among the test's three pools, the cluster's oversubscription
/// `cluster`.
fn plan_in_pool(pool: &str, cluster: bool, release: Release) -> (String, Vec<String>) {
    let mut job = mock_job();
    job["NodePool"] = json!(pool);
    job["TaskGroups"][0]["Tasks"][0]["Resources"]["MemoryMaxMB"] = json!(2000);
    job["TaskGroups"][0]["Tasks"][0]["ShutdownDelay"] = json!(1_000_000_000);
    let own = |on: Option<bool>| NodePool {
        name: format!(
            "pool-{}",
            on.map_or("none", |o| if o { "on" } else { "off" })
        ),
        scheduler_configuration: on.map(|o| NodePoolSchedulerConfig {
            memory_oversubscription_enabled: Some(o),
            ..NodePoolSchedulerConfig::default()
        }),
    };
    let snapshot = Snapshot {
        scheduler_config: Some(SchedulerConfig {
            memory_oversubscription_enabled: cluster,
            ..SchedulerConfig::server_default()
        }),
        node_pools: vec![own(None), own(Some(true)), own(Some(false))],
        ..Snapshot::default()
    };
    let at = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..options()
    };
    match plan_job(&snapshot, job, &at) {
        Ok((_, plan)) => (String::new(), plan.warnings),
        Err(e) => (e.to_string(), Vec::new()),
    }
}

/// `Task.Canonicalize` (1.7.0 on): an unnamed identity in the list is the
/// task's default identity, its audience Nomad's; signals are upper case.
#[test]
fn structs_task_canonicalize_moves_the_default_identity() {
    let mut job = mock_job();
    job["TaskGroups"][0]["Tasks"][0]["Identities"] = json!([
        {"Name": "vault_default", "Audience": ["vault.io"], "ChangeMode": "signal",
         "ChangeSignal": "sighup"},
        {"Audience": ["x"], "Env": true}
    ]);
    let admitted = admit(job.clone(), v(1, 7, 0)).unwrap();
    let task = &admitted["TaskGroups"][0]["Tasks"][0];
    assert_eq!(
        task["Identity"],
        json!({"Name": "default", "Audience": ["nomadproject.io"], "Env": true})
    );
    assert_eq!(
        task["Identities"],
        json!([{"Name": "vault_default", "Audience": ["vault.io"], "ChangeMode": "signal",
                "ChangeSignal": "SIGHUP"}])
    );
    let before = admit(job, v(1, 6, 0)).unwrap();
    assert_eq!(
        before["TaskGroups"][0]["Tasks"][0]["Identities"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}
