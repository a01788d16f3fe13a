//! Turning the workers' answers into the page's [`Loaded`] trace without
//! freezing the page: the small encoded part is decoded at once, the big
//! columns are copied into wasm memory in slices, and each thread's index is
//! built in steps, with a pause whenever a slice of work has run for a few
//! milliseconds ([`Pace`]).

use super::pace::Pace;
use crate::state::Loaded;
use crate::worker::columns;
use crate::worker::parts::Answer;
use flamedrop_core::layout::IndexBuilder;
use flamedrop_core::model::codec;
use flamedrop_core::model::merge::merge_part;
use flamedrop_core::Trace;

const DAMAGED: &str = "the decoding worker sent back a damaged trace";

/// Spans indexed between two looks at the clock.
const INDEX_STEP: usize = 1 << 18;

/// Decodes and indexes a trace sent by the workers (one answer per part,
/// part 0 first, merged into one trace), yielding to the page between steps.
/// Also says how long indexing took, in ms (a part of the whole).
pub async fn unpack(answers: Vec<Answer>, label: String) -> Result<(Loaded, f64), String> {
    let mut pace = Pace::new();
    let mut whole: Option<Trace> = None;
    for answer in answers {
        let bytes = js_sys::Uint8Array::new(&answer.trace).to_vec();
        drop(answer.trace);
        let mut trace = codec::decode(&bytes).ok_or(DAMAGED)?;
        drop(bytes);
        columns::attach(&mut trace, &answer.columns, &mut pace).await?;
        drop(answer.columns);
        match whole.as_mut() {
            None => whole = Some(trace),
            Some(whole) => merge_part(whole, trace)?,
        }
        pace.tick().await;
    }
    let trace = whole.ok_or(DAMAGED)?;
    let indexing = crate::browser::now();
    let mut index = Vec::with_capacity(trace.threads.len());
    for thread in &trace.threads {
        let mut builder = IndexBuilder::new();
        while !builder.advance(&thread.spans, INDEX_STEP) {
            pace.tick().await;
        }
        index.push(builder.finish());
        pace.tick().await;
    }
    let index_ms = crate::browser::now() - indexing;
    Ok((Loaded::new(trace, index, label), index_ms))
}
