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

mod build;
mod lists;
mod shapes;
mod value;

pub use shapes::{Shapes, NO_SHAPE};
pub use value::{
    kind_slots, Field, Value, KIND_FIXED, KIND_HEX, KIND_HEX32, KIND_HEX48, KIND_INT, KIND_INT32,
    KIND_NUMBERED, KIND_TEXT,
};

use super::{StrId, StringTable};
use serde::{Deserialize, Serialize};

/// The detail fields of one thread's spans (or markers), as groups ordered
/// by owner; an owner may have several groups, which keep the order their
/// fields were added in.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Details {
    /// Per group: the span (or marker) index its fields belong to,
    /// ascending. Empty while every group `i` belongs to owner `i` (one
    /// group per span, sp-rtrace's calls): the column is then implied, and
    /// takes no memory ([`Details::owner_of`], [`Details::owners_mut`]).
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
        self.shape.is_empty()
    }

    /// Number of groups.
    pub fn groups(&self) -> usize {
        self.shape.len()
    }

    /// True when the owner column is implied: group `i` belongs to owner `i`.
    pub fn implied_owners(&self) -> bool {
        self.owner.is_empty()
    }

    /// The owner of group `group`.
    pub fn owner_of(&self, group: usize) -> Option<u32> {
        match self.implied_owners() {
            true => (group < self.groups()).then_some(group as u32),
            false => self.owner.get(group).copied(),
        }
    }

    /// The owner of the last group.
    pub fn last_owner(&self) -> Option<u32> {
        self.owner_of(self.groups().checked_sub(1)?)
    }

    /// Every group's owner, in group order.
    pub fn owners(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.groups()).filter_map(|group| self.owner_of(group))
    }

    /// The owner column, written out when it was implied, to be edited
    /// (a transform renumbering or dropping groups).
    pub fn owners_mut(&mut self) -> &mut Vec<u32> {
        if self.implied_owners() && self.groups() > 0 {
            // As long as the shapes' column can grow without a copy, so a
            // column reserved ahead keeps its exact length.
            let room = self.shape.capacity().max(self.groups());
            self.owner = Vec::with_capacity(room);
            self.owner.extend(0..self.groups() as u32);
        }
        &mut self.owner
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
        let n = self.groups();
        if !(self.owner.len() == n || self.implied_owners())
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
        if self.implied_owners() {
            let group = (owner as usize).min(self.groups());
            return group..(group + 1).min(self.groups());
        }
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

    /// Calls `each(key, value)` for the fields of `owner`, in order, without
    /// allocating (`path` is scratch space the caller keeps): for writers
    /// that format fields per row (the listing).
    pub fn visit_fields(
        &self,
        owner: u32,
        path: &mut Vec<u32>,
        mut each: impl FnMut(StrId, Value),
    ) {
        for group in self.groups_of(owner) {
            self.each_field(group, path, &mut each);
        }
    }

    /// Calls `each(key, value)` for every field of `owner`, in the order
    /// they were added, without making text (a listing writes rows with it).
    pub fn each_of(&self, owner: u32, each: impl FnMut(StrId, Value)) {
        self.visit_fields(owner, &mut Vec::new(), each);
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
        for (group, (owner, &shape)) in self.owners().zip(&self.shape).enumerate() {
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
        for (group, owner) in self.owners().enumerate() {
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
        self.shapes.forget_index();
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // The ids are addresses below 2^48: one slot each.
        assert_eq!(d.payload.len(), 400);
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
        order.owners_mut().swap(0, 1);
        assert!(!order.is_consistent());
    }
}
