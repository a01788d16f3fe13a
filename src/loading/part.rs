//! What the part dialog asks to decode of files held back as too big: a
//! selection the decoder keeps (uftrace's threads and time window), or the
//! beginning of a single stream (sp-rtrace, SWAP), cut here from its `Blob`
//! so the workers read only that much.

use super::Opened;
use crate::view_model::text::bytes;
use flamedrop_core::input::Selection;
use flamedrop_core::prescan::StreamFile;

/// A part of the held-back files to decode. The default is all of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Part {
    /// The threads and time window the decoder keeps.
    pub selection: Selection,
    /// Only this many bytes from the start of the stream's file.
    pub first_bytes: Option<f64>,
}

/// Cuts `stream`'s file in `opened` to its first `first_bytes`; what was
/// loaded, for the summary's "Only a part of the recording was loaded"
/// (`None` when nothing was cut).
pub fn cut(opened: &mut Opened, stream: &StreamFile, first_bytes: f64) -> Option<String> {
    let file = opened.files.iter_mut().find(|f| f.path == stream.path)?;
    let size = file.size();
    if first_bytes >= size {
        return None;
    }
    let kept = first_bytes.max(0.0).floor();
    file.blob = file.blob.slice_with_f64_and_f64(0.0, kept).ok()?;
    Some(format!(
        "the first {} of {} ({}): the calls recorded first; the last one may be cut off",
        bytes(kept),
        bytes(size),
        stream.path
    ))
}
