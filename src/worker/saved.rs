//! Reopening a `.flamedrop` analysis file: when the page sends one file
//! that starts with the file's magic, the worker reads it whole, and
//! `flamedrop_core::saved` gives back the trace it was saved from (handed
//! to the page as any decoded trace) and the screen it was saved on (sent
//! beside it, as the header's JSON).

use super::reader;
use crate::wire::protocol::DecodeRequest;
use flamedrop_core::saved;
use flamedrop_core::Trace;

/// What a `.flamedrop` file held: the trace and its header as JSON.
pub type Reopened = (Trace, String);

/// `None` when the request is not one `.flamedrop` file; else the trace
/// and header (`Ok(None)` for a second worker: a saved file is not split),
/// or why the file cannot be read.
pub async fn reopen(request: &DecodeRequest) -> Option<Result<Option<Reopened>, String>> {
    let [file] = request.files.as_slice() else {
        return None;
    };
    let magic = saved::MAGIC.len() as f64;
    let mut head = Vec::new();
    reader::read_into(&file.blob, 0.0, file.size().min(magic), &mut head)
        .await
        .ok()?;
    if !saved::is_saved(&head) {
        return None;
    }
    if request.part > 0 {
        return Some(Ok(None));
    }
    let mut bytes = Vec::new();
    let read = reader::read_into(&file.blob, 0.0, file.size(), &mut bytes).await;
    Some(
        read.map_err(|e| format!("could not read {}: {e}", file.path))
            .and_then(|()| decode(&bytes, &file.path)),
    )
}

fn decode(bytes: &[u8], path: &str) -> Result<Option<Reopened>, String> {
    let opened = saved::decode(bytes).map_err(|e| format!("{path}: {e}"))?;
    Ok(Some((opened.trace, opened.header.to_json())))
}
