//! A detail field's value: what the builder receives ([`Value`]), the kinds
//! it is stored as in a shape and how many 32-bit payload slots each takes,
//! and the text it stands for ([`Field`]).

#[cfg(doc)]
use super::Shapes;
use crate::model::{StrId, StringTable};
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
/// [`Shapes::kind`] of a [`Value::Hex`] above `u32::MAX` and below 2^48, as
/// a 64-bit system's addresses are (one slot: the low word; the high word is
/// the shape's [`Shapes::prefix`], so the addresses of one 4 GiB region
/// share a shape and take 4 bytes each instead of 8). Larger values keep
/// [`KIND_HEX`]: their high words are rarely shared.
pub const KIND_HEX48: u8 = 7;

/// Payload slots a value of `kind` takes; `None` for an unknown kind.
pub fn kind_slots(kind: u8) -> Option<u32> {
    match kind {
        KIND_TEXT | KIND_NUMBERED | KIND_INT32 | KIND_HEX32 | KIND_HEX48 => Some(1),
        KIND_INT | KIND_HEX => Some(2),
        KIND_FIXED => Some(0),
        _ => None,
    }
}

/// How a value is stored: its kind, its shape entry's prefix (the text of a
/// `Numbered` or `Fixed` value, the high word of a [`KIND_HEX48`] one, else
/// 0), its slots and how many of them count.
pub(super) struct Stored {
    pub(super) kind: u8,
    pub(super) prefix: StrId,
    pub(super) slots: [u32; 2],
    pub(super) len: usize,
}

impl Value {
    /// How the value is kept in a shape and its payload.
    pub(super) fn store(self) -> Stored {
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
            Value::Hex(n) => match (u32::try_from(n), n >> 48) {
                (Ok(small), _) => one(KIND_HEX32, 0, small),
                (Err(_), 0) => one(KIND_HEX48, (n >> 32) as u32, n as u32),
                (Err(_), _) => two(KIND_HEX, n),
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
            KIND_HEX48 => Value::Hex(u64::from(prefix) << 32 | u64::from(*slots.first()?)),
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
            Value::Hex(0x7ffd_1234_5678),
            Value::Hex((1 << 48) - 1),
            Value::Hex(1 << 48),
            Value::Numbered(call, u32::MAX),
            Value::Fixed(text),
        ] {
            let s = v.store();
            assert_eq!(Value::load(s.kind, s.prefix, &s.slots[..s.len]), Some(v));
            assert_eq!(kind_slots(s.kind), Some(s.len as u32));
        }
        assert_eq!(Value::load(9, 0, &[1, 2]), None);
        assert_eq!(Value::load(KIND_HEX, 0, &[1]), None);
        // An address: one slot, the high word in the shape.
        let address = Value::Hex(0x5555_8000_1000).store();
        assert_eq!(
            (address.kind, address.prefix, address.len),
            (KIND_HEX48, 0x5555, 1)
        );
        assert_eq!(Value::Hex(1 << 48).store().len, 2);
    }
}
