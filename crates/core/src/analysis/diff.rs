//! Differences between two traces of the same program: their call trees
//! merged path by path (names matched as text, since each trace has its own
//! string table), with both sides' total, self and calls — the data of a
//! differential flame graph coloured by the change in self time. The table
//! of the functions that changed most is in [`super::diff_table`].

use super::calltree::{CallTree, Node, ROOT_NAME};
use crate::model::{StrId, StringTable};
use std::collections::HashMap;

/// What one side (base or new) weighs on a path or in a function.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Weights {
    pub calls: u64,
    pub total: i64,
    #[serde(rename = "self")]
    pub self_time: i64,
}

/// Which trace of a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Base,
    New,
}

/// One call path present in either trace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DiffNode {
    /// Index into [`DiffTree::strings`] ([`ROOT_NAME`] for the root).
    pub name: StrId,
    pub parent: u32,
    pub children: Vec<u32>,
    pub base: Weights,
    pub new: Weights,
}

impl DiffNode {
    /// Self weight gained (positive) or lost in the new trace.
    pub fn self_change(&self) -> i64 {
        self.new.self_time - self.base.self_time
    }

    /// The weights of one side.
    pub fn side(&self, side: Side) -> &Weights {
        match side {
            Side::Base => &self.base,
            Side::New => &self.new,
        }
    }
}

/// Two call trees merged; node 0 is the root.
#[derive(Clone, Debug)]
pub struct DiffTree {
    pub nodes: Vec<DiffNode>,
    /// The names of both traces, interned once.
    pub strings: StringTable,
}

impl DiffTree {
    /// The node at `index`.
    pub fn get(&self, index: u32) -> Option<&DiffNode> {
        self.nodes.get(index as usize)
    }

    /// One side as a plain call tree with the same node indices (a path
    /// only the other side has weighs 0), children heaviest first on that
    /// side: what the flame graph layout takes.
    pub fn call_tree(&self, side: Side) -> CallTree {
        let mut nodes: Vec<Node> = self
            .nodes
            .iter()
            .map(|n| {
                let w = n.side(side);
                Node {
                    name: n.name,
                    parent: n.parent,
                    total: w.total,
                    self_time: w.self_time,
                    calls: w.calls,
                    children: n.children.clone(),
                }
            })
            .collect();
        for i in 0..nodes.len() {
            let mut children = std::mem::take(&mut nodes[i].children);
            children
                .sort_by_key(|&c| std::cmp::Reverse(nodes.get(c as usize).map_or(0, |n| n.total)));
            nodes[i].children = children;
        }
        CallTree { nodes }
    }
}

/// Merges `base` and `new` by path; children ordered by the larger of
/// their two totals, heaviest first.
pub fn diff_trees(
    base: &CallTree,
    base_names: &StringTable,
    new: &CallTree,
    new_names: &StringTable,
) -> DiffTree {
    let mut out = DiffTree {
        nodes: vec![DiffNode {
            name: ROOT_NAME,
            ..DiffNode::default()
        }],
        strings: StringTable::default(),
    };
    let mut index: HashMap<(u32, StrId), u32> = HashMap::new();
    for (tree, names, side) in [(base, base_names, Side::Base), (new, new_names, Side::New)] {
        let mut todo: Vec<(u32, u32)> = vec![(0, 0)];
        while let Some((at, into)) = todo.pop() {
            let Some(node) = tree.get(at) else { continue };
            let target = if at == 0 {
                0
            } else {
                let name = if node.name == ROOT_NAME {
                    ROOT_NAME
                } else {
                    out.strings.intern(names.get(node.name))
                };
                *index.entry((into, name)).or_insert_with(|| {
                    let i = out.nodes.len() as u32;
                    out.nodes.push(DiffNode {
                        name,
                        parent: into,
                        ..DiffNode::default()
                    });
                    if let Some(parent) = out.nodes.get_mut(into as usize) {
                        parent.children.push(i);
                    }
                    i
                })
            };
            let Some(n) = out.nodes.get_mut(target as usize) else {
                continue;
            };
            let w = match side {
                Side::Base => &mut n.base,
                Side::New => &mut n.new,
            };
            w.total += node.total;
            w.self_time += node.self_time;
            w.calls += node.calls;
            todo.extend(node.children.iter().map(|&c| (c, target)));
        }
    }
    for i in 0..out.nodes.len() {
        let mut children = std::mem::take(&mut out.nodes[i].children);
        children.sort_by_key(|&c| {
            std::cmp::Reverse(
                out.nodes
                    .get(c as usize)
                    .map_or(0, |n| n.base.total.max(n.new.total)),
            )
        });
        out.nodes[i].children = children;
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::analysis::{build_call_tree, Source};
    use crate::model::{Format, TimeUnit, TraceBuilder};
    use crate::Trace;

    /// main{ work(len) } then, when `extra`, main{ new_fn(5) }.
    pub(crate) fn run(work: i64, extra: bool) -> Trace {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "p");
        let t = b.thread(p, "1", "p");
        // Intern in a different order per trace so ids differ.
        if extra {
            b.intern("new_fn");
        }
        let (main, w) = (b.intern("main"), b.intern("work"));
        b.begin(t, 0, main, 0);
        b.begin(t, 10, w, 0);
        b.end(t, 10 + work);
        if extra {
            let n = b.intern("new_fn");
            b.begin(t, 20 + work, n, 0);
            b.end(t, 25 + work);
        }
        b.end(t, 100 + work);
        b.finish()
    }

    #[test]
    fn paths_merge_by_name_with_both_sides() {
        let (a, b) = (run(50, false), run(80, true));
        let spans = Source::Spans { threads: vec![0] };
        let (ta, tb) = (
            build_call_tree(&a, &spans, None),
            build_call_tree(&b, &spans, None),
        );
        let d = diff_trees(&ta, &a.strings, &tb, &b.strings);
        let main = &d.nodes[d.nodes[0].children[0] as usize];
        assert_eq!(d.strings.get(main.name), "main");
        assert_eq!((main.base.total, main.new.total), (150, 180));
        assert_eq!((main.base.calls, main.new.calls), (1, 1));
        let kids: Vec<(&str, i64, u64, u64)> = main
            .children
            .iter()
            .map(|&c| {
                let n = &d.nodes[c as usize];
                (
                    d.strings.get(n.name),
                    n.self_change(),
                    n.base.calls,
                    n.new.calls,
                )
            })
            .collect();
        assert_eq!(kids, vec![("work", 30, 1, 1), ("new_fn", 5, 0, 1)]);
        // The root sums its children on each side.
        assert_eq!((d.nodes[0].base.total, d.nodes[0].new.total), (150, 180));
    }

    #[test]
    fn one_side_as_a_call_tree_keeps_indices_and_sorts_by_that_side() {
        let (a, b) = (run(90, false), run(10, true));
        let spans = Source::Spans { threads: vec![0] };
        let d = diff_trees(
            &build_call_tree(&a, &spans, None),
            &a.strings,
            &build_call_tree(&b, &spans, None),
            &b.strings,
        );
        let new = d.call_tree(Side::New);
        let base = d.call_tree(Side::Base);
        assert_eq!(new.nodes.len(), d.nodes.len());
        let main = d.nodes[0].children[0];
        let first = |t: &CallTree| {
            d.strings
                .get(t.nodes[t.nodes[main as usize].children[0] as usize].name)
                .to_owned()
        };
        // In the new run work (10) and new_fn (5); in the base only work.
        assert_eq!(first(&new), "work");
        assert_eq!(first(&base), "work");
        let new_fn = new.nodes[main as usize].children[1];
        assert_eq!(
            (
                base.nodes[new_fn as usize].total,
                new.nodes[new_fn as usize].total
            ),
            (0, 5)
        );
        assert_eq!(new.root().total, 110);
    }
}
