//! The calls uftrace counts, written back as spans: each counted call keeps
//! its span (details and flags follow it), with the length uftrace gives it
//! (its own, except where uftrace's stack was entered mid-way by `-r`), a
//! depth from how the kept calls nest, and the taken self time that makes
//! `report()`'s self time equal uftrace's: what the call's counted children
//! do not explain (children uftrace dropped but still counts as children).

use super::fstack::{Fstack, NOT_REPORTED};
use crate::analysis::transform::edit::SpanEdit;
use crate::analysis::transform::meter::Meter;
use crate::model::Spans;

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

/// The edit keeping what the replay `fs` counted (and the never-returning
/// calls it let in), spending one unit of `meter` a span.
pub async fn edit(spans: &Spans, fs: &Fstack<'_>, meter: &Meter) -> SpanEdit {
    let abandoned = |span: u32| Kept {
        from: span,
        start: spans.start.get(span as usize).copied().unwrap_or(0),
        end: spans.end.get(span as usize).copied().unwrap_or(0),
        name: spans.name.get(span as usize).copied().unwrap_or(0),
        self_time: None,
    };
    // One item a span (`None`: not reported), so that the meter counts the
    // spans passed over too.
    let as_it_is = fs.self_time.iter().enumerate().map(|(i, &t)| {
        (t != NOT_REPORTED).then(|| Kept {
            self_time: Some(t),
            ..abandoned(i as u32)
        })
    });
    if fs.odd.is_empty() && fs.entered.is_empty() {
        // Spans are in start order already: no sort.
        let mut count = 0;
        for &t in &fs.self_time {
            meter.tick().await;
            count += usize::from(t != NOT_REPORTED);
        }
        return nest(spans, as_it_is, count, meter).await;
    }
    let mut kept: Vec<Kept> = as_it_is.flatten().collect();
    kept.extend(fs.entered.iter().map(|&span| abandoned(span)));
    kept.extend(fs.odd.iter().map(|r| Kept {
        from: r.span,
        start: r.end - r.total,
        end: r.end,
        name: r.name,
        self_time: Some(r.self_time),
    }));
    kept.sort_by(|a, b| {
        let key = |k: &Kept| (k.start, std::cmp::Reverse(k.end), k.from);
        key(a).cmp(&key(b))
    });
    let count = kept.len();
    nest(spans, kept.into_iter().map(Some), count, meter).await
}

/// Lays `kept` (in start order, `count` of them; `None`s are passed
/// over) out as nested spans.
async fn nest(
    spans: &Spans,
    kept: impl Iterator<Item = Option<Kept>>,
    count: usize,
    meter: &Meter,
) -> SpanEdit {
    struct Open {
        at: usize,
        start: i64,
        end: i64,
        children: i64,
    }
    let mut out = SpanEdit::with_capacity(count);
    let mut targets: Vec<Option<i64>> = Vec::with_capacity(count);
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
        meter.tick().await;
        let Some(k) = k else { continue };
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
