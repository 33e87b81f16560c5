//! What a panic inside the reader becomes: a bug to report, never the end
//! of the process (exit 101) or a silent wrong answer.

use std::any::Any;

/// What to say of a panic with `payload`: a bug, what it said, and what to do.
pub(super) fn internal_error(payload: &(dyn Any + Send)) -> String {
    let what = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic");
    format!(
        "internal error in the reader ({what}); please report it with the snapshot's size and shape"
    )
}
