//! The constraints a job, group, task or requested device sets on where it
//! runs, and the affinities of a requested device.

use serde::Deserialize;

use super::Name;

/// A `structs.Constraint`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct Constraint {
    #[serde(rename = "LTarget")]
    pub l_target: Name,
    #[serde(rename = "RTarget")]
    pub r_target: Name,
    pub operand: Name,
}

/// A `structs.Affinity`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct Affinity {
    #[serde(rename = "LTarget")]
    pub l_target: String,
    #[serde(rename = "RTarget")]
    pub r_target: String,
    pub operand: String,
    pub weight: i64,
}
