//! Renderers: pure functions from a report to text.

pub mod json;
pub mod table;
