//! Differences between two traces of the same program: their call trees
//! merged path by path (names matched as text, since each trace has its own
//! string table), with both sides' total and self, for a differential flame
//! graph coloured by the change in self time; and the functions whose self
//! time changed most, for the table beside it.

use super::calltree::{CallTree, ROOT_NAME};
use crate::model::StringTable;
use std::collections::HashMap;

/// One call path present in either trace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DiffNode {
    pub name: String,
    pub parent: u32,
    pub children: Vec<u32>,
    pub base_total: i64,
    pub base_self: i64,
    pub other_total: i64,
    pub other_self: i64,
}

impl DiffNode {
    /// Self time gained (positive) or lost in the other trace.
    pub fn self_change(&self) -> i64 {
        self.other_self - self.base_self
    }
}

/// Two call trees merged; node 0 is the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffTree {
    pub nodes: Vec<DiffNode>,
}

/// Merges `base` and `other` by path; children ordered by the larger of
/// their two totals, heaviest first.
pub fn diff_trees(
    base: &CallTree,
    base_names: &StringTable,
    other: &CallTree,
    other_names: &StringTable,
) -> DiffTree {
    let mut out = DiffTree {
        nodes: vec![DiffNode::default()],
    };
    let mut index: HashMap<(u32, String), u32> = HashMap::new();
    for (tree, names, is_base) in [(base, base_names, true), (other, other_names, false)] {
        let mut todo: Vec<(u32, u32)> = vec![(0, 0)];
        while let Some((at, into)) = todo.pop() {
            let Some(node) = tree.get(at) else { continue };
            let target = if at == 0 {
                0
            } else {
                let name = if node.name == ROOT_NAME {
                    String::new()
                } else {
                    names.get(node.name).to_owned()
                };
                *index.entry((into, name.clone())).or_insert_with(|| {
                    let i = out.nodes.len() as u32;
                    out.nodes.push(DiffNode {
                        name,
                        parent: into,
                        ..DiffNode::default()
                    });
                    out.nodes[into as usize].children.push(i);
                    i
                })
            };
            let n = &mut out.nodes[target as usize];
            if is_base {
                n.base_total += node.total;
                n.base_self += node.self_time;
            } else {
                n.other_total += node.total;
                n.other_self += node.self_time;
            }
            todo.extend(node.children.iter().map(|&c| (c, target)));
        }
    }
    for i in 0..out.nodes.len() {
        let mut children = std::mem::take(&mut out.nodes[i].children);
        let weight = |c: &u32| {
            let n = &out.nodes[*c as usize];
            std::cmp::Reverse(n.base_total.max(n.other_total))
        };
        children.sort_by_key(weight);
        out.nodes[i].children = children;
    }
    out
}

/// A function's self and total time in both traces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub name: String,
    pub base_self: i64,
    pub other_self: i64,
    pub base_total: i64,
    pub other_total: i64,
}

/// The `limit` functions whose self time changed most (by size of the
/// change), from the two bottom-up trees (whose roots are the functions).
pub fn largest_changes(
    base_inverted: &CallTree,
    base_names: &StringTable,
    other_inverted: &CallTree,
    other_names: &StringTable,
    limit: usize,
) -> Vec<Change> {
    let mut by_name: HashMap<String, Change> = HashMap::new();
    for (tree, names, is_base) in [
        (base_inverted, base_names, true),
        (other_inverted, other_names, false),
    ] {
        for n in tree.root().children.iter().filter_map(|&c| tree.get(c)) {
            let name = names.get(n.name).to_owned();
            let change = by_name.entry(name.clone()).or_insert(Change {
                name,
                base_self: 0,
                other_self: 0,
                base_total: 0,
                other_total: 0,
            });
            if is_base {
                change.base_self += n.self_time;
                change.base_total += n.total;
            } else {
                change.other_self += n.self_time;
                change.other_total += n.total;
            }
        }
    }
    let mut changes: Vec<Change> = by_name.into_values().collect();
    changes.sort_by(|a, b| {
        let size = |c: &Change| (c.other_self - c.base_self).abs();
        size(b).cmp(&size(a)).then_with(|| a.name.cmp(&b.name))
    });
    changes.truncate(limit);
    changes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{bottom_up, build_call_tree, Source};
    use crate::model::{Format, TimeUnit, TraceBuilder};
    use crate::Trace;

    /// main{ work(len) } then, when `extra`, main{ new_fn(5) }.
    fn run(work: i64, extra: bool) -> Trace {
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
    fn paths_merge_by_name_and_changes_are_ranked() {
        let (a, b) = (run(50, false), run(80, true));
        let spans = Source::Spans { threads: vec![0] };
        let (ta, tb) = (
            build_call_tree(&a, &spans, None),
            build_call_tree(&b, &spans, None),
        );
        let d = diff_trees(&ta, &a.strings, &tb, &b.strings);
        let main = &d.nodes[d.nodes[0].children[0] as usize];
        assert_eq!(
            (main.name.as_str(), main.base_total, main.other_total),
            ("main", 150, 180)
        );
        let kids: Vec<(&str, i64)> = main
            .children
            .iter()
            .map(|&c| {
                (
                    d.nodes[c as usize].name.as_str(),
                    d.nodes[c as usize].self_change(),
                )
            })
            .collect();
        assert_eq!(kids, vec![("work", 30), ("new_fn", 5)]);
        let changes = largest_changes(&bottom_up(&ta), &a.strings, &bottom_up(&tb), &b.strings, 3);
        let names: Vec<&str> = changes.iter().map(|c| c.name.as_str()).collect();
        // main lost the 5 units new_fn took: equal changes sort by name.
        assert_eq!(names, vec!["work", "main", "new_fn"]);
        assert_eq!((changes[0].base_self, changes[0].other_self), (50, 80));
    }
}
