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

/// New pictures are drawn at most this often: with two workers each
/// posting every 250 ms, drawing every arrival would paint the chart twice as
/// often as the pictures change much, on the CPU the workers need. A picture
/// left undrawn is drawn with the next one that comes after the gap.
const MIN_GAP_MS: f64 = 200.0;

/// What was decoded so far, as the timeline draws it while loading.
pub struct Partial {
    /// Each worker's latest picture, by part.
    parts: Vec<Option<Trace>>,
    /// The pictures put together and indexed, as last drawn.
    pub loaded: Rc<Loaded>,
    /// Counts the pictures drawn in this load (the chart is made anew for each).
    pub number: u32,
    /// When `loaded` was made (`browser::now`).
    made_at: f64,
}

/// `previous` with worker `part`'s new picture `buffer` taken in
/// (`previous` unchanged when the picture does not decode). The picture is
/// drawn (a new `loaded`) only when [`MIN_GAP_MS`] passed since the last.
pub fn take_in(
    previous: Option<Partial>,
    part: u32,
    buffer: &js_sys::ArrayBuffer,
    label: &str,
) -> Option<Partial> {
    let now = crate::browser::now();
    let bytes = js_sys::Uint8Array::new(buffer).to_vec();
    let Some(picture) = codec::decode(&bytes) else {
        return previous;
    };
    let (mut parts, last) = match previous {
        Some(p) => {
            let Partial {
                parts,
                loaded,
                number,
                made_at,
            } = p;
            (parts, Some((loaded, number, made_at)))
        }
        None => (Vec::new(), None),
    };
    let at = part as usize;
    if parts.len() <= at {
        parts.resize_with(at + 1, || None);
    }
    if let Some(slot) = parts.get_mut(at) {
        *slot = Some(picture);
    }
    match last {
        Some((loaded, number, made_at)) if now - made_at < MIN_GAP_MS => Some(Partial {
            parts,
            loaded,
            number,
            made_at,
        }),
        last => {
            let number = last.map_or(0, |(_, number, ..)| number + 1);
            let loaded = Rc::new(indexed(&parts, label)?);
            Some(Partial {
                parts,
                loaded,
                number,
                made_at: now,
            })
        }
    }
}

/// The latest pictures of every part, put together and indexed.
fn indexed(parts: &[Option<Trace>], label: &str) -> Option<Loaded> {
    let trace = merge_previews(parts.iter().flatten().cloned().collect())?;
    let index = trace
        .threads
        .iter()
        .map(|t| ThreadIndex::new(&t.spans))
        .collect();
    Some(Loaded::new(trace, index, Vec::new(), label.to_owned()))
}
