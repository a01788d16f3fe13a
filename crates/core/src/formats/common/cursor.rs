//! A bounds-checked cursor over bytes: fixed-size integers and floats in the
//! cursor's byte order, raw slices and NUL-terminated strings. Reads past the
//! end answer `None` (or, through [`ByteCursor::read`], a [`Short`] that names
//! where the read began) and leave the cursor where it was.

use std::fmt;

/// Byte order of the fields being read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Endian {
    #[default]
    Little,
    Big,
}

impl Endian {
    /// `Big` when `big_endian`, else `Little` (for formats that record a flag).
    pub fn big_if(big_endian: bool) -> Endian {
        if big_endian {
            Endian::Big
        } else {
            Endian::Little
        }
    }
}

/// A read that ran past the end of the bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Short {
    /// Offset (from the start of the bytes) where the failed read began.
    pub offset: usize,
    /// Bytes there were from that offset to the end.
    pub available: usize,
}

impl fmt::Display for Short {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the data ends at byte {} inside a field ({} bytes were left)",
            self.offset + self.available,
            self.available
        )
    }
}

impl std::error::Error for Short {}

/// Reads fields front to back; every read is bounds-checked.
#[derive(Clone, Debug)]
pub struct ByteCursor<'a> {
    bytes: &'a [u8],
    at: usize,
    endian: Endian,
}

/// Fixed-size reads of integers in the cursor's byte order.
macro_rules! read_int {
    ($($(#[$doc:meta])* $name:ident: $ty:ty;)*) => {$(
        $(#[$doc])*
        pub fn $name(&mut self) -> Option<$ty> {
            let bytes = self.array()?;
            Some(match self.endian {
                Endian::Little => <$ty>::from_le_bytes(bytes),
                Endian::Big => <$ty>::from_be_bytes(bytes),
            })
        }
    )*};
}

impl<'a> ByteCursor<'a> {
    /// A cursor at the start of `bytes`, reading in byte order `endian`.
    pub fn new(bytes: &'a [u8], endian: Endian) -> Self {
        ByteCursor {
            bytes,
            at: 0,
            endian,
        }
    }

    /// A little-endian cursor at the start of `bytes`.
    pub fn le(bytes: &'a [u8]) -> Self {
        Self::new(bytes, Endian::Little)
    }

    /// A big-endian cursor at the start of `bytes`.
    pub fn be(bytes: &'a [u8]) -> Self {
        Self::new(bytes, Endian::Big)
    }

    /// A cursor at offset `at` of `bytes`, or `None` when `at` is past the end.
    pub fn at(bytes: &'a [u8], at: usize, endian: Endian) -> Option<Self> {
        let mut cursor = Self::new(bytes, endian);
        cursor.seek(at)?;
        Some(cursor)
    }

    /// The byte order reads use.
    pub fn endian(&self) -> Endian {
        self.endian
    }

    /// Offset of the next byte to read.
    pub fn position(&self) -> usize {
        self.at
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.at)
    }

    /// True when everything was read.
    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// Moves to offset `at`; `None` (not moving) when it is past the end.
    pub fn seek(&mut self, at: usize) -> Option<()> {
        (at <= self.bytes.len()).then(|| self.at = at)
    }

    /// Skips `n` bytes; `None` (not moving) when fewer are left.
    pub fn skip(&mut self, n: usize) -> Option<()> {
        self.take(n).map(drop)
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let out = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(out)
    }

    /// The next `N` bytes as an array.
    pub fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    /// Everything left (possibly nothing).
    pub fn rest(&mut self) -> &'a [u8] {
        let out = self.bytes.get(self.at..).unwrap_or_default();
        self.at = self.bytes.len();
        out
    }

    /// The next byte without consuming it.
    pub fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// One byte.
    pub fn u8(&mut self) -> Option<u8> {
        let [byte] = self.array()?;
        Some(byte)
    }

    read_int! {
        /// A 16-bit word.
        u16: u16;
        /// A 32-bit word.
        u32: u32;
        /// A 64-bit word.
        u64: u64;
        /// A signed 16-bit word.
        i16: i16;
        /// A signed 32-bit word.
        i32: i32;
        /// A signed 64-bit word.
        i64: i64;
    }

    /// A 32-bit IEEE float.
    pub fn f32(&mut self) -> Option<f32> {
        self.u32().map(f32::from_bits)
    }

    /// A 64-bit IEEE float.
    pub fn f64(&mut self) -> Option<f64> {
        self.u64().map(f64::from_bits)
    }

    /// An unsigned word of `size` bytes (1, 2, 4 or 8: a pointer or a
    /// variable-width field), widened to 64 bits.
    pub fn uint(&mut self, size: usize) -> Option<u64> {
        match size {
            1 => self.u8().map(u64::from),
            2 => self.u16().map(u64::from),
            4 => self.u32().map(u64::from),
            8 => self.u64(),
            _ => None,
        }
    }

    /// The bytes of a NUL-terminated string; the NUL is consumed, not returned.
    pub fn until_nul(&mut self) -> Option<&'a [u8]> {
        let rest = self.bytes.get(self.at..)?;
        let len = rest.iter().position(|&b| b == 0)?;
        let text = rest.get(..len)?;
        self.at += len + 1;
        Some(text)
    }

    /// A count of items each at least `min_size` bytes long, refused when the
    /// bytes left could not hold that many (keeps damaged counts from
    /// allocating).
    pub fn count(&mut self, min_size: usize) -> Option<u32> {
        let start = self.at;
        let n = self.u32()?;
        let need = usize::try_from(n).ok()?.checked_mul(min_size.max(1));
        if need.is_some_and(|need| need <= self.remaining()) {
            Some(n)
        } else {
            self.at = start;
            None
        }
    }

    /// Runs the reads in `fields` as one: on failure the cursor goes back to
    /// where it was and the error names that offset.
    pub fn read<T>(&mut self, fields: impl FnOnce(&mut Self) -> Option<T>) -> Result<T, Short> {
        let start = self.at;
        fields(self).ok_or_else(|| {
            self.at = start;
            Short {
                offset: start,
                available: self.remaining(),
            }
        })
    }
}

/// A 16-bit word at offset `at` of `bytes`.
pub fn u16_at(bytes: &[u8], at: usize, endian: Endian) -> Option<u16> {
    ByteCursor::at(bytes, at, endian)?.u16()
}

/// A 32-bit word at offset `at` of `bytes`.
pub fn u32_at(bytes: &[u8], at: usize, endian: Endian) -> Option<u32> {
    ByteCursor::at(bytes, at, endian)?.u32()
}

/// A 64-bit word at offset `at` of `bytes`.
pub fn u64_at(bytes: &[u8], at: usize, endian: Endian) -> Option<u64> {
    ByteCursor::at(bytes, at, endian)?.u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_read_in_the_cursor_byte_order() {
        let bytes = [1, 2, 3, 4, 5, 6, 7, 8];
        assert_eq!(ByteCursor::le(&bytes).u32(), Some(0x0403_0201));
        assert_eq!(ByteCursor::be(&bytes).u32(), Some(0x0102_0304));
        assert_eq!(ByteCursor::be(&bytes).u64(), Some(0x0102_0304_0506_0708));
        assert_eq!(ByteCursor::le(&bytes).u16(), Some(0x0201));
        assert_eq!(ByteCursor::le(&[0xff, 0xff]).i16(), Some(-1));
        assert_eq!(ByteCursor::be(&bytes).uint(2), Some(0x0102));
        assert_eq!(ByteCursor::be(&bytes).uint(3), None);
        let mut c = ByteCursor::le(&bytes);
        assert_eq!(
            (c.u8(), c.u8(), c.u16(), c.position()),
            (Some(1), Some(2), Some(0x0403), 4)
        );
        let float = 1.5f64.to_le_bytes();
        assert_eq!(ByteCursor::le(&float).f64(), Some(1.5));
        assert_eq!(u32_at(&bytes, 4, Endian::Little), Some(0x0807_0605));
        assert_eq!(u16_at(&bytes, 6, Endian::Big), Some(0x0708));
        assert_eq!(
            u64_at(&bytes, 0, Endian::Little),
            Some(0x0807_0605_0403_0201)
        );
    }

    #[test]
    fn reads_past_the_end_fail_without_moving() {
        let bytes = [1, 2, 3];
        let mut c = ByteCursor::le(&bytes);
        assert_eq!(c.u32(), None);
        assert_eq!(c.position(), 0);
        assert_eq!(c.take(usize::MAX), None);
        assert_eq!(c.skip(4), None);
        assert_eq!(c.seek(4), None);
        assert_eq!(c.seek(3), Some(()));
        assert!(c.is_empty());
        assert_eq!(c.u8(), None);
        assert_eq!(c.peek(), None);
        assert_eq!(u32_at(&bytes, usize::MAX, Endian::Big), None);
        assert!(ByteCursor::at(&bytes, 4, Endian::Little).is_none());
    }

    #[test]
    fn a_failed_group_of_reads_names_where_it_began() {
        let bytes = [9, 1, 0, 0, 0, 2];
        let mut c = ByteCursor::le(&bytes);
        assert_eq!(c.u8(), Some(9));
        let short = c.read(|c| Some((c.u32()?, c.u32()?))).unwrap_err();
        assert_eq!(
            short,
            Short {
                offset: 1,
                available: 5
            }
        );
        assert_eq!(c.position(), 1);
        assert!(short.to_string().contains("byte 6"));
        assert_eq!(c.read(|c| c.u32()), Ok(1));
    }

    #[test]
    fn strings_counts_and_the_rest() {
        let bytes = b"ab\0c\0\x02\0\0\0xy";
        let mut c = ByteCursor::le(bytes);
        assert_eq!(c.until_nul(), Some(&b"ab"[..]));
        assert_eq!(c.until_nul(), Some(&b"c"[..]));
        let at = c.position();
        assert_eq!(
            c.count(2),
            None,
            "two items of two bytes do not fit in two bytes"
        );
        assert_eq!(c.position(), at);
        assert_eq!(c.count(1), Some(2));
        assert_eq!(c.peek(), Some(b'x'));
        assert_eq!(c.array::<1>(), Some([b'x']));
        assert_eq!(c.rest(), b"y");
        assert_eq!(c.rest(), b"");
        assert_eq!(c.until_nul(), None);
    }
}
