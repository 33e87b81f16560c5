//! What an allocation holds, borrowed: the fit arithmetic reads the
//! snapshot's allocations in place, so the placement stage keeps no copy
//! of their resources per allocation for the whole replay.

use super::resources::{AllocUsage, AllocatedResources};
use super::{ClientStatus, DesiredStatus, Id, LegacyResources};

/// The fields of an [`AllocUsage`], borrowed from it or from an
/// allocation of the snapshot.
#[derive(Clone, Copy, Debug)]
pub struct UsageView<'a> {
    pub id: &'a Id,
    pub client_status: &'a ClientStatus,
    pub desired_status: &'a DesiredStatus,
    pub allocated_resources: Option<&'a AllocatedResources>,
    /// The pre-0.9 blocks, all absent when there are none.
    pub legacy: &'a LegacyResources,
}

impl AllocUsage {
    /// This usage, borrowed.
    pub fn view(&self) -> UsageView<'_> {
        UsageView {
            id: &self.id,
            client_status: &self.client_status,
            desired_status: &self.desired_status,
            allocated_resources: self.allocated_resources.as_deref(),
            legacy: LegacyResources::of(&self.legacy),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Allocation, from_slice};
    use super::*;

    #[test]
    fn an_allocation_s_view_leaves_out_the_blocks_allocated_resources_supersede() {
        let both: Allocation = from_slice(
            br#"{"ID": "a1", "ClientStatus": "running", "DesiredStatus": "run",
                "AllocatedResources": {"Shared": {"DiskMB": 300}},
                "Resources": {"CPU": 250}}"#,
        )
        .unwrap();
        assert!(both.legacy.is_some());
        let view = both.usage_view();
        assert_eq!(view.allocated_resources.unwrap().shared.disk_mb, 300);
        assert!(view.legacy.resources.is_none());
        assert_eq!(
            (view.id.to_string(), view.client_status.as_str()),
            ("a1".into(), "running")
        );
        // The owned usage is read as it is.
        assert_eq!(
            both.usage().view().legacy.resources.as_ref().unwrap().cpu,
            250
        );

        let old: Allocation = from_slice(br#"{"Resources": {"CPU": 250}}"#).unwrap();
        let view = old.usage_view();
        assert!(view.allocated_resources.is_none());
        assert_eq!(view.legacy.resources.as_ref().unwrap().cpu, 250);
        // Five pointers, built per node judged, never kept.
        assert!(size_of::<UsageView<'_>>() <= 5 * size_of::<usize>());
    }
}
