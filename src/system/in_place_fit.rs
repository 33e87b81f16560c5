//! How a system in-place update fits its node, as `inplaceUpdate` found it.

/// How an in-place update's group fits its node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InPlaceFit {
    /// Beside what the node runs.
    Fits,
    /// Only by preempting this many allocations, which the plan leaves
    /// running.
    Preempting(usize),
    /// Not checked: the snapshot gives the node no resources block.
    Unchecked,
}
