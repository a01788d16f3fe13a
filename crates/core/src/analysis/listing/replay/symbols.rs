//! What uftrace replay's `addr` and `module` columns show of a function:
//! the address its calls were recorded at on the row's thread
//! ([`Thread::addresses`](crate::model::Thread)) and the basename of the
//! module it is in (the trace's `symbols` table).

use crate::model::{StrId, Trace};
use std::collections::HashMap;

/// Function name → address and module, for the columns that ask.
#[derive(Default)]
pub(super) struct Symbols {
    address: HashMap<(u32, StrId), u64>,
    /// The first thread's address of each function, for a thread that
    /// kept none (its first call was cut off).
    any_address: HashMap<StrId, u64>,
    module: HashMap<StrId, String>,
}

impl Symbols {
    /// Reads what the columns need (`addresses`, `modules`) of `trace`.
    pub(super) fn new(trace: &Trace, addresses: bool, modules: bool) -> Symbols {
        let mut symbols = Symbols::default();
        if addresses {
            for (t, thread) in trace.threads.iter().enumerate() {
                for (name, addr) in thread.addresses.iter() {
                    symbols.address.entry((t as u32, name)).or_insert(addr);
                    symbols.any_address.entry(name).or_insert(addr);
                }
            }
        }
        if !modules {
            return symbols;
        }
        let Some(table) = trace.tables.iter().find(|t| t.id == "symbols") else {
            return symbols;
        };
        for row in &table.rows {
            let Some(id) = row.first().and_then(|f| trace.strings.find(f)) else {
                continue;
            };
            if let Some(module) = row.get(1) {
                let base = module.rsplit('/').next().unwrap_or(module);
                symbols.module.entry(id).or_insert_with(|| base.to_owned());
            }
        }
        symbols
    }

    /// The address of function `name` on thread `thread`, if known.
    pub(super) fn address(&self, thread: u32, name: StrId) -> Option<u64> {
        let any = || self.any_address.get(&name).copied();
        self.address.get(&(thread, name)).copied().or_else(any)
    }

    /// The module of function `name` (`[unknown]` if not known).
    pub(super) fn module(&self, name: StrId) -> &str {
        self.module.get(&name).map_or("[unknown]", String::as_str)
    }
}
