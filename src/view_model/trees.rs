//! The aggregated trees of a trace, computed when a view first asks and kept
//! per (source, time range, inverted) inside the trace's `Loaded`, so
//! switching views or coming back to a source costs nothing and a new trace
//! starts with none. At most `MAX_TREES` trees of each kind are kept.

use crate::view_model::SourceKey;
use flamedrop_core::analysis::{bottom_up, build_call_tree, sandwich_with, CallTree, Sandwich};
use flamedrop_core::model::StrId;
use flamedrop_core::Trace;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

type Key = (SourceKey, Option<(i64, i64)>);
/// Trees kept per kind; every range dragged is a new key, so old ones go.
const MAX_TREES: usize = 8;
/// The callers and callees trees of a sandwich.
type Callers = Rc<CallTree>;
type Callees = Rc<CallTree>;

/// The trees built so far for one trace.
#[derive(Default)]
pub struct Trees {
    top_down: RefCell<HashMap<Key, Rc<CallTree>>>,
    bottom_up: RefCell<HashMap<Key, Rc<CallTree>>>,
    sandwich: RefCell<Option<(Key, StrId, Callers, Callees)>>,
}

/// The tree under `key` in `map`, built by `build` unless it is there.
fn kept(
    map: &RefCell<HashMap<Key, Rc<CallTree>>>,
    key: Key,
    build: impl FnOnce() -> CallTree,
) -> Rc<CallTree> {
    if let Some(t) = map.borrow().get(&key) {
        return t.clone();
    }
    let tree = Rc::new(build());
    let mut map = map.borrow_mut();
    if map.len() >= MAX_TREES {
        map.clear();
    }
    map.insert(key, tree.clone());
    tree
}

impl Trees {
    /// The top-down tree of `source` within `range`.
    pub fn top_down(
        &self,
        trace: &Trace,
        source: SourceKey,
        range: Option<(i64, i64)>,
    ) -> Rc<CallTree> {
        kept(&self.top_down, (source, range), || {
            if let Some((resource, when, weighting, filter)) = source.memory() {
                let filter = filter.filter(trace);
                return crate::view_model::memory::sources::tree(
                    trace,
                    (resource, filter),
                    when,
                    weighting,
                    range,
                );
            }
            build_call_tree(trace, &source.source(trace), range)
        })
    }

    /// The bottom-up tree of `source` within `range`.
    pub fn inverted(
        &self,
        trace: &Trace,
        source: SourceKey,
        range: Option<(i64, i64)>,
    ) -> Rc<CallTree> {
        kept(&self.bottom_up, (source, range), || {
            bottom_up(&self.top_down(trace, source, range))
        })
    }

    /// Either tree.
    pub fn tree(
        &self,
        trace: &Trace,
        source: SourceKey,
        range: Option<(i64, i64)>,
        inverted: bool,
    ) -> Rc<CallTree> {
        if inverted {
            self.inverted(trace, source, range)
        } else {
            self.top_down(trace, source, range)
        }
    }

    /// The sandwich (callers, callees) of `function`; the last one asked
    /// for is kept.
    pub fn sandwich(
        &self,
        trace: &Trace,
        source: SourceKey,
        range: Option<(i64, i64)>,
        function: StrId,
    ) -> (Callers, Callees) {
        let key = (source, range);
        let cached = self
            .sandwich
            .borrow()
            .as_ref()
            .filter(|(k, f, _, _)| *k == key && *f == function)
            .map(|(_, _, a, b)| (a.clone(), b.clone()));
        if let Some(s) = cached {
            return s;
        }
        let Sandwich { callers, callees } = sandwich_with(
            &self.top_down(trace, source, range),
            &self.inverted(trace, source, range),
            function,
        );
        let (callers, callees) = (Rc::new(callers), Rc::new(callees));
        *self.sandwich.borrow_mut() = Some((key, function, callers.clone(), callees.clone()));
        (callers, callees)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view_model::loaded::test_traces::main_and_work;

    fn trace() -> Trace {
        main_and_work().trace
    }

    #[test]
    fn trees_are_kept() {
        let (trace, trees) = (trace(), Trees::default());
        let key = SourceKey::default();
        let first = trees.top_down(&trace, key, None);
        assert!(Rc::ptr_eq(&first, &trees.top_down(&trace, key, None)));
        // Another trace has its own trees.
        assert!(!Rc::ptr_eq(
            &first,
            &Trees::default().top_down(&trace, key, None)
        ));
        let ranged = trees.top_down(&trace, key, Some((0, 15)));
        assert!(!Rc::ptr_eq(&first, &ranged));
        let main = trace.strings.all().iter().position(|s| s == "main");
        let main = main.expect("main is a function") as StrId;
        let (callers, callees) = trees.sandwich(&trace, key, None, main);
        assert!(Rc::ptr_eq(
            &callees,
            &trees.sandwich(&trace, key, None, main).1
        ));
        assert_eq!(callers.root().children.len(), 1);
        assert_eq!(callees.root().total, 100);
    }
}
