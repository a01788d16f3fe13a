//! The one pass most transforms make over a thread's spans: each span is
//! given a [`Fate`] from its name and the state its original parent was
//! given, and the pass turns the fates into a [`SpanEdit`] — kept spans
//! nested under their nearest kept ancestor, and the self time each removal
//! takes from (or leaves to) that ancestor.

use super::super::edit::SpanEdit;
use crate::analysis::meter::Meter;
use crate::model::{Spans, StrId, SPAN_ABANDONED};

/// What becomes of one span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fate {
    /// Kept, under its nearest kept ancestor.
    Keep,
    /// Kept under another name (a collapsed resource).
    KeepAs(StrId),
    /// Removed; its children move up to its nearest kept ancestor, whose
    /// self time its own self time becomes ("merge").
    Merge,
    /// Removed with its subtree and their time: the nearest kept ancestor
    /// keeps its length but not this time as self ("drop").
    Drop,
    /// Removed with its subtree; the time becomes the nearest kept
    /// ancestor's self time ("collapse").
    Prune,
}

/// Marks "no kept ancestor" in the open chain.
const NONE: u32 = u32::MAX;

/// An original span still open during the pass.
struct Open<S> {
    state: S,
    /// Edit index of the nearest kept ancestor-or-self, or [`NONE`].
    kept: u32,
    /// Depth a kept child of this span gets.
    child_depth: u16,
}

/// The spans `decide` keeps. `decide(name, parent)` gets each span's name
/// and the state returned for its original parent (`None` for a root) and
/// gives the span's fate and the state its children will see.
pub(super) async fn rewrite<S: Copy>(
    meter: &Meter,
    spans: &Spans,
    mut decide: impl FnMut(StrId, Option<S>) -> (Fate, S),
) -> SpanEdit {
    let n = spans.len();
    let mut edit = Out::new(spans);
    let mut open: Vec<Open<S>> = Vec::new();
    let mut i = 0;
    while i < n {
        meter.tick().await;
        let Some((start, end, depth, name)) = span_at(spans, i) else {
            break;
        };
        // `open` holds one entry per depth (pre-order), so the parent of a
        // span at depth d is entry d − 1: no popping loop.
        open.truncate(usize::from(depth));
        let parent = open.last();
        let (kept, child_depth) = parent.map_or((NONE, 0), |p| (p.kept, p.child_depth));
        let (fate, state) = decide(name, parent.map(|p| p.state));
        match fate {
            Fate::Keep | Fate::KeepAs(_) => {
                let shown = if let Fate::KeepAs(other) = fate {
                    other
                } else {
                    name
                };
                let at = edit.push(
                    i as u32,
                    start,
                    end,
                    child_depth,
                    shown,
                    spans.taken_self(i),
                );
                open.push(Open {
                    state,
                    kept: at,
                    child_depth: child_depth.saturating_add(1),
                });
            }
            Fate::Merge => {
                edit.add_taken(kept, spans.taken_self(i));
                open.push(Open {
                    state,
                    kept,
                    child_depth,
                });
            }
            Fate::Drop => {
                // An abandoned call adds no child time to its parent (see
                // `analysis::walk`), so its parent's self already holds it.
                let abandoned = spans.flags.get(i).is_some_and(|f| f & SPAN_ABANDONED != 0);
                if !abandoned {
                    edit.add_taken(kept, end.saturating_sub(start));
                }
                let last = subtree_end(spans, i);
                meter.spend(last - i - 1).await;
                i = last;
                continue;
            }
            Fate::Prune => {
                let last = subtree_end(spans, i);
                let taken: i64 = (i..last).map(|j| spans.taken_self(j)).sum();
                edit.add_taken(kept, taken);
                meter.spend(last - i - 1).await;
                i = last;
                continue;
            }
        }
        i += 1;
    }
    edit.finish()
}

/// The edit being written. Most steps take no self time, so the taken
/// column (8 bytes a span) is only written when the input has one or a
/// time is taken; until then the taken times wait apart.
struct Out {
    edit: SpanEdit,
    /// True when `edit.taken_self` is written span by span.
    dense: bool,
    /// Taken times (edit index, time) while not `dense`.
    apart: Vec<(u32, i64)>,
}

impl Out {
    fn new(spans: &Spans) -> Out {
        let mut edit = SpanEdit::with_capacity(spans.len());
        let dense = !spans.taken_self.is_empty();
        if !dense {
            edit.taken_self = Vec::new();
        }
        Out {
            edit,
            dense,
            apart: Vec::new(),
        }
    }

    /// Keeps a span; gives its edit index.
    #[inline(always)]
    fn push(
        &mut self,
        from: u32,
        start: i64,
        end: i64,
        depth: u16,
        name: StrId,
        taken: i64,
    ) -> u32 {
        let at = self.edit.from.len() as u32;
        let e = &mut self.edit;
        e.from.push(from);
        e.start.push(start);
        e.end.push(end);
        e.depth.push(depth);
        e.name.push(name);
        if self.dense {
            e.taken_self.push(taken);
        } else if taken != 0 {
            self.apart.push((at, taken));
        }
        at
    }

    /// Adds `taken` to kept span `at` ([`NONE`]: no kept span, nothing).
    #[inline]
    fn add_taken(&mut self, at: u32, taken: i64) {
        if at == NONE || taken == 0 {
            return;
        }
        if self.dense {
            self.edit.add_taken(at, taken);
        } else {
            self.apart.push((at, taken));
        }
    }

    fn finish(mut self) -> SpanEdit {
        if !self.dense && !self.apart.is_empty() {
            self.edit.taken_self = vec![0; self.edit.from.len()];
            for (at, taken) in self.apart {
                self.edit.add_taken(at, taken);
            }
        }
        self.edit
    }
}

/// Span `i`'s start, end, depth and name, if it is there.
pub(super) fn span_at(spans: &Spans, i: usize) -> Option<(i64, i64, u16, StrId)> {
    Some((
        *spans.start.get(i)?,
        *spans.end.get(i)?,
        *spans.depth.get(i)?,
        *spans.name.get(i)?,
    ))
}

/// One past the last span of span `at`'s subtree (pre-order: the spans
/// after it that are deeper).
pub(super) fn subtree_end(spans: &Spans, at: usize) -> usize {
    let Some(&depth) = spans.depth.get(at) else {
        return at + 1;
    };
    let rest = spans.depth.get(at + 1..).unwrap_or(&[]);
    at + 1 + rest.iter().take_while(|&&d| d > depth).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// main(0..100) { f(10..60) { g(20..30) } h(70..80) }
    fn sample() -> Spans {
        Spans {
            start: vec![0, 10, 20, 70],
            end: vec![100, 60, 30, 80],
            depth: vec![0, 1, 2, 1],
            name: vec![0, 1, 2, 3],
            flags: vec![0; 4],
            ..Spans::default()
        }
    }

    fn run(spans: &Spans, decide: impl FnMut(StrId, Option<()>) -> (Fate, ())) -> SpanEdit {
        let meter = Meter::unlimited();
        crate::analysis::meter::run_to_end(rewrite(&meter, spans, decide))
    }

    fn by_name(fates: [Fate; 4]) -> impl FnMut(StrId, Option<()>) -> (Fate, ()) {
        move |name, _| (fates[name as usize], ())
    }

    #[test]
    fn merge_lifts_children_and_drop_takes_time() {
        let spans = sample();
        let merged = run(
            &spans,
            by_name([Fate::Keep, Fate::Merge, Fate::Keep, Fate::Keep]),
        );
        assert_eq!(merged.name, [0, 2, 3]);
        assert_eq!(merged.depth, [0, 1, 1]);
        // Nothing taken: the column is left out (all zero).
        assert!(merged.taken_self.is_empty());
        let dropped = run(
            &spans,
            by_name([Fate::Keep, Fate::Drop, Fate::Keep, Fate::Keep]),
        );
        assert_eq!(dropped.name, [0, 3]);
        assert_eq!(dropped.taken_self, [50, 0]);
        let pruned = run(
            &spans,
            by_name([Fate::Keep, Fate::Keep, Fate::Prune, Fate::Keep]),
        );
        assert_eq!(pruned.name, [0, 1, 3]);
        assert!(pruned.taken_self.is_empty());
    }

    #[test]
    fn a_merged_root_leaves_its_children_as_roots() {
        let edit = run(&sample(), by_name([Fate::Merge; 4]));
        assert!(edit.is_empty());
        let edit = run(
            &sample(),
            by_name([Fate::Merge, Fate::Keep, Fate::Keep, Fate::Keep]),
        );
        assert_eq!(edit.depth, [0, 1, 0]);
        assert_eq!(subtree_end(&sample(), 1), 3);
    }
}
