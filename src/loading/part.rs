//! What the part dialog asks to decode of files held back as too big: a
//! selection the decoder keeps (uftrace's threads and time window), or the
//! beginning of a single stream (sp-rtrace, SWAP, SELogger's event files),
//! cut here from the files' `Blob`s so the workers read only that much.

use super::Opened;
use crate::view_model::text::bytes;
use flamedrop_core::input::Selection;
use flamedrop_core::prescan::StreamFile;

/// A part of the held-back files to decode. The default is all of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Part {
    /// The threads and time window the decoder keeps.
    pub selection: Selection,
    /// Only this many bytes from the start of the stream's files.
    pub first_bytes: Option<f64>,
}

/// Cuts the `stream` files in `opened` after their first `first_bytes`
/// (the files in order: those wholly after the cut are left out); what was
/// loaded, for the summary's "Only a part of the recording was loaded"
/// (`None` when nothing was cut).
pub fn cut(opened: &mut Opened, stream: &[StreamFile], first_bytes: f64) -> Option<String> {
    let total: f64 = stream.iter().map(|s| s.bytes as f64).sum();
    let kept = first_bytes.max(0.0).floor();
    if kept >= total {
        return None;
    }
    let mut before = 0.0;
    let mut left_out = Vec::new();
    for part in stream {
        let Some(file) = opened.files.iter_mut().find(|f| f.path == part.path) else {
            continue;
        };
        let size = file.size();
        if before >= kept {
            left_out.push(part.path.clone());
        } else if before + size > kept {
            file.blob = file.blob.slice_with_f64_and_f64(0.0, kept - before).ok()?;
        }
        before += size;
    }
    opened.files.retain(|f| !left_out.contains(&f.path));
    let names = stream_names(stream);
    Some(format!(
        "the first {} of {} ({}): what was recorded first; its last record may be cut off",
        bytes(kept),
        bytes(total),
        names
    ))
}

/// The stream's files as the page names them: the one, or the first to the
/// last and how many.
pub fn stream_names(stream: &[StreamFile]) -> String {
    match stream {
        [one] => one.path.clone(),
        [first, .., last] => format!("{} to {} ({} files)", first.path, last.path, stream.len()),
        [] => String::new(),
    }
}
