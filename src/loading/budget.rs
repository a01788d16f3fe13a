//! Whether a trace will fit in the tab, judged from its size before decoding.
//!
//! A decoded trace takes about two to three times its input in memory (the
//! worker's model, the encoded copy sent to the page, the page's model and
//! index), and a tab's WebAssembly memory stops at 4 GiB. Above the limit the
//! page says so before reading anything and lets people go ahead anyway.

use crate::browser::query_param;
use crate::view_model::text::bytes;

/// Input size above which the page asks first.
pub const DEFAULT_LIMIT_BYTES: f64 = (1u64 << 30) as f64;

/// The limit for this page: `?max_input_mb=N` overrides the default (for
/// machines with little memory, and for the tests).
pub fn limit_bytes() -> f64 {
    query_param("max_input_mb")
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|mb| *mb >= 0.0)
        .map_or(DEFAULT_LIMIT_BYTES, |mb| mb * (1u64 << 20) as f64)
}

/// The watchdog's allowance from `?watchdog_ms=N`, if given (for the tests).
pub fn watchdog_override_ms() -> Option<f64> {
    query_param("watchdog_ms").and_then(|v| v.parse::<f64>().ok())
}

/// What the page says about an input of `size` bytes over `limit`.
pub fn too_big_message(label: &str, size: f64, limit: f64) -> String {
    format!(
        "{label} is {}: decoding it would need about {} of memory, more than a browser tab can \
         safely hold (this page's limit is {}). Use the command line (`flamedrop report` or \
         `flamedrop convert`) for a summary or an export, open fewer files (one thread's .dat \
         file, or part of the folder), or try loading it anyway.",
        bytes(size),
        bytes(size * 2.5),
        bytes(limit)
    )
}
