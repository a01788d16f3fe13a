//! The address each function was called at, per thread: what `uftrace
//! replay -f addr` prints. A recording's call records carry an address
//! (for `-pg` code, just past the function's `mcount` call, so it is not
//! the symbol's start); the decoder keeps the first one per function and
//! thread, two columns of a few entries, carried like any other column.

use super::{StrId, ThreadRef, TraceBuilder};
use serde::{Deserialize, Serialize};

/// Function name → the address its calls were recorded at, for one thread.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Addresses {
    pub name: Vec<StrId>,
    pub addr: Vec<u64>,
}

impl Addresses {
    /// Number of functions with an address.
    pub fn len(&self) -> usize {
        self.name.len()
    }

    /// True when no function has an address.
    pub fn is_empty(&self) -> bool {
        self.name.is_empty()
    }

    /// The (name, address) pairs.
    pub fn iter(&self) -> impl Iterator<Item = (StrId, u64)> + '_ {
        self.name.iter().copied().zip(self.addr.iter().copied())
    }
}

impl TraceBuilder {
    /// Records that function `name` was called at `addr` on thread `t`;
    /// the caller passes each (thread, name) once.
    pub fn function_address(&mut self, t: ThreadRef, name: StrId, addr: u64) {
        if let Some(thread) = self.trace.threads.get_mut(t as usize) {
            thread.addresses.name.push(name);
            thread.addresses.addr.push(addr);
        }
    }
}
