//! flamedrop-core: the trace decoders, the common trace model and the analyses
//! behind both the web viewer and the `flamedrop` command.
//!
//! Nothing here depends on the web: every decoder runs, is tested and is fuzzed
//! natively. A decoder is fed files (whole or in chunks) through [`input`], builds
//! a [`model::Trace`] through the one [`model::TraceBuilder`], and reports what it
//! repaired, skipped or lost as [`model::Diagnostic`]s that travel with the trace.

pub mod analysis;
pub mod archive;
pub mod decoder;
pub mod export;
pub(crate) mod fast_hash;
pub mod formats;
pub mod input;
pub mod layout;
pub mod model;

pub use decoder::{Decoder, FileProbe, LoadError};
pub use input::{decode_files, detect, open_decoder};
pub use model::{Format, TimeUnit, Trace};
