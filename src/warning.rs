//! Warnings: suspicious but usable input, reported alongside the result.

use serde::Serialize;

/// One warning, with a stable machine-readable `code`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Warning {
    pub code: String,
    pub message: String,
}

impl Warning {
    pub fn new(code: &str, message: impl Into<String>) -> Warning {
        Warning {
            code: code.to_string(),
            message: message.into(),
        }
    }
}
