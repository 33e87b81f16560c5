//! Why a node cannot take a placement.

use std::fmt;

/// The dimension a node is exhausted in, with Nomad's string for it (what
/// `AllocMetric.DimensionExhausted` counts), and by how much it fell short
/// where the dimension is an amount.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shortfall {
    pub dimension: String,
    pub lacks: Option<Lack>,
    /// Nomad skipped the node without counting it exhausted (a preemption
    /// that found nothing, before the releases that count it).
    pub unrecorded: bool,
}

/// An amount a node lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lack {
    pub amount: i64,
    /// "MHz", "cores", "MB" or "ports".
    pub unit: &'static str,
}

impl Shortfall {
    /// A dimension that is not an amount (a port collision, a device).
    pub fn named(dimension: impl Into<String>) -> Shortfall {
        Shortfall {
            dimension: dimension.into(),
            lacks: None,
            unrecorded: false,
        }
    }

    /// The same shortfall, which Nomad's metrics do not count.
    pub fn unrecorded(self) -> Shortfall {
        Shortfall {
            unrecorded: true,
            ..self
        }
    }

    fn amount(dimension: &str, amount: i64, unit: &'static str) -> Shortfall {
        Shortfall {
            dimension: dimension.to_string(),
            lacks: Some(Lack { amount, unit }),
            unrecorded: false,
        }
    }

    pub fn cpu(mhz: i64) -> Shortfall {
        Shortfall::amount("cpu", mhz, "MHz")
    }

    pub fn cores(count: usize) -> Shortfall {
        Shortfall::amount("cores", i64::try_from(count).unwrap_or(i64::MAX), "cores")
    }

    pub fn memory(mb: i64) -> Shortfall {
        Shortfall::amount("memory", mb, "MB")
    }

    pub fn disk(mb: i64) -> Shortfall {
        Shortfall::amount("disk", mb, "MB")
    }
}

/// The words after a node's name in the nearest-miss line: "lacks 212 MB
/// memory", or "is exhausted in network: port collision".
impl fmt::Display for Shortfall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.lacks {
            Some(Lack { amount, unit }) if unit == self.dimension => {
                write!(f, "lacks {amount} {unit}")
            }
            Some(Lack { amount, unit }) => write!(f, "lacks {amount} {unit} {}", self.dimension),
            None => write!(f, "is exhausted in {}", self.dimension),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shortfall_reads_as_the_end_of_the_nearest_miss_line() {
        assert_eq!(Shortfall::memory(212).to_string(), "lacks 212 MB memory");
        assert_eq!(Shortfall::cpu(500).to_string(), "lacks 500 MHz cpu");
        assert_eq!(Shortfall::cores(2).to_string(), "lacks 2 cores");
        assert_eq!(
            Shortfall::named("network: port collision").to_string(),
            "is exhausted in network: port collision"
        );
    }
}
