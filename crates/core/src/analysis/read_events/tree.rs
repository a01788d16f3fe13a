//! The per-call deltas summed per node of a call tree: the call-tree
//! table's "Δ rss" / "Δ faults" columns.
//!
//! A call's delta covers everything that ran inside it, like its total
//! time. Top-down, a node sums the deltas of the calls on its path (a call
//! counts when the tree holds it and its exit, where the difference was
//! read, lies in the range). Bottom-up, an inverted path sums the deltas of
//! the top-down nodes it stands for where the node is the outermost call of
//! its function on its path, the rule `bottom_up` follows for the total, so
//! a recursive function's delta is not counted twice.

use super::{CallDeltas, Quantity};
use crate::analysis::calltree::{CallTree, TimeRange};
use crate::analysis::inverted::each_inverted_path;
use crate::model::{StrId, Trace};
use std::collections::HashMap;

/// A column of the call-tree table and the quantities it adds up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeltaColumn {
    /// Resident memory (`vmrss`).
    Rss,
    /// Page faults, major and minor.
    Faults,
    Cycles,
    Instructions,
    CacheMisses,
    BranchMisses,
}

const COLUMNS: [DeltaColumn; 6] = [
    DeltaColumn::Rss,
    DeltaColumn::Faults,
    DeltaColumn::Cycles,
    DeltaColumn::Instructions,
    DeltaColumn::CacheMisses,
    DeltaColumn::BranchMisses,
];

impl DeltaColumn {
    /// The column header ("Δ rss").
    pub fn title(self) -> &'static str {
        match self {
            DeltaColumn::Rss => "Δ rss",
            DeltaColumn::Faults => "Δ faults",
            DeltaColumn::Cycles => "Δ cycles",
            DeltaColumn::Instructions => "Δ instructions",
            DeltaColumn::CacheMisses => "Δ cache misses",
            DeltaColumn::BranchMisses => "Δ branch misses",
        }
    }

    /// What the column sums, in words (the header's tooltip).
    pub fn description(self) -> &'static str {
        match self {
            DeltaColumn::Rss => {
                "resident memory (vmrss) at exit minus at entry, summed over the calls"
            }
            DeltaColumn::Faults => "page faults (major + minor) during the calls, summed",
            _ => "counter at exit minus at entry, summed over the calls",
        }
    }

    fn quantities(self) -> &'static [Quantity] {
        match self {
            DeltaColumn::Rss => &[Quantity::VmRss],
            DeltaColumn::Faults => &[Quantity::MajorFaults, Quantity::MinorFaults],
            DeltaColumn::Cycles => &[Quantity::Cycles],
            DeltaColumn::Instructions => &[Quantity::Instructions],
            DeltaColumn::CacheMisses => &[Quantity::CacheMisses],
            DeltaColumn::BranchMisses => &[Quantity::BranchMisses],
        }
    }

    /// A summed value as shown: `+64 KB`, `+16`.
    pub fn text(self, value: i64) -> String {
        match self {
            DeltaColumn::Rss => Quantity::VmRss.signed_text(value),
            _ => format!("{value:+}"),
        }
    }
}

/// Per column, per node of a tree: the summed delta, or `None` where no
/// call of the node has one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeDeltas {
    pub columns: Vec<DeltaColumn>,
    values: Vec<Vec<Option<i64>>>,
}

impl TreeDeltas {
    fn new(columns: Vec<DeltaColumn>, nodes: usize) -> Self {
        let values = columns.iter().map(|_| vec![None; nodes]).collect();
        TreeDeltas { columns, values }
    }

    /// The value of column `column` at node `node`.
    pub fn get(&self, column: usize, node: u32) -> Option<i64> {
        *self.values.get(column)?.get(node as usize)?
    }

    fn add(&mut self, column: usize, node: u32, value: i64) {
        if let Some(slot) = self
            .values
            .get_mut(column)
            .and_then(|v| v.get_mut(node as usize))
        {
            *slot = Some(slot.unwrap_or(0).wrapping_add(value));
        }
    }
}

/// The summed deltas of `top_down`, the tree `build` made of the spans of
/// `threads` within `range`; no columns when no call has a delta.
pub fn top_down_deltas(
    trace: &Trace,
    threads: &[u32],
    range: Option<TimeRange>,
    top_down: &CallTree,
    deltas: &CallDeltas,
) -> TreeDeltas {
    let present = deltas.quantities();
    let columns: Vec<DeltaColumn> = COLUMNS
        .into_iter()
        .filter(|c| c.quantities().iter().any(|q| present.contains(q)))
        .collect();
    let mut out = TreeDeltas::new(columns, top_down.nodes.len());
    if out.columns.is_empty() {
        return out;
    }
    let child_of = children_by_name(top_down);
    for &t in threads {
        let (Some(thread), list) = (trace.threads.get(t as usize), deltas.thread(t as usize))
        else {
            continue;
        };
        if list.is_empty() {
            continue;
        }
        let mut wanted: Vec<u32> = list.iter().map(|d| d.span).collect();
        wanted.dedup();
        let nodes = span_nodes(&thread.spans, range, &child_of, &wanted);
        for d in list {
            let at = wanted.partition_point(|&s| s < d.span);
            let Some(&Some(node)) = nodes.get(at) else {
                continue;
            };
            let end = thread.spans.end.get(d.span as usize).copied().unwrap_or(0);
            if range.is_some_and(|(lo, hi)| end < lo || end > hi) {
                continue;
            }
            for c in 0..out.columns.len() {
                if out.columns[c].quantities().contains(&d.quantity) {
                    out.add(c, node, d.value);
                }
            }
        }
    }
    out
}

/// (parent, name) → child of a tree.
fn children_by_name(tree: &CallTree) -> HashMap<(u32, StrId), u32> {
    let mut out = HashMap::with_capacity(tree.nodes.len());
    for (i, node) in tree.nodes.iter().enumerate().skip(1) {
        out.insert((node.parent, node.name), i as u32);
    }
    out
}

/// For each of `wanted` (span indices, ascending), the node `build` put
/// it on (`None` for a span outside the range): the same walk as its
/// `add_spans`, up to the last span wanted.
fn span_nodes(
    spans: &crate::model::Spans,
    range: Option<TimeRange>,
    child_of: &HashMap<(u32, StrId), u32>,
    wanted: &[u32],
) -> Vec<Option<u32>> {
    let mut out = vec![None; wanted.len()];
    let mut next = 0;
    let mut stack: Vec<(u16, u32)> = Vec::new();
    let last = wanted.last().map_or(0, |&s| s as usize + 1);
    for i in 0..last.min(spans.len()) {
        let (Some(&start), Some(&end), Some(&depth), Some(&name)) = (
            spans.start.get(i),
            spans.end.get(i),
            spans.depth.get(i),
            spans.name.get(i),
        ) else {
            break;
        };
        while stack.last().is_some_and(|o| o.0 >= depth) {
            stack.pop();
        }
        let (lo, hi) = match range {
            Some((lo, hi)) => (start.max(lo), end.min(hi)),
            None => (start, end),
        };
        if hi < lo || (range.is_some() && hi == lo && start != end) {
            continue;
        }
        let parent = stack.last().map_or(0, |o| o.1);
        let Some(&node) = child_of.get(&(parent, name)) else {
            continue;
        };
        stack.push((depth, node));
        // Wanted spans skipped above (outside the range) keep `None`.
        while wanted.get(next).is_some_and(|&w| (w as usize) < i) {
            next += 1;
        }
        if wanted.get(next) == Some(&(i as u32)) {
            if let Some(slot) = out.get_mut(next) {
                *slot = Some(node);
            }
            next += 1;
        }
    }
    out
}

/// The summed deltas of `bottom_up`, the inverted tree of `top_down`
/// whose deltas are `top`.
pub fn bottom_up_deltas(top_down: &CallTree, top: &TreeDeltas, bottom_up: &CallTree) -> TreeDeltas {
    let mut out = TreeDeltas::new(top.columns.clone(), bottom_up.nodes.len());
    if out.columns.is_empty() {
        return out;
    }
    let child_of = children_by_name(bottom_up);
    each_inverted_path(top_down, |at, outermost, path| {
        if !outermost {
            return;
        }
        let mut inverted = 0;
        for &frame in path.iter().rev() {
            let Some(name) = top_down.get(frame).map(|n| n.name) else {
                break;
            };
            let Some(&next) = child_of.get(&(inverted, name)) else {
                break;
            };
            inverted = next;
            for c in 0..out.columns.len() {
                if let Some(value) = top.get(c, at) {
                    out.add(c, inverted, value);
                }
            }
        }
    });
    out
}
