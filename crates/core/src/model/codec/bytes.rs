//! The codec's byte level: little-endian numbers, length-prefixed texts and
//! arrays, and every column of the model's column list
//! ([`crate::model::columns`]) written and read by its element type.

use crate::model::columns::{ColumnInfo, ColumnMut, ColumnRef, ColumnVisitor, ColumnVisitorMut};
use crate::model::StringTable;

/// Appends the encoding of a trace.
pub(super) struct Writer(pub(super) Vec<u8>);

impl Writer {
    pub(super) fn u8(&mut self, v: u8) {
        self.0.push(v);
    }

    pub(super) fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    pub(super) fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }

    pub(super) fn opt_str(&mut self, s: Option<&str>) {
        self.u8(u8::from(s.is_some()));
        if let Some(s) = s {
            self.str(s);
        }
    }

    pub(super) fn opt_i64(&mut self, v: Option<i64>) {
        self.u8(u8::from(v.is_some()));
        if let Some(v) = v {
            self.0.extend_from_slice(&v.to_le_bytes());
        }
    }

    pub(super) fn opt_u32(&mut self, v: Option<u32>) {
        self.opt_i64(v.map(i64::from));
    }

    pub(super) fn strings(&mut self, all: &[String]) {
        self.each(all, |w, s| w.str(s));
    }

    /// A count, then each item.
    pub(super) fn each<T>(&mut self, items: &[T], mut write: impl FnMut(&mut Self, &T)) {
        self.u64(items.len() as u64);
        for item in items {
            write(self, item);
        }
    }

    fn array<T: Copy, const N: usize>(&mut self, v: &[T], bytes: impl Fn(T) -> [u8; N]) {
        self.u64(v.len() as u64);
        for &x in v {
            self.0.extend_from_slice(&bytes(x));
        }
    }
}

impl<'a> ColumnVisitor<'a> for Writer {
    fn column(&mut self, _info: ColumnInfo, values: ColumnRef<'a>) {
        match values {
            ColumnRef::I64(v) => self.array(v, i64::to_le_bytes),
            ColumnRef::U64(v) => self.array(v, u64::to_le_bytes),
            ColumnRef::U32(v) => self.array(v, u32::to_le_bytes),
            ColumnRef::U16(v) => self.array(v, u16::to_le_bytes),
            ColumnRef::U8(v) => self.array(v, u8::to_le_bytes),
            ColumnRef::F64(v) => self.array(v, f64::to_le_bytes),
            ColumnRef::I64Columns(v) => self.each(v, |w, c| w.array(c, i64::to_le_bytes)),
            ColumnRef::Strings(v) => self.strings(v),
            ColumnRef::Rows(v) => self.each(v, |w, row| w.strings(row)),
        }
    }
}

/// Reads an encoded trace; every read checks its length first.
pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 0 }
    }

    pub(super) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let slice = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(slice)
    }

    pub(super) fn u8(&mut self) -> Option<u8> {
        self.take(1)?.first().copied()
    }

    pub(super) fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    /// A count of items that each take at least one byte: never more than remain.
    fn count(&mut self) -> Option<usize> {
        let n = usize::try_from(self.u64()?).ok()?;
        (n <= self.bytes.len() - self.at).then_some(n)
    }

    pub(super) fn str(&mut self) -> Option<String> {
        let n = self.count()?;
        String::from_utf8(self.take(n)?.to_vec()).ok()
    }

    pub(super) fn opt_str(&mut self) -> Option<Option<String>> {
        Some(if self.u8()? == 1 {
            Some(self.str()?)
        } else {
            None
        })
    }

    pub(super) fn opt_i64(&mut self) -> Option<Option<i64>> {
        Some(if self.u8()? == 1 {
            Some(i64::from_le_bytes(self.take(8)?.try_into().ok()?))
        } else {
            None
        })
    }

    pub(super) fn opt_u32(&mut self) -> Option<Option<u32>> {
        match self.opt_i64()? {
            Some(v) => Some(Some(u32::try_from(v).ok()?)),
            None => Some(None),
        }
    }

    pub(super) fn strings(&mut self) -> Option<Vec<String>> {
        self.each(Self::str)
    }

    /// A count, then each item.
    pub(super) fn each<T>(
        &mut self,
        mut read: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        (0..self.count()?).map(|_| read(self)).collect()
    }

    fn array<const N: usize, T>(&mut self, f: impl Fn([u8; N]) -> T) -> Option<Vec<T>> {
        let n = self.count()?;
        let raw = self.take(n.checked_mul(N)?)?;
        Some(
            raw.chunks_exact(N)
                .map(|c| f(c.try_into().unwrap_or([0; N])))
                .collect(),
        )
    }

    /// Fills the columns a walk (`visit`) offers, in order; `None` as soon
    /// as one does not read.
    pub(super) fn columns(&mut self, visit: impl FnOnce(&mut ColumnReader<'_, 'a>)) -> Option<()> {
        let mut columns = ColumnReader {
            reader: self,
            ok: true,
        };
        visit(&mut columns);
        columns.ok.then_some(())
    }

    fn column(&mut self, values: ColumnMut<'_>) -> Option<()> {
        match values {
            ColumnMut::I64(v) => *v = self.array(i64::from_le_bytes)?,
            ColumnMut::U64(v) => *v = self.array(u64::from_le_bytes)?,
            ColumnMut::U32(v) => *v = self.array(u32::from_le_bytes)?,
            ColumnMut::U16(v) => *v = self.array(u16::from_le_bytes)?,
            ColumnMut::U8(v) => *v = self.array(u8::from_le_bytes)?,
            ColumnMut::F64(v) => *v = self.array(f64::from_le_bytes)?,
            ColumnMut::I64Columns(v) => *v = self.each(|r| r.array(i64::from_le_bytes))?,
            ColumnMut::Strings(v) => *v = StringTable::from_vec(self.strings()?),
            ColumnMut::Rows(v) => *v = self.each(Self::strings)?,
        }
        Some(())
    }
}

/// The [`Reader`] as a column visitor: reads each column offered, and
/// stops reading at the first that fails.
pub(super) struct ColumnReader<'r, 'a> {
    reader: &'r mut Reader<'a>,
    ok: bool,
}

impl<'c> ColumnVisitorMut<'c> for ColumnReader<'_, '_> {
    fn column(&mut self, _info: ColumnInfo, values: ColumnMut<'c>) {
        self.ok = self.ok && self.reader.column(values).is_some();
    }
}
