//! The volume checks of the stack: `HostVolumeChecker` and, through
//! [`CsiState`], `CSIVolumeChecker` (`scheduler/feasible.go`), with what
//! each release changed in them.

use std::collections::BTreeMap;

use super::csi::CsiState;
use super::volume_rules::VolumeRules;
use crate::model::{Node, TaskGroup};

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
