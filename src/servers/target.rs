//! Finding the node or allocation an event names: an ID, an unambiguous ID
//! prefix, or (for nodes) a name, as the Nomad CLI accepts them.

use crate::model::{Allocation, Node};

use super::error::WhatIfError;
use super::event::EventSpec;

/// At most this many candidates are listed in a message.
const SHOWN: usize = 10;

/// The index in `nodes` of the node `spec` names: its ID, else its name,
/// else the one node whose ID starts with it.
pub fn node(nodes: &[Node], spec: &EventSpec) -> Result<usize, WhatIfError> {
    let text = spec.target.as_str();
    if let Some(i) = nodes.iter().position(|n| n.id == text) {
        return Ok(i);
    }
    let by_name: Vec<usize> = (0..nodes.len())
        .filter(|&i| nodes[i].name == text)
        .collect();
    let by_prefix: Vec<usize> = (0..nodes.len())
        .filter(|&i| nodes[i].id.starts_with(text))
        .collect();
    let matches = if by_name.is_empty() {
        by_prefix
    } else {
        by_name
    };
    match matches.as_slice() {
        [one] => Ok(*one),
        [] => Err(WhatIfError::NodeNotFound {
            event: spec.text.clone(),
            node: text.to_string(),
            candidates: listed(nodes.iter().map(describe_node)),
        }),
        many => Err(WhatIfError::NodeAmbiguous {
            event: spec.text.clone(),
            node: text.to_string(),
            matches: listed(many.iter().map(|&i| describe_node(&nodes[i]))),
        }),
    }
}

/// The index in `allocs` of the allocation `spec` names: its ID, else the
/// one allocation whose ID starts with it.
pub fn alloc(allocs: &[Allocation], spec: &EventSpec) -> Result<usize, WhatIfError> {
    let text = spec.target.as_str();
    let ids: Vec<String> = allocs.iter().map(|a| a.id.to_string()).collect();
    if let Some(i) = ids.iter().position(|id| id == text) {
        return Ok(i);
    }
    let matches: Vec<usize> = (0..ids.len())
        .filter(|&i| ids[i].starts_with(text))
        .collect();
    let describe = |i: usize| format!("{} ({})", ids[i], allocs[i].name);
    match matches.as_slice() {
        [one] => Ok(*one),
        [] => Err(WhatIfError::AllocNotFound {
            event: spec.text.clone(),
            alloc: text.to_string(),
            candidates: listed((0..ids.len()).map(describe)),
        }),
        many => Err(WhatIfError::AllocAmbiguous {
            event: spec.text.clone(),
            alloc: text.to_string(),
            matches: listed(many.iter().map(|&i| describe(i))),
        }),
    }
}

fn describe_node(n: &Node) -> String {
    if n.name.is_empty() || n.name == n.id.as_str() {
        n.id.clone()
    } else {
        format!("{} ({})", n.id, n.name)
    }
}

/// The texts sorted, at most [`SHOWN`] of them and a count of the rest.
fn listed(texts: impl Iterator<Item = String>) -> Vec<String> {
    let mut all: Vec<String> = texts.collect();
    all.sort();
    let rest = all.len().saturating_sub(SHOWN);
    all.truncate(SHOWN);
    if rest > 0 {
        all.push(format!("and {rest} more"));
    }
    all
}
