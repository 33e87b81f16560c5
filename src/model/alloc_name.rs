//! An allocation's name, kept as its index when Nomad wrote it.
//!
//! Nomad names every allocation `<job>.<group>[<index>]`
//! (`structs.AllocName`), a text no other allocation of another job shares:
//! as a copy of its own it took about 60 bytes of heap per allocation, a
//! twentieth of what a read keeps. The job ID and group are the
//! allocation's own shared names, so only the index need be kept; a name
//! of any other form (a hand-made snapshot, a test) is kept as given.

use std::fmt;

use super::Name;

/// Made from a text with `From`, it is kept as given.
#[derive(Clone)]
pub enum AllocName {
    /// `<job>.<group>[<index>]` of the allocation's own job ID and group,
    /// the index written as Go's `%d` writes it.
    Indexed(u32),
    /// Any other text, kept as it was read.
    Given(Name),
}

impl AllocName {
    /// The name `text` of an allocation of `job_id` and `group`.
    pub fn of(text: &str, job_id: &str, group: &str) -> AllocName {
        match index_in(text, job_id, group) {
            Some(index) => AllocName::Indexed(index),
            None => AllocName::Given(Name::own(text)),
        }
    }

    /// The text, for an allocation of `job_id` and `group`.
    pub fn text(&self, job_id: &str, group: &str) -> Name {
        match self {
            AllocName::Indexed(index) => {
                // Written piece by piece: `format!` costs several times more
                // here, once per allocation a report names.
                let mut digits = [0u8; 10];
                let mut at = digits.len();
                let mut rest = *index;
                loop {
                    at -= 1;
                    digits[at] = b'0' + (rest % 10) as u8;
                    rest /= 10;
                    if rest == 0 {
                        break;
                    }
                }
                let mut text = String::with_capacity(job_id.len() + group.len() + 13);
                text.push_str(job_id);
                text.push('.');
                text.push_str(group);
                text.push('[');
                text.extend(digits[at..].iter().map(|&d| char::from(d)));
                text.push(']');
                Name::own(&text)
            }
            AllocName::Given(name) => name.clone(),
        }
    }

    /// The index Nomad's `Allocation.Index` reads, when the name is its
    /// own form (`None`: parse the text).
    pub fn index(&self) -> Option<u32> {
        match self {
            AllocName::Indexed(index) => Some(*index),
            AllocName::Given(_) => None,
        }
    }
}

impl From<&str> for AllocName {
    fn from(text: &str) -> AllocName {
        AllocName::Given(Name::own(text))
    }
}

impl From<String> for AllocName {
    fn from(text: String) -> AllocName {
        AllocName::from(text.as_str())
    }
}

impl Default for AllocName {
    fn default() -> AllocName {
        AllocName::Given(Name::default())
    }
}

impl fmt::Debug for AllocName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AllocName::Indexed(index) => write!(f, "[{index}]"),
            AllocName::Given(name) => fmt::Debug::fmt(name.as_str(), f),
        }
    }
}

/// The index of `text` if it is exactly `<job_id>.<group>[<index>]` with
/// the index in decimal without sign or leading zero, so that writing it
/// back gives the same bytes.
fn index_in(text: &str, job_id: &str, group: &str) -> Option<u32> {
    let digits = text
        .strip_prefix(job_id)?
        .strip_prefix('.')?
        .strip_prefix(group)?
        .strip_prefix('[')?
        .strip_suffix(']')?;
    let canonical = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    if canonical { digits.parse().ok() } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str, job: &str, group: &str) -> (Option<u32>, String) {
        let name = AllocName::of(text, job, group);
        (name.index(), name.text(job, group).to_string())
    }

    #[test]
    fn nomad_s_own_names_are_kept_as_their_index_and_written_back_the_same() {
        assert_eq!(
            round_trip("web.api[3]", "web", "api"),
            (Some(3), "web.api[3]".into())
        );
        assert_eq!(
            round_trip("web.api[0]", "web", "api"),
            (Some(0), "web.api[0]".into())
        );
        // Dots and brackets inside the job ID or group are the IDs' own.
        assert_eq!(
            round_trip("a.b.c[d].e[12]", "a.b", "c[d].e"),
            (Some(12), "a.b.c[d].e[12]".into())
        );
        let max = format!("j.g[{}]", u32::MAX);
        assert_eq!(round_trip(&max, "j", "g"), (Some(u32::MAX), max.clone()));
    }

    #[test]
    fn any_other_text_is_kept_as_given() {
        for (text, job, group) in [
            ("web.api[03]", "web", "api"),
            ("web.api[+3]", "web", "api"),
            ("web.api[-1]", "web", "api"),
            ("web.api[]", "web", "api"),
            ("web.api[4294967296]", "web", "api"),
            ("web.api[3] ", "web", "api"),
            ("web.db[3]", "web", "api"),
            ("other.api[3]", "web", "api"),
            ("web-api[3]", "web", "api"),
            ("", "web", "api"),
            ("x", "", ""),
        ] {
            assert_eq!(
                round_trip(text, job, group),
                (None, text.to_string()),
                "{text}"
            );
        }
    }
}
