//! Arrays of one type read on several threads ([`super::batches`]): the
//! nodes (a real client's carries kilobytes of fingerprint), deployments
//! and evaluations, parsed on the pool's threads and added in order.

use std::sync::Arc;

use serde::de::DeserializeOwned;

use super::batches::{Batched, IN_FLIGHT};
use super::{Chunked, Step};
use crate::model;
use crate::read::document::State;

impl Chunked<'_> {
    /// The array of `T` (or `null`: false) at the cursor, each element
    /// added to `st` with `add`, in order.
    pub(super) fn each_typed<'n, T: DeserializeOwned + Send>(
        &mut self,
        key: &str,
        st: &mut State<'n>,
        add: fn(&mut State<'n>, T),
    ) -> Step<bool> {
        let Some(pool) = self.pool() else {
            return self.each(key, |_, element: T| {
                add(st, element);
                Ok(())
            });
        };
        let interner = Arc::clone(&st.interner);
        let how = Batched {
            in_flight: IN_FLIGHT,
            prepare: &|text: &[u8], _| model::from_slice::<T>(text),
            settle: |element: Result<T, serde_json::Error>| {
                add(st, element?);
                Ok(())
            },
            check: |this: &mut Self, path: &dyn Fn() -> String| {
                this.value::<T>(Some(path)).map(drop)
            },
            ahead: (),
        };
        self.in_batches(key, &pool, &interner, how)
    }
}
