//! Detail fields of spans and markers (arguments, classes, sizes, backtrace
//! ids, …), stored in columns: one entry per field with its owner (span or
//! marker index), its key (an interned string) and its value as a kind and a
//! 64-bit payload. Texts are interned in the trace's string table, numbers stay
//! numbers and are formatted only when shown, so a field costs 17 bytes
//! whatever its text, the builder allocates nothing per field, and the columns
//! travel to the page as typed arrays.

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
}

/// [`Details::kind`] of a [`Value::Text`] (payload: the string id).
pub const KIND_TEXT: u8 = 0;
/// [`Details::kind`] of a [`Value::Int`] (payload: the number's bits).
pub const KIND_INT: u8 = 1;
/// [`Details::kind`] of a [`Value::Hex`] (payload: the number).
pub const KIND_HEX: u8 = 2;
/// [`Details::kind`] of a [`Value::Numbered`] (payload: string id << 32 | number).
pub const KIND_NUMBERED: u8 = 3;

impl Value {
    /// The kind and payload this value is stored as.
    pub fn pack(self) -> (u8, u64) {
        match self {
            Value::Text(id) => (KIND_TEXT, u64::from(id)),
            Value::Int(n) => (KIND_INT, n as u64),
            Value::Hex(n) => (KIND_HEX, n),
            Value::Numbered(id, n) => (KIND_NUMBERED, u64::from(id) << 32 | u64::from(n)),
        }
    }

    /// The value stored as `kind` and `payload`; an unknown kind reads as a
    /// decimal number.
    pub fn unpack(kind: u8, payload: u64) -> Value {
        match kind {
            KIND_TEXT => Value::Text(payload as u32),
            KIND_HEX => Value::Hex(payload),
            KIND_NUMBERED => Value::Numbered((payload >> 32) as u32, payload as u32),
            _ => Value::Int(payload as i64),
        }
    }

    /// The value as shown.
    pub fn text(self, strings: &StringTable) -> String {
        match self {
            Value::Text(id) => strings.get(id).to_owned(),
            Value::Int(n) => n.to_string(),
            Value::Hex(n) => format!("{n:#x}"),
            Value::Numbered(id, n) => format!("{}{n}", strings.get(id)),
        }
    }
}

/// The detail fields of one thread's spans (or markers), in columns of equal
/// length, ordered by owner; one owner's fields keep the order they were added in.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Details {
    /// The span (or marker) index each field belongs to, ascending.
    pub owner: Vec<u32>,
    pub key: Vec<StrId>,
    /// `KIND_*` of each value.
    pub kind: Vec<u8>,
    /// Each value's payload (see the `KIND_*` constants).
    pub payload: Vec<u64>,
}

impl Details {
    /// Number of fields over all owners.
    pub fn len(&self) -> usize {
        self.owner.len()
    }

    /// True when no owner has a field.
    pub fn is_empty(&self) -> bool {
        self.owner.is_empty()
    }

    /// True when the four columns have the same length and owners ascend: what
    /// the lookups assume (a damaged copy from the worker is refused with it).
    pub fn is_consistent(&self) -> bool {
        let n = self.owner.len();
        self.key.len() == n
            && self.kind.len() == n
            && self.payload.len() == n
            && self.owner.windows(2).all(|w| w[0] <= w[1])
    }

    /// Positions of `owner`'s fields in the columns.
    pub fn range_of(&self, owner: u32) -> std::ops::Range<usize> {
        let start = self.owner.partition_point(|&o| o < owner);
        let end = start + self.owner[start..].partition_point(|&o| o == owner);
        start..end
    }

    /// The value at position `at`.
    pub fn value(&self, at: usize) -> Option<Value> {
        Some(Value::unpack(*self.kind.get(at)?, *self.payload.get(at)?))
    }

    /// The fields of `owner` as text, in the order they were added.
    pub fn fields_of(&self, owner: u32, strings: &StringTable) -> Vec<Field> {
        self.range_of(owner)
            .filter_map(|at| {
                Some(Field {
                    key: strings.get(*self.key.get(at)?).to_owned(),
                    value: self.value(at)?.text(strings),
                })
            })
            .collect()
    }

    /// Owners (ascending, each once) having a field equal to `field`.
    pub fn owners_with(&self, field: &Field, strings: &StringTable) -> Vec<u32> {
        let Some(key) = strings.find(&field.key) else {
            return Vec::new();
        };
        let mut out: Vec<u32> = Vec::new();
        for at in 0..self.len() {
            if self.key[at] != key || out.last() == Some(&self.owner[at]) {
                continue;
            }
            if self
                .value(at)
                .is_some_and(|v| v.text(strings) == field.value)
            {
                out.push(self.owner[at]);
            }
        }
        out
    }

    /// Every owner with its fields as text, in owner order.
    pub fn grouped(&self, strings: &StringTable) -> Vec<(u32, Vec<Field>)> {
        let mut out: Vec<(u32, Vec<Field>)> = Vec::new();
        for at in 0..self.len() {
            let (Some(&owner), Some(&key), Some(value)) =
                (self.owner.get(at), self.key.get(at), self.value(at))
            else {
                continue;
            };
            let field = Field {
                key: strings.get(key).to_owned(),
                value: value.text(strings),
            };
            match out.last_mut() {
                Some((last, fields)) if *last == owner => fields.push(field),
                _ => out.push((owner, vec![field])),
            }
        }
        out
    }

    /// Appends one field (the builder sorts by owner when it finishes).
    pub(super) fn push(&mut self, owner: u32, key: StrId, value: Value) {
        let (kind, payload) = value.pack();
        self.owner.push(owner);
        self.key.push(key);
        self.kind.push(kind);
        self.payload.push(payload);
    }

    /// Appends fields of one owner, in order (one reservation per column
    /// instead of one per field).
    pub(super) fn extend(&mut self, owner: u32, fields: &[(StrId, Value)]) {
        self.owner.extend(std::iter::repeat_n(owner, fields.len()));
        self.key.extend(fields.iter().map(|f| f.0));
        self.kind.extend(fields.iter().map(|f| f.1.pack().0));
        self.payload.extend(fields.iter().map(|f| f.1.pack().1));
    }

    /// Puts the fields in owner order, keeping the order of one owner's fields
    /// (a counting sort: owners are span or marker indices).
    pub(super) fn sort_by_owner(&mut self) {
        if self.owner.windows(2).all(|w| w[0] <= w[1]) {
            return;
        }
        let owners = self.owner.iter().max().map_or(0, |&m| m as usize + 1);
        if owners > self.owner.len().saturating_mul(4).max(1 << 16) {
            // Few fields on far-apart owners: sorting beats counting.
            return self.sort_sparse();
        }
        // First position of each owner's fields in the sorted columns.
        let mut next = vec![0u32; owners + 1];
        for &owner in &self.owner {
            next[owner as usize + 1] += 1;
        }
        for i in 1..next.len() {
            next[i] += next[i - 1];
        }
        let n = self.owner.len();
        let mut owner = vec![0; n];
        let mut key = vec![0; n];
        let mut kind = vec![0; n];
        let mut payload = vec![0; n];
        for at in 0..n {
            let slot = &mut next[self.owner[at] as usize];
            let to = *slot as usize;
            *slot += 1;
            owner[to] = self.owner[at];
            key[to] = self.key[at];
            kind[to] = self.kind[at];
            payload[to] = self.payload[at];
        }
        self.owner = owner;
        self.key = key;
        self.kind = kind;
        self.payload = payload;
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
        self.key = order.iter().map(|at| self.key[pick(at)]).collect();
        self.kind = order.iter().map(|at| self.kind[pick(at)]).collect();
        self.payload = order.iter().map(|at| self.payload[pick(at)]).collect();
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
        for v in [
            Value::Text(text),
            Value::Int(i64::MIN),
            Value::Hex(u64::MAX),
            Value::Numbered(call, u32::MAX),
        ] {
            let (kind, payload) = v.pack();
            assert_eq!(Value::unpack(kind, payload), v);
        }
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
}
