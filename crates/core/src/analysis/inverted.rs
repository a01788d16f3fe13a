//! The bottom-up (inverted) call tree: each function at the root, its callers
//! below it, as in Chrome DevTools' "Bottom-Up" and Firefox Profiler's
//! inverted call tree.
//!
//! It is derived from a top-down [`CallTree`]. Every top-down node adds its
//! self weight and calls to the inverted path "function ← caller ← caller's
//! caller …". Its total is added only where the node is the outermost call of
//! its function on its path, so a root's total is the function's total with
//! recursion counted once — the same numbers `uftrace report` prints.

use super::calltree::{CallTree, TreeBuilder};
use crate::model::StrId;
use std::collections::HashMap;

/// The inverted tree of `top_down`, left-heavy.
pub fn bottom_up(top_down: &CallTree) -> CallTree {
    let mut b = TreeBuilder::new();
    each_inverted_path(top_down, |at, outermost, path| {
        let Some(node) = top_down.get(at) else {
            return;
        };
        let mut inverted = 0;
        for &frame in path.iter().rev() {
            let name = top_down.nodes[frame as usize].name;
            inverted = b.child(inverted, name);
            let n = &mut b.tree.nodes[inverted as usize];
            n.self_time += node.self_time;
            n.calls += node.calls;
            if outermost {
                n.total += node.total;
            }
        }
    });
    let mut tree = b.tree;
    let sum: i64 = tree
        .root()
        .children
        .iter()
        .map(|&c| tree.nodes[c as usize].self_time)
        .sum();
    tree.nodes[0].total = sum;
    tree.sort_left_heavy();
    tree
}

/// Visits every node of `top_down` in depth-first order with whether it is
/// the outermost call of its function on its path and the path (node
/// indices from the root's child down to it): the inverted path is that
/// path read backwards.
pub(crate) fn each_inverted_path(top_down: &CallTree, mut visit: impl FnMut(u32, bool, &[u32])) {
    let mut on_path: HashMap<StrId, u32> = HashMap::new();
    let mut path: Vec<u32> = Vec::new();
    // Iterative DFS: (node, entering?) so the on-path counts can be undone.
    let mut todo: Vec<(u32, bool)> = top_down
        .root()
        .children
        .iter()
        .rev()
        .map(|&c| (c, true))
        .collect();
    while let Some((at, entering)) = todo.pop() {
        let Some(node) = top_down.get(at) else {
            continue;
        };
        if !entering {
            path.pop();
            if let Some(n) = on_path.get_mut(&node.name) {
                *n = n.saturating_sub(1);
            }
            continue;
        }
        let outermost = on_path.get(&node.name).copied().unwrap_or(0) == 0;
        *on_path.entry(node.name).or_default() += 1;
        path.push(at);
        visit(at, outermost, &path);
        todo.push((at, false));
        todo.extend(node.children.iter().rev().map(|&c| (c, true)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::calltree::{build, Source};

    #[test]
    fn roots_are_functions_with_recursion_counted_once() {
        let trace = crate::analysis::calltree::test_trace::recursive_trace();
        let top = build(&trace, &Source::Spans { threads: vec![0] }, None);
        let inv = bottom_up(&top);
        let roots: Vec<_> = inv
            .root()
            .children
            .iter()
            .map(|&c| {
                let n = &inv.nodes[c as usize];
                (trace.str(n.name), n.total, n.self_time, n.calls)
            })
            .collect();
        assert_eq!(
            roots,
            vec![("main", 110, 40, 2), ("b", 40, 40, 1), ("a", 30, 30, 2)]
        );
        // a's callers: main (outer call) and a itself (the recursive call).
        let a = inv.root().children[2];
        let callers: Vec<_> = inv.nodes[a as usize]
            .children
            .iter()
            .map(|&c| {
                let n = &inv.nodes[c as usize];
                (trace.str(n.name), n.total, n.self_time, n.calls)
            })
            .collect();
        assert_eq!(callers, vec![("main", 30, 20, 1), ("a", 0, 10, 1)]);
    }
}
