//! Renderers: pure functions from a report to text.

pub mod explain;
pub mod explain_node;
pub mod html;
pub mod job_plan;
pub mod json;
mod layout;
mod now_source;
mod operator;
pub mod table;
mod wrap;
