//! The value of a fixed-list field that Nomad does not define, kept as a
//! number into one table per process.
//!
//! Nomad writes only the statuses and job types it defines, so such values
//! are next to never met (a snapshot written by hand, a field left empty).
//! Held as a [`super::Name`] beside the variant's tag, each of an
//! allocation's two statuses took 16 bytes; as a number, 8. A text is kept
//! once for the life of the process, however many fields hold it.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{LazyLock, Mutex, PoisonError};

/// A text none of the field's variants names; `""` when the field is absent.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct OtherText(u32);

/// The texts by number, and the numbers by text. Number 0 is `""`.
struct Table {
    texts: Vec<&'static str>,
    numbers: HashMap<&'static str, u32>,
}

static TABLE: LazyLock<Mutex<Table>> = LazyLock::new(|| {
    Mutex::new(Table {
        texts: vec![""],
        numbers: HashMap::from([("", 0)]),
    })
});

fn table() -> std::sync::MutexGuard<'static, Table> {
    TABLE.lock().unwrap_or_else(PoisonError::into_inner)
}

impl OtherText {
    pub fn new(text: &str) -> OtherText {
        if text.is_empty() {
            return OtherText(0);
        }
        let mut table = table();
        if let Some(&n) = table.numbers.get(text) {
            return OtherText(n);
        }
        let n = u32::try_from(table.texts.len()).expect("fewer than 2^32 distinct texts");
        let text: &'static str = Box::leak(text.into());
        table.texts.push(text);
        table.numbers.insert(text, n);
        OtherText(n)
    }

    pub fn as_str(self) -> &'static str {
        match self.0 {
            0 => "",
            n => table().texts[n as usize],
        }
    }
}

impl std::fmt::Debug for OtherText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

/// Hashed as its text, so that the number a text was given (which depends
/// on the order threads met it) never shows in a map's order.
impl Hash for OtherText {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_share_a_number_and_read_back() {
        let a = OtherText::new("Draining");
        assert_eq!(a, OtherText::new(&String::from("Draining")));
        assert_ne!(a, OtherText::new("draining"));
        assert_eq!(a.as_str(), "Draining");
        assert_eq!(OtherText::new(""), OtherText::default());
        assert_eq!(OtherText::default().as_str(), "");
    }
}
