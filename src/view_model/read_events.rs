//! uftrace's read triggers on the page: each call's entry-to-exit deltas
//! (computed once per trace on screen, from its `diff:` markers) for the
//! tooltip and the detail panel, and their sums per call-tree node for the
//! table's "Δ rss" / "Δ faults" columns, kept per (source, range, inverted).
//! A trace without read triggers has no deltas and costs one pass over its
//! names. The counter tracks are added to the trace once it is unpacked
//! ([`add_read_counters`]).

use crate::view_model::{Loaded, SourceKey, ViewState};
use flamedrop_core::analysis::read_events::{
    bottom_up_deltas, call_deltas, read_counters, top_down_deltas, CallDeltas, TreeDeltas,
};
use flamedrop_core::analysis::{CallTree, Source};
use flamedrop_core::Trace;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

type Key = (SourceKey, Option<(i64, i64)>, bool);
/// Sums kept; every range dragged is a new key, so old ones go.
const MAX_KEPT: usize = 8;

/// The read-trigger deltas of one trace.
#[derive(Default)]
pub struct ReadEvents {
    pub calls: CallDeltas,
    trees: RefCell<HashMap<Key, Rc<TreeDeltas>>>,
}

impl ReadEvents {
    /// The deltas of `trace`'s calls.
    pub fn new(trace: &Trace) -> Self {
        ReadEvents {
            calls: call_deltas(trace),
            trees: RefCell::default(),
        }
    }

    /// The (label, value) lines of span `span` of thread `thread`:
    /// `("Δ vmrss", "+64 KB")`.
    pub fn lines(&self, thread: usize, span: u32) -> Vec<(String, String)> {
        self.calls
            .of(thread, span)
            .iter()
            .map(|d| {
                (
                    format!("Δ {}", d.quantity.name()),
                    d.quantity.signed_text(d.value),
                )
            })
            .collect()
    }

    /// The summed deltas of `tree` (the tree of `source` in `range`,
    /// bottom-up if `inverted`; `top_down` is that source's top-down
    /// tree), or `None` when the source is not spans or no call has one.
    pub fn tree(
        &self,
        trace: &Trace,
        key: Key,
        tree: &CallTree,
        top_down: &CallTree,
    ) -> Option<Rc<TreeDeltas>> {
        if self.calls.is_empty() {
            return None;
        }
        let Source::Spans { threads } = key.0.source(trace) else {
            return None;
        };
        if let Some(kept) = self.trees.borrow().get(&key) {
            return Some(kept.clone());
        }
        let top = top_down_deltas(trace, &threads, key.1, top_down, &self.calls);
        let sums = if key.2 {
            bottom_up_deltas(top_down, &top, tree)
        } else {
            top
        };
        let sums = Rc::new(sums);
        let mut kept = self.trees.borrow_mut();
        if kept.len() >= MAX_KEPT {
            kept.clear();
        }
        kept.insert(key, sums.clone());
        Some(sums)
    }
}

/// The summed deltas of `tree`, the call tree `state` shows of `loaded`.
pub fn tree_deltas(loaded: &Loaded, state: &ViewState, tree: &CallTree) -> Option<Rc<TreeDeltas>> {
    let key = (state.source, state.range, state.inverted);
    let top_down = loaded.top_down(state.source, state.range);
    loaded.read_events.tree(&loaded.trace, key, tree, &top_down)
}

/// Adds the counter tracks of the trace's read triggers (once, on the
/// whole trace after its parts are merged: counters are trace-level).
pub fn add_read_counters(trace: &mut Trace) {
    let counters = read_counters(trace);
    trace.counters.extend(counters);
}

#[cfg(test)]
mod tests {
    use super::*;
    use flamedrop_core::analysis::read_events::DeltaColumn;
    use flamedrop_core::analysis::{bottom_up, build_call_tree};
    use flamedrop_core::model::{Field, Format, TimeUnit, TraceBuilder};

    /// The sums for a tree built natively (the tests').
    fn sums(trace: &Trace, inverted: bool) -> Option<Rc<TreeDeltas>> {
        let events = ReadEvents::new(trace);
        let source = SourceKey::AllThreads;
        let top = build_call_tree(trace, &source.source(trace), None);
        let tree = if inverted {
            bottom_up(&top)
        } else {
            top.clone()
        };
        events.tree(trace, (source, None, inverted), &tree, &top)
    }

    /// main(0..100) calling work(10..20), with a statm trigger on work.
    fn traced() -> Trace {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "p");
        let t = b.thread(p, "1", "p");
        let (main, work) = (b.intern("main"), b.intern("work"));
        let (read, diff) = (b.intern("read:proc/statm"), b.intern("diff:proc/statm"));
        let statm = |size: &str, rss: &str| {
            vec![
                Field::new("vmsize KB", size),
                Field::new("vmrss KB", rss),
                Field::new("shared KB", "0"),
            ]
        };
        b.begin(t, 0, main, 0);
        b.begin(t, 10, work, 0);
        b.instant(t, 10, read, statm("1000", "700"));
        b.instant(t, 20, diff, statm("0", "64"));
        b.end(t, 20);
        b.end(t, 100);
        b.finish()
    }

    #[test]
    fn a_call_says_what_changed_and_the_tree_sums_it() {
        let mut trace = traced();
        let events = ReadEvents::new(&trace);
        assert_eq!(
            events.lines(0, 1),
            vec![
                ("Δ vmsize".to_owned(), "+0 KB".to_owned()),
                ("Δ vmrss".to_owned(), "+64 KB".to_owned()),
                ("Δ shared".to_owned(), "+0 KB".to_owned()),
            ]
        );
        assert!(events.lines(0, 0).is_empty());
        let top = sums(&trace, false).expect("sums");
        assert_eq!(top.columns, vec![DeltaColumn::Rss]);
        // Node 2 is main → work.
        assert_eq!((top.get(0, 1), top.get(0, 2)), (None, Some(64)));
        let up = sums(&trace, true).expect("sums");
        assert!((1..4).any(|n| up.get(0, n) == Some(64)));
        add_read_counters(&mut trace);
        let names: Vec<&str> = trace.counters.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["vmsize", "vmrss", "shared"]);
        assert_eq!(trace.counters[1].value, vec![700.0, 764.0]);
    }
}
