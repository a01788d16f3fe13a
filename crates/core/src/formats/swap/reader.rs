//! A bounds-checked little-endian cursor over one message payload. Every read
//! returns `None` past the end instead of panicking.

/// Reads fields front to back from a payload.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 0 }
    }

    /// Bytes consumed so far.
    pub fn position(&self) -> usize {
        self.at
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.at)
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let out = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(out)
    }

    /// Everything left.
    pub fn rest(&mut self) -> &'a [u8] {
        let out = self.bytes.get(self.at..).unwrap_or(&[]);
        self.at = self.bytes.len();
        out
    }

    /// The next byte without consuming it.
    pub fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    pub fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    pub fn u16(&mut self) -> Option<u16> {
        let b = self.take(2)?;
        Some(u16::from_le_bytes([b[0], b[1]]))
    }

    pub fn u32(&mut self) -> Option<u32> {
        let b: [u8; 4] = self.take(4)?.try_into().ok()?;
        Some(u32::from_le_bytes(b))
    }

    pub fn u64(&mut self) -> Option<u64> {
        let b: [u8; 8] = self.take(8)?.try_into().ok()?;
        Some(u64::from_le_bytes(b))
    }

    pub fn f32(&mut self) -> Option<f32> {
        self.u32().map(f32::from_bits)
    }

    pub fn f64(&mut self) -> Option<f64> {
        self.u64().map(f64::from_bits)
    }

    /// A NUL-terminated string (the NUL is consumed, not returned), read as
    /// UTF-8 with lossy replacement.
    pub fn string(&mut self) -> Option<String> {
        Some(String::from_utf8_lossy(self.until_nul()?).into_owned())
    }

    /// The bytes of a NUL-terminated string (the NUL is consumed, not
    /// returned), not decoded.
    pub fn until_nul(&mut self) -> Option<&'a [u8]> {
        let rest = self.bytes.get(self.at..)?;
        let len = rest.iter().position(|&b| b == 0)?;
        let text = rest.get(..len)?;
        self.at += len + 1;
        Some(text)
    }

    /// A count of items each at least `min_size` bytes long, refused when the
    /// payload could not hold that many (keeps damaged counts from allocating).
    pub fn count(&mut self, min_size: usize) -> Option<u32> {
        let n = self.u32()?;
        let need = (n as usize).checked_mul(min_size.max(1))?;
        (need <= self.remaining()).then_some(n)
    }
}
