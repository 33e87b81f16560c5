//! Fields whose value Nomad takes from a fixed list (a job's type, an
//! allocation's statuses), read as enums so that the rules match variants
//! rather than compare strings.

/// An enum of the values Nomad defines for a field, plus `Other` for a value
/// it does not: such a value is still read, kept and printed as given.
/// A defined value is matched without touching any table.
macro_rules! known_names {
    (
        $(#[$doc:meta])*
        $ty:ident { $($(#[$vdoc:meta])* $variant:ident = $text:expr),+ $(,)? }
    ) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq, Hash)]
        pub enum $ty {
            $($(#[$vdoc])* $variant,)+
            /// A value Nomad does not define, as given (empty when absent);
            /// never one of the values above, so that equality is the text's.
            Other($crate::model::OtherText),
        }

        impl $ty {
            /// The value as Nomad writes it, or as given.
            pub fn as_str(&self) -> &str {
                match self {
                    $($ty::$variant => $text,)+
                    $ty::Other(text) => text.as_str(),
                }
            }

            /// Whether Nomad defines the value.
            pub fn is_known(&self) -> bool {
                !matches!(self, $ty::Other(_))
            }
        }

        impl From<&str> for $ty {
            fn from(text: &str) -> $ty {
                $(if text == $text {
                    return $ty::$variant;
                })+
                $ty::Other($crate::model::OtherText::new(text))
            }
        }

        impl Default for $ty {
            fn default() -> $ty {
                $ty::Other($crate::model::OtherText::default())
            }
        }

        impl PartialOrd for $ty {
            fn partial_cmp(&self, other: &$ty) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }

        /// Ordered as the text, as the strings it replaces were.
        impl Ord for $ty {
            fn cmp(&self, other: &$ty) -> std::cmp::Ordering {
                self.as_str().cmp(other.as_str())
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Debug::fmt(self.as_str(), f)
            }
        }

        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                struct V;
                impl serde::de::Visitor<'_> for V {
                    type Value = $ty;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str("a string")
                    }
                    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<$ty, E> {
                        Ok($ty::from(s))
                    }
                }
                d.deserialize_str(V)
            }
        }
    };
}

pub(super) use known_names;
