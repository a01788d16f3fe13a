//! Detail fields of spans and markers (arguments, classes, sizes, backtrace
//! ids, …), stored in columns of groups: the fields one owner (span or marker
//! index) received in one go form a group, and a group keeps only its owner,
//! its *shape* and where its payload starts. A shape is the list of the
//! group's keys and value kinds, interned once per thread in a prefix tree
//! ([`Shapes`]), because the spans of one trace mostly repeat a few such lists.
//! A value's payload is one 32-bit slot (an interned text, a number that fits
//! in 32 bits, the number of a `Numbered` value whose text is in the shape) or
//! two (a wider number), so a field costs 4 bytes where it cost 17 (owner,
//! key, kind and a 64-bit payload each), plus 12 bytes per group. Texts are
//! interned in the trace's string table, numbers are formatted only when
//! shown, the builder allocates nothing per field, and the columns travel to
//! the page as typed arrays.

use super::{StrId, StringTable};
use serde::{Deserialize, Serialize};

/// A named value shown in a tooltip or the detail panel, as text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    pub key: String,
    pub value: String,
}

impl Field {
    /// A field from anything printable.
    pub fn new(key: impl Into<String>, value: impl Into<String>) -> Self {
        Field {
            key: key.into(),
            value: value.into(),
        }
    }
}

/// A field's value as the builder receives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// An interned text.
    Text(StrId),
    /// A signed number, shown in decimal.
    Int(i64),
    /// An unsigned number, shown as `0x…` in lowercase hex.
    Hex(u64),
    /// An interned text followed by a number in decimal (`call #` and 12 →
    /// `call #12`).
    Numbered(StrId, u32),
    /// An interned text that is one of a few a decoder gives many owners
    /// (a call's kind, a method's class): shown like [`Value::Text`], kept
    /// in the shape, so it takes no payload.
    Fixed(StrId),
}

/// [`Shapes::kind`] of a [`Value::Text`] (one slot: the string id).
pub const KIND_TEXT: u8 = 0;
/// [`Shapes::kind`] of a [`Value::Int`] outside `i32` (two slots: low, high word).
pub const KIND_INT: u8 = 1;
/// [`Shapes::kind`] of a [`Value::Hex`] above `u32::MAX` (two slots: low, high word).
pub const KIND_HEX: u8 = 2;
/// [`Shapes::kind`] of a [`Value::Numbered`] (one slot: the number; the
/// text is the shape's [`Shapes::prefix`]).
pub const KIND_NUMBERED: u8 = 3;
/// [`Shapes::kind`] of a [`Value::Int`] within `i32` (one slot: its bits).
pub const KIND_INT32: u8 = 4;
/// [`Shapes::kind`] of a [`Value::Hex`] up to `u32::MAX` (one slot).
pub const KIND_HEX32: u8 = 5;
/// [`Shapes::kind`] of a [`Value::Fixed`] (no slot: the text is the shape's
/// [`Shapes::prefix`]).
pub const KIND_FIXED: u8 = 6;

/// Payload slots a value of `kind` takes; `None` for an unknown kind.
pub fn kind_slots(kind: u8) -> Option<u32> {
    match kind {
        KIND_TEXT | KIND_NUMBERED | KIND_INT32 | KIND_HEX32 => Some(1),
        KIND_INT | KIND_HEX => Some(2),
        KIND_FIXED => Some(0),
        _ => None,
    }
}

/// How a value is stored: its kind, the text of its shape entry (the text
/// before a `Numbered` number, else 0), its slots and how many of them count.
struct Stored {
    kind: u8,
    prefix: StrId,
    slots: [u32; 2],
    len: usize,
}

impl Value {
    fn store(self) -> Stored {
        let one = |kind, prefix, slot| Stored {
            kind,
            prefix,
            slots: [slot, 0],
            len: 1,
        };
        let two = |kind, n: u64| Stored {
            kind,
            prefix: 0,
            slots: [n as u32, (n >> 32) as u32],
            len: 2,
        };
        match self {
            Value::Text(id) => one(KIND_TEXT, 0, id),
            Value::Int(n) => match i32::try_from(n) {
                Ok(small) => one(KIND_INT32, 0, small as u32),
                Err(_) => two(KIND_INT, n as u64),
            },
            Value::Hex(n) => match u32::try_from(n) {
                Ok(small) => one(KIND_HEX32, 0, small),
                Err(_) => two(KIND_HEX, n),
            },
            Value::Numbered(id, n) => one(KIND_NUMBERED, id, n),
            Value::Fixed(id) => Stored {
                kind: KIND_FIXED,
                prefix: id,
                slots: [0, 0],
                len: 0,
            },
        }
    }

    /// The value stored as `kind` with `prefix` in its shape and `slots` as
    /// payload; `None` for an unknown kind or too few slots.
    pub fn load(kind: u8, prefix: StrId, slots: &[u32]) -> Option<Value> {
        let wide = || Some(u64::from(*slots.first()?) | u64::from(*slots.get(1)?) << 32);
        Some(match kind {
            KIND_TEXT => Value::Text(*slots.first()?),
            KIND_NUMBERED => Value::Numbered(prefix, *slots.first()?),
            KIND_INT32 => Value::Int(i64::from(*slots.first()? as i32)),
            KIND_HEX32 => Value::Hex(u64::from(*slots.first()?)),
            KIND_INT => Value::Int(wide()? as i64),
            KIND_HEX => Value::Hex(wide()?),
            KIND_FIXED => Value::Fixed(prefix),
            _ => return None,
        })
    }

    /// The value as shown.
    pub fn text(self, strings: &StringTable) -> String {
        match self {
            Value::Text(id) | Value::Fixed(id) => strings.get(id).to_owned(),
            Value::Int(n) => n.to_string(),
            Value::Hex(n) => format!("{n:#x}"),
            Value::Numbered(id, n) => format!("{}{n}", strings.get(id)),
        }
    }
}

/// No parent: the node is the first field of its shapes.
pub const NO_SHAPE: u32 = u32::MAX;

/// The shapes of one [`Details`]' groups: a prefix tree whose nodes are
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
    /// The text before the number of a [`KIND_NUMBERED`] value, the text of
    /// a [`KIND_FIXED`] one, else 0.
    pub prefix: Vec<StrId>,
    /// Built while interning (see [`Shapes::index`]), not part of the data.
    #[serde(skip)]
    index: ShapeIndex,
}

/// What interning needs beside the columns: each node's payload slots up to
/// and including it, and its children as linked lists.
#[derive(Clone, Debug)]
struct ShapeIndex {
    end: Vec<u32>,
    first_child: Vec<u32>,
    next_sibling: Vec<u32>,
    first_root: u32,
}

impl Default for ShapeIndex {
    fn default() -> Self {
        ShapeIndex {
            end: Vec::new(),
            first_child: Vec::new(),
            next_sibling: Vec::new(),
            first_root: NO_SHAPE,
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
    fn path(&self, node: u32, out: &mut Vec<u32>) {
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

    /// Rebuilds the interning index when the columns were set from outside.
    fn index(&mut self) -> &mut ShapeIndex {
        if self.index.end.len() != self.len() {
            let mut index = ShapeIndex {
                end: self.slot_ends(),
                first_child: vec![NO_SHAPE; self.len()],
                next_sibling: vec![NO_SHAPE; self.len()],
                first_root: NO_SHAPE,
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
        &mut self.index
    }

    /// The node for shape `parent` followed by a field with `key`, `kind`
    /// and `prefix`, made on first use.
    fn child(&mut self, parent: u32, key: StrId, kind: u8, prefix: StrId) -> u32 {
        let index = self.index();
        let mut at = match parent {
            NO_SHAPE => index.first_root,
            p => index
                .first_child
                .get(p as usize)
                .copied()
                .unwrap_or(NO_SHAPE),
        };
        while at != NO_SHAPE {
            let i = at as usize;
            if self.key[i] == key && self.kind[i] == kind && self.prefix[i] == prefix {
                return at;
            }
            at = self.index.next_sibling[i];
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
}

/// The detail fields of one thread's spans (or markers), as groups ordered
/// by owner; an owner may have several groups, which keep the order their
/// fields were added in.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Details {
    /// Per group: the span (or marker) index its fields belong to, ascending.
    pub owner: Vec<u32>,
    /// Per group: its shape (a node of `shapes`).
    pub shape: Vec<u32>,
    /// Per group: the position of its first payload slot.
    pub first: Vec<u32>,
    /// The values' slots, group after group in the order they were added.
    pub payload: Vec<u32>,
    /// The keys and kinds of the groups' fields.
    pub shapes: Shapes,
}

impl Details {
    /// Number of fields over all owners.
    pub fn len(&self) -> usize {
        let mut depth: Vec<u32> = Vec::with_capacity(self.shapes.len());
        for &p in &self.shapes.parent {
            let above = depth.get(p as usize).copied().unwrap_or(0);
            depth.push(above + 1);
        }
        self.shape
            .iter()
            .map(|&s| depth.get(s as usize).copied().unwrap_or(0) as usize)
            .sum()
    }

    /// True when no owner has a field.
    pub fn is_empty(&self) -> bool {
        self.owner.is_empty()
    }

    /// Number of groups.
    pub fn groups(&self) -> usize {
        self.owner.len()
    }

    /// Bytes the columns take (what the page receives of them).
    pub fn column_bytes(&self) -> usize {
        4 * (self.owner.len() + self.shape.len() + self.first.len() + self.payload.len())
            + 13 * self.shapes.len()
    }

    /// True when the group columns have one length, owners ascend, the
    /// shapes are consistent and every group's slots lie in the payload:
    /// what the lookups assume (a damaged copy from the worker is refused
    /// with it).
    pub fn is_consistent(&self) -> bool {
        let n = self.owner.len();
        if self.shape.len() != n
            || self.first.len() != n
            || !self.owner.windows(2).all(|w| w[0] <= w[1])
            || !self.shapes.is_consistent()
        {
            return false;
        }
        let ends = self.shapes.slot_ends();
        self.shape.iter().zip(&self.first).all(|(&s, &first)| {
            ends.get(s as usize)
                .and_then(|&end| first.checked_add(end))
                .is_some_and(|end| end as usize <= self.payload.len())
        })
    }

    /// Positions of `owner`'s groups in the group columns.
    pub fn groups_of(&self, owner: u32) -> std::ops::Range<usize> {
        let start = self.owner.partition_point(|&o| o < owner);
        let end = start + self.owner[start..].partition_point(|&o| o == owner);
        start..end
    }

    /// Calls `each(key, value)` for the fields of group `group`, in order;
    /// `path` is scratch space.
    fn each_field(&self, group: usize, path: &mut Vec<u32>, mut each: impl FnMut(StrId, Value)) {
        let (Some(&shape), Some(&first)) = (self.shape.get(group), self.first.get(group)) else {
            return;
        };
        self.shapes.path(shape, path);
        let mut at = first as usize;
        for &node in path.iter() {
            let n = node as usize;
            let kind = self.shapes.kind[n];
            let len = kind_slots(kind).unwrap_or(0) as usize;
            let slots = self.payload.get(at..at + len).unwrap_or(&[]);
            if let Some(value) = Value::load(kind, self.shapes.prefix[n], slots) {
                each(self.shapes.key[n], value);
            }
            at += len;
        }
    }

    /// The fields of `owner` as text, in the order they were added.
    pub fn fields_of(&self, owner: u32, strings: &StringTable) -> Vec<Field> {
        let mut out = Vec::new();
        let mut path = Vec::new();
        for group in self.groups_of(owner) {
            self.each_field(group, &mut path, |key, value| {
                out.push(Field {
                    key: strings.get(key).to_owned(),
                    value: value.text(strings),
                })
            });
        }
        out
    }

    /// Owners (ascending, each once) having a field equal to `field`.
    pub fn owners_with(&self, field: &Field, strings: &StringTable) -> Vec<u32> {
        let Some(key) = strings.find(&field.key) else {
            return Vec::new();
        };
        // Which shapes hold the key at all: most groups are passed over.
        let mut has_key: Vec<bool> = Vec::with_capacity(self.shapes.len());
        for (at, &p) in self.shapes.parent.iter().enumerate() {
            let above = has_key.get(p as usize).copied().unwrap_or(false);
            has_key.push(above || self.shapes.key[at] == key);
        }
        let mut out: Vec<u32> = Vec::new();
        let mut path = Vec::new();
        for (group, (&owner, &shape)) in self.owner.iter().zip(&self.shape).enumerate() {
            if out.last() == Some(&owner) || !has_key.get(shape as usize).copied().unwrap_or(false)
            {
                continue;
            }
            let mut found = false;
            self.each_field(group, &mut path, |k, value| {
                found |= !found && k == key && value.text(strings) == field.value;
            });
            if found {
                out.push(owner);
            }
        }
        out
    }

    /// Every owner with its fields as text, in owner order.
    pub fn grouped(&self, strings: &StringTable) -> Vec<(u32, Vec<Field>)> {
        let mut out: Vec<(u32, Vec<Field>)> = Vec::new();
        let mut path = Vec::new();
        for (group, &owner) in self.owner.iter().enumerate() {
            if out.last().is_none_or(|(last, _)| *last != owner) {
                out.push((owner, Vec::new()));
            }
            let Some((_, fields)) = out.last_mut() else {
                continue;
            };
            self.each_field(group, &mut path, |key, value| {
                fields.push(Field {
                    key: strings.get(key).to_owned(),
                    value: value.text(strings),
                })
            });
        }
        out.retain(|(_, fields)| !fields.is_empty());
        out
    }

    /// Calls `each(id)` with every string id the fields hold: keys, texts
    /// and the texts before numbers (read-only [`Details::map_texts`]).
    pub fn each_text(&self, mut each: impl FnMut(StrId)) {
        let mut path = Vec::new();
        for group in 0..self.groups() {
            self.each_field(group, &mut path, |key, value| {
                each(key);
                match value {
                    Value::Text(id) | Value::Fixed(id) | Value::Numbered(id, _) => each(id),
                    Value::Int(_) | Value::Hex(_) => {}
                }
            });
        }
    }

    /// Calls `map(id)` on every string id the fields hold (keys, texts and
    /// the texts before numbers), each once, and stores what it returns.
    pub fn map_texts(&mut self, mut map: impl FnMut(StrId) -> StrId) {
        self.map_shape_texts(&mut map);
        self.map_payload_texts(0..self.groups(), map);
    }

    /// The key and number-prefix part of [`Details::map_texts`].
    pub fn map_shape_texts(&mut self, mut map: impl FnMut(StrId) -> StrId) {
        for key in &mut self.shapes.key {
            *key = map(*key);
        }
        for (prefix, &kind) in self.shapes.prefix.iter_mut().zip(&self.shapes.kind) {
            if kind == KIND_NUMBERED || kind == KIND_FIXED {
                *prefix = map(*prefix);
            }
        }
        // Keys changed: the interning index no longer matches.
        self.shapes.index = ShapeIndex::default();
    }

    /// The text-value part of [`Details::map_texts`], for the groups in
    /// `groups` (so the page can do it in steps). Only [`KIND_TEXT`] slots
    /// are texts: numbers, of any kind, are left alone.
    pub fn map_payload_texts(
        &mut self,
        groups: std::ops::Range<usize>,
        mut map: impl FnMut(StrId) -> StrId,
    ) {
        let mut path = Vec::new();
        for group in groups {
            let (Some(&shape), Some(&first)) = (self.shape.get(group), self.first.get(group))
            else {
                return;
            };
            self.shapes.path(shape, &mut path);
            let mut at = first as usize;
            for &node in &path {
                let kind = self.shapes.kind[node as usize];
                if kind == KIND_TEXT {
                    if let Some(slot) = self.payload.get_mut(at) {
                        *slot = map(*slot);
                    }
                }
                at += kind_slots(kind).unwrap_or(0) as usize;
            }
        }
    }

    /// Makes room for about `n` more fields (a hint: one slot each, one
    /// group per few fields).
    pub(super) fn reserve(&mut self, n: usize) {
        let _ = self.payload.try_reserve_exact(n);
        let groups = n / 4;
        let _ = self.owner.try_reserve_exact(groups);
        let _ = self.shape.try_reserve_exact(groups);
        let _ = self.first.try_reserve_exact(groups);
    }

    /// Appends one field of `owner`: to the last group when it is `owner`'s
    /// (its shape grows by the field), else in a new group (the builder sorts
    /// by owner when it finishes).
    pub(super) fn push(&mut self, owner: u32, key: StrId, value: Value) {
        let stored = value.store();
        let last = self.owner.len().checked_sub(1);
        let extends = last.filter(|&g| {
            self.owner[g] == owner && {
                let end = self.shapes.index().end.get(self.shape[g] as usize).copied();
                end.and_then(|end| self.first[g].checked_add(end))
                    == Some(self.payload.len() as u32)
            }
        });
        let parent = extends.map_or(NO_SHAPE, |g| self.shape[g]);
        let node = self.shapes.child(parent, key, stored.kind, stored.prefix);
        match extends {
            Some(g) => self.shape[g] = node,
            None => {
                self.owner.push(owner);
                self.shape.push(node);
                self.first.push(self.payload.len() as u32);
            }
        }
        self.payload.extend_from_slice(&stored.slots[..stored.len]);
    }

    /// Appends fields of one owner, in order.
    pub(super) fn extend(&mut self, owner: u32, fields: &[(StrId, Value)]) {
        for &(key, value) in fields {
            self.push(owner, key, value);
        }
    }

    /// Puts the groups in owner order, keeping the order of one owner's
    /// groups (a counting sort: owners are span or marker indices). The
    /// payload stays where it is: groups point into it.
    pub(super) fn sort_by_owner(&mut self) {
        if self.owner.windows(2).all(|w| w[0] <= w[1]) {
            return;
        }
        let owners = self.owner.iter().max().map_or(0, |&m| m as usize + 1);
        if owners > self.owner.len().saturating_mul(4).max(1 << 16) {
            // Few groups on far-apart owners: sorting beats counting.
            return self.sort_sparse();
        }
        // First position of each owner's groups in the sorted columns.
        let mut next = vec![0u32; owners + 1];
        for &owner in &self.owner {
            next[owner as usize + 1] += 1;
        }
        for i in 1..next.len() {
            next[i] += next[i - 1];
        }
        let n = self.owner.len();
        let mut owner = vec![0; n];
        let mut shape = vec![0; n];
        let mut first = vec![0; n];
        for at in 0..n {
            let slot = &mut next[self.owner[at] as usize];
            let to = *slot as usize;
            *slot += 1;
            owner[to] = self.owner[at];
            shape[to] = self.shape[at];
            first[to] = self.first[at];
        }
        self.owner = owner;
        self.shape = shape;
        self.first = first;
    }

    /// [`Details::sort_by_owner`] by sorting (owner, position) keys.
    fn sort_sparse(&mut self) {
        let mut order: Vec<u64> = self
            .owner
            .iter()
            .enumerate()
            .map(|(at, &owner)| u64::from(owner) << 32 | at as u64)
            .collect();
        order.sort_unstable();
        let pick = |at: &u64| (*at & 0xffff_ffff) as usize;
        self.owner = order.iter().map(|at| (at >> 32) as u32).collect();
        self.shape = order.iter().map(|at| self.shape[pick(at)]).collect();
        self.first = order.iter().map(|at| self.first[pick(at)]).collect();
    }

    /// Renumbers owners through `new_index` (old index → new) and re-sorts.
    pub(super) fn renumber(&mut self, new_index: &[u32]) {
        for owner in &mut self.owner {
            *owner = new_index.get(*owner as usize).copied().unwrap_or(*owner);
        }
        self.sort_by_owner();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_show_as_the_text_they_stand_for() {
        let mut strings = StringTable::default();
        let call = strings.intern("call #");
        let text = strings.intern("alloc");
        assert_eq!(Value::Text(text).text(&strings), "alloc");
        assert_eq!(Value::Int(-12).text(&strings), "-12");
        assert_eq!(Value::Hex(0xbeef).text(&strings), "0xbeef");
        assert_eq!(Value::Hex(0).text(&strings), "0x0");
        assert_eq!(Value::Numbered(call, 7).text(&strings), "call #7");
        assert_eq!(Value::Fixed(text).text(&strings), "alloc");
        for v in [
            Value::Text(text),
            Value::Int(i64::MIN),
            Value::Int(i64::from(i32::MIN)),
            Value::Int(i64::from(i32::MAX) + 1),
            Value::Int(-1),
            Value::Hex(u64::MAX),
            Value::Hex(u64::from(u32::MAX)),
            Value::Hex(u64::from(u32::MAX) + 1),
            Value::Numbered(call, u32::MAX),
            Value::Fixed(text),
        ] {
            let s = v.store();
            assert_eq!(Value::load(s.kind, s.prefix, &s.slots[..s.len]), Some(v));
            assert_eq!(kind_slots(s.kind), Some(s.len as u32));
        }
        assert_eq!(Value::load(9, 0, &[1, 2]), None);
        assert_eq!(Value::load(KIND_HEX, 0, &[1]), None);
    }

    #[test]
    fn fields_added_out_of_order_are_grouped_by_owner_in_added_order() {
        let mut strings = StringTable::default();
        let k = strings.intern("k");
        let mut d = Details::default();
        d.push(5, k, Value::Int(1));
        d.push(2, k, Value::Int(2));
        d.push(5, k, Value::Int(3));
        d.push(2, k, Value::Int(4));
        let mut sparse = d.clone();
        d.sort_by_owner();
        sparse.sort_sparse();
        assert_eq!(d, sparse);
        assert!(d.is_consistent());
        assert_eq!(d.owner, vec![2, 2, 5, 5]);
        assert_eq!(d.len(), 4);
        let values: Vec<String> = d
            .fields_of(5, &strings)
            .into_iter()
            .map(|f| f.value)
            .collect();
        assert_eq!(values, vec!["1", "3"]);
        assert!(d.fields_of(3, &strings).is_empty());
        assert_eq!(d.owners_with(&Field::new("k", "4"), &strings), vec![2]);
        assert!(d.owners_with(&Field::new("x", "4"), &strings).is_empty());
        assert_eq!(d.grouped(&strings).len(), 2);
    }

    #[test]
    fn repeated_field_lists_share_one_shape_and_cost_their_slots() {
        let mut strings = StringTable::default();
        let (call, id, size, bt, hash) = (
            strings.intern("call"),
            strings.intern("id"),
            strings.intern("size"),
            strings.intern("backtrace"),
            strings.intern("#"),
        );
        let alloc = strings.intern("alloc");
        let mut d = Details::default();
        for span in 0..100u32 {
            d.extend(
                span,
                &[
                    (call, Value::Text(alloc)),
                    (size, Value::Int(i64::from(span) * 16)),
                    (id, Value::Hex(0x7f00_0000_0000 + u64::from(span))),
                    (bt, Value::Numbered(hash, span % 3)),
                ],
            );
        }
        assert_eq!(d.shapes.len(), 4);
        assert_eq!(d.groups(), 100);
        assert_eq!(d.len(), 400);
        assert_eq!(d.payload.len(), 500);
        let fields = d.fields_of(7, &strings);
        let shown: Vec<(&str, &str)> = fields
            .iter()
            .map(|f| (f.key.as_str(), f.value.as_str()))
            .collect();
        assert_eq!(
            shown,
            vec![
                ("call", "alloc"),
                ("size", "112"),
                ("id", "0x7f0000000007"),
                ("backtrace", "#1")
            ]
        );
        assert_eq!(
            d.owners_with(&Field::new("backtrace", "#2"), &strings)
                .len(),
            33
        );
        // A wider number on one span makes a second shape, not a second layout.
        d.push(100, call, Value::Text(alloc));
        d.push(100, size, Value::Int(1 << 40));
        assert_eq!(d.shapes.len(), 5);
        assert_eq!(
            d.fields_of(100, &strings)[1].value,
            (1u64 << 40).to_string()
        );
        assert!(d.is_consistent());
    }

    #[test]
    fn text_mapping_touches_texts_only() {
        let mut strings = StringTable::default();
        let (k, n, t) = (
            strings.intern("k"),
            strings.intern("n"),
            strings.intern("t"),
        );
        let mut d = Details::default();
        d.extend(
            0,
            &[
                (k, Value::Text(t)),
                (n, Value::Numbered(t, 5)),
                (k, Value::Int(1)),
                (k, Value::Hex(u64::MAX)),
                (k, Value::Fixed(t)),
            ],
        );
        d.map_texts(|id| id + 10);
        assert_eq!(d.shapes.key, vec![k + 10, n + 10, k + 10, k + 10, k + 10]);
        assert_eq!(d.shapes.prefix, vec![0, t + 10, 0, 0, t + 10]);
        assert_eq!(d.payload, vec![t + 10, 5, 1, u32::MAX, u32::MAX]);
    }

    #[test]
    fn damaged_columns_are_refused() {
        let mut strings = StringTable::default();
        let k = strings.intern("k");
        let mut d = Details::default();
        d.extend(0, &[(k, Value::Int(1)), (k, Value::Hex(u64::MAX))]);
        d.push(1, k, Value::Int(2));
        assert!(d.is_consistent());
        let mut short = d.clone();
        short.payload.pop();
        assert!(!short.is_consistent());
        let mut cycle = d.clone();
        cycle.shapes.parent[0] = 1;
        assert!(!cycle.is_consistent());
        // Readers still stop on it.
        assert!(!cycle.fields_of(0, &strings).is_empty());
        let mut kind = d.clone();
        kind.shapes.kind[0] = 200;
        assert!(!kind.is_consistent());
        let mut order = d;
        order.owner.swap(0, 1);
        assert!(!order.is_consistent());
    }
}
