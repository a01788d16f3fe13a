//! The public way in, kept for the command line, the viewer and the tests:
//! the driver ([`crate::decode`]), the registry's detection
//! ([`crate::formats`]) and the decoder contract ([`crate::decoder`]) under
//! one name. Nothing inside the crate uses this module.

pub use crate::decode::{decode_files, decode_files_chunked, empty_archives, probes_of};
#[cfg(not(target_arch = "wasm32"))]
pub use crate::decode::{
    decode_files_in_parts, decode_files_in_parts_chunked, decode_files_selected,
    parts_decoded_whole_after_all,
};
pub use crate::decoder::{file_name, Decoder, FileProbe, LoadError, Selection, PROBE_BYTES};
pub use crate::formats::{detect, open_decoder};
