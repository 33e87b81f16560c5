//! nomad/structs/structs_test.go `TestTaskGroup_Validate` (its service
//! cases, v1.3.0 and v2.0.5), `TestTaskGroup_validateScriptChecksInGroupServices`,
//! and the group-wide service rules at the tags they change: #13869 (unique
//! services), #14033 (task names), #14864 (group checks of any type).

use serde_json::{Map, Value, json};

use super::super::admit;
use super::super::group_service_validate::{group_service_error, script_check_error};
use super::endpoint::mock_job;
use super::rules_of;
use crate::model::{Release, v};

fn group(services: Value, tasks: Value) -> Map<String, Value> {
    json!({"Name": "group-a", "Services": services, "Tasks": tasks})
        .as_object()
        .unwrap()
        .clone()
}

fn services_error(g: &Map<String, Value>, r: Release) -> Option<String> {
    group_service_error(g, rules_of(r))
}

/// One error inside `Task group service validation failed`.
fn one(e: &str) -> Option<String> {
    Some(format!(
        "Task group service validation failed: 1 error occurred:\n\t* {e}\n\n"
    ))
}

fn admit_error(job: Map<String, Value>, r: Release) -> Option<String> {
    admit(job, r, None).err().map(|e| e.to_string())
}

#[test]
fn structs_test_go_v1_3_0_task_group_validate_services() {
    let r = v(1, 3, 0);
    let check = json!({"Name": "check-a", "Type": "tcp", "TaskName": "task-b", "PortLabel": "http",
                       "Interval": 1_000_000_000, "Timeout": 1_000_000_000});
    let g = group(
        json!([{"Name": "service-a", "Provider": "consul", "Checks": [check]}]),
        json!([{"Name": "task-a"}]),
    );
    assert_eq!(
        services_error(&g, r).as_deref(),
        Some(
            "Task group service validation failed: 2 errors occurred:\n\t* Check check-a invalid: \
             only script and gRPC checks should have tasks\n\t* Check check-a invalid: refers to \
             non-existent task task-b\n\n"
        )
    );
    let mixed = group(
        json!([{"Name": "service-a", "Provider": "nomad"},
               {"Name": "service-b", "Provider": "consul"}]),
        json!([{"Name": "task-a"}]),
    );
    let providers =
        one("Multiple service providers used: task group services must use the same provider");
    assert_eq!(services_error(&mixed, r), providers);
    let across = group(
        json!([{"Name": "service-a", "Provider": "nomad"}]),
        json!([{"Name": "task-a", "Services": [{"Name": "service-b", "Provider": "consul"}]}]),
    );
    assert_eq!(services_error(&across, r), providers);
    let same = group(
        json!([{"Name": "service-a", "Provider": "nomad"}]),
        json!([{"Name": "task-a", "Services": [{"Name": "service-b", "Provider": "nomad"}]}]),
    );
    assert_eq!(services_error(&same, r), None);
}

#[test]
fn structs_test_go_v2_0_5_task_group_validate_services() {
    let r = v(2, 0, 5);
    let check = json!({"Name": "check-a", "Type": "tcp", "TaskName": "task-b", "PortLabel": "http",
                       "Interval": 1_000_000_000, "Timeout": 1_000_000_000});
    let g = group(
        json!([{"Name": "service-a", "Provider": "consul", "Checks": [check]}]),
        json!([{"Name": "task-a"}]),
    );
    assert_eq!(
        services_error(&g, r),
        one("Check check-a invalid: refers to non-existent task task-b")
    );
    let across = group(
        json!([{"Name": "service-a", "Provider": "nomad"}]),
        json!([{"Name": "task-a", "Services": [{"Name": "service-b", "Provider": "consul"}]}]),
    );
    assert_eq!(
        services_error(&across, r),
        one("Multiple service providers used: task group services must use the same provider")
    );
}

/// #14864: before 1.4.2 a group check naming a task must be `script` or
/// `grpc`; from 1.4.0 (#14033) a group service's `task` is copied into its
/// checks, so an HTTP check of a service with a task is refused at 1.4.0
/// and 1.4.1 only.
#[test]
fn structs_go_v1_3_16_v1_4_1_v1_4_2_group_check_of_a_service_with_a_task() {
    let mut job = mock_job();
    job["TaskGroups"][0]["Services"] = json!([{"Name": "api", "TaskName": "web",
        "PortLabel": "http", "Checks": [{"Name": "alive", "Type": "http", "Path": "/",
        "Interval": 10_000_000_000_i64, "Timeout": 2_000_000_000}]}]);
    assert_eq!(admit_error(job.clone(), v(1, 3, 16)), None);
    assert_eq!(
        admit_error(job.clone(), v(1, 4, 1)).as_deref(),
        Some(
            "Nomad would reject the job: 1 error occurred:\n\t* Task group web validation \
             failed: 1 error occurred:\n\t* Task group service validation failed: 1 error \
             occurred:\n\t* Check alive invalid: only script and gRPC checks should have tasks"
        )
    );
    assert_eq!(admit_error(job, v(1, 4, 2)), None);
}

/// #14033: a task-level check may name no task before 1.4.0, even its own;
/// from 1.4.0 the server names it, and another task is refused, for the
/// service and for the checks, which take the service's task.
#[test]
fn structs_go_v1_3_0_v2_0_5_task_level_services_name_their_task() {
    let named = |service: Option<&str>, check: Option<&str>| {
        let mut job = mock_job();
        let s = &mut job["TaskGroups"][0]["Tasks"][0]["Services"][0];
        if let Some(t) = service {
            s["TaskName"] = json!(t);
        }
        if let Some(t) = check {
            s["Checks"][0]["TaskName"] = json!(t);
        }
        job
    };
    let prefix = "Nomad would reject the job: 1 error occurred:\n\t* Task group web validation \
                  failed: 1 error occurred:\n\t* Task group service validation failed: ";
    assert_eq!(admit_error(named(None, None), v(1, 3, 0)), None);
    assert_eq!(
        admit_error(named(None, Some("web")), v(1, 3, 0)),
        Some(format!(
            "{prefix}1 error occurred:\n\t* Check check-table is invalid: only task group \
             service checks can be assigned tasks"
        ))
    );
    assert_eq!(admit_error(named(None, Some("web")), v(2, 0, 5)), None);
    assert_eq!(
        admit_error(named(Some("other"), None), v(2, 0, 5)),
        Some(format!(
            "{prefix}2 errors occurred:\n\t* Service web-frontend is invalid: may only specify \
             task the service belongs to, got \"other\"\n\t* Check check-table is invalid: may \
             only specify task the check belongs to, got \"other\""
        ))
    );
}

/// #14033: the task name the server sets, from 1.4.0, except on a task
/// literally named `group`.
#[test]
fn services_go_v1_3_16_v1_4_0_task_names_are_plumbed() {
    let service = |r: Release, task: &str| {
        let mut job = mock_job();
        job["TaskGroups"][0]["Tasks"][0]["Name"] = json!(task);
        let admitted = admit(job, r, None).unwrap();
        let s = admitted["TaskGroups"][0]["Tasks"][0]["Services"][0].clone();
        (s["TaskName"].clone(), s["Checks"][0]["TaskName"].clone())
    };
    assert_eq!(service(v(1, 3, 16), "web"), (Value::Null, Value::Null));
    assert_eq!(service(v(1, 4, 0), "web"), (json!("web"), json!("web")));
    assert_eq!(service(v(2, 0, 5), "group"), (Value::Null, Value::Null));
}

/// #13869: from 1.3.3 and 1.4.0 services of a group must differ by task,
/// name or port; each duplicate is listed once, sorted.
#[test]
fn structs_go_v1_3_2_v1_3_3_v2_0_5_services_are_not_unique() {
    let g = group(
        json!([{"Name": "db", "Provider": "consul"}, {"Name": "api", "Provider": "consul", "PortLabel": "http"},
               {"Name": "db", "Provider": "consul"}, {"Name": "api", "Provider": "consul", "PortLabel": "http"},
               {"Name": "api", "Provider": "consul", "PortLabel": "http"},
               {"Name": "web", "Provider": "consul", "PortLabel": "http"}]),
        json!([{"Name": "task-a", "Services": [{"Name": "web", "Provider": "consul", "PortLabel": "http"}]}]),
    );
    assert_eq!(services_error(&g, v(1, 3, 2)), None);
    let want = one("Services are not unique: [group->api:http group->db]");
    assert_eq!(services_error(&g, v(1, 3, 3)), want);
    assert_eq!(services_error(&g, v(1, 4, 0)), want);
    assert_eq!(services_error(&g, v(2, 0, 5)), want);
    let tasks = group(
        json!([]),
        json!([{"Name": "b", "Services": [{"Name": "s", "Provider": "consul"}, {"Name": "s", "Provider": "consul"}]},
               {"Name": "a", "Services": [{"Name": "s", "Provider": "consul"}]}]),
    );
    assert_eq!(
        services_error(&tasks, v(2, 0, 5)),
        one("Services are not unique: [b->s]")
    );
}

#[test]
fn structs_test_go_v1_3_0_v2_0_5_validate_script_checks_in_group_services() {
    let unset = json!({"Name": "group1", "Services": [
        {"Name": "service1", "TaskName": "", "Checks": [
            {"Name": "check1", "Type": "script", "TaskName": ""},
            {"Name": "check2", "Type": "ttl"},
            {"Name": "check3", "Type": "script", "TaskName": ""}]},
        {"Name": "service2", "Checks": [{"Type": "script", "TaskName": "task1"}]},
        {"Name": "service3", "TaskName": "", "Checks": [
            {"Name": "check1", "Type": "script", "TaskName": ""}]}]});
    assert_eq!(
        script_check_error(unset.as_object().unwrap()).as_deref(),
        Some(
            "Task group service check validation failed: 3 errors occurred:\n\t* Service \
             [group1]->service1 or Check check1 must specify task parameter\n\t* Service \
             [group1]->service1 or Check check3 must specify task parameter\n\t* Service \
             [group1]->service3 or Check check1 must specify task parameter\n\n"
        )
    );
    let set = json!({"Name": "group1", "Services": [
        {"Name": "service1", "TaskName": "task1", "Checks": [
            {"Name": "check1", "Type": "script", "TaskName": ""},
            {"Name": "check2", "Type": "ttl"},
            {"Name": "check3", "Type": "script", "TaskName": ""}]}]});
    assert_eq!(script_check_error(set.as_object().unwrap()), None);
}
