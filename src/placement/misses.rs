//! Why one ask fits none of some untouched ready nodes, summed per bucket
//! of [`Cluster::group_classes`](super::Cluster::group_classes): a failed
//! placement read from a board counts the nodes of its eligible classes at
//! once, as a scan of each would, and judges again only the nodes its job
//! touched. Without it every failure walked every candidate (jobs x
//! nodes).

use std::collections::HashMap;

use foldhash::fast::FixedState;

use super::failure::Failure;
use super::metric::AllocMetric;
use crate::fit::{Lack, Shortfall};

/// One bucket's verdicts on its untouched nodes.
#[derive(Debug, Default)]
pub struct BucketMisses {
    /// What `exhaust_node` for each exhausted node counts.
    pub metric: AllocMetric,
    /// Nodes the ask fits.
    pub fits: u64,
    /// The exhausted nodes by how much they lack ([`Failure::rank`]), then
    /// by index: the first is the bucket's nearest miss.
    pub nearest: Vec<(i64, usize)>,
}

/// An ask's verdicts on every ready node as the snapshot leaves it.
#[derive(Debug, Default)]
pub struct Misses {
    /// By ready group, then bucket, in the order they were given.
    pub buckets: Vec<Vec<BucketMisses>>,
    /// The exhausted nodes' shortfalls by node index, as an index into
    /// `dimensions` and the amount: a few dimensions serve every node.
    shortfalls: HashMap<usize, (u32, Option<Lack>), FixedState>,
    /// Each dimension's text and whether Nomad leaves it uncounted.
    dimensions: Vec<(String, bool)>,
}

impl Misses {
    /// The misses of the ask whose verdict on node `i` is `verdict(i)`, on
    /// the buckets of node indexes of each ready group; `node_class(i)` is
    /// the node's class, as the metrics count it.
    pub fn of<'n>(
        groups: impl Iterator<Item = Vec<&'n [usize]>>,
        node_class: impl Fn(usize) -> &'n str,
        verdict: impl Fn(usize) -> Result<(), Shortfall>,
    ) -> Misses {
        let mut shortfalls = HashMap::default();
        let mut dimensions: Vec<(String, bool)> = Vec::new();
        let buckets = groups
            .map(|buckets| {
                buckets
                    .into_iter()
                    .map(|nodes| {
                        let mut m = BucketMisses::default();
                        for &i in nodes {
                            match verdict(i) {
                                Ok(()) => m.fits += 1,
                                Err(short) => {
                                    if !short.unrecorded {
                                        m.metric.exhaust_node(node_class(i), &short.dimension);
                                    }
                                    m.nearest.push((Failure::rank(&short), i));
                                    let kind = (short.dimension, short.unrecorded);
                                    let d = match dimensions.iter().position(|k| *k == kind) {
                                        Some(d) => d,
                                        None => {
                                            dimensions.push(kind);
                                            dimensions.len() - 1
                                        }
                                    };
                                    shortfalls.insert(i, (d as u32, short.lacks));
                                }
                            }
                        }
                        m.nearest.sort_unstable();
                        m
                    })
                    .collect()
            })
            .collect();
        Misses {
            buckets,
            shortfalls,
            dimensions,
        }
    }

    /// Node `i`'s shortfall, `None` where the ask fits it.
    pub fn shortfall(&self, i: usize) -> Option<Shortfall> {
        let &(d, lacks) = self.shortfalls.get(&i)?;
        let (dimension, unrecorded) = &self.dimensions[d as usize];
        Some(Shortfall {
            dimension: dimension.clone(),
            lacks,
            unrecorded: *unrecorded,
        })
    }
}
