//! A fast hasher for the decoders' hot lookups keyed by small numbers
//! (addresses, string ids), where the standard SipHash costs more than the
//! work around it. It is not collision-resistant: use it only for tables
//! whose keys come from the user's own trace.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-rotate hashing of whole words (the "Fx" scheme of rustc).
#[derive(Clone, Copy, Default)]
pub struct FastHasher {
    hash: u64,
}

/// An odd constant with well-spread bits.
const SEED: u64 = 0x517c_c1b7_2722_0a95;

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A `HashMap` with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_keyed_by_numbers_work() {
        let mut map: FastMap<(usize, u64), u32> = FastMap::default();
        for i in 0..10_000u64 {
            map.insert((i as usize % 3, i * 16), i as u32);
        }
        assert_eq!(map.len(), 10_000);
        assert_eq!(map.get(&(1, 16)), Some(&1));
        assert_eq!(map.get(&(0, 16)), None);
    }

    #[test]
    fn different_words_hash_differently() {
        let hash = |n: u64| {
            let mut h = FastHasher::default();
            h.write_u64(n);
            h.finish()
        };
        assert_ne!(hash(0x40_1000), hash(0x40_1010));
        let mut a = FastHasher::default();
        a.write(b"abcdefghij");
        let mut b = FastHasher::default();
        b.write(b"abcdefghik");
        assert_ne!(a.finish(), b.finish());
    }
}
