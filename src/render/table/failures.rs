//! Failed placements as `nomad job plan` prints them
//! (`command/job_plan.go` and `formatAllocMetrics` in `command/monitor.go`
//! at 1.3.0), plus the nearest miss, which Nomad does not print.

use crate::fit::{Lack, Shortfall};
use crate::model::JobType;
use crate::report::FailedPlacement;

/// The warning line and, per task group, its heading and one line per
/// filter and exhausted dimension, in Nomad's words and order (maps in
/// key order, where Nomad's Go maps iterate at random).
pub fn lines(job_type: &JobType, failed: &[FailedPlacement]) -> Vec<String> {
    if failed.is_empty() {
        return Vec::new();
    }
    let mut out = vec![match job_type {
        JobType::System | JobType::Sysbatch => {
            "WARNING: Failed to place allocations on all nodes.".to_string()
        }
        _ => "WARNING: Failed to place all allocations.".to_string(),
    }];
    for f in failed {
        let noun = if f.count > 1 {
            "allocations"
        } else {
            "allocation"
        };
        out.push(format!(
            "  Task Group {:?} (failed to place {} {noun}):",
            f.task_group, f.count
        ));
        let m = &f.metrics;
        let mut item = |s: String| out.push(format!("    * {s}"));
        if m.nodes_evaluated == 0 {
            item("No nodes were eligible for evaluation".to_string());
        }
        for (dc, n) in &m.nodes_available {
            if *n == 0 {
                item(format!("No nodes are available in datacenter {dc:?}"));
            }
        }
        for (class, n) in &m.class_filtered {
            item(format!("Class {class:?}: {n} nodes excluded by filter"));
        }
        for (c, n) in &m.constraint_filtered {
            item(format!("Constraint {c:?}: {n} nodes excluded by filter"));
        }
        if m.nodes_exhausted > 0 {
            item(format!(
                "Resources exhausted on {} nodes",
                m.nodes_exhausted
            ));
        }
        for (class, n) in &m.class_exhausted {
            item(format!("Class {class:?} exhausted on {n} nodes"));
        }
        for (dim, n) in &m.dimension_exhausted {
            item(format!("Dimension {dim:?} exhausted on {n} nodes"));
        }
        for q in &m.quota_exhausted {
            item(format!("Quota limit hit {q:?}"));
        }
        if let Some(miss) = &f.nearest_miss {
            let short = Shortfall {
                dimension: miss.dimension.clone(),
                lacks: miss
                    .lacks
                    .zip(miss.unit)
                    .map(|(amount, unit)| Lack { amount, unit }),
                unrecorded: false,
            };
            item(format!("Nearest miss: node {} {short}", miss.node_name));
        }
    }
    out
}
