//! The shapes of detail groups: the list of a group's keys and value kinds,
//! interned once per thread as a prefix tree, so spans that repeat one field
//! list share one node.

use super::kind_slots;
use super::lists::{ListMemo, ShapeField};
use crate::model::StrId;
use serde::{Deserialize, Serialize};

/// No parent: the node is the first field of its shapes.
pub const NO_SHAPE: u32 = u32::MAX;

/// The shapes of one [`Details`](super::Details)' groups: a prefix tree whose nodes are
/// fields (a key and a kind); a shape is the path from a first field down to
/// a node, named by that node. Every column has one entry per node, and a
/// node's parent comes before it.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Shapes {
    /// The node this one follows ([`NO_SHAPE`] for a first field).
    pub parent: Vec<u32>,
    pub key: Vec<StrId>,
    /// `KIND_*` of the field's value.
    pub kind: Vec<u8>,
    /// The text before the number of a [`KIND_NUMBERED`](super::KIND_NUMBERED) value, the text of
    /// a [`KIND_FIXED`](super::KIND_FIXED) one, else 0.
    pub prefix: Vec<StrId>,
    /// Built while interning (see [`Shapes::index`]), not part of the data.
    #[serde(skip)]
    index: ShapeIndex,
}

/// What interning needs beside the columns: each node's payload slots up to
/// and including it, and its children as linked lists.
#[derive(Clone, Debug)]
pub(super) struct ShapeIndex {
    pub(super) end: Vec<u32>,
    first_child: Vec<u32>,
    next_sibling: Vec<u32>,
    first_root: u32,
    /// Whole lists of a group's fields recently interned from the root.
    lists: ListMemo,
}

impl Default for ShapeIndex {
    fn default() -> Self {
        ShapeIndex {
            end: Vec::new(),
            first_child: Vec::new(),
            next_sibling: Vec::new(),
            first_root: NO_SHAPE,
            lists: ListMemo::default(),
        }
    }
}

impl PartialEq for Shapes {
    fn eq(&self, other: &Self) -> bool {
        self.parent == other.parent
            && self.key == other.key
            && self.kind == other.kind
            && self.prefix == other.prefix
    }
}

impl Eq for Shapes {}

impl Shapes {
    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// True when there is no shape.
    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// True when the columns have one length, every parent comes before its
    /// child and every kind is known: what the readers assume.
    pub fn is_consistent(&self) -> bool {
        let n = self.parent.len();
        self.key.len() == n
            && self.kind.len() == n
            && self.prefix.len() == n
            && self
                .parent
                .iter()
                .enumerate()
                .all(|(at, &p)| p == NO_SHAPE || (p as usize) < at)
            && self.kind.iter().all(|&k| kind_slots(k).is_some())
    }

    /// Per node: the payload slots of its shape (the node and its ancestors).
    pub fn slot_ends(&self) -> Vec<u32> {
        let mut end: Vec<u32> = Vec::with_capacity(self.len());
        for at in 0..self.len() {
            let before = self
                .parent
                .get(at)
                .and_then(|&p| end.get(p as usize))
                .copied()
                .unwrap_or(0);
            let own = self.kind.get(at).and_then(|&k| kind_slots(k)).unwrap_or(0);
            end.push(before.saturating_add(own));
        }
        end
    }

    /// The nodes of shape `node`, first field first (empty for an unknown node).
    /// A parent that does not come before its child ends the walk, so a
    /// damaged table cannot make it loop.
    pub(super) fn path(&self, node: u32, out: &mut Vec<u32>) {
        out.clear();
        let mut at = node;
        while (at as usize) < self.len() {
            out.push(at);
            let parent = self.parent[at as usize];
            if parent >= at {
                break;
            }
            at = parent;
        }
        out.reverse();
    }

    /// The interning index, rebuilt first when the columns were set from outside.
    #[inline]
    pub(super) fn index(&mut self) -> &mut ShapeIndex {
        if self.index.end.len() != self.len() {
            self.rebuild_index();
        }
        &mut self.index
    }

    /// Rebuilds the interning index from the columns (rare: after the
    /// columns were set from outside), kept out of line so that the lookups
    /// on every field stay small.
    #[cold]
    #[inline(never)]
    fn rebuild_index(&mut self) {
        let mut index = ShapeIndex {
            end: self.slot_ends(),
            first_child: vec![NO_SHAPE; self.len()],
            next_sibling: vec![NO_SHAPE; self.len()],
            first_root: NO_SHAPE,
            lists: ListMemo::default(),
        };
        for at in (0..self.len()).rev() {
            let head = match self.parent[at] {
                NO_SHAPE => &mut index.first_root,
                p => match index.first_child.get_mut(p as usize) {
                    Some(head) => head,
                    None => continue,
                },
            };
            index.next_sibling[at] = *head;
            *head = at as u32;
        }
        self.index = index;
    }

    /// The node for shape `parent` followed by a field with `key`, `kind`
    /// and `prefix`, made on first use. A child found further down its
    /// siblings' list moves to its head (the list's order is only the
    /// index's, not the data's), so the shapes a decoder repeats are found
    /// at the first or second look.
    pub(super) fn child(&mut self, parent: u32, key: StrId, kind: u8, prefix: StrId) -> u32 {
        let index = self.index();
        let head = match parent {
            NO_SHAPE => index.first_root,
            p => index
                .first_child
                .get(p as usize)
                .copied()
                .unwrap_or(NO_SHAPE),
        };
        let mut before = NO_SHAPE;
        let mut at = head;
        while let (Some(&k), Some(&c), Some(&x)) = (
            self.key.get(at as usize),
            self.kind.get(at as usize),
            self.prefix.get(at as usize),
        ) {
            let next = self
                .index
                .next_sibling
                .get(at as usize)
                .copied()
                .unwrap_or(NO_SHAPE);
            if k == key && c == kind && x == prefix {
                if before != NO_SHAPE {
                    self.move_to_front(parent, before, at, next);
                }
                return at;
            }
            before = at;
            at = next;
        }
        let node = self.len() as u32;
        let index = &mut self.index;
        let head = match parent {
            NO_SHAPE => &mut index.first_root,
            p => &mut index.first_child[p as usize],
        };
        index.next_sibling.push(*head);
        *head = node;
        index.first_child.push(NO_SHAPE);
        let before = match parent {
            NO_SHAPE => 0,
            p => index.end[p as usize],
        };
        index
            .end
            .push(before.saturating_add(kind_slots(kind).unwrap_or(0)));
        self.parent.push(parent);
        self.key.push(key);
        self.kind.push(kind);
        self.prefix.push(prefix);
        node
    }

    /// The node of a whole list of fields from the root, when it was
    /// interned lately (see [`ListMemo`]).
    #[inline]
    pub(super) fn find_list(&mut self, list: &[ShapeField]) -> Option<u32> {
        self.index().lists.find(list)
    }

    /// Remembers that the whole list `list` from the root is node `node`.
    pub(super) fn keep_list(&mut self, list: &[ShapeField], node: u32) {
        self.index().lists.keep(list, node);
    }

    /// Unlinks `node` (after `before`, followed by `next`) from the children
    /// of `parent` and puts it first.
    fn move_to_front(&mut self, parent: u32, before: u32, node: u32, next: u32) {
        let index = &mut self.index;
        let head = match parent {
            NO_SHAPE => Some(&mut index.first_root),
            p => index.first_child.get_mut(p as usize),
        };
        let Some(head) = head else { return };
        let old_head = std::mem::replace(head, node);
        if let Some(link) = index.next_sibling.get_mut(before as usize) {
            *link = next;
        }
        if let Some(link) = index.next_sibling.get_mut(node as usize) {
            *link = old_head;
        }
    }

    /// Drops the interning index after the keys changed from outside.
    pub(super) fn forget_index(&mut self) {
        self.index = ShapeIndex::default();
    }
}
