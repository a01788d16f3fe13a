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
/// left undrawn is drawn when the gap has passed ([`Partial::draw_when_due`]),
/// or with the next one if that comes first: waiting for the next arrival
/// made gaps of a whole beat and more.
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
    /// A picture came within [`MIN_GAP_MS`] of the last drawn and is not drawn yet.
    waiting: bool,
    /// The timer that draws the waiting picture (dropping it cancels it).
    due: Option<gloo::timers::callback::Timeout>,
}

impl Partial {
    /// Has `draw` run once the picture taken in but not drawn may be drawn
    /// ([`MIN_GAP_MS`] after the last drawn); nothing when no picture waits
    /// or a timer is already set. `draw` should bring the waiting picture to
    /// [`draw_waiting`].
    pub fn draw_when_due(&mut self, draw: impl FnOnce() + 'static) {
        if !self.waiting || self.due.is_some() {
            return;
        }
        let wait = self.made_at + MIN_GAP_MS - crate::browser::now();
        // One millisecond more, so the gap has surely passed when it runs.
        let wait = wait.clamp(0.0, MIN_GAP_MS) as u32 + 1;
        self.due = Some(gloo::timers::callback::Timeout::new(wait, draw));
    }
}

/// `partial` with its waiting picture drawn (a new `loaded`), once
/// [`MIN_GAP_MS`] has passed since the last; else `partial` as it was.
pub fn draw_waiting(mut partial: Partial, label: &str) -> Partial {
    let now = crate::browser::now();
    if !partial.waiting || now - partial.made_at < MIN_GAP_MS {
        return Partial {
            due: None,
            ..partial
        };
    }
    match indexed(&mut partial.parts, label) {
        Some(loaded) => Partial {
            loaded: Rc::new(loaded),
            number: partial.number + 1,
            made_at: now,
            waiting: false,
            due: None,
            parts: partial.parts,
        },
        None => Partial {
            waiting: false,
            due: None,
            ..partial
        },
    }
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
    let (mut parts, last, due) = match previous {
        Some(p) => {
            let Partial {
                parts,
                loaded,
                number,
                made_at,
                due,
                ..
            } = p;
            (parts, Some((loaded, number, made_at)), due)
        }
        None => (Vec::new(), None, None),
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
            waiting: true,
            due,
        }),
        last => {
            let number = last.map_or(0, |(_, number, ..)| number + 1);
            let loaded = Rc::new(indexed(&mut parts, label)?);
            // A timer set for a picture now drawn is dropped (cancelled) here.
            drop(due);
            Some(Partial {
                parts,
                loaded,
                number,
                made_at: now,
                waiting: false,
                due: None,
            })
        }
    }
}

/// The latest pictures of every part, put together and indexed. A lone
/// worker's picture is moved, not copied: no other part's next picture
/// needs it, and a copy kept beside the drawn one is memory at the load's
/// peak.
fn indexed(parts: &mut [Option<Trace>], label: &str) -> Option<Loaded> {
    let pictures = match parts {
        [only] => only.take().into_iter().collect(),
        parts => parts.iter().flatten().cloned().collect(),
    };
    let trace = merge_previews(pictures)?;
    let index = trace
        .threads
        .iter()
        .map(|t| ThreadIndex::new(&t.spans))
        .collect();
    Some(Loaded::new(trace, index, Vec::new(), label.to_owned()))
}
