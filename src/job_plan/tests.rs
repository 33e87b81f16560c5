//! Nomad's tests of the job plan, ported (named after file and tag).

/// Table cases of `TestTaskGroupDiff` and `TestTaskDiff`, one test per row:
/// `name: old, new, contextual, expected lines;`, the objects as the Go
/// test builds them (`@` names a Go struct whose missing fields are zero).
macro_rules! diff_cases {
    ($diff:ident at $release:expr;
     $($(#[$doc:meta])* $name:ident: $old:tt, $new:tt, $ctx:expr, $want:expr;)*) => {
        $($(#[$doc])* #[test] fn $name() {
            let (old, new) = (serde_json::json!($old), serde_json::json!($new));
            let got = super::$diff(old, new, $ctx, $release);
            assert_eq!(got, super::expect($want));
        })*
    };
}

mod admission;
mod annotate;
mod blocks_diff;
mod canonical;
mod canonical_v1_3_0;
mod connect;
mod connect_admission;
mod connect_gateway;
mod connect_plan;
mod connect_validate;
mod cron;
mod disconnect_validate;
mod endpoint;
mod expose_check;
mod gateway_validate;
mod go_equal;
mod go_parsers;
mod group_diff;
mod group_service_validate;
mod group_validate;
mod identities;
mod identity_validate;
mod job_diff;
mod node_pool;
mod placement_validate;
mod release_rows;
mod resources_validate;
mod rows_group_v2_0_5;
mod rows_job_v1_3_0;
mod rows_job_v2_0_5;
mod rows_services_v1_3_0;
mod rows_services_v2_0_5;
mod rows_task_v2_0_5;
mod rows_v1_10_5;
mod rows_v1_3_0;
mod rows_v1_6_0;
mod rows_v1_8_0;
mod service_check;
mod service_validate;
mod task_blocks_validate;
mod task_diff;
mod task_validate;
mod volume_validate;
mod warnings;

use super::diff_types::{DiffType, FieldDiff};

/// A field diff without annotations.
fn field(kind: DiffType, name: &str, old: &str, new: &str) -> FieldDiff {
    FieldDiff {
        kind,
        name: name.into(),
        old: old.into(),
        new: new.into(),
        annotations: vec![],
    }
}

use serde_json::Value;

use super::diff_types::{ObjectDiff, TaskGroupDiff};
use super::schema::{self, Type};

/// The job as Go's encoder writes a `structs.Job` built in a Go test: every
/// primitive field of the job, its groups and tasks present, zero when the
/// test leaves it out.
fn go_job(mut v: Value) -> Value {
    fill(&mut v, Type::Job);
    for g in v
        .get_mut("TaskGroups")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        fill(g, Type::TaskGroup);
        for t in g
            .get_mut("Tasks")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            fill(t, Type::Task);
        }
    }
    v
}

fn fill(v: &mut Value, ty: Type) {
    let Some(m) = v.as_object_mut() else { return };
    for (name, kind) in schema::fields(ty) {
        let zero = match kind {
            schema::Field::Str => Value::from(""),
            schema::Field::Num => Value::from(0),
            schema::Field::Bool => Value::from(false),
            schema::Field::Map => Value::Null,
        };
        m.entry(*name).or_insert(zero);
    }
}

/// A diff's fields and objects one per line, as Nomad's `GoString` lists
/// them: `Type Name: "old" => "new"`, objects as `Type Name {` ... `}`.
fn lines(fields: &[FieldDiff], objects: &[ObjectDiff], depth: usize, out: &mut Vec<String>) {
    let pad = "  ".repeat(depth);
    for f in fields {
        let ann = if f.annotations.is_empty() {
            String::new()
        } else {
            format!(" ({})", f.annotations.join(", "))
        };
        out.push(format!(
            "{pad}{:?} {}: {:?} => {:?}{ann}",
            f.kind, f.name, f.old, f.new
        ));
    }
    for o in objects {
        out.push(format!("{pad}{:?} {} {{", o.kind, o.name));
        lines(&o.fields, &o.objects, depth + 1, out);
        out.push(format!("{pad}}}"));
    }
}

/// A group's diff as lines, its tasks included.
fn group_lines(g: &TaskGroupDiff) -> Vec<String> {
    let mut out = vec![format!("{:?} group {:?}", g.kind, g.name)];
    lines(&g.fields, &g.objects, 1, &mut out);
    for t in &g.tasks {
        let ann = if t.annotations.is_empty() {
            String::new()
        } else {
            format!(" ({})", t.annotations.join(", "))
        };
        out.push(format!("  {:?} task {:?}{ann}", t.kind, t.name));
        lines(&t.fields, &t.objects, 2, &mut out);
    }
    out
}

/// The expected lines of a test, trimmed.
fn expect(text: &str) -> Vec<String> {
    let text = text.strip_prefix('\n').unwrap_or(text);
    let indent = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l[indent..].trim_end().to_string())
        .collect()
}

/// The diff rules of a release.
fn rules_of(release: crate::model::Release) -> crate::version::Switches {
    crate::version::Switches::of(release)
}

/// The diff of two jobs at `release`, as lines: its kind, then its fields,
/// objects and groups.
fn job_rows(
    old: Value,
    new: Value,
    contextual: bool,
    release: crate::model::Release,
) -> Vec<String> {
    let d = super::job_diff(Some(&go(old)), &go(new), contextual, rules_of(release));
    let mut out = vec![format!("{:?} job", d.kind)];
    lines(&d.fields, &d.objects, 1, &mut out);
    for g in &d.task_groups {
        out.extend(group_lines(g).into_iter().map(|l| format!("  {l}")));
    }
    out
}

/// The one group's diff of two groups at `release`, as lines.
fn group_rows(
    old: Value,
    new: Value,
    contextual: bool,
    release: crate::model::Release,
) -> Vec<String> {
    let job = |g: Value| go(serde_json::json!({"@": "Job", "ID": "j", "TaskGroups": [g]}));
    let d = super::job_diff(Some(&job(old)), &job(new), contextual, rules_of(release));
    group_lines(&d.task_groups[0])
}

/// The one task's diff of two tasks at `release`, as lines from its header.
fn task_rows(
    old: Value,
    new: Value,
    contextual: bool,
    release: crate::model::Release,
) -> Vec<String> {
    let group = |t: Value| serde_json::json!({"@": "TaskGroup", "Name": "g", "Tasks": [t]});
    group_rows(group(old), group(new), contextual, release)
        .into_iter()
        .skip(1)
        .map(|l| l.strip_prefix("  ").unwrap_or(&l).to_string())
        .collect()
}

/// The diff of two tasks' services at `release`, as the objects' lines
/// (the task's own contextual fields left out).
fn services_rows(
    old: Value,
    new: Value,
    contextual: bool,
    release: crate::model::Release,
) -> Vec<String> {
    let task = |s: Value| serde_json::json!({"@": "Task", "Name": "t", "Services": s});
    task_rows(task(old), task(new), contextual, release)
        .into_iter()
        .skip(1)
        .skip_while(|l| !l.starts_with("   ") && !l.ends_with('{'))
        .map(|l| l.strip_prefix("  ").unwrap_or(&l).to_string())
        .collect()
}

/// A value as Go's encoder writes a struct a Go test builds: each object
/// tagged `@` (its Go type) gets the fields that type has, zero when
/// the test leaves them out.
fn go(mut v: Value) -> Value {
    go_fill(&mut v);
    v
}

fn go_fill(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(name)) = m.remove("@") {
                if let Some(ty) = go_type(&name) {
                    fill(v, ty);
                } else if let Some(zeros) = go_zeros(&name) {
                    let Some(m) = v.as_object_mut() else { return };
                    for (k, zero) in zeros {
                        m.entry(k.to_string()).or_insert(zero);
                    }
                }
            }
            for child in v.as_object_mut().into_iter().flat_map(|m| m.values_mut()) {
                go_fill(child);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(go_fill),
        _ => {}
    }
}

/// The schema type of a Go struct name.
fn go_type(name: &str) -> Option<Type> {
    Some(match name {
        "Job" => Type::Job,
        "TaskGroup" => Type::TaskGroup,
        "Task" => Type::Task,
        "Constraint" => Type::Constraint,
        "Affinity" => Type::Affinity,
        "PeriodicConfig" => Type::Periodic,
        "ParameterizedJobConfig" => Type::Parameterized,
        "RestartPolicy" => Type::RestartPolicy,
        "ReschedulePolicy" => Type::ReschedulePolicy,
        "MigrateStrategy" => Type::Migrate,
        "UpdateStrategy" => Type::Update,
        "EphemeralDisk" => Type::EphemeralDisk,
        "Resources" => Type::Resources,
        "NetworkResource" => Type::Network,
        "Port" => Type::Port,
        "LogConfig" => Type::LogConfig,
        "TaskArtifact" => Type::Artifact,
        "Template" => Type::Template,
        "ChangeScript" => Type::ChangeScript,
        "Vault" => Type::Vault,
        "DispatchPayloadConfig" => Type::DispatchPayload,
        "RequestedDevice" => Type::Device,
        "Service" => Type::Service,
        "ServiceCheck" => Type::Check,
        "CheckRestart" => Type::CheckRestart,
        "Consul" => Type::Consul,
        "ScalingPolicy" => Type::Scaling,
        "VolumeRequest" => Type::Volume,
        "VolumeMount" => Type::VolumeMount,
        "WorkloadIdentity" => Type::Identity,
        "Action" => Type::Action,
        "ConsulConnect" => Type::Connect,
        "ConsulSidecarService" => Type::SidecarService,
        "SidecarTask" => Type::SidecarTask,
        "ConsulProxy" => Type::Proxy,
        "ConsulUpstream" => Type::Upstream,
        "ConsulMeshGateway" => Type::MeshGateway,
        "ConsulExposePath" => Type::ExposePath,
        "ConsulTransparentProxy" => Type::TransparentProxy,
        "ConsulGatewayProxy" => Type::GatewayProxy,
        "ConsulGatewayTLSConfig" => Type::GatewayTls,
        "ConsulIngressListener" => Type::IngressListener,
        "ConsulIngressService" => Type::IngressService,
        "ConsulLinkedService" => Type::LinkedService,
        _ => return None,
    })
}

/// The fields of Go structs whose diff flattens them whole (every field,
/// pointers as `nil`), as Go's encoder writes their zero values.
fn go_zeros(name: &str) -> Option<Vec<(&'static str, Value)>> {
    Some(match name {
        "DisconnectStrategy" => vec![
            ("LostAfter", Value::from(0)),
            ("StopOnClientAfter", Value::Null),
            ("Replace", Value::Null),
            ("Reconcile", Value::from("")),
        ],
        _ => return None,
    })
}
