//! Which of a trace's names a step's pattern matches, decided once per
//! string id so the passes over millions of spans test a bit.

use crate::model::{StrId, StringTable};

/// A set of string ids of one trace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameSet {
    member: Vec<bool>,
}

impl NameSet {
    /// The ids of `strings` whose text satisfies `matches`.
    pub fn matching(strings: &StringTable, mut matches: impl FnMut(&str) -> bool) -> NameSet {
        NameSet {
            member: (0..strings.len() as u32)
                .map(|id| matches(strings.get(id)))
                .collect(),
        }
    }

    /// The ids whose text is exactly `name`.
    pub fn exactly(strings: &StringTable, name: &str) -> NameSet {
        NameSet::matching(strings, |s| s == name)
    }

    /// True when `id` is in the set.
    pub fn contains(&self, id: StrId) -> bool {
        self.member.get(id as usize).copied().unwrap_or(false)
    }

    /// True when no id is in the set.
    pub fn is_empty(&self) -> bool {
        !self.member.iter().any(|&m| m)
    }
}
