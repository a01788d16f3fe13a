//! Turning the workers' answers into the page's [`Loaded`] trace without
//! freezing the page: the small encoded part is decoded at once, the big
//! columns are copied into wasm memory in slices (a later part's names
//! mapped into part 0's string table on the way), and each thread's index is
//! built in steps, with a pause whenever a slice of work has run for a few
//! milliseconds ([`Pace`]). In the shared-memory build the parts arrive as
//! traces the workers left in place (`wire::handover`): nothing is copied,
//! a later part is merged in one go.

use crate::browser::pace::{yield_to_browser, Pace};
use crate::loading::parts::{Answer, AnswerBody};
use crate::view_model::Loaded;
use crate::wire::columns;
use crate::wire::protocol::Phases;
use flamedrop_core::layout::counter::{CounterIndex, CounterIndexBuilder};
use flamedrop_core::layout::{IndexBuilder, ThreadIndex};
use flamedrop_core::model::codec;
use flamedrop_core::model::merge::{merge_part, move_threads};
use flamedrop_core::Trace;

const DAMAGED: &str = "the decoding worker sent back a damaged trace";

/// Spans indexed between two looks at the clock.
const INDEX_STEP: usize = 1 << 18;

/// Counter samples indexed between two looks at the clock.
const COUNTER_STEP: usize = 1 << 16;

/// Decodes and indexes a trace sent by the workers (one answer per part,
/// part 0 first, merged into one trace), yielding to the page between steps.
/// Also says where the time went, in ms (wall time, pauses included).
/// `part_note`: what was left out of the files before decoding, said in the
/// trace's metadata as a decoder's own selection is.
pub async fn unpack(
    answers: Vec<Answer>,
    label: String,
    part_note: Option<String>,
) -> Result<(Loaded, UnpackCost), String> {
    // Start in a task of our own: the one that received the workers' answer
    // also let the workers go and updated the page.
    yield_to_browser().await;
    let mut pace = Pace::new();
    let mut cost = UnpackCost::default();
    let mut last = crate::browser::now();
    let mut lap = |name: &str| {
        let at = crate::browser::now();
        cost.phases.push((name.to_owned(), at - last));
        last = at;
    };
    let mut whole: Option<Trace> = None;
    let mut reopened = None;
    for answer in answers {
        reopened = reopened.or(answer.reopened);
        match answer.body {
            AnswerBody::Copied { trace, columns } => {
                let part = copied_part(trace, columns, whole.as_mut(), &mut pace).await?;
                lap("page columns");
                if let Some(part) = part {
                    whole = Some(part);
                }
            }
            AnswerBody::Shared(part) => {
                match whole.as_mut() {
                    None => whole = Some(*part),
                    Some(whole) => merge_part(whole, *part)?,
                }
                lap("page merge");
            }
        }
        pace.tick().await;
    }
    let mut trace = whole.ok_or(DAMAGED)?;
    if let Some(note) = part_note {
        trace.metadata.push(("loaded part only".to_owned(), note));
    }
    crate::view_model::read_events::add_read_counters(&mut trace);
    let indexing = crate::browser::now();
    let (index, counter_index) = index_trace(&trace, &mut pace).await;
    cost.index_ms = crate::browser::now() - indexing;
    cost.phases.push(("page index".to_owned(), cost.index_ms));
    let mut loaded = Loaded::new(trace, index, counter_index, label);
    if let Some(header) = reopened {
        crate::view_model::saved_screen::reopened(&mut loaded, &header)?;
    }
    Ok((loaded, cost))
}

/// Decodes a copied answer and copies its columns in: the trace when it is
/// the first part, else `None` once it is merged into `whole`.
async fn copied_part(
    trace: js_sys::ArrayBuffer,
    columns: js_sys::Array,
    whole: Option<&mut Trace>,
    pace: &mut Pace,
) -> Result<Option<Trace>, String> {
    let bytes = js_sys::Uint8Array::new(&trace).to_vec();
    drop(trace);
    let mut part = codec::decode(&bytes).ok_or(DAMAGED)?;
    drop(bytes);
    pace.tick().await;
    match whole {
        None => {
            columns::attach(&mut part, columns, None, pace).await?;
            Ok(Some(part))
        }
        Some(whole) => {
            // The part's names are mapped into the whole trace's string
            // table as its columns are copied.
            columns::attach(&mut part, columns, Some(&mut *whole), pace).await?;
            move_threads(whole, part)?;
            Ok(None)
        }
    }
}

/// Each thread's rows and each counter's index (built here, where pauses
/// are allowed, not in the first frame: sp-rtrace's live-memory counter took
/// 15–35 ms there), in slices with a pause whenever `pace` says so.
pub async fn index_trace(trace: &Trace, pace: &mut Pace) -> (Vec<ThreadIndex>, Vec<CounterIndex>) {
    let mut index = Vec::with_capacity(trace.threads.len());
    for thread in &trace.threads {
        let mut builder = IndexBuilder::new();
        while !builder.advance(&thread.spans, INDEX_STEP) {
            pace.tick().await;
        }
        index.push(builder.finish());
        pace.tick().await;
    }
    let mut counters = Vec::with_capacity(trace.counters.len());
    for counter in &trace.counters {
        let mut builder = CounterIndexBuilder::default();
        while !builder.advance(counter, COUNTER_STEP) {
            pace.tick().await;
        }
        counters.push(builder.finish());
        pace.tick().await;
    }
    (index, counters)
}

/// Where the page's time to unpack went.
#[derive(Default)]
pub struct UnpackCost {
    /// Indexing the rows of every thread.
    pub index_ms: f64,
    /// (phase, ms) in order: per part decoding its codec buffer and copying
    /// its columns, then indexing.
    pub phases: Phases,
}
