//! A job's `Type`: which of Nomad's schedulers handles it.

use super::known_names::known_names;

known_names! {
    /// `structs.JobType*`.
    JobType {
        Service = "service",
        Batch = "batch",
        /// One allocation per eligible node, kept running.
        System = "system",
        /// One allocation per eligible node, run to completion.
        Sysbatch = "sysbatch",
    }
}
