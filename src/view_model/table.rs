//! The rows the call-tree table shows: the expanded part of a call tree in
//! depth-first order, siblings ordered by the chosen column, and where the
//! keyboard moves the focus (↑ ↓ to the neighbouring row, → to expand or to
//! the first child, ← to collapse or to the parent), as in a WAI-ARIA
//! treegrid.

use flamedrop_core::analysis::CallTree;
use std::collections::HashSet;

/// The column the table is sorted by (always largest first, names A→Z).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SortBy {
    #[default]
    Total,
    SelfTime,
    Calls,
    Name,
    /// A read-trigger delta column (`Δ rss`), by its index.
    Delta(usize),
}

/// One visible row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub node: u32,
    /// 1 for the root's children (the `aria-level`).
    pub level: u16,
}

/// A node's name, and its value in a delta column (`None`: no call of
/// the node has one), for sorting.
pub struct SortKeys<'a> {
    pub name: &'a dyn Fn(u32) -> String,
    pub delta: &'a dyn Fn(usize, u32) -> Option<i64>,
}

/// The visible rows, at most `limit` of them.
pub fn visible_rows(
    tree: &CallTree,
    expanded: &HashSet<u32>,
    sort: SortBy,
    keys: &SortKeys,
    limit: usize,
) -> Vec<Row> {
    let mut out = Vec::new();
    let mut todo: Vec<Row> = sorted_children(tree, 0, sort, keys)
        .into_iter()
        .rev()
        .map(|node| Row { node, level: 1 })
        .collect();
    while let Some(row) = todo.pop() {
        if out.len() >= limit {
            break;
        }
        out.push(row);
        if expanded.contains(&row.node) {
            let children = sorted_children(tree, row.node, sort, keys);
            todo.extend(children.into_iter().rev().map(|node| Row {
                node,
                level: row.level + 1,
            }));
        }
    }
    out
}

fn sorted_children(tree: &CallTree, at: u32, sort: SortBy, keys: &SortKeys) -> Vec<u32> {
    let Some(node) = tree.get(at) else {
        return Vec::new();
    };
    let mut children = node.children.clone();
    let key = |c: u32| {
        tree.get(c)
            .map_or((0, 0, 0), |n| (n.total, n.self_time, n.calls as i64))
    };
    match sort {
        SortBy::Total => children.sort_by_key(|&c| std::cmp::Reverse(key(c).0)),
        SortBy::SelfTime => children.sort_by_key(|&c| std::cmp::Reverse(key(c).1)),
        SortBy::Calls => children.sort_by_key(|&c| std::cmp::Reverse(key(c).2)),
        SortBy::Name => children.sort_by_cached_key(|&c| (keys.name)(c)),
        // Largest first; nodes without a value last.
        SortBy::Delta(column) => {
            children.sort_by_key(|&c| std::cmp::Reverse((keys.delta)(column, c).map(|v| (1, v))))
        }
    }
    children
}

/// A key press on the focused row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Up,
    Down,
    Right,
    Left,
}

/// What a key does: the row to focus next, and a node to expand or
/// collapse (`(node, expand?)`).
pub fn key_move(
    tree: &CallTree,
    rows: &[Row],
    expanded: &HashSet<u32>,
    focus: usize,
    key: Move,
) -> (usize, Option<(u32, bool)>) {
    let Some(row) = rows.get(focus) else {
        return (0, None);
    };
    let has_children = tree.get(row.node).is_some_and(|n| !n.children.is_empty());
    let open = expanded.contains(&row.node);
    match key {
        Move::Up => (focus.saturating_sub(1), None),
        Move::Down => ((focus + 1).min(rows.len().saturating_sub(1)), None),
        Move::Right if has_children && !open => (focus, Some((row.node, true))),
        Move::Right if has_children => ((focus + 1).min(rows.len() - 1), None),
        Move::Right => (focus, None),
        Move::Left if open => (focus, Some((row.node, false))),
        Move::Left => {
            let parent = rows[..focus].iter().rposition(|r| r.level < row.level);
            (parent.unwrap_or(focus), None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flamedrop_core::analysis::calltree::Node;

    /// root → a(10) → c(4); root → b(20).
    fn tree() -> CallTree {
        let node = |name, parent, total, children: Vec<u32>| Node {
            name,
            parent,
            total,
            self_time: total,
            calls: 1,
            children,
        };
        CallTree {
            nodes: vec![
                node(u32::MAX, 0, 30, vec![1, 2]),
                node(0, 0, 10, vec![3]),
                node(1, 0, 20, vec![]),
                node(2, 1, 4, vec![]),
            ],
        }
    }

    #[test]
    fn rows_follow_expansion_and_sorting() {
        let t = tree();
        let name = |n: u32| ["a", "b", "c"][t.nodes[n as usize].name as usize].to_owned();
        // Deltas: a -5, b +3, c none.
        let delta = |_: usize, n: u32| [None, Some(-5), Some(3), None][n as usize];
        let keys = SortKeys {
            name: &name,
            delta: &delta,
        };
        let mut open = HashSet::new();
        let nodes = |rows: Vec<Row>| rows.iter().map(|r| (r.node, r.level)).collect::<Vec<_>>();
        assert_eq!(
            nodes(visible_rows(&t, &open, SortBy::Total, &keys, 99)),
            vec![(2, 1), (1, 1)]
        );
        open.insert(1);
        assert_eq!(
            nodes(visible_rows(&t, &open, SortBy::Name, &keys, 99)),
            vec![(1, 1), (3, 2), (2, 1)]
        );
        assert_eq!(visible_rows(&t, &open, SortBy::Name, &keys, 2).len(), 2);
        assert_eq!(
            nodes(visible_rows(&t, &open, SortBy::Delta(0), &keys, 99)),
            vec![(2, 1), (1, 1), (3, 2)]
        );
    }

    #[test]
    fn arrows_expand_collapse_and_move() {
        let t = tree();
        let name = |n: u32| n.to_string();
        let keys = SortKeys {
            name: &name,
            delta: &|_, _| None,
        };
        let mut open = HashSet::new();
        let rows = visible_rows(&t, &open, SortBy::Total, &keys, 99);
        // Focus on a (row 1): → expands it.
        assert_eq!(
            key_move(&t, &rows, &open, 1, Move::Right),
            (1, Some((1, true)))
        );
        open.insert(1);
        let rows = visible_rows(&t, &open, SortBy::Total, &keys, 99);
        assert_eq!(key_move(&t, &rows, &open, 1, Move::Right), (2, None));
        // On c, ← goes to its parent a; on a, ← collapses.
        assert_eq!(key_move(&t, &rows, &open, 2, Move::Left), (1, None));
        assert_eq!(
            key_move(&t, &rows, &open, 1, Move::Left),
            (1, Some((1, false)))
        );
        assert_eq!(key_move(&t, &rows, &open, 0, Move::Up), (0, None));
    }
}
