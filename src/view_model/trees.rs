//! The aggregated trees of the trace on screen, computed when a view first
//! asks and kept per (source, time range, inverted), so switching views or
//! coming back to a source costs nothing. A new trace empties the cache; at
//! most `MAX_TREES` trees of each kind are kept.

use crate::state::Loaded;
use crate::views::SourceKey;
use flamedrop_core::analysis::{bottom_up, build_call_tree, sandwich_with, CallTree, Sandwich};
use flamedrop_core::model::StrId;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

type Key = (SourceKey, Option<(i64, i64)>);
/// Trees kept per kind; every range dragged is a new key, so old ones go.
const MAX_TREES: usize = 8;
/// The callers and callees trees of a sandwich.
type Callers = Rc<CallTree>;
type Callees = Rc<CallTree>;

#[derive(Default)]
struct Cache {
    /// Address of the `Loaded` the entries belong to.
    trace: usize,
    top_down: HashMap<Key, Rc<CallTree>>,
    bottom_up: HashMap<Key, Rc<CallTree>>,
    sandwich: Option<(Key, StrId, Callers, Callees)>,
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

fn with_cache<T>(loaded: &Loaded, f: impl FnOnce(&mut Cache) -> T) -> T {
    CACHE.with_borrow_mut(|c| {
        let id = loaded as *const Loaded as usize;
        if c.trace != id {
            *c = Cache {
                trace: id,
                ..Cache::default()
            };
        }
        f(c)
    })
}

/// The top-down tree of `source` within `range`.
pub fn top_down(loaded: &Loaded, source: SourceKey, range: Option<(i64, i64)>) -> Rc<CallTree> {
    let key = (source, range);
    if let Some(t) = with_cache(loaded, |c| c.top_down.get(&key).cloned()) {
        return t;
    }
    let tree = Rc::new(build_call_tree(
        &loaded.trace,
        &source.source(&loaded.trace),
        range,
    ));
    with_cache(loaded, |c| {
        if c.top_down.len() >= MAX_TREES {
            c.top_down.clear();
        }
        c.top_down.insert(key, tree.clone())
    });
    tree
}

/// The bottom-up tree of `source` within `range`.
pub fn inverted(loaded: &Loaded, source: SourceKey, range: Option<(i64, i64)>) -> Rc<CallTree> {
    let key = (source, range);
    if let Some(t) = with_cache(loaded, |c| c.bottom_up.get(&key).cloned()) {
        return t;
    }
    let tree = Rc::new(bottom_up(&top_down(loaded, source, range)));
    with_cache(loaded, |c| {
        if c.bottom_up.len() >= MAX_TREES {
            c.bottom_up.clear();
        }
        c.bottom_up.insert(key, tree.clone())
    });
    tree
}

/// Either tree.
pub fn tree(
    loaded: &Loaded,
    source: SourceKey,
    range: Option<(i64, i64)>,
    inverted_tree: bool,
) -> Rc<CallTree> {
    if inverted_tree {
        inverted(loaded, source, range)
    } else {
        top_down(loaded, source, range)
    }
}

/// The sandwich (callers, callees) of `function`; the last one asked for
/// is kept.
pub fn sandwich_of(
    loaded: &Loaded,
    source: SourceKey,
    range: Option<(i64, i64)>,
    function: StrId,
) -> (Callers, Callees) {
    let key = (source, range);
    let cached = with_cache(loaded, |c| {
        c.sandwich
            .as_ref()
            .filter(|(k, f, _, _)| *k == key && *f == function)
            .map(|(_, _, a, b)| (a.clone(), b.clone()))
    });
    if let Some(s) = cached {
        return s;
    }
    let Sandwich { callers, callees } = sandwich_with(
        &top_down(loaded, source, range),
        &inverted(loaded, source, range),
        function,
    );
    let (callers, callees) = (Rc::new(callers), Rc::new(callees));
    with_cache(loaded, |c| {
        c.sandwich = Some((key, function, callers.clone(), callees.clone()))
    });
    (callers, callees)
}

/// The string id of function `name`, if the trace has it.
pub fn function_id(loaded: &Loaded, name: &str) -> Option<StrId> {
    loaded
        .trace
        .strings
        .all()
        .iter()
        .position(|s| s == name)
        .map(|i| i as StrId)
}
