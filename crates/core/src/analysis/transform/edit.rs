//! How a step's result is written back into a trace: a [`SpanEdit`] lists
//! the spans a step keeps (with their new times, depth, name and taken self
//! time) and [`rebuild_spans`] turns it into the thread's new columns, detail
//! fields following their spans; [`map_stacks`] rewrites every sample and
//! allocation stack through a step's function on frame lists, dropping the
//! samples and allocations whose stack it refuses.

use crate::fast_hash::FastMap;
use crate::model::{
    Details, Spans, StackTable, StrId, Trace, NO_PARENT, SPAN_CONTINUED, SPAN_OPEN_AT_END,
};

/// The spans one step keeps of one thread, in their new order (start order,
/// nested), each with where it came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpanEdit {
    /// Index of each kept span in the thread's spans before the step.
    pub from: Vec<u32>,
    pub start: Vec<i64>,
    pub end: Vec<i64>,
    pub depth: Vec<u16>,
    pub name: Vec<StrId>,
    /// Self time taken from the span (see `Spans::taken_self`), including
    /// what earlier steps took.
    pub taken_self: Vec<i64>,
    /// (piece, previous piece): edit indices of the later pieces of a span
    /// kept in several pieces, each with the piece before it. A later piece
    /// is flagged `SPAN_CONTINUED`; only the last keeps `SPAN_OPEN_AT_END`.
    pub continued: Vec<(u32, u32)>,
}

impl SpanEdit {
    /// An empty edit with room for `spans` kept spans.
    pub fn with_capacity(spans: usize) -> SpanEdit {
        SpanEdit {
            from: Vec::with_capacity(spans),
            start: Vec::with_capacity(spans),
            end: Vec::with_capacity(spans),
            depth: Vec::with_capacity(spans),
            name: Vec::with_capacity(spans),
            taken_self: Vec::with_capacity(spans),
            continued: Vec::new(),
        }
    }

    /// Adds `taken` to the self time taken from kept span `at` (an index
    /// into this edit); nothing happens for an index not kept.
    #[inline]
    pub fn add_taken(&mut self, at: u32, taken: i64) {
        if let Some(t) = self.taken_self.get_mut(at as usize) {
            *t = t.saturating_add(taken);
        }
    }

    /// Keeps span `from` with every column given.
    #[inline(always)]
    pub fn push(&mut self, from: u32, start: i64, end: i64, depth: u16, name: StrId, taken: i64) {
        self.from.push(from);
        self.start.push(start);
        self.end.push(end);
        self.depth.push(depth);
        self.name.push(name);
        self.taken_self.push(taken);
    }

    /// Number of kept spans.
    #[inline]
    pub fn len(&self) -> usize {
        self.from.len()
    }

    /// True when the step kept nothing.
    pub fn is_empty(&self) -> bool {
        self.from.is_empty()
    }
}

/// The spans `edit` describes; flags and detail fields come from the span
/// each was kept from (a span kept in several pieces gives its details to
/// the first).
pub fn rebuild_spans(spans: &Spans, edit: SpanEdit) -> Spans {
    let mut flags: Vec<u8> = edit
        .from
        .iter()
        .map(|&f| spans.flags.get(f as usize).copied().unwrap_or(0))
        .collect();
    for &(piece, previous) in &edit.continued {
        if let Some(f) = flags.get_mut(piece as usize) {
            *f |= SPAN_CONTINUED;
        }
        if let Some(f) = flags.get_mut(previous as usize) {
            *f &= !SPAN_OPEN_AT_END;
        }
    }
    let details = follow_details(spans, &edit.from);
    let taken_self = if edit.taken_self.iter().all(|&t| t == 0) {
        Vec::new()
    } else {
        edit.taken_self
    };
    Spans {
        start: edit.start,
        end: edit.end,
        depth: edit.depth,
        name: edit.name,
        flags,
        details,
        taken_self,
    }
}

/// `spans`' detail groups, owned by the new index of their span (`from`
/// lists the old index of each new span); groups of spans not kept go.
fn follow_details(spans: &Spans, from: &[u32]) -> Details {
    if spans.details.is_empty() {
        return Details::default();
    }
    let mut new_index: Vec<u32> = vec![u32::MAX; spans.len()];
    for (to, &from) in from.iter().enumerate() {
        if let Some(slot) = new_index.get_mut(from as usize) {
            if *slot == u32::MAX {
                *slot = to as u32;
            }
        }
    }
    let mut details = spans.details.clone();
    // Groups are ordered by owner and kept spans keep their order, so
    // renumbering the kept owners leaves them ascending; the payload and
    // shapes stay whole (a dropped group's slots are simply not referred to).
    let mut keep_group = Vec::with_capacity(details.groups());
    for owner in details.owners_mut() {
        let to = new_index.get(*owner as usize).copied().unwrap_or(u32::MAX);
        keep_group.push(to != u32::MAX);
        *owner = to;
    }
    retain_by(details.owners_mut(), &keep_group);
    retain_by(&mut details.shape, &keep_group);
    retain_by(&mut details.first, &keep_group);
    details
}

fn retain_by<T>(column: &mut Vec<T>, keep: &[bool]) {
    let mut i = 0;
    column.retain(|_| {
        let k = keep.get(i).copied().unwrap_or(false);
        i += 1;
        k
    });
}

/// Rewrites every sample set's and allocation resource's stacks through
/// `map` (frames outermost first → the new frames, or `None` to drop the
/// sample or allocation; an empty list drops it too). Each distinct stack is
/// mapped once; the stack table is rebuilt with only the stacks in use.
pub fn map_stacks(trace: &mut Trace, mut map: impl FnMut(&[StrId]) -> Option<Vec<StrId>>) {
    let old = std::mem::take(&mut trace.stacks);
    let mut table = Interner::default();
    let mut mapped: FastMap<u32, Option<u32>> = FastMap::default();
    let mut new_stack = |stack: u32| -> Option<u32> {
        *mapped.entry(stack).or_insert_with(|| {
            let frames = map(&old.frames(stack))?;
            (!frames.is_empty()).then(|| table.intern(&frames))
        })
    };
    for set in &mut trace.sample_sets {
        let kept: Vec<Option<u32>> = set.stack.iter().map(|&s| new_stack(s)).collect();
        let keep: Vec<bool> = kept.iter().map(Option::is_some).collect();
        set.stack = kept.into_iter().flatten().collect();
        if !set.time.is_empty() {
            retain_by(&mut set.time, &keep);
        }
        for w in &mut set.weights {
            retain_by(w, &keep);
        }
    }
    for a in &mut trace.allocations {
        let kept: Vec<Option<u32>> = a.stack.iter().map(|&s| new_stack(s)).collect();
        let keep: Vec<bool> = kept.iter().map(Option::is_some).collect();
        // Dropped ones get a stand-in the retain removes with them.
        a.stack = kept.into_iter().map(|s| s.unwrap_or(0)).collect();
        a.retain_where(&keep);
    }
    trace.stacks = table.table;
}

/// A stack table built anew, sharing prefixes.
#[derive(Default)]
struct Interner {
    table: StackTable,
    child: FastMap<(u32, StrId), u32>,
}

impl Interner {
    fn intern(&mut self, frames: &[StrId]) -> u32 {
        let mut at = NO_PARENT;
        for &frame in frames {
            let table = &mut self.table;
            at = *self.child.entry((at, frame)).or_insert_with(|| {
                table.frame.push(frame);
                table.parent.push(at);
                (table.frame.len() - 1) as u32
            });
        }
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SampleSet;

    #[test]
    fn kept_spans_take_their_details_along() {
        let spans = Spans {
            start: vec![0, 1, 2],
            end: vec![10, 5, 4],
            depth: vec![0, 1, 2],
            name: vec![0, 1, 2],
            flags: vec![0, 4, 0],
            ..Spans::default()
        };
        let mut edit = SpanEdit::default();
        edit.push(0, 0, 10, 0, 0, 4);
        edit.push(2, 2, 4, 1, 2, 0);
        let out = rebuild_spans(&spans, edit);
        assert_eq!(out.start, [0, 2]);
        assert_eq!(out.depth, [0, 1]);
        assert_eq!(out.name, [0, 2]);
        assert_eq!(out.flags, [0, 0]);
        assert_eq!(out.taken_self, [4, 0]);
    }

    #[test]
    fn a_span_in_pieces_counts_once_and_ends_open_once() {
        let spans = Spans {
            start: vec![0],
            end: vec![10],
            depth: vec![0],
            name: vec![0],
            flags: vec![SPAN_OPEN_AT_END],
            ..Spans::default()
        };
        let mut edit = SpanEdit::default();
        edit.push(0, 0, 4, 0, 0, 0);
        edit.push(0, 6, 10, 0, 0, 0);
        edit.continued.push((1, 0));
        let out = rebuild_spans(&spans, edit);
        assert_eq!(out.flags, [0, SPAN_OPEN_AT_END | SPAN_CONTINUED]);
    }

    #[test]
    fn stacks_are_mapped_once_and_refused_ones_dropped() {
        let mut trace = Trace::default();
        let mut i = Interner::default();
        let ab = i.intern(&[0, 1]);
        let ac = i.intern(&[0, 2]);
        trace.stacks = i.table;
        trace.sample_sets.push(SampleSet {
            stack: vec![ab, ac, ab],
            weights: vec![vec![1, 2, 3]],
            time: vec![10, 20, 30],
            ..SampleSet::default()
        });
        let mut calls = 0;
        map_stacks(&mut trace, |frames| {
            calls += 1;
            (frames.last() != Some(&2)).then(|| frames[1..].to_vec())
        });
        assert_eq!(calls, 2);
        let set = &trace.sample_sets[0];
        assert_eq!(set.weights[0], [1, 3]);
        assert_eq!(set.time, [10, 30]);
        assert_eq!(trace.stacks.frames(set.stack[0]), [1]);
    }
}
