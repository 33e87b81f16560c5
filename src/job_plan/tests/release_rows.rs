//! The catalogue rows of the API's and the server's job defaults, warnings
//! and implied constraints, each checked at the last tag without it and
//! the first with it (src/version/switch.rs names the lines at both).

use serde_json::{Map, Value, json};

use super::super::admission::{implied_constraints, validate};
use super::super::canonical::api_canonicalize;
use super::super::check_hash::check_hash;
use super::super::{admit, job_warnings};
use super::endpoint::mock_job;
use crate::model::{Release, v};

fn map(job: Value) -> Map<String, Value> {
    serde_json::from_value(job).unwrap()
}

/// The job `api.Job.Canonicalize` of `release` makes of `job`.
fn api(job: Value, release: Release) -> Value {
    let mut job = map(job);
    api_canonicalize(&mut job, release);
    Value::Object(job)
}

/// The first task of the first group, canonical at `release`.
fn api_task(task: Value, release: Release) -> Value {
    let job = json!({"ID": "j", "TaskGroups": [{"Name": "g", "Tasks": [task]}]});
    api(job, release)["TaskGroups"][0]["Tasks"][0].clone()
}

/// `mock.Job()` with its first group changed by `edit`.
fn mock_with(edit: impl FnOnce(&mut Map<String, Value>)) -> Map<String, Value> {
    let mut job = mock_job();
    edit(job["TaskGroups"][0].as_object_mut().unwrap());
    job
}

/// Nomad's reasons to refuse `job` at `release`, or none.
fn refusal(job: Map<String, Value>, release: Release) -> String {
    admit(job, release, None)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default()
}

/// The constraints the register endpoint gives the first group (and, as
/// the second item, its first task) at `release`.
fn implied(job: Value, release: Release) -> (Value, Value) {
    let mut job = map(job);
    implied_constraints(&mut job, release);
    let g = &job["TaskGroups"][0];
    let of = |v: &Value| v.get("Constraints").cloned().unwrap_or(json!([]));
    (of(g), of(&g["Tasks"][0]))
}

fn c(l: &str, r: &str, op: &str) -> Value {
    json!({"LTarget": l, "RTarget": r, "Operand": op})
}

#[test]
fn a_job_gets_a_node_pool_from_1_6_0() {
    let before = api(json!({"ID": "j"}), v(1, 5, 17));
    assert!(before.get("NodePool").is_none());
    assert_eq!(api(json!({"ID": "j"}), v(1, 6, 0))["NodePool"], json!(""));
    let stored = |release| {
        let mut job = mock_job();
        job.remove("NodePool");
        admit(job, release, None).unwrap().get("NodePool").cloned()
    };
    assert_eq!(stored(v(1, 5, 17)), None);
    assert_eq!(stored(v(1, 6, 0)), Some(json!("default")));
}

#[test]
fn a_priority_of_zero_is_the_default_from_1_5_0() {
    let zero = || {
        let mut job = mock_job();
        job.insert("Priority".into(), json!(0));
        job
    };
    assert!(
        refusal(zero(), v(1, 4, 14)).contains("* Job priority must be between [1, 100]"),
        "{}",
        refusal(zero(), v(1, 4, 14))
    );
    assert_eq!(
        admit(zero(), v(1, 5, 0), None).unwrap()["Priority"],
        json!(50)
    );
    let high = || {
        let mut job = mock_job();
        job.insert("Priority".into(), json!(101));
        job
    };
    assert!(refusal(high(), v(1, 5, 0)).contains("* job priority must be between [1, 100]"));
}

#[test]
fn a_job_without_datacenters_gets_every_one_from_1_5_0() {
    let none = || {
        let mut job = mock_job();
        job.remove("Datacenters");
        job
    };
    assert!(refusal(none(), v(1, 4, 14)).contains("Missing job datacenters"));
    assert_eq!(
        admit(none(), v(1, 5, 0), None).unwrap()["Datacenters"],
        json!(["*"])
    );
}

#[test]
fn the_api_fills_the_consul_and_vault_tokens_until_1_10_0() {
    let before = api(json!({"ID": "j"}), v(1, 9, 7));
    assert_eq!(
        (&before["ConsulToken"], &before["VaultToken"]),
        (&json!(""), &json!(""))
    );
    let after = api(json!({"ID": "j"}), v(1, 10, 0));
    assert!(after.get("ConsulToken").is_none() && after.get("VaultToken").is_none());
}

#[test]
fn a_periodic_block_has_crons_and_warns_about_cron_from_1_6_2() {
    let job = json!({"ID": "j", "Periodic": {"Spec": "@daily"}});
    assert!(
        api(job.clone(), v(1, 6, 1))["Periodic"]
            .get("Specs")
            .is_none()
    );
    for release in [v(1, 6, 2), v(1, 7, 0)] {
        assert_eq!(api(job.clone(), release)["Periodic"]["Specs"], json!([]));
    }
    let warned = |release| {
        job_warnings(&map(api(job.clone(), release)), release)
            .iter()
            .any(|w| w.starts_with("cron is deprecated"))
    };
    assert!(!warned(v(1, 6, 1)));
    assert!(warned(v(1, 6, 2)));
    assert!(!warned(v(1, 5, 17)));
}

#[test]
fn a_restart_policy_renders_templates_from_1_6_2() {
    let restart = |release| api_task(json!({"Name": "t"}), release)["RestartPolicy"].clone();
    assert!(restart(v(1, 6, 1)).get("RenderTemplates").is_none());
    assert_eq!(restart(v(1, 6, 2))["RenderTemplates"], json!(false));
}

#[test]
fn a_template_gets_error_on_missing_key_from_1_4_3_and_once_from_1_10_2() {
    let template = |release| {
        api_task(json!({"Name": "t", "Templates": [{}]}), release)["Templates"][0].clone()
    };
    assert!(template(v(1, 4, 2)).get("ErrMissingKey").is_none());
    assert_eq!(template(v(1, 4, 3))["ErrMissingKey"], json!(false));
    assert!(template(v(1, 10, 1)).get("Once").is_none());
    assert_eq!(template(v(1, 10, 2))["Once"], json!(false));
}

#[test]
fn a_vault_block_gets_disable_file_from_1_6_0_and_a_cluster_from_1_7_0() {
    let vault = |release| {
        api_task(json!({"Name": "t", "Vault": {"Policies": ["p"]}}), release)["Vault"].clone()
    };
    assert!(vault(v(1, 5, 17)).get("DisableFile").is_none());
    assert_eq!(vault(v(1, 6, 0))["DisableFile"], json!(false));
    assert!(vault(v(1, 6, 10)).get("Cluster").is_none());
    assert_eq!(vault(v(1, 7, 0))["Cluster"], json!("default"));
}

#[test]
fn a_log_config_gets_disabled_from_1_5_5() {
    let logs = |release| api_task(json!({"Name": "t"}), release)["LogConfig"].clone();
    assert!(logs(v(1, 5, 4)).get("Disabled").is_none());
    assert_eq!(logs(v(1, 5, 5))["Disabled"], json!(false));
}

#[test]
fn a_group_consul_block_and_a_service_get_the_default_cluster_from_1_7_0() {
    let job = json!({"ID": "j", "TaskGroups": [{"Name": "g", "Consul": {},
        "Services": [{"Name": "s"}], "Tasks": [{"Name": "t"}]}]});
    let group = |release| api(job.clone(), release)["TaskGroups"][0].clone();
    let before = group(v(1, 6, 10));
    assert!(before["Consul"].get("Cluster").is_none());
    assert!(before["Services"][0].get("Cluster").is_none());
    let after = group(v(1, 7, 0));
    assert_eq!(after["Consul"]["Cluster"], json!("default"));
    assert_eq!(after["Services"][0]["Cluster"], json!("default"));
}

#[test]
fn a_task_s_default_identity_moves_out_of_its_list_from_1_7_0() {
    let task = json!({"Name": "t", "Identities": [{"Env": true}]});
    let before = api_task(task.clone(), v(1, 6, 10));
    assert_eq!(before["Identities"], json!([{"Env": true}]));
    let after = api_task(task, v(1, 7, 0));
    assert_eq!(after["Identities"], json!([]));
    assert_eq!(after["Identity"]["Name"], json!("default"));
}

#[test]
fn the_consul_hook_refuses_another_cluster_from_1_7_0() {
    let job = || {
        mock_with(|g| {
            g.insert("Consul".into(), json!({"Cluster": "other"}));
        })
    };
    assert!(!refusal(job(), v(1, 6, 10)).contains("Consul cluster"));
    assert!(
        refusal(job(), v(1, 7, 0)).contains("non-default Consul cluster requires Nomad Enterprise")
    );
}

#[test]
fn task_identities_constrain_the_group_to_1_7_clients_from_1_7_0() {
    let constraints = |release| {
        let job = mock_with(|g| {
            g["Tasks"][0]["Identities"] =
                json!([{"Name": "extra", "Audience": ["a"], "TTL": 3_600_000_000_000_i64}]);
        });
        admit(job, release, None).unwrap()["TaskGroups"][0]["Constraints"].clone()
    };
    let nomad_17 = c("${attr.nomad.version}", ">= 1.7.0-a", "semver");
    let has = |cs: &Value| cs.as_array().unwrap().contains(&nomad_17);
    assert!(!has(&constraints(v(1, 6, 10))));
    assert!(has(&constraints(v(1, 7, 0))));
}

#[test]
fn implied_vault_and_consul_constraints_name_the_cluster_from_1_7_0() {
    let job = json!({"TaskGroups": [{"Name": "g",
        "Services": [{"Name": "s", "Provider": "consul", "Cluster": "east"}],
        "Tasks": [{"Name": "t", "Vault": {"Cluster": "west"}}]}]});
    let (before, _) = implied(job.clone(), v(1, 6, 10));
    assert_eq!(
        before,
        json!([
            c("${attr.vault.version}", ">= 0.6.1", "semver"),
            c("${attr.consul.version}", ">= 1.8.0", "semver")
        ])
    );
    let (after, _) = implied(job, v(1, 7, 0));
    assert_eq!(
        after,
        json!([
            c("${attr.vault.west.version}", ">= 1.11.0", "semver"),
            c("${attr.consul.east.version}", ">= 1.8.0", "semver")
        ])
    );
}

/// Before #22229 a task service was constrained only inside the loop over
/// the group's services, so a group without services of its own got no
/// Consul constraint at all.
#[test]
fn a_task_service_s_consul_constraint_goes_on_its_task_from_1_8_0() {
    let job = json!({"TaskGroups": [{"Name": "g",
        "Tasks": [{"Name": "t", "Services": [{"Name": "s", "Provider": "consul"}]}]}]});
    assert_eq!(implied(job.clone(), v(1, 7, 7)), (json!([]), json!([])));
    assert_eq!(
        implied(job, v(1, 8, 0)),
        (
            json!([]),
            json!([c("${attr.consul.version}", ">= 1.8.0", "semver")])
        )
    );
}

#[test]
fn nomad_service_checks_constrain_the_group_to_1_4_clients_from_1_4_2() {
    let job = json!({"TaskGroups": [{"Name": "g", "Services": [{"Name": "s",
        "Provider": "nomad", "Checks": [{"Type": "http"}]}]}]});
    let nomad_14 = c("${attr.nomad.version}", ">= 1.4.0", "semver");
    let has = |release| {
        implied(job.clone(), release)
            .0
            .as_array()
            .unwrap()
            .contains(&nomad_14)
    };
    assert!(!has(v(1, 4, 1)));
    assert!(has(v(1, 4, 2)));
    assert!(has(v(1, 5, 0)));
}

#[test]
fn a_bridge_network_needs_its_cni_plugins_from_1_8_0() {
    let job = json!({"TaskGroups": [{"Name": "g", "Networks": [{"Mode": "bridge"}]}]});
    assert_eq!(implied(job.clone(), v(1, 7, 7)).0, json!([]));
    let after = implied(job, v(1, 8, 0)).0;
    assert_eq!(after.as_array().unwrap().len(), 5, "{after}");
    assert_eq!(
        after[0],
        c("${attr.plugins.cni.version.bridge}", ">= 0.4.0", "semver")
    );
}

#[test]
fn a_task_schedule_is_constrained_and_refused_from_1_8_0() {
    let job = json!({"TaskGroups": [{"Name": "g",
        "Tasks": [{"Name": "t", "Schedule": {"Cron": null}}]}]});
    assert_eq!(implied(job.clone(), v(1, 7, 7)).0, json!([]));
    assert_eq!(
        implied(job, v(1, 8, 0)).0,
        json!([c("${attr.nomad.version}", ">= 1.8.0-dev", "semver")])
    );
    let scheduled = || {
        mock_with(|g| {
            g["Tasks"][0]["Schedule"] = json!({"Cron": null});
        })
    };
    assert!(!refusal(scheduled(), v(1, 7, 7)).contains("task schedules"));
    assert!(refusal(scheduled(), v(1, 8, 0)).contains("task schedules requires Nomad Enterprise"));
}

#[test]
fn a_job_counting_more_than_job_max_count_is_refused_from_1_11_0() {
    let huge = || mock_with(|g| g["Count"] = json!(50_001));
    let words = "total count was greater than configured job_max_count: 50001 > 50000";
    assert!(!refusal(huge(), v(1, 10, 5)).contains("job_max_count"));
    assert!(refusal(huge(), v(1, 11, 0)).contains(words));
}

#[test]
fn a_service_identity_is_warned_about_from_1_7_0() {
    let job = map(json!({"TaskGroups": [{"Name": "g", "Tasks": [{"Name": "t",
        "Services": [{"Name": "s", "Identity": {"Name": "i"}}]}]}]}));
    assert!(job_warnings(&job, v(1, 6, 10)).is_empty());
    let after = job_warnings(&job, v(1, 7, 0));
    assert_eq!(after.len(), 1);
    assert!(
        after[0].contains("Service \"s\": identities without an audience are insecure"),
        "{after:?}"
    );
}

/// Before #18466 each template's warnings are one nested list of the
/// task's; from then on they join the task's list.
#[test]
fn template_warnings_join_the_task_s_list_from_1_7_0() {
    let job = map(json!({"TaskGroups": [{"Name": "g", "Tasks": [{"Name": "t",
        "Templates": [{"VaultGrace": 1}]}]}]}));
    let nested = "Task \"t\" has warnings: 1 error occurred:\n\t* 1 error occurred:";
    assert!(job_warnings(&job, v(1, 6, 10))[0].contains(nested));
    assert!(!job_warnings(&job, v(1, 7, 0))[0].contains(nested));
}

#[test]
fn template_and_iops_warnings_say_block_from_1_3_10_and_1_4_5() {
    let job = map(json!({"TaskGroups": [{"Name": "g", "Tasks": [{"Name": "t",
        "Resources": {"IOPS": 1}, "Templates": [{"VaultGrace": 1}]}]}]}));
    let says = |release: Release, word: &str| {
        let w = job_warnings(&job, release).concat();
        w.contains(&format!("from template {word}.")) && w.contains(&format!("resource {word}."))
    };
    for (release, word) in [
        (v(1, 3, 9), "stanza"),
        (v(1, 3, 10), "block"),
        (v(1, 4, 4), "stanza"),
        (v(1, 4, 5), "block"),
    ] {
        assert!(says(release, word), "{release} {word}");
    }
}

#[test]
fn services_without_a_shutdown_delay_are_warned_about_from_2_0_1() {
    let job = map(json!({"TaskGroups": [{"Name": "g", "Tasks": [{"Name": "t",
        "Services": [{"Name": "s"}]}]}]}));
    let words = "task \"t\" in group \"g\" defines services, but has no shutdown_delay set";
    assert!(!job_warnings(&job, v(2, 0, 0)).iter().any(|w| w == words));
    assert!(job_warnings(&job, v(2, 0, 1)).iter().any(|w| w == words));
}

#[test]
fn the_legacy_disconnect_fields_are_warned_about_from_1_8_0_and_ignored_from_1_10_0() {
    let job = map(json!({"TaskGroups": [{"Name": "g", "PreventRescheduleOnLost": true}]}));
    let w = |release| job_warnings(&job, release).concat();
    assert!(!w(v(1, 7, 7)).contains("PreventRescheduleOnLost"));
    assert!(w(v(1, 8, 0)).contains("PreventRescheduleOnLost will be deprecated"));
    assert!(w(v(1, 9, 7)).contains("PreventRescheduleOnLost will be deprecated"));
    assert!(w(v(1, 10, 0)).contains("PreventRescheduleOnLost is deprecated and ignored"));
}

#[test]
fn a_check_s_hash_reads_its_notes_from_1_8_1() {
    let check = map(json!({"Name": "c", "Type": "http", "Notes": "n"}));
    let without = map(json!({"Name": "c", "Type": "http"}));
    let hash = |c: &Map<String, Value>, release| check_hash(c, "s_0", release);
    assert_eq!(hash(&check, v(1, 8, 0)), hash(&without, v(1, 8, 0)));
    assert_ne!(hash(&check, v(1, 8, 1)), hash(&without, v(1, 8, 1)));
}

#[test]
fn a_check_s_hash_reads_its_tls_server_name_from_1_6_0_and_failures_before_warning_from_1_7_3() {
    let base = map(json!({"Name": "c", "Type": "http"}));
    let tls = map(json!({"Name": "c", "Type": "http", "TLSServerName": "x"}));
    let warn = map(json!({"Name": "c", "Type": "http", "FailuresBeforeWarning": 2}));
    let same = |a, b, release| check_hash(a, "s_0", release) == check_hash(b, "s_0", release);
    assert!(same(&base, &tls, v(1, 5, 17)));
    assert!(!same(&base, &tls, v(1, 6, 0)));
    assert!(same(&base, &warn, v(1, 7, 2)));
    assert!(!same(&base, &warn, v(1, 7, 3)));
}

/// The Consul check notes of #22397 reached 1.8.1 with its backport
/// (#23281), validation included.
#[test]
fn a_consul_check_s_long_notes_are_refused_from_1_8_1() {
    let long = || {
        mock_with(|g| {
            g["Tasks"][0]["Services"][0]["Checks"][0]["Notes"] = json!("n".repeat(256));
        })
    };
    let words = "notes must not be longer than 255 characters";
    assert!(!refusal(long(), v(1, 8, 0)).contains(words));
    assert!(refusal(long(), v(1, 8, 1)).contains(words));
}

/// The NUMA constraint and refusal share #18818's row.
#[test]
fn a_numa_affinity_is_constrained_and_refused_from_1_7_0() {
    let job = json!({"TaskGroups": [{"Name": "g", "Tasks": [{"Name": "t",
        "Resources": {"NUMA": {"Affinity": "require"}}}]}]});
    assert_eq!(implied(job.clone(), v(1, 6, 10)).0, json!([]));
    assert_eq!(
        implied(job.clone(), v(1, 7, 0)).0,
        json!([
            c("${attr.nomad.version}", ">= 1.6.3-dev", "semver"),
            c("${attr.kernel.name}", "linux", "=")
        ])
    );
    let refused = |release| {
        validate(&map(job.clone()), release)
            .iter()
            .any(|e| e == "numa scheduling requires Nomad Enterprise")
    };
    assert!(!refused(v(1, 6, 10)));
    assert!(refused(v(1, 7, 0)));
}

/// A service's weights change, as the job plan's services diff shows it
/// (`None` when the diff leaves them out).
fn weights_diff(release: Release) -> Vec<String> {
    let service = |passing: i64| {
        json!([{"@": "Service", "Name": "s",
                "Weights": {"@": "ServiceWeights", "Passing": passing, "Warning": 1}}])
    };
    super::services_rows(service(1), service(5), false, release)
}

/// #24186 came to 1.9.2 with its backport (#24296); before, the API's
/// service has no weights, so a job file's are dropped before the diff.
#[test]
fn a_service_s_weights_are_diffed_from_1_9_2() {
    assert_eq!(weights_diff(v(1, 9, 1)), Vec::<String>::new());
    let weights = [
        "Edited Service {",
        "  Edited Weights {",
        "    Edited Passing: \"1\" => \"5\"",
        "  }",
        "}",
    ];
    assert_eq!(weights_diff(v(1, 9, 2)), weights);
    assert_eq!(weights_diff(v(1, 10, 0)), weights);
}

#[test]
fn a_service_s_identity_is_diffed_from_1_7_0() {
    let service = |identity: Value| json!([{"@": "Service", "Name": "s", "Identity": identity}]);
    let added = json!({"@": "WorkloadIdentity", "Name": "i", "Audience": ["a"]});
    let diff = |release| {
        super::services_rows(service(Value::Null), service(added.clone()), false, release)
    };
    assert_eq!(diff(v(1, 6, 10)), Vec::<String>::new());
    let after = diff(v(1, 7, 0));
    assert_eq!(after[0], "Edited Service {");
    assert_eq!(after[1], "  Added Identity {", "{after:#?}");
}

/// A field the release's service lacks is no change either: a job file
/// from a newer client that sets it plans no service edit.
#[test]
fn a_service_s_cluster_is_diffed_from_1_7_0_and_its_kind_from_1_10_3() {
    let service = |cluster: &str, kind: &str| json!([{"@": "Service", "Name": "s", "Cluster": cluster, "Kind": kind}]);
    let diff = |old, new, release| super::services_rows(old, new, false, release);
    let cluster = |release| diff(service("", ""), service("east", ""), release);
    assert_eq!(cluster(v(1, 6, 10)), Vec::<String>::new());
    assert_eq!(
        cluster(v(1, 7, 0)),
        ["Edited Service {", "  Added Cluster: \"\" => \"east\"", "}"]
    );
    let kind = |release| diff(service("", ""), service("", "api-gateway"), release);
    assert_eq!(kind(v(1, 10, 2)), Vec::<String>::new());
    assert_eq!(
        kind(v(1, 10, 3)),
        [
            "Edited Service {",
            "  Added Kind: \"\" => \"api-gateway\"",
            "}"
        ]
    );
}
