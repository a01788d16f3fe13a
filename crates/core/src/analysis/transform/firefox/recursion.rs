//! Collapse recursion (direct or through other functions) on spans.
//!
//! Inside an outermost call O of F, at every moment the
//! calls below the innermost running call of F hang directly under O (as
//! Firefox Profiler reparents every inner F to O's caller, where it merges
//! with O). Inner calls of F go, their self time becoming O's. A call C
//! between two calls of F is therefore not on the stack while the inner F
//! runs: C is cut into pieces around it (each piece a span of C's name; the
//! first one keeps C's details and taken self time).

use super::super::edit::SpanEdit;
use super::engine::span_at;
use crate::model::{Spans, StrId};

const NONE: u32 = u32::MAX;

/// An original span still open while collapsing recursion.
struct Open {
    index: usize,
    depth: u16,
    is_f: bool,
    /// Edit index of its current piece (non-F calls), or [`NONE`].
    piece: u32,
}

/// Collapse recursion of `f` (see the module docs).
pub(super) fn collapse_recursion(spans: &Spans, f: StrId) -> SpanEdit {
    let n = spans.len();
    let mut edit = SpanEdit::with_capacity(n);
    let mut open: Vec<Open> = Vec::new();
    // The outermost open call of `f`: its position in `open`, edit index.
    let mut outer: Option<(usize, u32)> = None;
    for i in 0..n {
        let Some((start, end, depth, name)) = span_at(spans, i) else {
            break;
        };
        while open.last().is_some_and(|o| o.depth >= depth) {
            close(spans, &mut open, &mut outer, &mut edit);
        }
        let is_f = name == f;
        let Some((o_at, o_edit)) = outer else {
            let at = edit.len() as u32;
            edit.push(i as u32, start, end, depth, name, spans.taken_self(i));
            if is_f {
                outer = Some((open.len(), at));
            }
            open.push(Open {
                index: i,
                depth,
                is_f,
                piece: at,
            });
            continue;
        };
        let piece = if is_f {
            // An inner call: merged into the outer one; the calls between
            // the innermost open call of `f` and it are off the stack
            // while it runs.
            edit.add_taken(o_edit, spans.taken_self(i));
            for o in open.iter_mut().rev().take_while(|o| !o.is_f) {
                if let Some(e) = edit.end.get_mut(o.piece as usize) {
                    *e = start;
                }
                o.piece = NONE;
            }
            NONE
        } else {
            let at = edit.len() as u32;
            let d = depth_under(&open, o_at, depth);
            edit.push(i as u32, start, end, d, name, spans.taken_self(i));
            at
        };
        open.push(Open {
            index: i,
            depth,
            is_f,
            piece,
        });
    }
    while !open.is_empty() {
        close(spans, &mut open, &mut outer, &mut edit);
    }
    edit
}

/// The new depth of a call at original `depth` inside the outermost call
/// `open[outer]`: as deep below it as below the innermost open call of `f`.
fn depth_under(open: &[Open], outer: usize, depth: u16) -> u16 {
    let window = open.iter().rev().find(|o| o.is_f).map_or(0, |o| o.depth);
    let base = open.get(outer).map_or(0, |o| o.depth);
    base.saturating_add(depth.saturating_sub(window))
}

/// Closes the innermost open span; an inner call of `f` ending resumes the
/// calls it had taken off the stack, each with a new piece.
fn close(
    spans: &Spans,
    open: &mut Vec<Open>,
    outer: &mut Option<(usize, u32)>,
    edit: &mut SpanEdit,
) {
    let Some(top) = open.pop() else {
        return;
    };
    let Some((o_at, _)) = *outer else {
        return;
    };
    if o_at == open.len() {
        *outer = None;
        return;
    }
    if !top.is_f {
        return;
    }
    let resumed_at = spans.end.get(top.index).copied().unwrap_or(0);
    let chain = open.iter().rev().take_while(|o| !o.is_f).count();
    let first = open.len() - chain;
    for k in first..open.len() {
        let Some(o) = open.get(k) else { continue };
        let (index, depth) = (o.index, o.depth);
        let end = spans.end.get(index).copied().unwrap_or(resumed_at);
        if end <= resumed_at {
            continue;
        }
        let d = depth_under(&open[..k], o_at, depth);
        let name = spans.name.get(index).copied().unwrap_or(0);
        let at = edit.len() as u32;
        edit.push(index as u32, resumed_at, end, d, name, 0);
        if let Some(o) = open.get_mut(k) {
            o.piece = at;
        }
    }
}
