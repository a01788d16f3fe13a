//! flamedrop-core: the trace decoders, the common trace model and the analyses
//! behind both the web viewer and the `flamedrop` command.
//!
//! Nothing here depends on the web: every decoder runs, is tested and is fuzzed
//! natively. A decoder is fed files (whole or in chunks) by [`decode`], builds
//! a [`model::Trace`] through the one [`model::TraceBuilder`], and reports what it
//! repaired, skipped or lost as [`model::Diagnostic`]s that travel with the trace.

// Library code never panics on input: no unwrap or expect outside tests
// (clippy.toml lets the tests use them).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod analysis;
pub mod archive;
pub mod decode;
pub mod decoder;
pub mod export;
pub mod formats;

/// The hash map of the decoders' hot lookups keyed by small numbers
/// (addresses, string ids), where SipHash costs more than the work around it:
/// rustc's Fx hash. Not collision-resistant: only for keys from the user's
/// own trace.
pub(crate) mod fast_hash {
    pub use rustc_hash::FxHashMap as FastMap;
}

pub mod input;
pub mod layout;
pub mod model;
pub mod prescan;
pub mod saved;

pub use decode::decode_files;
pub use decoder::{Decoder, FileProbe, LoadError};
pub use formats::{detect, open_decoder};
pub use model::{Format, TimeUnit, Trace};
