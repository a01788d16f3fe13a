//! The calls uftrace counts, written back as spans: each counted call keeps
//! its span (details and flags follow it), with the length uftrace gives it
//! (its own, except where uftrace's stack was entered mid-way by `-r`), a
//! depth from how the kept calls nest, and the taken self time that makes
//! `report()`'s self time equal uftrace's: what the call's counted children
//! do not explain (children uftrace dropped but still counts as children).

use super::fstack::Reported;
use crate::analysis::transform::edit::SpanEdit;
use crate::model::{Spans, SPAN_ABANDONED};

/// One kept span before nesting.
struct Kept {
    from: u32,
    start: i64,
    end: i64,
    name: u32,
    /// Self time uftrace reports; `None` for a call that never returned
    /// (drawn, not counted).
    self_time: Option<i64>,
}

/// The edit keeping `reported` (and the never-returning calls in `entered`).
pub fn edit(spans: &Spans, reported: &[Reported], entered: &[u32]) -> SpanEdit {
    let mut kept: Vec<Kept> = reported
        .iter()
        .map(|r| Kept {
            from: r.span,
            start: r.end - r.total,
            end: r.end,
            name: r.name,
            self_time: Some(r.self_time),
        })
        .collect();
    for &span in entered {
        let at = span as usize;
        if spans.flags.get(at).is_some_and(|f| f & SPAN_ABANDONED != 0) {
            kept.push(Kept {
                from: span,
                start: spans.start.get(at).copied().unwrap_or(0),
                end: spans.end.get(at).copied().unwrap_or(0),
                name: spans.name.get(at).copied().unwrap_or(0),
                self_time: None,
            });
        }
    }
    let exact = kept.iter().all(|k| {
        let at = k.from as usize;
        spans.start.get(at) == Some(&k.start) && spans.end.get(at) == Some(&k.end)
    });
    if exact {
        // Spans are in start order already: their index is the order.
        kept.sort_unstable_by_key(|k| k.from);
    } else {
        kept.sort_by(|a, b| {
            (a.start, std::cmp::Reverse(a.end), a.from).cmp(&(
                b.start,
                std::cmp::Reverse(b.end),
                b.from,
            ))
        });
    }
    nest(spans, &kept)
}

/// Lays `kept` (in start order) out as nested spans.
fn nest(spans: &Spans, kept: &[Kept]) -> SpanEdit {
    struct Open {
        at: usize,
        start: i64,
        end: i64,
        children: i64,
    }
    let mut out = SpanEdit::default();
    let mut targets: Vec<Option<i64>> = Vec::with_capacity(kept.len());
    let mut stack: Vec<Open> = Vec::new();
    // Per depth, where the previous span of that depth ended.
    let mut last_end: Vec<i64> = Vec::new();
    let close = |open: Open, out: &mut SpanEdit, targets: &[Option<i64>], stack: &mut Vec<Open>| {
        let duration = open.end - open.start;
        if let (Some(Some(self_time)), Some(taken)) =
            (targets.get(open.at), out.taken_self.get_mut(open.at))
        {
            *taken = duration - self_time - open.children;
        }
        let abandoned = targets.get(open.at).is_some_and(Option::is_none);
        if let (Some(parent), false) = (stack.last_mut(), abandoned) {
            parent.children += duration;
        }
    };
    for k in kept {
        while let Some(top) = stack.last() {
            if top.start <= k.start && k.end <= top.end {
                break;
            }
            if let Some(open) = stack.pop() {
                close(open, &mut out, &targets, &mut stack);
            }
        }
        let depth = stack.len();
        let mut start = k.start;
        if let Some(&previous) = last_end.get(depth) {
            // Only where uftrace's own numbers overlap (a stack entered
            // mid-way): the call moves after the previous call of its
            // depth, keeping the length uftrace gives it.
            start = start.max(previous);
        }
        let end = start + (k.end - k.start).max(0);
        last_end.truncate(depth);
        last_end.push(end);
        let taken = if k.self_time.is_none() {
            spans.taken_self(k.from as usize)
        } else {
            0
        };
        out.push(
            k.from,
            start,
            end,
            depth.min(usize::from(u16::MAX)) as u16,
            k.name,
            taken,
        );
        targets.push(k.self_time);
        stack.push(Open {
            at: out.len() - 1,
            start,
            end,
            children: 0,
        });
    }
    while let Some(open) = stack.pop() {
        close(open, &mut out, &targets, &mut stack);
    }
    out
}
