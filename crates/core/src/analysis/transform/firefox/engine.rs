//! The one pass most transforms make over a thread's spans: each span is
//! given a [`Fate`] from its name and the state its original parent was
//! given, and the pass turns the fates into a [`SpanEdit`] — kept spans
//! nested under their nearest kept ancestor, and the self time each removal
//! takes from (or leaves to) that ancestor.

use super::super::edit::SpanEdit;
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
    depth: u16,
    state: S,
    /// Edit index of the nearest kept ancestor-or-self, or [`NONE`].
    kept: u32,
    /// Depth a kept child of this span gets.
    child_depth: u16,
}

/// The spans `decide` keeps. `decide(name, parent)` gets each span's name
/// and the state returned for its original parent (`None` for a root) and
/// gives the span's fate and the state its children will see.
pub(super) fn rewrite<S: Copy>(
    spans: &Spans,
    mut decide: impl FnMut(StrId, Option<S>) -> (Fate, S),
) -> SpanEdit {
    let n = spans.len();
    let mut edit = SpanEdit::with_capacity(n);
    let mut open: Vec<Open<S>> = Vec::new();
    let mut i = 0;
    while i < n {
        let Some((start, end, depth, name)) = span_at(spans, i) else {
            break;
        };
        while open.last().is_some_and(|o| o.depth >= depth) {
            open.pop();
        }
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
                let at = edit.len() as u32;
                edit.push(
                    i as u32,
                    start,
                    end,
                    child_depth,
                    shown,
                    spans.taken_self(i),
                );
                open.push(Open {
                    depth,
                    state,
                    kept: at,
                    child_depth: child_depth.saturating_add(1),
                });
            }
            Fate::Merge => {
                edit.add_taken(kept, spans.taken_self(i));
                open.push(Open {
                    depth,
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
                i = subtree_end(spans, i);
                continue;
            }
            Fate::Prune => {
                let last = subtree_end(spans, i);
                let taken: i64 = (i..last).map(|j| spans.taken_self(j)).sum();
                edit.add_taken(kept, taken);
                i = last;
                continue;
            }
        }
        i += 1;
    }
    edit
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

    fn by_name(fates: [Fate; 4]) -> impl FnMut(StrId, Option<()>) -> (Fate, ()) {
        move |name, _| (fates[name as usize], ())
    }

    #[test]
    fn merge_lifts_children_and_drop_takes_time() {
        let spans = sample();
        let merged = rewrite(
            &spans,
            by_name([Fate::Keep, Fate::Merge, Fate::Keep, Fate::Keep]),
        );
        assert_eq!(merged.name, [0, 2, 3]);
        assert_eq!(merged.depth, [0, 1, 1]);
        assert_eq!(merged.taken_self, [0, 0, 0]);
        let dropped = rewrite(
            &spans,
            by_name([Fate::Keep, Fate::Drop, Fate::Keep, Fate::Keep]),
        );
        assert_eq!(dropped.name, [0, 3]);
        assert_eq!(dropped.taken_self, [50, 0]);
        let pruned = rewrite(
            &spans,
            by_name([Fate::Keep, Fate::Keep, Fate::Prune, Fate::Keep]),
        );
        assert_eq!(pruned.name, [0, 1, 3]);
        assert_eq!(pruned.taken_self, [0, 0, 0]);
    }

    #[test]
    fn a_merged_root_leaves_its_children_as_roots() {
        let edit = rewrite(&sample(), by_name([Fate::Merge; 4]));
        assert!(edit.is_empty());
        let edit = rewrite(
            &sample(),
            by_name([Fate::Merge, Fate::Keep, Fate::Keep, Fate::Keep]),
        );
        assert_eq!(edit.depth, [0, 1, 0]);
        assert_eq!(subtree_end(&sample(), 1), 3);
    }
}
