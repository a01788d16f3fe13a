//! Layout of the aggregated flame graph: a [`CallTree`] → rectangles in
//! fractions of the width, one row per depth, children placed left to right
//! in tree order (left-heavy when the tree is sorted so).
//!
//! Zooming into a node lays out only its subtree, with the node spanning the
//! whole width; nodes narrower than `min_width` are dropped together with
//! their subtrees, so the cost follows what is visible.

use super::calltree::CallTree;

/// One rectangle of the flame graph.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlameRect {
    /// The call-tree node drawn.
    pub node: u32,
    /// Row, 0 for the zoom root.
    pub depth: u16,
    /// Left and right edge, as fractions of the width (0..=1).
    pub x0: f64,
    pub x1: f64,
}

/// Rectangles of the subtree at `zoom` (0 = the whole tree, whose root itself
/// is not drawn), skipping those narrower than `min_width` (a fraction).
pub fn layout(tree: &CallTree, zoom: u32, min_width: f64) -> Vec<FlameRect> {
    let mut out = Vec::new();
    let Some(top) = tree.get(zoom) else {
        return out;
    };
    let scale = if top.total > 0 {
        1.0 / top.total as f64
    } else {
        0.0
    };
    let mut todo: Vec<(u32, u16, f64)> = Vec::new();
    if zoom == 0 {
        push_children(tree, 0, 0, 0.0, scale, &mut todo);
    } else {
        todo.push((zoom, 0, 0.0));
    }
    while let Some((at, depth, x0)) = todo.pop() {
        let Some(node) = tree.get(at) else { continue };
        let width = node.total as f64 * scale;
        if width < min_width || width <= 0.0 {
            continue;
        }
        out.push(FlameRect {
            node: at,
            depth,
            x0,
            x1: x0 + width,
        });
        push_children(tree, at, depth + 1, x0, scale, &mut todo);
    }
    out
}

fn push_children(
    tree: &CallTree,
    at: u32,
    depth: u16,
    mut x: f64,
    scale: f64,
    todo: &mut Vec<(u32, u16, f64)>,
) {
    let Some(node) = tree.get(at) else { return };
    for &c in &node.children {
        todo.push((c, depth, x));
        x += tree.get(c).map_or(0.0, |n| n.total as f64 * scale);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::calltree::{build, test_trace::recursive_trace, Source};

    #[test]
    fn children_sit_left_heavy_under_their_parent() {
        let trace = recursive_trace();
        let tree = build(&trace, &Source::Spans { threads: vec![0] }, None);
        let rects = layout(&tree, 0, 0.0);
        let named: Vec<_> = rects
            .iter()
            .map(|r| {
                (
                    trace.str(tree.nodes[r.node as usize].name),
                    r.depth,
                    r.x0,
                    r.x1,
                )
            })
            .collect();
        let main_b = 40.0 / 110.0;
        assert_eq!(named.len(), 4);
        assert!(named.contains(&("main", 0, 0.0, 1.0)));
        assert!(named.contains(&("b", 1, 0.0, main_b)));
        assert!(named.contains(&("a", 1, main_b, main_b + 30.0 / 110.0)));
    }

    #[test]
    fn zoom_spans_the_width_and_narrow_nodes_are_culled() {
        let trace = recursive_trace();
        let tree = build(&trace, &Source::Spans { threads: vec![0] }, None);
        let main = tree.root().children[0];
        let a = tree.nodes[main as usize].children[1];
        let rects = layout(&tree, a, 0.0);
        assert_eq!(
            rects[0],
            FlameRect {
                node: a,
                depth: 0,
                x0: 0.0,
                x1: 1.0
            }
        );
        assert_eq!(rects.len(), 2);
        assert_eq!(layout(&tree, a, 0.5).len(), 1);
    }
}
