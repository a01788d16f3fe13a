//! The call tree: every distinct call path once, with total time, self time
//! and calls — the data behind the aggregated flame graph and the call-tree
//! table.
//!
//! A tree is built from one of three sources (see [`Source`]): the spans of
//! some threads (optionally clipped to a time range), one weight column of a
//! [`SampleSet`](crate::model::SampleSet), or one resource of
//! [`Allocations`](crate::model::Allocations) weighted by bytes or count, all
//! of them or only those still live at the end (leaks). Nodes of the same
//! path merge, so a recursive function gets one node per recursion level and
//! its time is never counted twice in a total. [`CallTree::sort_left_heavy`]
//! orders siblings heaviest first, as speedscope's "left heavy" view does.

use crate::model::{StrId, Trace, NEVER_FREED, SPAN_ABANDONED, SPAN_CONTINUED};
use std::collections::HashMap;

/// The name of the root node, which stands for "everything".
pub const ROOT_NAME: StrId = StrId::MAX;

/// One call path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    /// The frame's function name, or [`ROOT_NAME`] for the root.
    pub name: StrId,
    /// Index of the parent node (the root is its own parent).
    pub parent: u32,
    /// Weight of this path and everything below it.
    pub total: i64,
    /// Weight of this path not spent in a callee.
    pub self_time: i64,
    /// Calls (spans), samples or allocations that ended on this path.
    pub calls: u64,
    /// Child node indices (left-heavy after [`CallTree::sort_left_heavy`]).
    pub children: Vec<u32>,
}

/// A call tree; node 0 is the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallTree {
    pub nodes: Vec<Node>,
}

/// What a call tree is built from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// Spans of these threads (indices into `Trace::threads`), merged.
    Spans { threads: Vec<u32> },
    /// One weight column of a sample set.
    Samples { set: u32, weight: u32 },
    /// The same weight column of several sample sets, merged (SWAP's
    /// per-thread CPU samples as one whole-process set).
    SampleSets { sets: Vec<u32>, weight: u32 },
    /// One resource of the allocations.
    Allocations {
        resource: u32,
        weight: AllocationWeight,
        only_live: bool,
    },
}

/// How allocations are weighed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AllocationWeight {
    Bytes,
    Count,
}

/// A closed time range `[start, end]` in the trace's unit.
pub type TimeRange = (i64, i64);

impl Default for CallTree {
    fn default() -> Self {
        Self::new()
    }
}

impl CallTree {
    /// A tree holding only the root.
    pub fn new() -> Self {
        CallTree {
            nodes: vec![Node {
                name: ROOT_NAME,
                ..Node::default()
            }],
        }
    }

    /// The root node.
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// Node `index`, if it exists.
    pub fn get(&self, index: u32) -> Option<&Node> {
        self.nodes.get(index as usize)
    }

    /// The node indices from the root's child down to `index`.
    pub fn path_to(&self, index: u32) -> Vec<u32> {
        let mut path = Vec::new();
        let mut at = index;
        while at != 0 && (at as usize) < self.nodes.len() {
            path.push(at);
            at = self.nodes[at as usize].parent;
        }
        path.reverse();
        path
    }

    /// Orders every node's children by total, heaviest first; ties by name id
    /// so the order is stable.
    pub fn sort_left_heavy(&mut self) {
        for i in 0..self.nodes.len() {
            let mut children = std::mem::take(&mut self.nodes[i].children);
            children.sort_by(|&a, &b| {
                let (a, b) = (&self.nodes[a as usize], &self.nodes[b as usize]);
                b.total.cmp(&a.total).then(a.name.cmp(&b.name))
            });
            self.nodes[i].children = children;
        }
    }

    /// Sums `self_time` up the tree into `total`, for trees filled with
    /// self weights only.
    pub(crate) fn sum_totals(&mut self) {
        for n in &mut self.nodes {
            n.total = n.self_time;
        }
        // Children always have higher indices than their parent.
        for i in (1..self.nodes.len()).rev() {
            let (total, parent) = (self.nodes[i].total, self.nodes[i].parent as usize);
            self.nodes[parent].total += total;
        }
    }
}

/// Adds children to a tree, merging equal paths.
pub(crate) struct TreeBuilder {
    pub tree: CallTree,
    child_of: HashMap<(u32, StrId), u32>,
}

impl TreeBuilder {
    pub fn new() -> Self {
        TreeBuilder {
            tree: CallTree::new(),
            child_of: HashMap::new(),
        }
    }

    /// The child of `parent` named `name`, made if missing.
    pub fn child(&mut self, parent: u32, name: StrId) -> u32 {
        if let Some(&c) = self.child_of.get(&(parent, name)) {
            return c;
        }
        let index = self.tree.nodes.len() as u32;
        self.tree.nodes.push(Node {
            name,
            parent,
            ..Node::default()
        });
        if let Some(p) = self.tree.nodes.get_mut(parent as usize) {
            p.children.push(index);
        }
        self.child_of.insert((parent, name), index);
        index
    }

    /// The node for a whole path of frames, root first.
    pub fn path(&mut self, frames: &[StrId]) -> u32 {
        frames.iter().fold(0, |at, &f| self.child(at, f))
    }
}

/// Builds the (left-heavy) call tree of `source`, restricted to `range` when
/// given. Unknown thread, set or resource indices contribute nothing.
pub fn build(trace: &Trace, source: &Source, range: Option<TimeRange>) -> CallTree {
    let mut b = TreeBuilder::new();
    match source {
        Source::Spans { threads } => {
            for &t in threads {
                if let Some(thread) = trace.threads.get(t as usize) {
                    add_spans(&mut b, &thread.spans, range);
                }
            }
        }
        Source::Samples { set, weight } => add_samples(&mut b, trace, &[*set], *weight, range),
        Source::SampleSets { sets, weight } => add_samples(&mut b, trace, sets, *weight, range),
        Source::Allocations {
            resource,
            weight,
            only_live,
        } => add_allocations(&mut b, trace, *resource, *weight, *only_live, range),
    }
    let mut tree = b.tree;
    if !matches!(source, Source::Spans { .. }) {
        tree.sum_totals();
    }
    tree.root_totals();
    tree.sort_left_heavy();
    tree
}

impl CallTree {
    /// The root's total is the sum of its children's (its self stays 0).
    fn root_totals(&mut self) {
        let sum: i64 = self.nodes[0]
            .children
            .iter()
            .map(|&c| self.nodes[c as usize].total)
            .sum();
        self.nodes[0].total = sum;
    }
}

/// Pre-order walk over spans: each span adds its clipped duration to its
/// path's total and that minus its clipped children to the path's self.
fn add_spans(b: &mut TreeBuilder, spans: &crate::model::Spans, range: Option<TimeRange>) {
    struct Open {
        depth: u16,
        node: u32,
        duration: i64,
        child_time: i64,
        taken_self: i64,
    }
    let finish = |b: &mut TreeBuilder, open: Open, stack: &mut Vec<Open>| {
        if let Some(n) = b.tree.nodes.get_mut(open.node as usize) {
            n.total += open.duration;
            n.self_time += open.duration - open.child_time - open.taken_self;
        }
        if let Some(parent) = stack.last_mut() {
            parent.child_time += open.duration;
        }
    };
    let mut stack: Vec<Open> = Vec::new();
    for i in 0..spans.len() {
        let (Some(&start), Some(&end), Some(&depth), Some(&name), Some(&flags)) = (
            spans.start.get(i),
            spans.end.get(i),
            spans.depth.get(i),
            spans.name.get(i),
            spans.flags.get(i),
        ) else {
            break;
        };
        while stack.last().is_some_and(|o| o.depth >= depth) {
            if let Some(open) = stack.pop() {
                finish(b, open, &mut stack);
            }
        }
        let (start, end) = match range {
            Some((lo, hi)) => (start.max(lo), end.min(hi)),
            None => (start, end),
        };
        if end < start || (range.is_some() && end == start && spans.start[i] != spans.end[i]) {
            continue;
        }
        let parent = stack.last().map_or(0, |o| o.node);
        let node = b.child(parent, name);
        // An abandoned call never returned: like the report, it is drawn
        // but neither counted nor timed.
        let abandoned = flags & SPAN_ABANDONED != 0;
        if !abandoned && flags & SPAN_CONTINUED == 0 {
            if let Some(n) = b.tree.nodes.get_mut(node as usize) {
                n.calls += 1;
            }
        }
        stack.push(Open {
            depth,
            node,
            duration: if abandoned { 0 } else { end - start },
            child_time: 0,
            // Clipped to a range, a span keeps what a narrowing took from
            // it only as far as its clipped length allows.
            taken_self: if abandoned {
                0
            } else {
                spans.taken_self(i).min(end - start)
            },
        });
    }
    while let Some(open) = stack.pop() {
        finish(b, open, &mut stack);
    }
}

fn in_range(time: Option<&i64>, range: Option<TimeRange>) -> bool {
    match (range, time) {
        (None, _) => true,
        (Some((lo, hi)), Some(&t)) => lo <= t && t <= hi,
        // A set without a timeline is never filtered away.
        (Some(_), None) => true,
    }
}

/// Adds a weighted leaf for every stack, aggregated per distinct stack first
/// so each stack's frames are followed once.
fn add_weighted_stacks(b: &mut TreeBuilder, trace: &Trace, weighted: HashMap<u32, (i64, u64)>) {
    let mut stacks: Vec<(u32, (i64, u64))> = weighted.into_iter().collect();
    stacks.sort_unstable_by_key(|&(s, _)| s);
    for (stack, (weight, count)) in stacks {
        let node = b.path(&trace.stacks.frames(stack));
        if let Some(n) = b.tree.nodes.get_mut(node as usize) {
            n.self_time += weight;
            n.calls += count;
        }
    }
}

fn add_samples(
    b: &mut TreeBuilder,
    trace: &Trace,
    sets: &[u32],
    weight: u32,
    range: Option<TimeRange>,
) {
    // Stacks are shared by every set (one `Trace::stacks`), so sets merge
    // by adding their weights per stack.
    let mut weighted: HashMap<u32, (i64, u64)> = HashMap::new();
    for &set in sets {
        let Some(set) = trace.sample_sets.get(set as usize) else {
            continue;
        };
        let Some(weights) = set.weights.get(weight as usize) else {
            continue;
        };
        for (i, (&stack, &w)) in set.stack.iter().zip(weights).enumerate() {
            if !in_range(set.time.get(i), range) {
                continue;
            }
            let entry = weighted.entry(stack).or_default();
            entry.0 += w;
            entry.1 += 1;
        }
    }
    add_weighted_stacks(b, trace, weighted);
}

fn add_allocations(
    b: &mut TreeBuilder,
    trace: &Trace,
    resource: u32,
    weight: AllocationWeight,
    only_live: bool,
    range: Option<TimeRange>,
) {
    let Some(a) = trace.allocations.get(resource as usize) else {
        return;
    };
    let mut weighted: HashMap<u32, (i64, u64)> = HashMap::new();
    for i in 0..a.len() {
        let (Some(&stack), Some(&size), Some(&freed)) =
            (a.stack.get(i), a.size.get(i), a.free_time.get(i))
        else {
            break;
        };
        if (only_live && freed != NEVER_FREED) || !in_range(a.time.get(i), range) {
            continue;
        }
        let w = match weight {
            AllocationWeight::Bytes => i64::try_from(size).unwrap_or(i64::MAX),
            AllocationWeight::Count => 1,
        };
        let entry = weighted.entry(stack).or_default();
        entry.0 = entry.0.saturating_add(w);
        entry.1 += 1;
    }
    add_weighted_stacks(b, trace, weighted);
}

#[cfg(test)]
pub(crate) mod test_trace {
    use crate::model::{Format, TimeUnit, Trace, TraceBuilder};

    /// main(0..100){ a(10..40){ a(15..25) } b(50..90) } then main(100..110).
    pub(crate) fn recursive_trace() -> Trace {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "p");
        let t = b.thread(p, "1", "p");
        let (main, a, bb) = (b.intern("main"), b.intern("a"), b.intern("b"));
        b.begin(t, 0, main, 0);
        b.begin(t, 10, a, 0);
        b.begin(t, 15, a, 0);
        b.end(t, 25);
        b.end(t, 40);
        b.begin(t, 50, bb, 0);
        b.end(t, 90);
        b.end(t, 100);
        b.begin(t, 100, main, 0);
        b.end(t, 110);
        b.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::test_trace::recursive_trace;
    use super::*;
    use crate::model::{Format, TimeUnit, TraceBuilder};

    fn named<'a>(trace: &'a Trace, tree: &CallTree, i: u32) -> (&'a str, i64, i64, u64) {
        let n = &tree.nodes[i as usize];
        (trace.str(n.name), n.total, n.self_time, n.calls)
    }

    #[test]
    fn spans_merge_by_path_and_sort_left_heavy() {
        let trace = recursive_trace();
        let tree = build(&trace, &Source::Spans { threads: vec![0] }, None);
        assert_eq!(tree.root().total, 110);
        let main = tree.root().children[0];
        assert_eq!(named(&trace, &tree, main), ("main", 110, 40, 2));
        let kids: Vec<_> = tree.nodes[main as usize]
            .children
            .iter()
            .map(|&c| named(&trace, &tree, c))
            .collect();
        assert_eq!(kids, vec![("b", 40, 40, 1), ("a", 30, 20, 1)]);
        let a = tree.nodes[main as usize].children[1];
        let inner = tree.nodes[a as usize].children[0];
        assert_eq!(named(&trace, &tree, inner), ("a", 10, 10, 1));
        assert_eq!(tree.path_to(inner), vec![main, a, inner]);
    }

    #[test]
    fn a_range_clips_spans() {
        let trace = recursive_trace();
        let tree = build(&trace, &Source::Spans { threads: vec![0] }, Some((20, 60)));
        let main = tree.root().children[0];
        assert_eq!(named(&trace, &tree, main), ("main", 40, 10, 1));
        let kids: Vec<_> = tree.nodes[main as usize]
            .children
            .iter()
            .map(|&c| named(&trace, &tree, c))
            .collect();
        assert_eq!(kids, vec![("a", 20, 15, 1), ("b", 10, 10, 1)]);
    }

    #[test]
    fn samples_and_allocations_weigh_their_stacks() {
        let mut b = TraceBuilder::new(Format::SpRtrace, TimeUnit::Ns);
        let p = b.process("1", "p");
        let t = b.thread(p, "1", "p");
        let (main, f) = (b.intern("main"), b.intern("malloc_site"));
        let s_main = b.child_stack(crate::model::NO_PARENT, main);
        let s_f = b.child_stack(s_main, f);
        let heap = b.resource("memory", "bytes");
        let first = b.allocate(heap, t, 1, 100, 0x10, s_f);
        b.allocate(heap, t, 2, 7, 0x20, s_main);
        b.free(heap, first, 3);
        let trace = b.finish();
        let all = Source::Allocations {
            resource: 0,
            weight: AllocationWeight::Bytes,
            only_live: false,
        };
        let tree = build(&trace, &all, None);
        let main_node = tree.root().children[0];
        assert_eq!(named(&trace, &tree, main_node), ("main", 107, 7, 1));
        let leaks = Source::Allocations {
            resource: 0,
            weight: AllocationWeight::Count,
            only_live: true,
        };
        let tree = build(&trace, &leaks, None);
        assert_eq!(tree.root().total, 1);
        assert_eq!(
            tree.nodes[tree.root().children[0] as usize].children.len(),
            0
        );
    }
}
