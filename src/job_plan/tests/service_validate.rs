//! nomad/structs/services_test.go `TestService_Validate` (v1.10.5), the
//! Connect cases, and their nesting in `structs.Job.Validate` through
//! `admit`.

use serde_json::{Value, json};

use super::super::admit;
use super::super::group_service_validate::group_service_error;
use super::endpoint::mock_job;
use super::rules_of;
use crate::model::{Release, v};

fn group_error(service: Value, release: Release) -> Option<String> {
    let g = json!({"Name": "web", "Services": [service]});
    group_service_error(g.as_object().unwrap(), rules_of(release))
}

#[test]
fn services_test_go_v1_10_5_service_validate_connect() {
    let r = v(1, 10, 5);
    let native = |task: &str, port: &str| {
        json!({"Name": "testservice", "Provider": "consul", "TaskName": task, "PortLabel": port,
               "Connect": {"Native": true}})
    };
    assert_eq!(group_error(native("testtask", "8080"), r), None);
    assert_eq!(
        group_error(native("testtask", ""), r).as_deref(),
        Some(
            "Task group service validation failed: 1 error occurred:\n\t* Service[0] testservice \
             validation failed: 1 error occurred:\n\t* Service testservice is Connect Native and \
             requires setting the port\n\n\n\n"
        )
    );
    let both = json!({"Name": "testservice", "Provider": "consul", "TaskName": "testtask",
                      "Connect": {"Native": true, "SidecarService": {}}});
    let err = group_error(both, r).unwrap();
    assert!(
        err.contains("Consul Connect must be exclusively native"),
        "{err}"
    );
    let nomad = json!({"Name": "testservice", "Provider": "nomad", "Connect": {"Native": true}});
    assert!(
        group_error(nomad, r)
            .unwrap()
            .contains("Service with provider nomad cannot include Connect blocks")
    );
    assert_eq!(
        group_error(json!({"Name": "testservice", "Provider": "nomad"}), r),
        None
    );
    let tcp = json!({"Name": "api", "Provider": "consul", "PortLabel": "http", "Connect": {"SidecarService": {}},
                     "Checks": [{"Name": "alive", "Type": "tcp"}]});
    assert!(
        group_error(tcp, r)
            .unwrap()
            .contains("Check alive invalid: tcp checks are not valid for Connect enabled services")
    );
}

/// #24329: the native port is required from 1.9.2.
#[test]
fn services_test_go_v1_9_2_native_connect_without_port() {
    let native = json!({"Name": "s", "Provider": "consul", "TaskName": "t",
                        "Connect": {"Native": true}});
    assert!(group_error(native.clone(), v(1, 9, 2)).is_some());
    assert_eq!(group_error(native, v(1, 9, 1)), None);
}

/// Nested as `structs.Job.Validate` nests them: the group's, and a task
/// service's Connect block inside its task's errors.
#[test]
fn structs_go_v1_10_5_connect_service_errors_nest_in_the_group() {
    let mut job = mock_job();
    job["TaskGroups"][0]["Tasks"][0]["Services"][1]["Connect"] = json!({"SidecarService": {}});
    let err = admit(job, v(1, 10, 5), None).unwrap_err().to_string();
    assert_eq!(
        err,
        "Nomad would reject the job: 1 error occurred:\n\t* Task group web validation failed: 1 \
         error occurred:\n\t* Task web validation failed: 1 error occurred:\n\t* 1 error \
         occurred:\n\t* service \"web-admin\" cannot have \"connect\" block, only services \
         defined in a \"group\" block can"
    );
}
