//! Focus on self on spans: only the time F spends in itself. Every
//! outermost call of F becomes a root without children; its self time is
//! the sum of the self times of all calls of F in its subtree (recursion
//! included) and the rest of its length is taken — Firefox Profiler keeps
//! the samples whose leaf is F, all under one root F.

use super::super::edit::SpanEdit;
use super::engine::span_at;
use crate::analysis::meter::Meter;
use crate::model::{Spans, StrId, SPAN_ABANDONED};

/// An original span still open during the pass.
struct Frame {
    index: usize,
    depth: u16,
    /// Time of its children (abandoned ones add none, as in `walk`).
    child_time: i64,
}

/// The outermost open call of F.
struct Outer {
    /// Its place in the open chain.
    at: usize,
    /// Its edit index.
    kept: u32,
    /// Self time of the calls of F closed inside it so far.
    self_sum: i64,
}

/// Focus on self of `f` (see the module docs).
pub(super) async fn focus_self(meter: &Meter, spans: &Spans, f: StrId) -> SpanEdit {
    let mut edit = SpanEdit::default();
    let mut open: Vec<Frame> = Vec::new();
    let mut outer: Option<Outer> = None;
    for i in 0..spans.len() {
        meter.tick().await;
        let Some((start, end, depth, name)) = span_at(spans, i) else {
            break;
        };
        while open.last().is_some_and(|o| o.depth >= depth) {
            finish(spans, f, &mut open, &mut outer, &mut edit);
        }
        if outer.is_none() && name == f {
            outer = Some(Outer {
                at: open.len(),
                kept: edit.len() as u32,
                self_sum: 0,
            });
            edit.push(i as u32, start, end, 0, name, spans.taken_self(i));
        }
        open.push(Frame {
            index: i,
            depth,
            child_time: 0,
        });
    }
    while !open.is_empty() {
        finish(spans, f, &mut open, &mut outer, &mut edit);
    }
    edit
}

/// Closes the innermost open span: its time goes to its parent's child
/// time, a call of `f`'s self time to the outer call's sum; the outer call
/// closing takes all but that sum.
fn finish(
    spans: &Spans,
    f: StrId,
    open: &mut Vec<Frame>,
    outer: &mut Option<Outer>,
    edit: &mut SpanEdit,
) {
    let Some(frame) = open.pop() else {
        return;
    };
    let i = frame.index;
    let abandoned = spans
        .flags
        .get(i)
        .is_some_and(|fl| fl & SPAN_ABANDONED != 0);
    let own = match (spans.start.get(i), spans.end.get(i)) {
        (Some(&s), Some(&e)) if !abandoned => e.saturating_sub(s),
        _ => 0,
    };
    if let Some(parent) = open.last_mut() {
        parent.child_time = parent.child_time.saturating_add(own);
    }
    let Some(o) = outer.as_mut() else {
        return;
    };
    if spans.name.get(i) == Some(&f) && !abandoned {
        o.self_sum += own - frame.child_time - spans.taken_self(i);
    }
    if o.at == open.len() {
        // An abandoned call is neither timed nor counted: nothing to take.
        if !abandoned {
            edit.add_taken(o.kept, own - o.self_sum - spans.taken_self(i));
        }
        *outer = None;
    }
}
