//! Reading byte ranges of a `Blob` into wasm memory, reusing one buffer.
//! A read is started ([`start`]) before the previous chunk is decoded, so
//! the browser fetches the next bytes while the decoder works.

use crate::browser::describe;
use wasm_bindgen_futures::JsFuture;

/// A read under way: the bytes `[start, end)` of a blob.
pub struct Read {
    future: JsFuture,
    pub start: f64,
    pub end: f64,
}

/// Starts reading the bytes `[start, end)` of `blob`.
pub fn start(blob: &web_sys::Blob, start: f64, end: f64) -> Result<Read, String> {
    let part = blob.slice_with_f64_and_f64(start, end).map_err(describe)?;
    Ok(Read {
        future: JsFuture::from(part.array_buffer()),
        start,
        end,
    })
}

impl Read {
    /// Waits for the bytes and puts them in `out` (replacing what it held);
    /// the error says why the browser could not read them.
    pub async fn finish(self, out: &mut Vec<u8>) -> Result<(), String> {
        let buffer = self.future.await.map_err(describe)?;
        let bytes = js_sys::Uint8Array::new(&buffer);
        out.resize(bytes.length() as usize, 0);
        bytes.copy_to(out);
        // Hundreds of these chunks would otherwise wait for the garbage collector.
        drop(bytes);
        super::columns::release_buffer(&buffer);
        Ok(())
    }
}

/// Replaces `out` with the bytes `[start, end)` of `blob`.
pub async fn read_into(
    blob: &web_sys::Blob,
    from: f64,
    to: f64,
    out: &mut Vec<u8>,
) -> Result<(), String> {
    start(blob, from, to)?.finish(out).await
}
