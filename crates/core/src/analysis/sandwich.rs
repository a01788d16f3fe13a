//! The sandwich view of one function: who calls it (above) and what it calls
//! (below), each merged over every place the function occurs, as speedscope's
//! Sandwich view shows.
//!
//! Callers are the function's subtree of the [`bottom_up`] tree. Callees merge
//! the top-down subtrees of the function's *outermost* occurrences only: a
//! recursive call stays inside its outer call's subtree, so no time is counted
//! twice.

use super::calltree::{CallTree, TreeBuilder};
use super::inverted::bottom_up;
use crate::model::StrId;

/// Callers and callees of one function; in both trees the root's single child
/// is the function itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sandwich {
    /// Inverted: the function, then its callers, their callers, …
    pub callers: CallTree,
    /// Top-down: the function, then its callees, …
    pub callees: CallTree,
}

/// The sandwich of `function` in `top_down`; both trees are empty (root only)
/// when the function never occurs.
pub fn sandwich(top_down: &CallTree, function: StrId) -> Sandwich {
    sandwich_with(top_down, &bottom_up(top_down), function)
}

/// [`sandwich`] when the bottom-up tree of `top_down` is already at hand.
pub fn sandwich_with(top_down: &CallTree, inverted: &CallTree, function: StrId) -> Sandwich {
    let callers = match inverted
        .root()
        .children
        .iter()
        .find(|&&c| inverted.nodes[c as usize].name == function)
    {
        Some(&start) => copy_subtrees(inverted, &[start]),
        None => CallTree::new(),
    };
    Sandwich {
        callers,
        callees: copy_subtrees(top_down, &outermost_nodes(top_down, function)),
    }
}

/// Nodes named `function` with no ancestor of the same name, in tree order.
pub fn outermost_nodes(tree: &CallTree, function: StrId) -> Vec<u32> {
    let mut found = Vec::new();
    let mut todo: Vec<u32> = tree.root().children.iter().rev().copied().collect();
    while let Some(at) = todo.pop() {
        let Some(node) = tree.get(at) else { continue };
        if node.name == function {
            found.push(at);
        } else {
            todo.extend(node.children.iter().rev());
        }
    }
    found
}

/// A new tree whose root has the merged copies of the subtrees at `starts`.
fn copy_subtrees(tree: &CallTree, starts: &[u32]) -> CallTree {
    let mut b = TreeBuilder::new();
    let mut todo: Vec<(u32, u32)> = starts.iter().map(|&s| (s, 0)).collect();
    while let Some((at, parent)) = todo.pop() {
        let Some(node) = tree.get(at) else { continue };
        let copy = b.child(parent, node.name);
        let n = &mut b.tree.nodes[copy as usize];
        n.total += node.total;
        n.self_time += node.self_time;
        n.calls += node.calls;
        todo.extend(node.children.iter().map(|&c| (c, copy)));
    }
    let mut out = b.tree;
    let sum: i64 = out
        .root()
        .children
        .iter()
        .map(|&c| out.nodes[c as usize].total)
        .sum();
    out.nodes[0].total = sum;
    out.sort_left_heavy();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::calltree::{build, test_trace::recursive_trace, Source};

    fn rows(trace: &crate::Trace, tree: &CallTree) -> Vec<(usize, String, i64, u64)> {
        let mut out = Vec::new();
        let mut todo: Vec<(u32, usize)> = vec![(0, 0)];
        while let Some((at, depth)) = todo.pop() {
            let n = &tree.nodes[at as usize];
            if at != 0 {
                out.push((depth, trace.str(n.name).to_owned(), n.total, n.calls));
            }
            todo.extend(n.children.iter().rev().map(|&c| (c, depth + 1)));
        }
        out
    }

    #[test]
    fn recursion_stays_inside_the_outer_call() {
        let trace = recursive_trace();
        let top = build(&trace, &Source::Spans { threads: vec![0] }, None);
        let a = trace.strings.all().iter().position(|s| s == "a").unwrap() as StrId;
        let s = sandwich(&top, a);
        assert_eq!(
            rows(&trace, &s.callees),
            vec![(1, "a".into(), 30, 1), (2, "a".into(), 10, 1)]
        );
        assert_eq!(
            rows(&trace, &s.callers),
            vec![
                (1, "a".into(), 30, 2),
                (2, "main".into(), 30, 1),
                (2, "a".into(), 0, 1),
                (3, "main".into(), 0, 1)
            ]
        );
    }

    #[test]
    fn an_unknown_function_gives_empty_trees() {
        let trace = recursive_trace();
        let top = build(&trace, &Source::Spans { threads: vec![0] }, None);
        let s = sandwich(&top, 999);
        assert!(s.callers.root().children.is_empty());
        assert!(s.callees.root().children.is_empty());
    }
}
