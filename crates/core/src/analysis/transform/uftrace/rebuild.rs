//! The calls uftrace counts, written back as spans: each counted call keeps
//! its span (details and flags follow it), with the length uftrace gives it
//! (its own, except where uftrace's stack was entered mid-way by `-r`), a
//! depth from how the kept calls nest, and the taken self time that makes
//! `report()`'s self time equal uftrace's: what the call's counted children
//! do not explain (children uftrace dropped but still counts as children).

use super::fstack::{Fstack, NOT_REPORTED};
use crate::analysis::meter::Meter;
use crate::analysis::transform::edit::SpanEdit;
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
    // The calls reported as they are come in span order; the others (few:
    // where uftrace's stack was entered mid-way) are sorted apart and merged
    // in, which gives what sorting them all gives when the span order is
    // the sort order (checked: else everything is sorted).
    let mut others: Vec<Kept> = fs.entered.iter().map(|&span| abandoned(span)).collect();
    others.extend(fs.odd.iter().map(|r| Kept {
        from: r.span,
        start: r.end - r.total,
        end: r.end,
        name: r.name,
        self_time: Some(r.self_time),
    }));
    others.sort_by_key(sort_key);
    let mut count = others.len();
    let mut in_order = true;
    let mut last = None;
    for (i, &t) in fs.self_time.iter().enumerate() {
        meter.tick().await;
        if t != NOT_REPORTED {
            count += 1;
            let key = sort_key(&abandoned(i as u32));
            in_order &= last.is_none_or(|last| last <= key);
            last = Some(key);
        }
    }
    if in_order {
        let mut as_it_is = as_it_is.peekable();
        let mut others = others.into_iter().peekable();
        let merged = std::iter::from_fn(move || match (as_it_is.peek(), others.peek()) {
            (Some(Some(k)), Some(o)) if sort_key(o) < sort_key(k) => others.next().map(Some),
            (Some(_), _) => as_it_is.next(),
            (None, _) => others.next().map(Some),
        });
        return nest(spans, merged, count, meter).await;
    }
    let mut kept: Vec<Kept> = as_it_is.flatten().collect();
    kept.extend(others);
    kept.sort_by_key(sort_key);
    nest(spans, kept.into_iter().map(Some), count, meter).await
}

/// Where `k` is drawn, after the previous call of its depth (ending at
/// `previous`) and inside its parent (ending at `parent_end`).
fn place(k: &Kept, previous: Option<i64>, parent_end: Option<i64>) -> (i64, i64) {
    // Only where uftrace's own numbers overlap (a stack entered mid-way)
    // does a call move after the previous call of its depth, keeping the
    // length uftrace gives it; never outside the call it is drawn in.
    let mut start = previous.map_or(k.start, |p| k.start.max(p));
    let mut end = start + (k.end - k.start).max(0);
    if let Some(parent_end) = parent_end {
        end = end.min(parent_end);
        start = start.min(end);
    }
    (start, end)
}

/// The order kept calls are laid out in: by start, the longer first.
fn sort_key(k: &Kept) -> (i64, std::cmp::Reverse<i64>, u32) {
    (k.start, std::cmp::Reverse(k.end), k.from)
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
        let parent_end = stack.last().map(|p| p.end);
        let (start, end) = place(&k, last_end.get(depth).copied(), parent_end);
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
