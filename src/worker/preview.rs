//! The pictures a worker posts while it decodes: on a fixed [`Beat`] (the
//! first [`FIRST_MS`] after the request arrived), what the decoder has built
//! so far, reduced by `Decoder::preview` (`TraceBuilder::preview` for most
//! formats) to a few thousand spans per thread and sent as one transferred buffer, so that the page can draw the
//! timeline long before the whole trace is ready.

use super::{now, post_transfer};
use crate::wire::protocol::WorkerEvent;
use flamedrop_core::input::Decoder;
use flamedrop_core::model::{codec, PreviewCursor, PreviewLimits};

/// The first picture, this long after the request arrived: soon enough for
/// the page to draw it within half a second of the files being chosen, late
/// enough that something was decoded.
const FIRST_MS: f64 = 120.0;

/// How often a worker posts a picture, on a fixed beat (not this long after
/// the last one was sent, which drifted to 300 ms gaps on a busy machine).
/// The page draws at most one every 200 ms whichever worker sent it
/// (`loading::preview`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Beat {
    /// Another worker posts pictures of the same load too: every 250 ms
    /// each, so the page gets one about every 125 ms. A 200 ms beat here
    /// cost the workers more pictures than the page drew (SWAP: 174
    /// against 35 ms of pictures, load 9–10).
    Shared,
    /// This worker's pictures are the only ones: every 200 ms, the page's
    /// own gap, so that a picture late by a chunk's decoding still comes
    /// within 250 ms of the last (on a 250 ms beat SELogger's one worker
    /// left gaps of 291 ms).
    Alone,
}

impl Beat {
    /// [`Beat::Shared`] when another worker posts pictures too.
    pub fn when_shared(shared: bool) -> Beat {
        if shared {
            Beat::Shared
        } else {
            Beat::Alone
        }
    }

    fn every_ms(self) -> f64 {
        match self {
            Beat::Shared => 250.0,
            Beat::Alone => 200.0,
        }
    }
}

/// When the next picture is due, and what the pictures cost.
pub struct Previews {
    wanted: bool,
    every_ms: f64,
    next_at: f64,
    /// What the last picture looked at (each looks only at what is new).
    cursor: PreviewCursor,
    /// Time spent making and posting pictures, in ms.
    pub spent_ms: f64,
}

impl Previews {
    /// Pictures for a request that arrived at `started`, if `wanted`, on
    /// `beat`.
    pub fn new(wanted: bool, started: f64, beat: Beat) -> Previews {
        Previews {
            wanted,
            every_ms: beat.every_ms(),
            next_at: started + FIRST_MS,
            cursor: PreviewCursor::default(),
            spent_ms: 0.0,
        }
    }

    /// Posts a picture of what `decoder` built so far, when one is due.
    pub fn tick(&mut self, decoder: &dyn Decoder) {
        if self.wanted && now() >= self.next_at {
            self.post(decoder);
        }
    }

    /// Posts a picture of what `decoder` holds now, due or not: part 0 of
    /// a joined decode once it joined part 1 (the whole input, while the
    /// trace is built).
    pub fn now(&mut self, decoder: &dyn Decoder) {
        if self.wanted {
            self.post(decoder);
        }
    }

    fn post(&mut self, decoder: &dyn Decoder) {
        let at = now();
        let Some(picture) = decoder.preview(&mut self.cursor, &PreviewLimits::default()) else {
            return;
        };
        let bytes = codec::encode(&picture);
        drop(picture);
        let array = js_sys::Uint8Array::new_with_length(bytes.len() as u32);
        array.copy_from(&bytes);
        let buffer = array.buffer();
        let transfer = js_sys::Array::of1(&buffer);
        post_transfer(&WorkerEvent::Preview { trace: buffer }, &transfer);
        let done = now();
        self.spent_ms += done - at;
        // On the beat, but never two pictures back to back after a late one.
        self.next_at = (self.next_at + self.every_ms).max(done + self.every_ms / 2.0);
    }
}
