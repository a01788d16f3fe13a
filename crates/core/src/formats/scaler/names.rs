//! Gives each node its name, library and displayed extras, for the output
//! version at hand, with a fallback of `file<id>/func<id>` when the JSON
//! files are missing or do not list the symbol.

use super::symbols::{demangle, CommonIds, SymbolFile};
use super::Version;
use crate::model::{Field, StrId, TraceBuilder};
use std::collections::hash_map::Entry;
use std::collections::HashMap;

/// What a node is called and what is shown beside it.
#[derive(Clone, Debug)]
pub struct NodeName {
    pub name: StrId,
    /// The raw symbol, when the JSON named it.
    pub symbol: Option<String>,
    /// Extra fields shown for every call of this function (demangled name,
    /// callee library).
    pub fields: Vec<Field>,
}

/// Names for the nodes of one thread.
pub struct Namer<'a> {
    source: Source<'a>,
    cache: HashMap<(i64, i64), NodeName>,
    /// Nodes whose symbol the JSON did not list (or no JSON at all).
    pub unnamed: u64,
}

impl<'a> Namer<'a> {
    /// A namer using `symbols` (V1 `symbol.json` or the thread's V2 file).
    pub fn new(
        version: Version,
        symbols: Option<&'a SymbolFile>,
        common: Option<&'a CommonIds>,
    ) -> Self {
        Namer {
            source: Source {
                version,
                symbols,
                executable: symbols.and_then(SymbolFile::executable),
                common,
            },
            cache: HashMap::new(),
            unnamed: 0,
        }
    }

    /// The name of a node with these ids.
    pub fn name(&mut self, builder: &mut TraceBuilder, file_id: i64, func_id: i64) -> &NodeName {
        // V1 names do not depend on the node's file id (it is -1 for calls
        // that never returned); only the shown library does.
        let key = match self.source.version {
            Version::V1 => (file_id.max(-1), func_id),
            Version::V2 => (file_id, func_id),
        };
        let node = match self.cache.entry(key) {
            Entry::Occupied(known) => known.into_mut(),
            Entry::Vacant(new) => new.insert(self.source.make(builder, file_id, func_id)),
        };
        if node.symbol.is_none() {
            self.unnamed += 1;
        }
        node
    }

    /// True when commonFuncId.json lists `func_id` as a pthread (or
    /// semaphore) function of the executable; `None` without that file.
    pub fn listed_as(&self, func_id: i64, semaphore: bool) -> Option<bool> {
        self.source.listed_as(func_id, semaphore)
    }
}

/// What names come from: the format version and the JSON files.
#[derive(Clone, Copy)]
struct Source<'a> {
    version: Version,
    symbols: Option<&'a SymbolFile>,
    executable: Option<i64>,
    common: Option<&'a CommonIds>,
}

impl<'a> Source<'a> {
    fn listed_as(&self, func_id: i64, semaphore: bool) -> Option<bool> {
        let lists = match semaphore {
            false => &self.common?.pthread,
            true => &self.common?.semaphore,
        };
        Some(lists.get(&self.executable?)?.contains(&func_id))
    }

    fn make(&self, builder: &mut TraceBuilder, file_id: i64, func_id: i64) -> NodeName {
        let symbol = self.lookup(file_id, func_id).map(str::to_owned);
        let text = match (&symbol, self.version) {
            (Some(s), _) => s.clone(),
            (None, Version::V1) => format!("file{}/func{}", id(file_id), id(func_id)),
            (None, Version::V2) => format!("file{}/{:#x}", id(file_id), func_id as u64),
        };
        let mut fields = Vec::new();
        if let Some(readable) = symbol.as_deref().and_then(demangle) {
            fields.push(Field::new("demangled", readable));
        }
        let library = match self.version {
            Version::V1 if Some(file_id) == self.executable => None,
            _ => self.symbols.and_then(|s| s.library(file_id)),
        };
        if let Some(library) = library {
            fields.push(Field::new("library", library));
        }
        NodeName {
            name: builder.intern(&text),
            symbol,
            fields,
        }
    }

    fn lookup(&self, file_id: i64, func_id: i64) -> Option<&'a str> {
        let symbols = self.symbols?;
        match self.version {
            Version::V1 => symbols.name(self.executable?, func_id),
            // V2: the callee's library, else any image that lists the address.
            Version::V2 => symbols.name(file_id, func_id).or_else(|| {
                symbols
                    .images
                    .keys()
                    .find_map(|&other| symbols.name(other, func_id))
            }),
        }
    }
}

/// An id as shown in a fallback name; `?` for "not set" (-1).
fn id(value: i64) -> String {
    if value < 0 {
        "?".into()
    } else {
        value.to_string()
    }
}
