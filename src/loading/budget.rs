//! Whether a trace will fit in the tab, judged before decoding.
//!
//! The page's memory for a decoded trace is about its input times a
//! measured factor of its format (`flamedrop_core::prescan`: the model
//! workers and page share, the chart's index and pictures). Inputs that
//! could be over the tab's memory budget whatever their format are first
//! pre-scanned (their metadata and a few bytes, fast whatever the size):
//! those that fit after all are decoded at once, the others get the
//! "too big" message, the part dialog where the format allows it, and
//! **Load it anyway**.

use crate::browser::query_param;
use crate::view_model::text::bytes;
use flamedrop_core::prescan::{Budget, Estimate};

/// The page memory a trace may take without the page asking first: well
/// under the 4 GiB a tab's WebAssembly memory can reach, and what a 2 GB
/// uftrace recording takes (about 1.8 GB, `docs/performance.md`).
pub const DEFAULT_MEMORY_BYTES: f64 = 2.5 * (1u64 << 30) as f64;

const MIB: f64 = (1u64 << 20) as f64;

/// The budget the page's URL asks for (`?max_input_mb=N`: inputs over N
/// MiB are held back whatever their format, for machines with little
/// memory and for the tests; `?max_memory_mb=N`: N MiB of memory), or the
/// default.
pub fn from_url() -> Budget {
    let mib = |name: &str| {
        query_param(name)
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|mb| *mb >= 0.0)
            .map(|mb| mb * MIB)
    };
    Budget {
        input: mib("max_input_mb"),
        memory: mib("max_memory_mb").unwrap_or(DEFAULT_MEMORY_BYTES),
    }
}

/// The watchdog's allowance from `?watchdog_ms=N`, if given (for the tests).
pub fn watchdog_override_ms() -> Option<f64> {
    query_param("watchdog_ms").and_then(|v| v.parse::<f64>().ok())
}

/// What the page says about an input of `size` bytes over `limit`;
/// `estimate` (the pre-scan's, when it could look) gives the memory it
/// would take and which advice fits the format.
pub fn too_big_message(label: &str, size: f64, limit: f64, estimate: Option<&Estimate>) -> String {
    let fewer = match estimate {
        Some(e) if !e.threads.is_empty() => {
            "open fewer files (one thread's .dat file, or part of the folder), load a part of it \
             (below)"
        }
        Some(e) if !e.stream.is_empty() => "load only its beginning (below)",
        _ => "open fewer files",
    };
    format!(
        "{label} is {}: decoding it would need about {} of memory, more than a browser tab can \
         safely hold (this page's limit for it is {}). Use the command line (`flamedrop report` \
         or `flamedrop convert`) for a summary or an export, {fewer}, or try loading it anyway.",
        bytes(size),
        bytes(size * Estimate::per_byte(estimate)),
        bytes(limit)
    )
}
