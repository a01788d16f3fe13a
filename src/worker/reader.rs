//! Reading files into wasm memory: a byte range of a `Blob` ([`read_into`],
//! [`from_byte`]),
//! the first bytes of many at once ([`read_heads`]), and a whole file in chunks through one
//! reusable buffer ([`ChunkReader`]).

use crate::browser::describe;
use js_sys::{Array, ArrayBuffer, Promise, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::ReadableStreamByobReader;

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
    let bytes = Uint8Array::new(&buffer);
    out.resize(bytes.length() as usize, 0);
    bytes.copy_to(out);
    Ok(())
}

/// `blob` from byte `from` on: a part given a stretch of a file starts
/// reading where it begins.
pub fn from_byte(blob: &web_sys::Blob, from: u64) -> Result<web_sys::Blob, String> {
    match from {
        0 => Ok(blob.clone()),
        from => blob
            .slice_with_f64(from as f64)
            .map_err(|e| format!("{e:?}")),
    }
}

/// The first `len` bytes of every blob (fewer for a shorter one), all asked
/// for at once; the error says why the browser could not read one of them.
pub async fn read_heads(blobs: &[&web_sys::Blob], len: f64) -> Result<Vec<Vec<u8>>, String> {
    let reads = Array::new();
    for blob in blobs {
        let part = blob
            .slice_with_f64_and_f64(0.0, len.min(blob.size()))
            .map_err(describe)?;
        reads.push(&part.array_buffer());
    }
    let buffers = JsFuture::from(Promise::all(&reads))
        .await
        .map_err(describe)?;
    let buffers: Array = buffers.dyn_into().map_err(describe)?;
    Ok(buffers
        .iter()
        .map(|buffer| Uint8Array::new(&buffer).to_vec())
        .collect())
}

/// Reads a blob front to back with a "bring your own buffer" stream reader:
/// every read fills the same `ArrayBuffer`, so reading a gigabyte leaves no
/// gigabyte of garbage buffers behind (as one `Blob.slice().arrayBuffer()`
/// per chunk does), and the browser reads ahead while the decoder works.
/// Browsers without such readers for blobs get `Blob.slice` reads instead.
pub struct ChunkReader {
    blob: web_sys::Blob,
    reader: Option<ReadableStreamByobReader>,
    buffer: Option<ArrayBuffer>,
    /// Bytes handed out so far.
    offset: f64,
}

impl ChunkReader {
    /// A reader of `blob` handing out chunks of up to `chunk` bytes.
    pub fn new(blob: &web_sys::Blob, chunk: u32) -> ChunkReader {
        ChunkReader {
            blob: blob.clone(),
            reader: ReadableStreamByobReader::new(&blob.stream()).ok(),
            buffer: Some(ArrayBuffer::new(chunk.max(1))),
            offset: 0.0,
        }
    }

    /// Replaces `out` with the next chunk; false once the blob is exhausted
    /// (`out` is then empty).
    pub async fn next(&mut self, out: &mut Vec<u8>) -> Result<bool, String> {
        let Some(mut buffer) = self.buffer.take() else {
            out.clear();
            return Ok(false);
        };
        let size = buffer.byte_length();
        let Some(reader) = &self.reader else {
            out.clear();
            let end = (self.offset + f64::from(size)).min(self.blob.size());
            if self.offset >= end {
                return Ok(false);
            }
            read_into(&self.blob, self.offset, end, out).await?;
            self.offset = end;
            self.buffer = Some(buffer);
            return Ok(true);
        };
        // The chunk is read into `out` as it stands, cut to what was read at
        // the end: from the second chunk on, nothing is cleared first.
        out.resize(size as usize, 0);
        let mut filled = 0u32;
        while filled < size {
            let view = Uint8Array::new_with_byte_offset_and_length(&buffer, filled, size - filled);
            let result = JsFuture::from(reader.read_with_array_buffer_view(&view))
                .await
                .map_err(describe)?;
            let done = Reflect::get(&result, &JsValue::from_str("done"))
                .map_or(true, |d| d.as_bool().unwrap_or(true));
            let value =
                Reflect::get(&result, &JsValue::from_str("value")).unwrap_or(JsValue::UNDEFINED);
            // The read hands the buffer back (moved, not copied) inside `value`.
            if let Some(part) = value.dyn_ref::<Uint8Array>() {
                buffer = part.buffer();
                let at = filled as usize;
                let Some(into) = out.get_mut(at..at + part.length() as usize) else {
                    return Err(format!(
                        "a read returned more than the {size} bytes asked for"
                    ));
                };
                part.copy_to(into);
                filled += part.length();
                self.offset += f64::from(part.length());
            }
            if done {
                out.truncate(filled as usize);
                return Ok(!out.is_empty());
            }
        }
        out.truncate(filled as usize);
        self.buffer = Some(buffer);
        Ok(true)
    }
}
