//! The job diff as Nomad's `Job.Plan` returns it (`nomad/structs/diff.go`
//! types), with Nomad's sort orders.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde::Serialize;

/// `DiffType`: how an entry changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum DiffType {
    None,
    Added,
    Deleted,
    Edited,
}

impl DiffType {
    /// Nomad sorts objects of one name Edited, Added, Deleted, None.
    fn rank(self) -> u8 {
        match self {
            DiffType::Edited => 0,
            DiffType::Added => 1,
            DiffType::Deleted => 2,
            DiffType::None => 3,
        }
    }
}

/// One flattened field: values are Nomad's diff strings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldDiff {
    #[serde(rename = "type")]
    pub kind: DiffType,
    pub name: String,
    pub old: String,
    pub new: String,
    pub annotations: Vec<String>,
}

/// A nested object: its fields and its own nested objects.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ObjectDiff {
    #[serde(rename = "type")]
    pub kind: DiffType,
    pub name: String,
    pub fields: Vec<FieldDiff>,
    pub objects: Vec<ObjectDiff>,
}

/// A task's diff, with the annotations `scheduler.Annotate` adds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TaskDiff {
    #[serde(rename = "type")]
    pub kind: DiffType,
    pub name: String,
    pub annotations: Vec<String>,
    pub fields: Vec<FieldDiff>,
    pub objects: Vec<ObjectDiff>,
}

/// A task group's diff; `updates` are the plan's counts by Nomad's update
/// type, zeros omitted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TaskGroupDiff {
    #[serde(rename = "type")]
    pub kind: DiffType,
    pub name: String,
    pub updates: BTreeMap<String, u64>,
    pub fields: Vec<FieldDiff>,
    pub objects: Vec<ObjectDiff>,
    pub tasks: Vec<TaskDiff>,
}

/// The job's diff.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JobDiff {
    #[serde(rename = "type")]
    pub kind: DiffType,
    pub id: String,
    pub fields: Vec<FieldDiff>,
    pub objects: Vec<ObjectDiff>,
    pub task_groups: Vec<TaskGroupDiff>,
}

/// `FieldDiff.Less`: by name, then old, then new.
pub(crate) fn field_order(a: &FieldDiff, b: &FieldDiff) -> Ordering {
    (&a.name, &a.old, &a.new).cmp(&(&b.name, &b.old, &b.new))
}

/// `ObjectDiff.Less`: by name, type, number of fields and of objects, then
/// the first field and object that differ (both lists sorted already).
pub(crate) fn object_order(a: &ObjectDiff, b: &ObjectDiff) -> Ordering {
    a.name
        .cmp(&b.name)
        .then(a.kind.rank().cmp(&b.kind.rank()))
        .then(a.fields.len().cmp(&b.fields.len()))
        .then(a.objects.len().cmp(&b.objects.len()))
        .then_with(|| {
            a.fields
                .iter()
                .zip(&b.fields)
                .map(|(x, y)| field_order(x, y))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        })
        .then_with(|| {
            a.objects
                .iter()
                .zip(&b.objects)
                .map(|(x, y)| object_order(x, y))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        })
}

pub(crate) fn sort_fields(fields: &mut [FieldDiff]) {
    fields.sort_by(field_order);
}

pub(crate) fn sort_objects(objects: &mut [ObjectDiff]) {
    objects.sort_by(object_order);
}

impl JobDiff {
    /// Whether anything differs.
    pub fn changed(&self) -> bool {
        self.kind != DiffType::None
    }
}
