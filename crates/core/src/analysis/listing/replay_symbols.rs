//! What uftrace replay's `addr` and `module` columns show of a function:
//! its address and the basename of the module it is in, looked up by name
//! in the trace's `symbols` table (module) and `addresses` table (address).

use crate::model::{StrId, Trace};
use std::collections::HashMap;

/// Function name → address and module, for the columns that ask.
#[derive(Default)]
pub(super) struct Symbols {
    address: HashMap<StrId, u64>,
    module: HashMap<StrId, String>,
}

impl Symbols {
    /// Reads what the columns need (`addresses`, `modules`) of `trace`.
    pub(super) fn new(trace: &Trace, addresses: bool, modules: bool) -> Symbols {
        let mut symbols = Symbols::default();
        for table in &trace.tables {
            let wanted = match table.id.as_str() {
                "addresses" => addresses,
                "symbols" => modules,
                _ => false,
            };
            if !wanted {
                continue;
            }
            for row in &table.rows {
                let (Some(function), Some(value)) = (row.first(), row.get(1)) else {
                    continue;
                };
                let Some(id) = trace.strings.find(function) else {
                    continue;
                };
                if table.id == "addresses" {
                    let hex = value.trim_start_matches("0x");
                    if let Ok(addr) = u64::from_str_radix(hex, 16) {
                        symbols.address.entry(id).or_insert(addr);
                    }
                } else {
                    let base = value.rsplit('/').next().unwrap_or(value);
                    symbols.module.entry(id).or_insert_with(|| base.to_owned());
                }
            }
        }
        symbols
    }

    /// The address of function `name`, if known.
    pub(super) fn address(&self, name: StrId) -> Option<u64> {
        self.address.get(&name).copied()
    }

    /// The module of function `name` (`[unknown]` if not known).
    pub(super) fn module(&self, name: StrId) -> &str {
        self.module.get(&name).map_or("[unknown]", String::as_str)
    }
}
