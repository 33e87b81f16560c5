//! Whose allocation an element is, read before deciding to read the rest
//! (`--job`/`--namespace` applied while reading).

use serde::Deserialize;

/// Whose allocation it is, read before deciding to read the rest.
#[derive(Deserialize)]
pub(super) struct Owner {
    #[serde(rename = "Namespace", default)]
    pub(super) namespace: String,
    #[serde(rename = "JobID", default)]
    pub(super) job_id: String,
}
