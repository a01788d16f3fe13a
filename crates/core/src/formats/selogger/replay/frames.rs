//! The per-thread stack of open frames and its rules: which frames an event
//! shows to be over, how frames an exception left without an exit are
//! closed, and how a frame's span ends.

use super::Replay;
use crate::model::{Field, SpanRef, ThreadRef, SPAN_CUT};

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum FrameKind {
    Method,
    /// A call site; holds the CALL's data id.
    Call(u32),
}

pub(super) struct Frame {
    pub kind: FrameKind,
    pub method: u32,
    pub span: SpanRef,
    /// Parameters seen so far (the next `param N`).
    pub params: u32,
    pub start_millis: Option<i64>,
}

impl Frame {
    /// A frame of `method` whose span `span` opened at an event with
    /// wall-clock time `start_millis`.
    pub fn open(kind: FrameKind, method: u32, span: SpanRef, start_millis: Option<i64>) -> Self {
        Frame {
            kind,
            method,
            span,
            params: 0,
            start_millis,
        }
    }
}

/// One SELogger thread: its lane and its open frames.
pub(super) struct ThreadState {
    pub lane: ThreadRef,
    pub frames: Vec<Frame>,
}

impl ThreadState {
    /// The span and number of the next parameter of the innermost frame,
    /// when that frame is of `method` and a call site (`call`) or a method.
    pub fn next_param(&mut self, method: u32, call: bool) -> Option<(SpanRef, u32)> {
        let top = self.frames.last_mut()?;
        let is_call = matches!(top.kind, FrameKind::Call(_));
        if is_call != call || top.method != method {
            return None;
        }
        let n = top.params;
        top.params += 1;
        Some((top.span, n))
    }
}

/// The innermost method frame of `method`.
pub(super) fn find_method(frames: &[Frame], method: u32) -> Option<usize> {
    frames
        .iter()
        .rposition(|f| f.kind == FrameKind::Method && f.method == method)
}

impl Replay {
    /// Ends `frame`'s span at `time`, with its wall-clock interval when both
    /// ends have one.
    pub(super) fn end_frame(
        &mut self,
        lane: ThreadRef,
        frame: &Frame,
        time: i64,
        millis: Option<i64>,
    ) {
        if let (Some(start), Some(end)) = (frame.start_millis, millis) {
            self.builder.add_detail(
                lane,
                frame.span,
                Field::new(
                    "time (ms)",
                    format!("{start} – {end} ({} ms)", end.saturating_sub(start)),
                ),
            );
        }
        self.builder.end(lane, time);
    }

    /// Closes frames above index `at`, which an exception left without exits.
    /// Inlined for the common case, nothing to close (nearly every event).
    #[inline]
    pub(super) fn close_above(&mut self, state: &mut ThreadState, at: usize, seq: i64) {
        if state.frames.len() > at + 1 {
            self.close_stale(state, at, seq);
        }
    }

    /// [`Replay::close_above`] when there are frames to close.
    #[inline(never)]
    fn close_stale(&mut self, state: &mut ThreadState, at: usize, seq: i64) {
        while state.frames.len() > at + 1 {
            let Some(frame) = state.frames.pop() else {
                break;
            };
            let (why, flags) = match frame.kind {
                FrameKind::Method => ("left by an exception: no exit was recorded", SPAN_CUT),
                FrameKind::Call(_) => ("no CALL_RETURN: the callee threw", 0),
            };
            self.builder
                .add_detail(state.lane, frame.span, Field::new("exception", why));
            self.builder.add_flags(state.lane, frame.span, flags);
            self.builder.end(state.lane, seq);
        }
    }

    /// An event of `method` shows control is in that method: frames above its
    /// innermost frame are stale, except its own open call site (kept unless
    /// `close_calls`, which catch handlers set).
    pub(super) fn settle(
        &mut self,
        state: &mut ThreadState,
        method: u32,
        close_calls: bool,
        seq: i64,
    ) {
        if let Some(keep) = settled_top(&state.frames, method, close_calls) {
            self.close_above(state, keep, seq);
        }
    }
}

/// The frame [`Replay::settle`] keeps on top for an event of `method`: its
/// innermost frame, or the open call site of it right above (unless
/// `close_calls`); `None` when `method` has no frame.
fn settled_top(frames: &[Frame], method: u32, close_calls: bool) -> Option<usize> {
    let at = find_method(frames, method)?;
    if !close_calls {
        if let Some(next) = frames.get(at + 1) {
            if matches!(next.kind, FrameKind::Call(_)) && next.method == method {
                return Some(at + 1);
            }
        }
    }
    Some(at)
}

/// Whether [`Replay::settle`] would close frames for an event of `method`.
pub(super) fn has_stale(frames: &[Frame], method: u32, close_calls: bool) -> bool {
    settled_top(frames, method, close_calls).is_some_and(|keep| frames.len() > keep + 1)
}
