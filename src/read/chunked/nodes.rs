//! `Nodes` on several threads ([`super::batches`]): a real client's node
//! carries kilobytes of fingerprint, parsed on the pool's threads.

use std::sync::Arc;

use super::batches::Batched;
use super::{Chunked, Step};
use crate::model::{self, Node};
use crate::read::document::State;

impl Chunked<'_> {
    /// The nodes, added to `st`; false for `null`.
    pub(super) fn nodes(&mut self, key: &str, st: &mut State<'_>) -> Step<bool> {
        let Some(pool) = self.pool() else {
            return self.each(key, |_, node: Node| {
                st.add_node(node);
                Ok(())
            });
        };
        let interner = Arc::clone(&st.interner);
        let how = Batched {
            prepare: &|text: &[u8]| model::from_slice::<Node>(text),
            settle: |node: Result<Node, serde_json::Error>| {
                st.add_node(node?);
                Ok(())
            },
            check: |this: &mut Self, path: &dyn Fn() -> String| {
                this.value::<Node>(Some(path)).map(drop)
            },
        };
        self.in_batches(key, &pool, &interner, how)
    }
}
