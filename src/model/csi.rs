//! CSI volumes and plugins (`nomad/structs/csi.go`, `node.go`), as far as
//! the placement stage's `CSIVolumeChecker` reads them, and the volume
//! fields of a task group's `VolumeRequest` that only the checkers read.

use std::collections::{BTreeMap, BTreeSet};

use std::fmt;

use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::{VolumeRequest, nullable};
use crate::time::Time;

/// Access modes of `structs.CSIVolumeAccessMode`.
pub mod access_mode {
    pub const UNKNOWN: &str = "";
    pub const SINGLE_NODE_READER: &str = "single-node-reader-only";
    pub const SINGLE_NODE_WRITER: &str = "single-node-writer";
    pub const MULTI_NODE_READER: &str = "multi-node-reader-only";
    pub const MULTI_NODE_SINGLE_WRITER: &str = "multi-node-single-writer";
    pub const MULTI_NODE_MULTI_WRITER: &str = "multi-node-multi-writer";
}

/// A `structs.CSIVolume` of the `CSIVolumes` table.
///
/// The state dump writes the claims only as `ReadAllocs` / `WriteAllocs`
/// (allocation ID to a `null` or an allocation): `ReadClaims`,
/// `WriteClaims` and `PastClaims` are `json:"-"` in Nomad. A hand-written
/// dump may give the claims instead; they are read when present.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct CsiVolume {
    #[serde(rename = "ID")]
    pub id: String,
    pub namespace: String,
    #[serde(rename = "PluginID")]
    pub plugin_id: String,
    /// The access mode of its current claims (empty: not claimed).
    pub access_mode: String,
    pub attachment_mode: String,
    /// As written; the scheduler recomputes it from `CSIPlugins` when the
    /// dump has that table.
    pub schedulable: bool,
    pub resource_exhausted: Option<Time>,
    #[serde(deserialize_with = "nullable")]
    pub topologies: Vec<Option<CsiTopology>>,
    #[serde(deserialize_with = "nullable")]
    pub requested_capabilities: Vec<Option<CsiCapability>>,
    #[serde(deserialize_with = "keys")]
    pub read_allocs: Option<BTreeSet<String>>,
    #[serde(deserialize_with = "keys")]
    pub write_allocs: Option<BTreeSet<String>>,
    #[serde(deserialize_with = "keys")]
    pub read_claims: Option<BTreeSet<String>>,
    #[serde(deserialize_with = "keys")]
    pub write_claims: Option<BTreeSet<String>>,
}

/// A `structs.CSIVolumeCapability`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct CsiCapability {
    pub access_mode: String,
    pub attachment_mode: String,
}

/// A `structs.CSITopology`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "PascalCase", default)]
pub struct CsiTopology {
    #[serde(deserialize_with = "nullable")]
    pub segments: BTreeMap<String, String>,
}

/// A `structs.CSIPlugin` of the `CSIPlugins` table: the health counts a
/// volume's `Schedulable` is computed from.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct CsiPlugin {
    #[serde(rename = "ID")]
    pub id: String,
    pub controller_required: bool,
    pub controllers_healthy: i64,
    pub nodes_healthy: i64,
}

/// A node's `structs.CSIInfo` for one node plugin (`CSINodePlugins`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct CsiInfo {
    pub healthy: bool,
    pub node_info: Option<CsiNodeInfo>,
}

/// A `structs.CSINodeInfo`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct CsiNodeInfo {
    pub max_volumes: i64,
    pub accessible_topology: Option<CsiTopology>,
}

/// The keys of a map whose values are not read; `None` for `null` or a
/// missing key.
fn keys<'de, D: Deserializer<'de>>(d: D) -> Result<Option<BTreeSet<String>>, D::Error> {
    Option::<Keys>::deserialize(d).map(|k| k.map(|k| k.0))
}

/// A map's keys, its values skipped.
struct Keys(BTreeSet<String>);

impl<'de> Deserialize<'de> for Keys {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Keys, D::Error> {
        d.deserialize_map(KeysVisitor)
    }
}

struct KeysVisitor;

impl<'de> Visitor<'de> for KeysVisitor {
    type Value = Keys;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a map of allocation IDs")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Keys, A::Error> {
        let mut keys = BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            map.next_value::<IgnoredAny>()?;
            keys.insert(key);
        }
        Ok(Keys(keys))
    }
}

impl CsiVolume {
    /// The allocations holding write claims: `WriteClaims` when given,
    /// else the keys of `WriteAllocs`, which Nomad keeps in step with them.
    pub fn writers(&self) -> &BTreeSet<String> {
        static NONE: BTreeSet<String> = BTreeSet::new();
        self.write_claims
            .as_ref()
            .or(self.write_allocs.as_ref())
            .unwrap_or(&NONE)
    }

    /// The allocations holding read claims, as [`CsiVolume::writers`].
    pub fn readers(&self) -> &BTreeSet<String> {
        static NONE: BTreeSet<String> = BTreeSet::new();
        self.read_claims
            .as_ref()
            .or(self.read_allocs.as_ref())
            .unwrap_or(&NONE)
    }

    /// `ResourceExhausted` is set.
    pub fn exhausted(&self) -> bool {
        self.resource_exhausted.is_some_and(|t| !t.is_zero())
    }
}

impl CsiTopology {
    /// `Equal`: the same segments.
    pub fn equal(&self, other: &CsiTopology) -> bool {
        self.segments == other.segments
    }

    /// `Contains`: every segment of `other` is one of these.
    pub fn contains(&self, other: &CsiTopology) -> bool {
        other
            .segments
            .iter()
            .all(|(k, v)| self.segments.get(k) == Some(v))
    }
}

impl VolumeRequest {
    /// `PerAlloc`: the source names one volume per allocation index.
    pub fn per_alloc(&self) -> bool {
        self.flag("PerAlloc")
    }

    /// `Sticky` (dynamic host volumes, 1.10.0 on).
    pub fn sticky(&self) -> bool {
        self.flag("Sticky")
    }

    fn flag(&self, key: &str) -> bool {
        self.other
            .get(key)
            .and_then(super::Json::as_bool)
            .unwrap_or(false)
    }

    /// The volume this request names for the allocation `alloc_name`:
    /// with `per_alloc`, the source with the name's index suffix
    /// (`structs.AllocSuffix`: from the last `[`, or nothing).
    pub fn source_for(&self, alloc_name: &str, per_alloc: bool) -> String {
        if !per_alloc {
            return self.source.clone();
        }
        let suffix = alloc_name.rfind('[').map_or("", |i| &alloc_name[i..]);
        format!("{}{suffix}", self.source)
    }
}
