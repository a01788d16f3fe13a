//! A comparison: the trace on screen (base) and the trace opened to compare
//! with it (new), with the merged diff data built per source and kept inside
//! the comparison value, so it goes when the comparison goes.
//!
//! Both traces are aggregated over the source picked in the toolbar (the
//! comparison trace uses its counterpart, [`counterpart`]); the time range
//! is not applied, since the two traces have different clocks.

use super::diff::{counterpart, diff_fill};
use super::loaded::Loaded;
use crate::view_model::SourceKey;
use flamedrop_core::analysis::diff::{DiffTree, Side};
use flamedrop_core::analysis::diff_table::compare_sources;
use flamedrop_core::analysis::{CallTree, Comparison};
use flamedrop_core::model::StringTable;
use std::cell::RefCell;
use std::rc::Rc;

/// A comparison ready to draw.
pub struct DiffData {
    pub comparison: Rc<Comparison>,
    pub tree: DiffTree,
    pub strings: Rc<StringTable>,
    /// Each side as a call tree with the diff's node indices.
    pub base: Rc<CallTree>,
    pub new: Rc<CallTree>,
    /// Fills per node, light and dark theme.
    pub fills: [Rc<Vec<String>>; 2],
}

impl DiffData {
    /// The call tree of one side.
    pub fn side(&self, side: Side) -> &Rc<CallTree> {
        match side {
            Side::Base => &self.base,
            Side::New => &self.new,
        }
    }
}

/// The diff data, or why the traces cannot be compared.
pub type Outcome = Rc<Result<DiffData, String>>;

/// The two traces of a comparison and the diff built for the last source.
pub struct Compared {
    pub base: Rc<Loaded>,
    pub new: Rc<Loaded>,
    last: RefCell<Option<(SourceKey, Outcome)>>,
}

/// Two comparisons are the same only if they are the same object.
impl PartialEq for Compared {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Compared {
    pub fn new(base: Rc<Loaded>, new: Rc<Loaded>) -> Compared {
        Compared {
            base,
            new,
            last: RefCell::default(),
        }
    }

    /// The comparison over `key` (a source of the base trace), kept for the
    /// next call with the same source.
    pub fn diff(&self, key: SourceKey) -> Outcome {
        if let Some((k, outcome)) = self.last.borrow().as_ref() {
            if *k == key {
                return outcome.clone();
            }
        }
        let outcome = Rc::new(diff_data(&self.base, &self.new, key));
        *self.last.borrow_mut() = Some((key, outcome.clone()));
        outcome
    }
}

fn diff_data(base: &Loaded, new: &Loaded, key: SourceKey) -> Result<DiffData, String> {
    let new_key = counterpart(key, &base.trace, &new.trace);
    compare_sources(
        &base.trace,
        &key.source(&base.trace),
        &new.trace,
        &new_key.source(&new.trace),
    )
    .map(|(comparison, tree)| {
        let fills = |dark: bool| {
            Rc::new(
                tree.nodes
                    .iter()
                    .map(|n| diff_fill(n.base.self_time, n.new.self_time, dark))
                    .collect::<Vec<_>>(),
            )
        };
        DiffData {
            strings: Rc::new(tree.strings.clone()),
            base: Rc::new(tree.call_tree(Side::Base)),
            new: Rc::new(tree.call_tree(Side::New)),
            fills: [fills(false), fills(true)],
            comparison: Rc::new(comparison),
            tree,
        }
    })
}
