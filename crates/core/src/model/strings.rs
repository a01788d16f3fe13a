//! The interned string table: every name in a trace is stored once and
//! referred to by a small id.

use crate::fast_hash::FastMap;
use serde::{Deserialize, Serialize};

/// An index into a [`StringTable`].
pub type StrId = u32;

/// Interned strings. Lookups by id are plain indexing; interning uses a hash
/// map that is rebuilt on demand after deserialisation.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct StringTable {
    strings: Vec<String>,
    #[serde(skip)]
    index: FastMap<String, StrId>,
}

impl StringTable {
    /// Returns the id of `s`, adding it if it is new.
    pub fn intern(&mut self, s: &str) -> StrId {
        if self.index.len() != self.strings.len() {
            self.rebuild_index();
        }
        if let Some(&id) = self.index.get(s) {
            return id;
        }
        let id = self.strings.len() as StrId;
        self.strings.push(s.to_owned());
        self.index.insert(s.to_owned(), id);
        id
    }

    /// The id of `s` if the table holds it (never adds it).
    pub fn find(&self, s: &str) -> Option<StrId> {
        if self.index.len() == self.strings.len() {
            return self.index.get(s).copied();
        }
        self.strings
            .iter()
            .position(|t| t == s)
            .map(|at| at as StrId)
    }

    /// The string behind `id`; an unknown id reads as the empty string.
    pub fn get(&self, id: StrId) -> &str {
        self.strings.get(id as usize).map_or("", String::as_str)
    }

    /// Every string, in id order.
    pub fn all(&self) -> &[String] {
        &self.strings
    }

    /// Number of strings.
    pub fn len(&self) -> usize {
        self.strings.len()
    }

    /// True when the table is empty.
    pub fn is_empty(&self) -> bool {
        self.strings.is_empty()
    }

    /// Builds a table from strings in id order (used by the codec). The
    /// look-up index is left to the first [`StringTable::intern`] (the page
    /// rarely interns; [`StringTable::find`] scans until then), which spares
    /// a copy of every string when a big trace arrives.
    pub fn from_vec(strings: Vec<String>) -> Self {
        StringTable {
            strings,
            index: FastMap::default(),
        }
    }

    fn rebuild_index(&mut self) {
        self.index = self
            .strings
            .iter()
            .enumerate()
            .map(|(i, s)| (s.clone(), i as StrId))
            .collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_returns_the_same_id_for_the_same_text() {
        let mut table = StringTable::default();
        let a = table.intern("main");
        let b = table.intern("leaf");
        assert_eq!(table.intern("main"), a);
        assert_ne!(a, b);
        assert_eq!(table.get(b), "leaf");
        assert_eq!(table.get(99), "");
    }

    #[test]
    fn a_rebuilt_table_keeps_interning_consistently() {
        let table = StringTable::from_vec(vec!["x".into(), "y".into()]);
        let mut copy = table.clone();
        assert_eq!(copy.intern("y"), 1);
        assert_eq!(copy.intern("z"), 2);
    }
}
