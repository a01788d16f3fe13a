//! Turning the worker's answer into the page's [`Loaded`] trace without
//! freezing the page: the small encoded part is decoded at once, the big
//! columns are copied into wasm memory in slices, and each thread's index is
//! built in steps, with a pause whenever a slice of work has run for a few
//! milliseconds ([`Pace`]).

use super::pace::Pace;
use crate::state::Loaded;
use crate::worker::columns;
use flamedrop_core::layout::IndexBuilder;
use flamedrop_core::model::codec;

/// Spans indexed between two looks at the clock.
const INDEX_STEP: usize = 1 << 18;

/// Decodes and indexes a trace sent by the worker, yielding to the page
/// between steps.
pub async fn unpack(
    buffer: js_sys::ArrayBuffer,
    columns: js_sys::Array,
    label: String,
) -> Result<Loaded, String> {
    let mut pace = Pace::new();
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    drop(buffer);
    let mut trace = codec::decode(&bytes).ok_or("the decoding worker sent back a damaged trace")?;
    drop(bytes);
    columns::attach(&mut trace, &columns, &mut pace).await?;
    drop(columns);
    let mut index = Vec::with_capacity(trace.threads.len());
    for thread in &trace.threads {
        let mut builder = IndexBuilder::new();
        while !builder.advance(&thread.spans, INDEX_STEP) {
            pace.tick().await;
        }
        index.push(builder.finish());
        pace.tick().await;
    }
    Ok(Loaded::new(trace, index, label))
}
