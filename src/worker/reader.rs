//! Reading a byte range of a `Blob` into wasm memory, reusing one buffer.

use crate::browser::describe;
use wasm_bindgen_futures::JsFuture;

/// Replaces `out` with the bytes `[start, end)` of `blob`; the error says why
/// the browser could not read them.
pub async fn read_into(
    blob: &web_sys::Blob,
    start: f64,
    end: f64,
    out: &mut Vec<u8>,
) -> Result<(), String> {
    let part = blob.slice_with_f64_and_f64(start, end).map_err(describe)?;
    let buffer = JsFuture::from(part.array_buffer())
        .await
        .map_err(describe)?;
    let bytes = js_sys::Uint8Array::new(&buffer);
    out.resize(bytes.length() as usize, 0);
    bytes.copy_to(out);
    // Hundreds of these chunks would otherwise wait for the garbage collector.
    drop(bytes);
    super::columns::release_buffer(&buffer);
    Ok(())
}
