//! `CSIVolumeChecker` (`scheduler/feasible.go`) over the dump's
//! `CSIVolumes` and `CSIPlugins` tables: the volume exists, the node runs
//! its plugin healthy and below its volume limit, in the volume's
//! topology, and the volume can take the claim.
//!
//! Nomad iterates the group's requests and a volume's claims as Go maps,
//! so which failure it names first is random; plan-inspect checks the
//! requests in the order of their names and the claims in allocation-ID
//! order. The checker reads the state store only: placements earlier in
//! the same plan add no claims (the client claims a volume when it starts
//! the allocation), and claims held by the job's own allocations never
//! block it.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::volume_rules::VolumeRules;
use crate::model::access_mode as mode;
use crate::model::{
    ClientStatus, CsiPlugin, CsiTopology, CsiVolume, DesiredStatus, Node, Snapshot, TaskGroup,
    VolumeRequest,
};

/// The claims and volume counts the checker reads, indexed once.
#[derive(Debug)]
pub struct CsiState<'a> {
    volumes: HashMap<(&'a str, &'a str), &'a CsiVolume>,
    /// `None`: the dump has no `CSIPlugins`, so a volume's own
    /// `Schedulable` stands.
    plugins: Option<HashMap<&'a str, &'a CsiPlugin>>,
    /// Per node, the CSI volumes (namespace, source) its allocations that
    /// run or should run ask for, as `CSIVolumesByNodeID` finds them.
    by_node: HashMap<&'a str, BTreeMap<&'a str, &'a str>>,
    /// The namespace and job of every allocation that holds a write claim.
    writers: HashMap<String, (&'a str, &'a str)>,
}

/// Whether the group asks for a CSI volume.
fn asks_csi(tg: &TaskGroup) -> bool {
    tg.volumes.values().any(|v| v.volume_type == "csi")
}

/// `FilterConstraintCSIVolumeNotFoundTemplate` before #28312.
fn not_found(source: &str) -> String {
    format!("missing CSI Volume {source}")
}

/// `FilterConstraintCSIVolumeNotFoundTemplate` from #28312.
fn not_found_listed(sources: &[String]) -> String {
    format!("missing CSI volume(s) {}", sources.join(", "))
}

impl<'a> CsiState<'a> {
    /// The state of a dump with a `CSIVolumes` table; `None` without one.
    pub fn new(snapshot: &'a Snapshot) -> Option<CsiState<'a>> {
        let listed = snapshot.csi_volumes.as_ref()?;
        let volumes = listed
            .iter()
            .map(|v| ((v.namespace.as_str(), v.id.as_str()), v))
            .collect();
        let plugins = snapshot
            .csi_plugins
            .as_ref()
            .map(|ps| ps.iter().map(|p| (p.id.as_str(), p)).collect());
        let mut by_node: HashMap<&str, BTreeMap<&str, &str>> = HashMap::new();
        let mut writers = HashMap::new();
        // Without volumes, every request is missing whatever the counts and
        // claims: the allocations are not read (a dump lists the table even
        // when it is empty).
        if !listed.is_empty() {
            let claimed: HashSet<&str> = listed
                .iter()
                .flat_map(|v| v.writers())
                .map(String::as_str)
                .collect();
            let mut asking = Vec::new();
            for alloc in &snapshot.allocs {
                if alloc.id.with_str(|id| claimed.contains(id)) {
                    writers.insert(
                        alloc.id.to_string(),
                        (alloc.namespace.as_str(), alloc.job_id.as_str()),
                    );
                }
                let wants = alloc.desired_status == DesiredStatus::Run
                    || alloc.client_status == ClientStatus::Running;
                let tg = alloc
                    .job
                    .as_deref()
                    .and_then(|j| j.task_groups.iter().find(|g| g.name == alloc.task_group));
                if let Some(tg) = tg.filter(|tg| wants && asks_csi(tg)) {
                    asking.push((alloc, tg));
                }
            }
            // The last allocation by ID names a source's namespace.
            asking.sort_by(|a, b| a.0.id.cmp(&b.0.id));
            for (alloc, tg) in asking {
                for req in tg.volumes.values().filter(|v| v.volume_type == "csi") {
                    by_node
                        .entry(alloc.node_id.as_str())
                        .or_default()
                        .insert(req.source.as_str(), alloc.namespace.as_str());
                }
            }
        }
        Some(CsiState {
            volumes,
            plugins,
            by_node,
            writers,
        })
    }

    fn volume(&self, namespace: &str, id: &str) -> Option<&'a CsiVolume> {
        self.volumes.get(&(namespace, id)).copied()
    }

    /// `csiVolumeDenormalizePluginsTxn`: a volume is schedulable while its
    /// plugin has a healthy node plugin and, if it needs one, a healthy
    /// controller.
    fn schedulable(&self, vol: &CsiVolume) -> bool {
        let Some(plugins) = &self.plugins else {
            return vol.schedulable;
        };
        plugins.get(vol.plugin_id.as_str()).is_some_and(|p| {
            p.nodes_healthy > 0 && (!p.controller_required || p.controllers_healthy > 0)
        })
    }

    /// `CSIVolumesByNodeID`, counted per plugin. A request's source is
    /// looked up as written (a `per_alloc` one without its index), so it
    /// may name no volume: Nomad's iterator then stops at a random point,
    /// plan-inspect counts every volume found.
    fn plugin_counts(&self, node_id: &str) -> BTreeMap<&'a str, i64> {
        let mut counts = BTreeMap::new();
        for (source, namespace) in self.by_node.get(node_id).into_iter().flatten() {
            if let Some(vol) = self.volume(namespace, source) {
                *counts.entry(vol.plugin_id.as_str()).or_insert(0) += 1;
            }
        }
        counts
    }

    /// `CSIVolumeChecker.isFeasible` for the allocation `alloc_name` of
    /// `tg` (of job `job_id` in `namespace`) on `node`: `Err` with Nomad's
    /// filter reason.
    pub fn check(
        &self,
        namespace: &str,
        job_id: &str,
        tg: &TaskGroup,
        alloc_name: &str,
        node: &Node,
        rules: VolumeRules,
    ) -> Result<(), String> {
        let requests: Vec<(String, &VolumeRequest)> = tg
            .volumes
            .values()
            .filter(|v| v.volume_type == "csi")
            .map(|v| (v.source_for(alloc_name, v.per_alloc()), v))
            .collect();
        if requests.is_empty() {
            return Ok(());
        }
        if rules.csi_missing_listed {
            let missing: Vec<String> = requests
                .iter()
                .filter(|(id, _)| self.volume(namespace, id).is_none())
                .map(|(id, _)| id.clone())
                .collect();
            if !missing.is_empty() {
                return Err(not_found_listed(&missing));
            }
        }
        let counts = self.plugin_counts(&node.id);
        for (id, req) in &requests {
            let Some(vol) = self.volume(namespace, id) else {
                return Err(not_found(id));
            };
            let plugin_id = vol.plugin_id.as_str();
            let Some(Some(plugin)) = node.csi_node_plugins.get(plugin_id) else {
                return Err(format!(
                    "CSI plugin {plugin_id} is missing from client {}",
                    node.id
                ));
            };
            if !plugin.healthy {
                return Err(format!(
                    "CSI plugin {plugin_id} is unhealthy on client {}",
                    node.id
                ));
            }
            let info = plugin.node_info.as_ref();
            // A plugin without node info would make Nomad dereference nil;
            // it is taken to allow no volumes.
            let max = info.map_or(0, |i| i.max_volumes);
            if counts.get(plugin_id).copied().unwrap_or(0) >= max {
                return Err(format!(
                    "CSI plugin {plugin_id} has the maximum number of volumes on client {}",
                    node.id
                ));
            }
            if !vol.topologies.is_empty() {
                let node_topology = info.and_then(|i| i.accessible_topology.as_ref());
                if !topology_matches(node_topology, &vol.topologies, rules) {
                    return Err("did not meet topology requirement".to_string());
                }
            }
            self.claimable(vol, req.read_only, namespace, job_id)?;
        }
        Ok(())
    }

    /// Whether the volume takes a read or a write claim of the job.
    fn claimable(
        &self,
        vol: &CsiVolume,
        read_only: bool,
        namespace: &str,
        job_id: &str,
    ) -> Result<(), String> {
        let schedulable = self.schedulable(vol);
        if read_only {
            if !schedulable || vol.exhausted() {
                return Err(format!(
                    "CSI volume {} is unschedulable or has exhausted its available reader claims",
                    vol.id
                ));
            }
            return Ok(());
        }
        if !(schedulable && write_schedulable(vol)) {
            return Err(format!(
                "CSI volume {} is unschedulable or is read-only",
                vol.id
            ));
        }
        if has_free_write_claims(vol) {
            return Ok(());
        }
        for id in vol.writers() {
            match self.writers.get(id.as_str()) {
                None => {
                    return Err(format!(
                        "CSI volume {} has exhausted its available writer claims and is claimed by a \
                         garbage collected allocation {id}; waiting for claim to be released",
                        vol.id
                    ));
                }
                Some((ns, job)) if (*ns, *job) != (namespace, job_id) => {
                    return Err(format!(
                        "CSI volume {} has exhausted its available writer claims",
                        vol.id
                    ));
                }
                Some(_) => {}
            }
        }
        Ok(())
    }
}

/// `CSIVolume.WriteSchedulable`, less `Schedulable`: a writer mode that is
/// not exhausted; an unclaimed volume by what it was created to support.
fn write_schedulable(vol: &CsiVolume) -> bool {
    let writer = |m: &str| {
        matches!(
            m,
            mode::SINGLE_NODE_WRITER
                | mode::MULTI_NODE_SINGLE_WRITER
                | mode::MULTI_NODE_MULTI_WRITER
        )
    };
    let capable = match vol.access_mode.as_str() {
        mode::UNKNOWN => vol
            .requested_capabilities
            .iter()
            .flatten()
            .any(|c| writer(&c.access_mode)),
        m => writer(m),
    };
    capable && !vol.exhausted()
}

/// `CSIVolume.HasFreeWriteClaims`.
fn has_free_write_claims(vol: &CsiVolume) -> bool {
    match vol.access_mode.as_str() {
        mode::SINGLE_NODE_WRITER | mode::MULTI_NODE_SINGLE_WRITER => vol.writers().is_empty(),
        mode::MULTI_NODE_MULTI_WRITER | mode::UNKNOWN => true,
        _ => false,
    }
}

/// `CSITopology.MatchFound`: the node has a topology and it matches one of
/// the volume's (equal segments; from #24522, containing them).
fn topology_matches(
    node: Option<&CsiTopology>,
    volume: &[Option<CsiTopology>],
    rules: VolumeRules,
) -> bool {
    let Some(node) = node else {
        return false;
    };
    volume
        .iter()
        .flatten()
        .any(|v| match rules.topology_contains {
            true => node.contains(v),
            false => node.equal(v),
        })
}
