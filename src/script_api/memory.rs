//! The Memory view's part of `window.flamedrop` (installed by
//! `script_api::install`):
//!
//! - `memory()`: `{state: {resource, filter, moment, sizes_by_bytes},
//!   range, summary}` for the trace on screen: `summary` is the core's
//!   `MemorySummary` (`resource`, `unit`, `selected`, `total`, `series:
//!   {points, peak, end}`, `at`, `live_groups`, `sizes`, `lifetimes`,
//!   `rates`) for the Memory view's resource, filter and listed moment
//!   within the ruler's range — the numbers the view shows, whether or not
//!   it is open; `null` without a trace or allocations. Written through
//!   JSON so numbers past 2^53 (SWAP's timestamps, an open size bound)
//!   arrive as (rounded) numbers rather than failing.

use super::{set, Published, Snapshot};
use flamedrop_core::analysis::memory::{MemoryFilter, MemorySummary, Moment};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Adds `memory` to the `window.flamedrop` object.
pub fn install_into(api: &js_sys::Object, published: &Published) {
    let p = published.clone();
    let memory: Closure<dyn Fn() -> JsValue> = Closure::new(move || memory(&p.borrow()));
    set(api, "memory", memory);
}

#[derive(Serialize)]
struct State<'a> {
    resource: u32,
    filter: &'a MemoryFilter,
    moment: Moment,
    sizes_by_bytes: bool,
}

#[derive(Serialize)]
struct Answer<'a> {
    state: State<'a>,
    range: Option<(i64, i64)>,
    summary: MemorySummary,
}

fn memory(snapshot: &Snapshot) -> JsValue {
    let Some(loaded) = &snapshot.loaded else {
        return JsValue::NULL;
    };
    let state = snapshot.views.memory.for_trace(&loaded.trace);
    let range = snapshot.views.range;
    match state.summarize(&loaded.trace, range) {
        Ok(summary) => as_json(&Answer {
            state: State {
                resource: state.resource,
                filter: &state.filter,
                moment: state.moment,
                sizes_by_bytes: state.sizes_by_bytes,
            },
            range,
            summary,
        }),
        Err(_) => JsValue::NULL,
    }
}

/// `value` as a plain JS object, through JSON text.
fn as_json<T: Serialize>(value: &T) -> JsValue {
    serde_json::to_string(value)
        .ok()
        .and_then(|text| js_sys::JSON::parse(&text).ok())
        .unwrap_or(JsValue::NULL)
}
