//! A group's disconnect settings, run-time limit, migrate block and a
//! system or sysbatch group's reschedule policy, as Nomad validates them:
//! nomad/structs/group_test.go (v1.9.7, v2.0.5), `TestTaskGroup_Validate`
//! (v2.0.5) and command/agent/job_endpoint_test.go
//! `TestHTTP_JobValidate_SystemMigrate` (v2.0.5).

use serde_json::{Value, json};

use super::super::admission::validate;
use super::super::admit;
use super::endpoint::mock_job;
use crate::model::{Release, v};

const M: i64 = 60_000_000_000;

/// The mock job with `edit` applied to its group, validated at `r`.
fn group_job(kind: &str, r: Release, edit: impl Fn(&mut serde_json::Map<String, Value>)) -> String {
    let mut job = mock_job();
    job.insert("Type".into(), json!(kind));
    let g = job["TaskGroups"][0].as_object_mut().unwrap();
    if kind == "system" || kind == "sysbatch" {
        g.insert("Count".into(), json!(1));
        g.remove("ReschedulePolicy");
    }
    edit(g);
    validate(&job, r).join("\n")
}

#[test]
fn group_test_go_v2_0_5_job_config_validate_lost_after_disconnect() {
    let r = v(2, 0, 5);
    let all = group_job("service", r, |g| {
        g.insert(
            "Disconnect".into(),
            json!({"LostAfter": -M, "StopOnClientAfter": -M}),
        );
    });
    for want in [
        "lost_after cannot be a negative duration",
        "stop_after cannot be a negative duration",
        "Disconnect cannot be configured with both lost_after and stop_after",
    ] {
        assert!(all.contains(want), "{want} not in {all}");
    }
    let ok = group_job("service", r, |g| {
        g.insert(
            "Disconnect".into(),
            json!({"LostAfter": M, "StopOnClientAfter": null}),
        );
    });
    assert_eq!(ok, "");
    // Before D-4a (1.8.0) the block is not Nomad's.
    let old = group_job("service", v(1, 7, 7), |g| {
        g.insert("Disconnect".into(), json!({"LostAfter": -M}));
    });
    assert_eq!(old, "");
}

#[test]
fn group_test_go_v2_0_5_disconnect_strategy_validate() {
    let r = v(2, 0, 5);
    let cases = [
        (
            "service",
            json!({"StopOnClientAfter": -1_000_000_000}),
            Some("stop_after cannot be a negative duration"),
        ),
        (
            "system",
            json!({"StopOnClientAfter": 1_000_000_000}),
            Some("stop_after can only be used with service or batch job types"),
        ),
        (
            "service",
            json!({"LostAfter": -1_000_000_000}),
            Some("lost_after cannot be a negative duration"),
        ),
        (
            "service",
            json!({"LostAfter": 1_000_000_000, "StopOnClientAfter": 1_000_000_000}),
            Some("Disconnect cannot be configured with both lost_after and stop_after"),
        ),
        (
            "service",
            json!({"LostAfter": 1_000_000_000, "Reconcile": "invalid"}),
            Some("reconcile option is invalid: invalid"),
        ),
        (
            "service",
            json!({"LostAfter": 1_000_000_000, "Reconcile": "keep_original", "Replace": true}),
            None,
        ),
    ];
    for (kind, d, want) in cases {
        let all = group_job(kind, r, |g| {
            g.insert("Disconnect".into(), d.clone());
        });
        match want {
            Some(w) => assert!(all.contains(w), "{d}: {w} not in {all}"),
            None => assert_eq!(all, "", "{d}"),
        }
    }
}

/// `TestJob_Validate_DisconnectRescheduleLost` (v1.9.7, v2.0.5): a system
/// job's disconnect block without a reschedule policy is valid.
#[test]
fn group_test_go_v1_9_7_v2_0_5_job_validate_disconnect_reschedule_lost() {
    for r in [v(1, 9, 7), v(2, 0, 5)] {
        let all = group_job("system", r, |g| {
            g.insert(
                "Disconnect".into(),
                json!({"LostAfter": 60 * M, "Replace": false}),
            );
        });
        assert_eq!(all, "", "{r}");
    }
}

#[test]
fn group_test_go_v1_9_7_stop_after_client_disconnect() {
    let r = v(1, 9, 7);
    let set = |kind: &str, d: i64, r: Release| {
        group_job(kind, r, |g| {
            g.insert("StopAfterClientDisconnect".into(), json!(d));
        })
    };
    assert!(
        set("system", M, r)
            .contains("stop_after_client_disconnect can only be set in batch and service jobs")
    );
    assert!(set("batch", -M, r).contains("stop_after_client_disconnect must be a positive value"));
    assert_eq!(set("batch", M, r), "");
    // F-1 (1.10.0) ignores the legacy field.
    assert_eq!(set("batch", -M, v(1, 10, 0)), "");
}

#[test]
fn group_test_go_v1_9_7_max_client_disconnect() {
    let both = |r: Release| {
        group_job("service", r, |g| {
            g.insert("MaxClientDisconnect".into(), json!(-M));
            g.insert("StopAfterClientDisconnect".into(), json!(-M));
        })
    };
    let all = both(v(1, 9, 7));
    assert!(
        all.contains("max_client_disconnect cannot be negative"),
        "{all}"
    );
    assert!(
        all.contains("Task group cannot be configured with both max_client_disconnect and stop_after_client_disconnect"),
        "{all}"
    );
    assert!(both(v(1, 3, 0)).contains("max_client_disconnect cannot be negative"));
    assert_eq!(both(v(1, 10, 0)), "");
}

/// From D-4a to F-1 a legacy field beside its `disconnect` counterpart
/// ends the group's validation (v1.9.7 nomad/structs/structs.go:7496):
/// the restart policy after it is not checked.
#[test]
fn structs_go_v1_9_7_legacy_beside_disconnect_returns_at_once() {
    let job = |r: Release| {
        group_job("service", r, |g| {
            g.insert("MaxClientDisconnect".into(), json!(M));
            g.insert("Disconnect".into(), json!({"LostAfter": M}));
            g["RestartPolicy"]["Mode"] = json!("bogus");
        })
    };
    let at_1_9 = job(v(1, 9, 7));
    assert!(at_1_9.contains("using both lost_after and max_client_disconnect is not allowed"));
    assert!(!at_1_9.contains("Unsupported restart mode"), "{at_1_9}");
    let at_1_10 = job(v(1, 10, 0));
    assert!(!at_1_10.contains("using both"), "{at_1_10}");
    assert!(at_1_10.contains("Unsupported restart mode"), "{at_1_10}");
}

/// D-3 (1.7.2): `prevent_reschedule_on_lost` with `max_client_disconnect`
/// and reschedule attempts is refused, until F-1.
#[test]
fn structs_go_v1_7_2_prevent_reschedule_on_lost_with_attempts() {
    let job = |r: Release| {
        group_job("service", r, |g| {
            g.insert("MaxClientDisconnect".into(), json!(M));
            g.insert("PreventRescheduleOnLost".into(), json!(true));
        })
    };
    let words = "max_client_disconnect and prevent_reschedule_on_lost cannot be enabled when rechedule.attempts > 0";
    assert!(job(v(1, 7, 2)).contains(words));
    assert!(job(v(1, 9, 7)).contains(words));
    assert_eq!(job(v(1, 7, 1)), "");
    assert_eq!(job(v(1, 10, 0)), "");
}

#[test]
fn structs_test_go_v2_0_5_task_group_validate_max_run_duration() {
    let run = |kind: &str, d: i64, r: Release| {
        group_job(kind, r, |g| {
            g.insert("MaxRunDuration".into(), json!(d));
        })
    };
    let r = v(2, 0, 5);
    assert!(
        run("service", 5 * M, r).contains("Job type \"service\" does not allow max_run_duration")
    );
    assert!(run("batch", 0, r).contains("MaxRunDuration must be greater than zero"));
    assert_eq!(run("batch", 5 * M, r), "");
    assert_eq!(run("sysbatch", 5 * M, r), "");
    // Before #27803 (2.0.3) the field is not Nomad's.
    assert_eq!(run("service", 5 * M, v(2, 0, 2)), "");
}

/// `TestHTTP_JobValidate_SystemMigrate` (v2.0.5): a system job's migrate
/// block is refused, not a panic.
#[test]
fn job_endpoint_test_go_v2_0_5_http_job_validate_system_migrate() {
    let mut job = mock_job();
    job.insert("Type".into(), json!("system"));
    job.insert("Migrate".into(), json!({}));
    let g = job["TaskGroups"][0].as_object_mut().unwrap();
    g.insert("Count".into(), json!(1));
    g.remove("ReschedulePolicy");
    let err = admit(job, v(2, 0, 5), None).unwrap_err().to_string();
    assert!(
        err.contains("Job type \"system\" does not allow migrate block"),
        "{err}"
    );
}

#[test]
fn structs_go_v1_7_7_v1_8_0_migrate_strategy_validate() {
    let migrate = |r: Release| {
        group_job("service", r, |g| {
            g.insert(
                "Migrate".into(),
                json!({"MaxParallel": -1, "HealthCheck": "x", "MinHealthyTime": 2 * M, "HealthyDeadline": M}),
            );
        })
    };
    let errs = [
        "MaxParallel must be >= 0 but found -1",
        "Invalid HealthCheck: \"x\"",
        "MinHealthyTime must be less than HealthyDeadline",
    ];
    let flat = migrate(v(1, 8, 0));
    for e in errs {
        assert!(flat.contains(&format!("\t* {e}\n")), "{e} not in {flat}");
    }
    // Before #19886 the block's list is one bullet of the group's.
    let nested = migrate(v(1, 7, 7));
    assert!(
        nested.contains("\t* 3 errors occurred:\n\t* MaxParallel"),
        "{nested}"
    );
    let batch = group_job("batch", v(2, 0, 5), |g| {
        g.insert("Migrate".into(), json!({"MaxParallel": 1}));
    });
    assert!(
        batch.contains("Job type \"batch\" does not allow migrate block"),
        "{batch}"
    );
    let missing = group_job("service", v(2, 0, 5), |g| {
        g.insert(
            "Migrate".into(),
            json!({"MaxParallel": 1, "HealthCheck": "", "HealthyDeadline": M}),
        );
    });
    assert!(missing.contains("Missing HealthCheck"), "{missing}");
}

/// #26279 (1.11.0): a sysbatch group gets no default reschedule policy,
/// and one it sets is refused; a system group's always was.
#[test]
fn structs_test_go_v2_0_5_task_group_validate_system_reschedule() {
    let sysbatch = |r: Release, reschedule: Option<Value>| {
        let mut job = mock_job();
        job.insert("Type".into(), json!("sysbatch"));
        let g = job["TaskGroups"][0].as_object_mut().unwrap();
        g.insert("Count".into(), json!(1));
        g.remove("ReschedulePolicy");
        for t in g["Tasks"].as_array_mut().unwrap() {
            t.as_object_mut().unwrap().remove("Services");
        }
        if let Some(rp) = reschedule {
            g.insert("ReschedulePolicy".into(), rp);
        }
        admit(job, r, None)
    };
    let policy = |r: Release| {
        sysbatch(r, None).expect("admitted")["TaskGroups"][0]
            .get("ReschedulePolicy")
            .cloned()
    };
    assert_eq!(
        policy(v(1, 10, 5)).map(|p| p["Attempts"].clone()),
        Some(json!(0))
    );
    assert_eq!(policy(v(1, 11, 0)), None);
    let block = json!({"Attempts": 0, "Unlimited": false});
    assert!(sysbatch(v(1, 10, 5), Some(block.clone())).is_ok());
    let err = sysbatch(v(1, 11, 0), Some(block.clone()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("System or sysbatch jobs should not have a reschedule policy"),
        "{err}"
    );
    let system = |r: Release| {
        group_job("system", r, |g| {
            g.insert("ReschedulePolicy".into(), block.clone());
        })
    };
    assert!(system(v(1, 10, 5)).contains("System jobs should not have a reschedule policy"));
    assert!(
        system(v(2, 0, 5)).contains("System or sysbatch jobs should not have a reschedule policy")
    );
}
