//! Collapse recursion (direct or through other functions) on spans.
//!
//! Inside an outermost call O of F, at every moment the
//! calls below the innermost running call of F hang directly under O (as
//! Firefox Profiler reparents every inner F to O's caller, where it merges
//! with O). Inner calls of F go, their self time becoming O's. A call C
//! between two calls of F is therefore not on the stack while the inner F
//! runs: C is cut into pieces around it (each piece a span of C's name; the
//! first one keeps C's details and taken self time, the later ones are
//! flagged `SPAN_CONTINUED` so C still counts as one call).

use super::super::edit::SpanEdit;
use super::engine::span_at;
use crate::analysis::meter::Meter;
use crate::model::{Spans, StrId};

const NONE: u32 = u32::MAX;

/// An original span still open while collapsing recursion.
struct Open {
    index: usize,
    depth: u16,
    is_f: bool,
    /// Edit index of its current piece (non-F calls), or [`NONE`].
    piece: u32,
    /// Edit index of its latest piece (non-F calls), or [`NONE`].
    last_piece: u32,
}

/// The pass's state.
struct Collapser<'s> {
    spans: &'s Spans,
    edit: SpanEdit,
    open: Vec<Open>,
    /// Original depths of the open calls of F, outermost first.
    f_depths: Vec<u16>,
    /// The outermost open call of F: its position in `open`, its depth and
    /// its edit index.
    outer: Option<(usize, u16, u32)>,
}

/// Collapse recursion of `f` (see the module docs).
pub(super) async fn collapse_recursion(meter: &Meter, spans: &Spans, f: StrId) -> SpanEdit {
    let mut c = Collapser {
        spans,
        // Cutting calls into pieces can keep more spans than there were;
        // a little room spares copying every column when it does.
        edit: SpanEdit::with_capacity(spans.len() + spans.len() / 16),
        open: Vec::new(),
        f_depths: Vec::new(),
        outer: None,
    };
    for i in 0..spans.len() {
        meter.tick().await;
        let Some((start, end, depth, name)) = span_at(spans, i) else {
            break;
        };
        while c.open.last().is_some_and(|o| o.depth >= depth) {
            c.close();
        }
        c.enter(i, start, end, depth, name == f);
    }
    while !c.open.is_empty() {
        c.close();
    }
    c.edit
}

impl Collapser<'_> {
    /// Opens span `i`.
    fn enter(&mut self, i: usize, start: i64, end: i64, depth: u16, is_f: bool) {
        let name = self.spans.name.get(i).copied().unwrap_or(0);
        let taken = self.spans.taken_self(i);
        let piece = match self.outer {
            None => {
                let at = self.edit.len() as u32;
                self.edit.push(i as u32, start, end, depth, name, taken);
                if is_f {
                    self.outer = Some((self.open.len(), depth, at));
                }
                at
            }
            Some((_, _, outer_edit)) if is_f => {
                // An inner call: merged into the outer one; the calls
                // between the innermost open call of F and it are off the
                // stack while it runs.
                self.edit.add_taken(outer_edit, taken);
                for o in self.open.iter_mut().rev().take_while(|o| !o.is_f) {
                    if let Some(e) = self.edit.end.get_mut(o.piece as usize) {
                        *e = start;
                    }
                    o.piece = NONE;
                }
                NONE
            }
            Some(_) => {
                let at = self.edit.len() as u32;
                let d = self.depth_under(depth);
                self.edit.push(i as u32, start, end, d, name, taken);
                at
            }
        };
        if is_f {
            self.f_depths.push(depth);
        }
        self.open.push(Open {
            index: i,
            depth,
            is_f,
            piece,
            last_piece: piece,
        });
    }

    /// The new depth of a call at original `depth` inside the outermost
    /// call: as deep below it as below the innermost open call of F.
    fn depth_under(&self, depth: u16) -> u16 {
        let window = self.f_depths.last().copied().unwrap_or(0);
        let base = self.outer.map_or(0, |(_, d, _)| d);
        base.saturating_add(depth.saturating_sub(window))
    }

    /// Closes the innermost open span (most are not calls of F: nothing
    /// more to do for them).
    #[inline]
    fn close(&mut self) {
        if let Some(top) = self.open.pop() {
            if top.is_f {
                self.close_f(top);
            }
        }
    }

    /// A call of F ends: the outermost one ends the collapse; an inner one
    /// resumes the calls it had taken off the stack, each with a new piece.
    fn close_f(&mut self, top: Open) {
        self.f_depths.pop();
        let Some((outer_at, _, _)) = self.outer else {
            return;
        };
        if outer_at == self.open.len() {
            self.outer = None;
            return;
        }
        let resumed_at = self.spans.end.get(top.index).copied().unwrap_or(0);
        let chain = self.open.iter().rev().take_while(|o| !o.is_f).count();
        for k in self.open.len() - chain..self.open.len() {
            let Some(&Open { index, depth, .. }) = self.open.get(k) else {
                continue;
            };
            let end = self.spans.end.get(index).copied().unwrap_or(resumed_at);
            if end <= resumed_at {
                continue;
            }
            let d = self.depth_under(depth);
            let name = self.spans.name.get(index).copied().unwrap_or(0);
            let at = self.edit.len() as u32;
            self.edit.push(index as u32, resumed_at, end, d, name, 0);
            if let Some(o) = self.open.get_mut(k) {
                self.edit.continued.push((at, o.last_piece));
                o.piece = at;
                o.last_piece = at;
            }
        }
    }
}
