//! Rebuilds a thread's call tree from its level-order records.
//!
//! The serializer writes the tree breadth-first, so the children of one node
//! are contiguous and the child blocks follow their parents' order. A block
//! runs from its parent's `firstChildIndex` to the next parent's (the last
//! one to `firstChildIndex + childrenSize`). `childrenSize` is only a
//! cross-check: Scaler reads it after the order was fixed, so real files can
//! claim more children than were written. Siblings are stored newest first;
//! [`Tree::walk`] yields them in call order.

use super::records::Record;

/// Problems found while linking records, each with the first record offset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkProblems {
    /// Parents whose `childrenSize` differs from the records stored for them.
    pub size_mismatch: Counted,
    /// Records with `childrenSize > 0` but no `firstChildIndex`: drawn as leaves.
    pub size_without_children: Counted,
    /// `firstChildIndex` values that point outside the file, backwards, or
    /// away from where the previous block ended.
    pub bad_links: Counted,
    /// Records no parent block reaches; they cannot be placed.
    pub unreachable: Counted,
}

/// A count with the byte offset of its first occurrence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counted {
    pub count: u64,
    pub first_offset: Option<u64>,
}

impl Counted {
    /// Counts one more, keeping the first offset.
    pub fn add(&mut self, offset: u64) {
        self.count += 1;
        self.first_offset.get_or_insert(offset);
    }
}

/// The call tree of one thread: record 0 is the root.
pub struct Tree {
    /// Per record, the record range holding its children.
    blocks: Vec<(u32, u32)>,
    /// Per record, its parent (`u32::MAX` for the root and unplaced records).
    parent: Vec<u32>,
    pub problems: LinkProblems,
}

/// One step of a walk: a node entered at `depth` (children of the root are
/// depth 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visit {
    pub record: u32,
    pub depth: u16,
}

impl Tree {
    /// Links `records` (record 0 being the root).
    pub fn link(records: &[Record]) -> Tree {
        let n = records.len();
        let mut problems = LinkProblems::default();
        let mut blocks = vec![(0u32, 0u32); n];
        let mut parent = vec![u32::MAX; n];
        let parents: Vec<(usize, &Record)> = records
            .iter()
            .enumerate()
            .filter(|(_, r)| r.first_child >= 0)
            .collect();
        let mut expected_start = 1i64;
        for (k, &(p, record)) in parents.iter().enumerate() {
            let first = record.first_child;
            if first != expected_start || first <= p as i64 || first >= n as i64 {
                problems.bad_links.add(record.offset);
            }
            let next_first = parents
                .get(k + 1)
                .map(|(_, next)| next.first_child)
                .filter(|&f| f > first);
            let end = next_first
                .unwrap_or_else(|| first.saturating_add(record.children.max(0)).min(n as i64));
            let start = first.max(p as i64 + 1).min(n as i64);
            let end = end.clamp(start, n as i64);
            if end - first != record.children {
                problems.size_mismatch.add(record.offset);
            }
            // Each record belongs to the first block that claims it.
            let mut kept = (start as u32, start as u32);
            let claimed = start as usize..end as usize;
            for (child, (slot, stored)) in parent
                .iter_mut()
                .zip(records)
                .enumerate()
                .take(claimed.end)
                .skip(claimed.start)
            {
                if *slot == u32::MAX {
                    *slot = p as u32;
                    kept.1 = child as u32 + 1;
                } else {
                    problems.bad_links.add(stored.offset);
                }
            }
            if let Some(block) = blocks.get_mut(p) {
                *block = kept;
            }
            expected_start = end;
        }
        for record in records {
            if record.first_child < 0 && record.children > 0 {
                problems.size_without_children.add(record.offset);
            }
        }
        for (record, &placed) in records.iter().zip(&parent).skip(1) {
            if placed == u32::MAX {
                problems.unreachable.add(record.offset);
            }
        }
        Tree {
            blocks,
            parent,
            problems,
        }
    }

    /// Children of `node`, in call order (the reverse of stored order).
    fn children(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        let (start, end) = self.blocks.get(node as usize).copied().unwrap_or((0, 0));
        (start..end)
            .rev()
            .filter(move |&c| self.parent.get(c as usize) == Some(&node))
    }

    /// Every node below the root in pre-order, siblings in call order.
    pub fn walk(&self, mut visit: impl FnMut(Visit)) {
        if self.blocks.is_empty() {
            return;
        }
        // Children always come after their parent in the file, so this ends.
        let mut stack: Vec<Visit> = Vec::new();
        let push_children = |stack: &mut Vec<Visit>, node: u32, depth: u16| {
            let mut kids: Vec<u32> = self.children(node).collect();
            kids.reverse();
            stack.extend(kids.into_iter().map(|record| Visit { record, depth }));
        };
        push_children(&mut stack, 0, 0);
        while let Some(v) = stack.pop() {
            visit(v);
            push_children(&mut stack, v.record, v.depth.saturating_add(1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::scaler::records::Kind;

    fn node(offset: u64, first_child: i64, children: i64) -> Record {
        Record {
            kind: Kind::Normal,
            offset,
            file_id: 0,
            func_id: offset as i64,
            start: -1,
            end: -1,
            first_child,
            children,
            extra: [None, None],
        }
    }

    fn order(records: &[Record]) -> Vec<(u32, u16)> {
        let mut out = Vec::new();
        Tree::link(records).walk(|v| out.push((v.record, v.depth)));
        out
    }

    #[test]
    fn the_unit_test_tree_comes_out_in_call_order() {
        // Root → 1,2,3 (stored newest first); 1 → 4,5; 3 → 6,7.
        let records = vec![
            node(0, 1, 3),
            node(1, 4, 2),
            node(2, -1, 0),
            node(3, 6, 2),
            node(4, -1, 0),
            node(5, -1, 0),
            node(6, -1, 0),
            node(7, -1, 0),
        ];
        assert_eq!(
            order(&records),
            vec![(3, 0), (7, 1), (6, 1), (2, 0), (1, 0), (5, 1), (4, 1)]
        );
        assert_eq!(Tree::link(&records).problems, LinkProblems::default());
    }

    #[test]
    fn an_inflated_children_size_is_a_counted_mismatch() {
        let records = vec![node(0, 1, 4), node(1, -1, 0), node(2, -1, 0)];
        let tree = Tree::link(&records);
        assert_eq!(tree.problems.size_mismatch.count, 1);
        assert_eq!(order(&records).len(), 2);
        let lone = vec![node(0, -1, 2)];
        assert_eq!(Tree::link(&lone).problems.size_without_children.count, 1);
    }

    #[test]
    fn links_that_point_backwards_cannot_loop() {
        let records = vec![node(0, 1, 2), node(1, 0, 3), node(2, 1, 1)];
        let tree = Tree::link(&records);
        assert!(tree.problems.bad_links.count > 0);
        let mut seen = 0;
        tree.walk(|_| seen += 1);
        assert_eq!(seen, 2);
    }
}
