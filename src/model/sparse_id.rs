//! An ID that most allocations leave empty (the previous and next
//! allocation, the follow-up evaluation): 8 bytes, and an [`Id`] on the
//! heap only when set, instead of 24 bytes inline in every allocation.

use std::fmt;
use std::ops::Deref;
use std::sync::LazyLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Id;

/// An [`Id`] kept boxed when not empty; it reads, compares and orders as
/// that ID (the empty one when unset).
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SparseId(Option<Box<Id>>);

/// What an unset ID reads as.
static EMPTY: LazyLock<Id> = LazyLock::new(Id::default);

impl From<Id> for SparseId {
    fn from(id: Id) -> SparseId {
        SparseId((!id.is_empty()).then(|| Box::new(id)))
    }
}

impl From<&str> for SparseId {
    fn from(text: &str) -> SparseId {
        SparseId::from(Id::from(text))
    }
}

impl From<String> for SparseId {
    fn from(text: String) -> SparseId {
        SparseId::from(Id::from(text))
    }
}

impl From<&String> for SparseId {
    fn from(text: &String) -> SparseId {
        SparseId::from(Id::from(text))
    }
}

impl From<&SparseId> for String {
    fn from(id: &SparseId) -> String {
        String::from(&**id)
    }
}

impl Deref for SparseId {
    type Target = Id;
    fn deref(&self) -> &Id {
        self.0.as_deref().unwrap_or(&EMPTY)
    }
}

impl PartialEq<Id> for SparseId {
    fn eq(&self, other: &Id) -> bool {
        **self == *other
    }
}

impl PartialEq<SparseId> for Id {
    fn eq(&self, other: &SparseId) -> bool {
        *self == **other
    }
}

impl PartialEq<str> for SparseId {
    fn eq(&self, other: &str) -> bool {
        **self == *other
    }
}

impl PartialEq<&str> for SparseId {
    fn eq(&self, other: &&str) -> bool {
        **self == **other
    }
}

impl PartialEq<String> for SparseId {
    fn eq(&self, other: &String) -> bool {
        **self == **other
    }
}

impl fmt::Debug for SparseId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl fmt::Display for SparseId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&**self, f)
    }
}

impl Serialize for SparseId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for SparseId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SparseId, D::Error> {
        Id::deserialize(d).map(SparseId::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UUID: &str = "0a1b2c3d-4e5f-6789-abcd-ef0123456789";

    #[test]
    fn reads_compares_and_orders_as_its_id() {
        let set = SparseId::from(UUID);
        assert_eq!(set, UUID);
        assert_eq!(set, Id::from(UUID));
        assert_eq!(set.to_string(), UUID);
        assert_eq!(serde_json::to_string(&set).unwrap(), format!("\"{UUID}\""));
        let empty: SparseId = serde_json::from_str(r#""""#).unwrap();
        assert!(empty.0.is_none());
        assert_eq!(empty, SparseId::default());
        assert!(empty.is_empty());
        assert_eq!(empty, "");
        assert_eq!(format!("{empty:?}"), r#""""#);
        let mut ids = vec![
            SparseId::from("b"),
            set.clone(),
            empty.clone(),
            SparseId::from("A"),
        ];
        ids.sort();
        assert_eq!(ids, [empty, set, SparseId::from("A"), SparseId::from("b")]);
        assert_eq!(size_of::<SparseId>(), 8);
    }
}
