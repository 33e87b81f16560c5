//! The volume checks of the stack: `HostVolumeChecker` and, through
//! [`CsiState`], `CSIVolumeChecker` (`scheduler/feasible.go`), with what
//! each release changed in them.

use std::collections::BTreeMap;

use super::csi::CsiState;
use crate::model::{Node, TaskGroup};

/// How the replayed release checks volumes: one flag per catalogue row,
/// set by the replay from its rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VolumeRules {
    /// #13274: a node whose class is already eligible but whose volumes
    /// are unavailable is skipped; before, the selection ended there.
    pub eligible_continues: bool,
    /// #15780: `per_alloc` host volume requests name `source[N]`.
    pub host_per_alloc: bool,
    /// #18679: host volumes are checked on every node, not once per
    /// computed class.
    pub host_per_node: bool,
    /// #24522: a node's topology matches a volume's when it contains the
    /// volume's segments; before, when it equalled them.
    pub topology_contains: bool,
    /// #28202: a `sticky` request cannot use a static host volume.
    pub sticky_needs_dynamic: bool,
    /// #28312: missing CSI volumes filter every node before any other CSI
    /// check, listed together, and a group with CSI volumes escapes its
    /// computed class.
    pub csi_missing_listed: bool,
}

/// What the volume checks read: the release's rules and, when the dump
/// has a `CSIVolumes` table, the CSI volumes with their claims.
#[derive(Clone, Copy, Debug, Default)]
pub struct Volumes<'a> {
    pub rules: VolumeRules,
    pub csi: Option<&'a CsiState<'a>>,
}

/// `HostVolumeChecker`: every host volume the group asks for (by source,
/// suffixed with the allocation's index for `per_alloc` from #15780) is
/// one of the node's, and a read-only one is only asked for read-only;
/// from #28202 a sticky request cannot take a static volume. A dynamic
/// volume (one with an `ID`, 1.10.0 on) is checked as a static one: the
/// state dump has no `HostVolumes` table to read its capabilities and
/// claims from.
pub fn has_host_volumes(tg: &TaskGroup, alloc_name: &str, node: &Node, rules: VolumeRules) -> bool {
    let mut by_source: BTreeMap<String, Vec<(bool, bool)>> = BTreeMap::new();
    for req in tg.volumes.values().filter(|v| v.volume_type == "host") {
        let per_alloc = rules.host_per_alloc && req.per_alloc();
        by_source
            .entry(req.source_for(alloc_name, per_alloc))
            .or_default()
            .push((req.read_only, req.sticky()));
    }
    by_source.iter().all(|(source, reqs)| {
        match node.host_volumes.get(source.as_str()) {
            // A nil volume config would make Nomad dereference nil; treat it
            // as absent.
            None | Some(None) => false,
            Some(Some(v)) => {
                let sticky_static =
                    rules.sticky_needs_dynamic && v.id.is_empty() && reqs.iter().any(|r| r.1);
                !sticky_static && (!v.read_only || reqs.iter().all(|r| r.0))
            }
        }
    })
}
