//! Why a node's own network settings refuse every placement.

/// A node whose reserved ports collide or do not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeRefusal {
    /// Reserved ports collide (before 1.3.2).
    Collision(String),
    /// Reserved ports do not parse (from 1.3.2).
    Invalid(String),
}

impl NodeRefusal {
    /// The scheduler's dimension for it (`scheduler/rank.go:220` at 1.3.2,
    /// `:220` at 1.3.0).
    pub fn dimension(&self) -> &'static str {
        match self {
            NodeRefusal::Collision(_) => "network: port collision",
            NodeRefusal::Invalid(_) => "network: invalid node",
        }
    }

    /// Nomad's reason.
    pub fn reason(&self) -> &str {
        match self {
            NodeRefusal::Collision(r) | NodeRefusal::Invalid(r) => r,
        }
    }
}
