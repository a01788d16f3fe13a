//! Interned texts of detail fields and names, remembered by what they were
//! made from: a long stream repeats the same arguments, addresses, keys and
//! numbers over and over, and formatting each again (then hashing the text
//! to intern it) was most of the build's work. A text is interned at the
//! moment it would have been without the caches, so the string table comes
//! out the same.

use super::super::values::{display_list, Value};
use super::Build;
use crate::fast_hash::FastMap;
use crate::model::{StrId, Value as FieldValue};

/// Entries a cache holds before it stops remembering (a stream whose values
/// never repeat gains nothing from it and should not pay memory for it).
const CAP: usize = 1 << 16;

/// Numbers below this have their decimal text in a table.
const SMALL: u64 = 256;

/// How a number is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Number {
    /// `42`.
    Decimal,
    /// `0x2a`.
    Hex,
    /// An `f64`'s bits, written as Rust displays the value.
    Float,
}

/// The caches; see the module docs.
#[derive(Default)]
pub struct Texts {
    /// Field keys by the address and length of their `'static` text.
    keys: FastMap<(usize, usize), StrId>,
    /// The same, direct-mapped by address in front of `keys`.
    recent_keys: [Option<((usize, usize), StrId)>; 32],
    /// Decimal texts of the numbers below [`SMALL`], by number.
    small: Vec<Option<StrId>>,
    /// Argument lists (or one value) by their values.
    values: FastMap<Vec<Value>, StrId>,
    /// `library+0x…` names by pid and address; emptied when mappings change.
    addresses: FastMap<(u32, u64), StrId>,
    numbers: FastMap<(Number, u64), StrId>,
}

impl Texts {
    /// Forgets the address names (a mapping was added or removed).
    pub fn mappings_changed(&mut self) {
        self.addresses.clear();
    }
}

impl Build {
    /// The interned key `key`.
    #[inline]
    pub fn key(&mut self, key: &'static str) -> StrId {
        // The address and the length of a text identify its content.
        let at = (key.as_ptr() as usize, key.len());
        let slot = (at.0 >> 3) % self.texts.recent_keys.len();
        match self.texts.recent_keys.get(slot) {
            Some(Some((k, id))) if *k == at => *id,
            _ => self.key_missed(key, at, slot),
        }
    }

    /// [`Build::key`] past its direct-mapped table (kept out of line so the
    /// common case stays small).
    #[inline(never)]
    fn key_missed(&mut self, key: &'static str, at: (usize, usize), slot: usize) -> StrId {
        let id = match self.texts.keys.get(&at) {
            Some(&id) => id,
            None => {
                let id = self.b.intern(key);
                self.texts.keys.insert(at, id);
                id
            }
        };
        if let Some(recent) = self.texts.recent_keys.get_mut(slot) {
            *recent = Some((at, id));
        }
        id
    }

    /// The interned text of values joined for a detail field.
    pub fn values_text(&mut self, values: &[Value]) -> StrId {
        if let Some(&id) = self.texts.values.get(values) {
            return id;
        }
        let id = self.b.intern(&display_list(values));
        if self.texts.values.len() < CAP {
            self.texts.values.insert(values.to_vec(), id);
        }
        id
    }

    /// The interned name of `address` in process `pid`.
    pub fn address_name(&mut self, pid: u32, address: u64) -> StrId {
        if let Some(&id) = self.texts.addresses.get(&(pid, address)) {
            return id;
        }
        let id = self.b.intern(&self.space.name(pid, address));
        if self.texts.addresses.len() >= CAP {
            self.texts.addresses.clear();
        }
        self.texts.addresses.insert((pid, address), id);
        id
    }

    /// The interned text of a number.
    #[inline]
    pub fn number(&mut self, how: Number, n: u64) -> StrId {
        let small = (how == Number::Decimal && n < SMALL).then_some(n as usize);
        match small.and_then(|n| self.texts.small.get(n)) {
            Some(Some(id)) => *id,
            _ => self.number_missed(how, n, small),
        }
    }

    /// [`Build::number`] past its table of small numbers.
    #[inline(never)]
    fn number_missed(&mut self, how: Number, n: u64, small: Option<usize>) -> StrId {
        if let Some(&id) = self.texts.numbers.get(&(how, n)) {
            return id;
        }
        let text = match how {
            Number::Decimal => n.to_string(),
            Number::Hex => format!("{n:#x}"),
            Number::Float => f64::from_bits(n).to_string(),
        };
        let id = self.b.intern(&text);
        if let Some(n) = small {
            if self.texts.small.len() <= n {
                self.texts.small.resize(n + 1, None);
            }
            if let Some(slot) = self.texts.small.get_mut(n) {
                *slot = Some(id);
            }
        } else if self.texts.numbers.len() < CAP {
            self.texts.numbers.insert((how, n), id);
        }
        id
    }

    /// Appends a field whose value is interned text.
    pub fn push_text(
        &mut self,
        fields: &mut Vec<(StrId, FieldValue)>,
        key: &'static str,
        text: &str,
    ) {
        let key = self.key(key);
        let text = self.b.intern(text);
        fields.push((key, FieldValue::Text(text)));
    }

    /// Appends a field whose value is a number written `how`.
    pub fn push_number(
        &mut self,
        fields: &mut Vec<(StrId, FieldValue)>,
        key: &'static str,
        how: Number,
        n: u64,
    ) {
        let key = self.key(key);
        let text = self.number(how, n);
        fields.push((key, FieldValue::Text(text)));
    }

    /// Appends the argument and return fields of a call.
    pub fn push_values(
        &mut self,
        fields: &mut Vec<(StrId, FieldValue)>,
        args: &[Value],
        ret: Option<&Value>,
    ) {
        if !args.is_empty() {
            let key = self.key("args");
            let text = self.values_text(args);
            fields.push((key, FieldValue::Text(text)));
        }
        if let Some(ret) = ret {
            let key = self.key("return");
            let text = self.values_text(std::slice::from_ref(ret));
            fields.push((key, FieldValue::Text(text)));
        }
    }
}
