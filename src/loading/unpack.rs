//! Turning the worker's encoded trace into the page's [`Loaded`] trace
//! without freezing the page: the buffer is copied into wasm memory in slices
//! with a pause between them, then decoded and indexed thread by thread.
//!
//! (What still runs in one piece is `codec::decode` and the index of one
//! thread: about 250 ms and 100 ms for a 20-million-call thread.)

use crate::state::Loaded;
use flamedrop_core::layout::ThreadIndex;
use flamedrop_core::model::codec;
use gloo::timers::future::TimeoutFuture;

/// Bytes copied per slice: a few milliseconds of work.
const SLICE: usize = 16 << 20;

/// Decodes and indexes an encoded trace, yielding to the page between steps.
pub async fn unpack(buffer: js_sys::ArrayBuffer, label: String) -> Result<Loaded, String> {
    let source = js_sys::Uint8Array::new(&buffer);
    let len = source.length() as usize;
    let mut bytes: Vec<u8> = Vec::new();
    bytes.try_reserve_exact(len).map_err(|_| {
        format!(
            "this trace needs {} of memory to display, more than the browser can give this page",
            crate::format::bytes(len as f64)
        )
    })?;
    let mut start = 0;
    while start < len {
        let end = (start + SLICE).min(len);
        bytes.resize(end, 0);
        source
            .subarray(start as u32, end as u32)
            .copy_to(&mut bytes[start..end]);
        start = end;
        if start < len {
            TimeoutFuture::new(0).await;
        }
    }
    drop(source);
    drop(buffer);
    let trace = codec::decode(&bytes).ok_or("the decoding worker sent back a damaged trace")?;
    drop(bytes);
    let mut index = Vec::with_capacity(trace.threads.len());
    for thread in &trace.threads {
        TimeoutFuture::new(0).await;
        index.push(ThreadIndex::new(&thread.spans));
    }
    Ok(Loaded::new(trace, index, label))
}
