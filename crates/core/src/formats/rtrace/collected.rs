//! A CALL as the session keeps it: 20 bytes, what it shares with other
//! calls (function, kind, resource type, context and backtrace) interned
//! in the session as one class number; and the whole call read back from
//! the two, as the build reads it (`Session::calls`).

use crate::fast_hash::FastMap;

/// A CALL as collected: 20 bytes (issue 20: the calls exist whole beside
/// the model's columns until the build is done), what it shares with other
/// calls interned as one class number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call {
    /// Index into [`Session::classes`](super::session::Session::classes).
    pub class: u32,
    pub timestamp: u32,
    pub size: i32,
    /// The id's low and high halves: a `u64` would align the call to 8
    /// bytes, 24 in all.
    id: [u32; 2],
}

// The collected calls are the decode's biggest temporary: keep them small.
const _: () = assert!(std::mem::size_of::<Call>() <= 20);

impl Call {
    /// A call of class `class`.
    pub fn new(class: u32, timestamp: u32, size: i32, id: u64) -> Self {
        Call {
            class,
            timestamp,
            size,
            id: [id as u32, (id >> 32) as u32],
        }
    }

    /// The id (address or handle) the call allocated or released.
    pub fn id(&self) -> u64 {
        u64::from(self.id[0]) | u64::from(self.id[1]) << 32
    }
}

/// What calls have in common: few distinct ones in a trace (a backtrace
/// mostly comes with one function, kind, resource type and context).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Class {
    /// Index into [`Session::functions`](super::session::Session::functions).
    pub function: u32,
    pub kind: u32,
    pub resource_type: u32,
    pub context: u32,
    /// Index into [`Session::backtraces`](super::session::Session::backtraces);
    /// 0 is the empty backtrace.
    pub backtrace: u32,
}

/// Classes met lately, by a cheap mix of their fields ([`recent_slot`]).
const RECENT: usize = 64;

/// Finds a class's number, or gives it the next one: two lookups a call
/// (its CALL, then its BTRC), mostly of a class met just before, found in
/// a small table of recent ones without hashing.
#[derive(Debug)]
pub struct ClassIndex {
    index: FastMap<Class, u32>,
    /// (class, its number); `u32::MAX` for none yet.
    recent: [(Class, u32); RECENT],
}

impl Default for ClassIndex {
    fn default() -> Self {
        ClassIndex {
            index: FastMap::default(),
            recent: [(Class::default(), u32::MAX); RECENT],
        }
    }
}

impl ClassIndex {
    /// The number of `class` in `classes`, added at the end if new.
    pub fn intern(&mut self, classes: &mut Vec<Class>, class: Class) -> u32 {
        let slot = recent_slot(&class);
        if let Some(&(seen, number)) = self.recent.get(slot) {
            if seen == class && number != u32::MAX {
                return number;
            }
        }
        let number = match self.index.get(&class) {
            Some(&number) => number,
            None => {
                let number = classes.len() as u32;
                classes.push(class);
                self.index.insert(class, number);
                number
            }
        };
        if let Some(recent) = self.recent.get_mut(slot) {
            *recent = (class, number);
        }
        number
    }
}

/// The slot of `class` among the recent ones.
fn recent_slot(class: &Class) -> usize {
    let mix = class.function ^ class.backtrace.wrapping_mul(7) ^ class.kind << 4;
    mix as usize % RECENT
}

/// A call with its class read back
/// ([`Session::calls`](super::session::Session::calls)): what the build
/// reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FullCall {
    /// Index into [`Session::classes`](super::session::Session::classes).
    pub class: u32,
    pub resource_type: u32,
    pub context: u32,
    pub timestamp: u32,
    pub kind: u32,
    /// Index into [`Session::functions`](super::session::Session::functions).
    pub function: u32,
    pub size: i32,
    pub id: u64,
    /// Index into [`Session::backtraces`](super::session::Session::backtraces);
    /// 0 is the empty backtrace.
    pub backtrace: u32,
}

#[cfg(test)]
mod tests {
    use super::Call;

    #[test]
    fn an_id_comes_back_whole() {
        for id in [0, 1, 0xe3b_32a0, u64::from(u32::MAX), 1 << 32, u64::MAX] {
            assert_eq!(Call::new(0, 0, 0, id).id(), id);
        }
    }
}
