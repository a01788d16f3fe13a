//! The page's side of the pictures the decoding workers post while they
//! work (`worker::preview`): the latest one of each worker, put together
//! into a small trace the timeline can draw ([`Partial`]) until the whole
//! trace replaces it. `?preview=0` in the page's URL turns them off (for
//! comparing load times with and without).

use crate::browser::query_param;
use crate::view_model::Loaded;
use flamedrop_core::layout::ThreadIndex;
use flamedrop_core::model::{codec, merge_previews};
use flamedrop_core::Trace;
use std::cell::Cell;
use std::rc::Rc;

thread_local! {
    static WANTED: Cell<Option<bool>> = const { Cell::new(None) };
}

/// Reads `?preview=0` from the page's URL; called when the page starts
/// (opening files clears the query).
pub fn read_query() {
    let off = query_param("preview").as_deref() == Some("0");
    WANTED.with(|w| w.set(Some(!off)));
}

/// Do loads of the trace on screen ask their workers for pictures?
pub fn wanted() -> bool {
    WANTED.with(|w| w.get().unwrap_or(true))
}

/// What was decoded so far, as the timeline draws it while loading.
pub struct Partial {
    /// Each worker's latest picture, by part.
    parts: Vec<Option<Trace>>,
    /// The pictures put together and indexed.
    pub loaded: Rc<Loaded>,
    /// Counts the pictures of this load (the chart is made anew for each).
    pub number: u32,
}

/// `previous` with worker `part`'s new picture `buffer` taken in
/// (`previous` unchanged when the picture does not decode).
pub fn take_in(
    previous: Option<Partial>,
    part: u32,
    buffer: &js_sys::ArrayBuffer,
    label: &str,
) -> Option<Partial> {
    let bytes = js_sys::Uint8Array::new(buffer).to_vec();
    let Some(picture) = codec::decode(&bytes) else {
        return previous;
    };
    let (mut parts, number) = match previous {
        Some(p) => (p.parts, p.number + 1),
        None => (Vec::new(), 0),
    };
    let at = part as usize;
    if parts.len() <= at {
        parts.resize_with(at + 1, || None);
    }
    if let Some(slot) = parts.get_mut(at) {
        *slot = Some(picture);
    }
    let trace = merge_previews(parts.iter().flatten().cloned().collect())?;
    let index = trace
        .threads
        .iter()
        .map(|t| ThreadIndex::new(&t.spans))
        .collect();
    let loaded = Loaded::new(trace, index, Vec::new(), label.to_owned());
    Some(Partial {
        parts,
        loaded: Rc::new(loaded),
        number,
    })
}
