//! What changed in how device requests match and take instances, one
//! flag per catalogue row.

use crate::model::Release;
use crate::version::Switch;

/// The device rules of a release, each a row of the catalogue: what the
/// `DeviceChecker` reads and how the bin packer's device allocator
/// chooses instances.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DeviceRules {
    /// #15455: `${device.ids}` names the device's instances.
    pub ids_target: bool,
    /// #26649: one request may take its count from several devices.
    pub spans_devices: bool,
    /// #18141: instances are offered only when their ID meets the
    /// request's `${device.ids}` constraints.
    pub ids_filtered: bool,
    /// #27177: a device offers only as many instances as meet those
    /// constraints; before, enough free ones sufficed and the offer could
    /// come out short.
    pub ids_counted: bool,
    /// #27880: after evicting for a device, later requests of the task see
    /// the instances the victims held free.
    pub eviction_frees: bool,
}

impl DeviceRules {
    pub fn of(release: Release) -> DeviceRules {
        DeviceRules {
            ids_target: Switch::DeviceIdsTarget.in_release(release),
            spans_devices: Switch::DeviceCountSpans.in_release(release),
            ids_filtered: Switch::DeviceIdsFiltered.in_release(release),
            ids_counted: Switch::DeviceIdsCounted.in_release(release),
            eviction_frees: Switch::DeviceEvictionFrees.in_release(release),
        }
    }
}
