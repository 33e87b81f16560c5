//! What each release changed in the volume checks, as flags the replay
//! sets from its catalogue rows.

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
