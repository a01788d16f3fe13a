//! The carry-over of a record cut by a chunk's end.
//!
//! Files arrive in chunks of any size, so a record may begin in one chunk and
//! end in the next. A [`Carry`] keeps the bytes a parser could not use yet and
//! hands them back, joined with the next chunk, together with the file offset
//! of the first byte, so diagnostics name the right place whatever the
//! chunking. When nothing is held (the common case) the chunk is parsed where
//! it lies; when a record straddles two chunks only a growing prefix of the
//! new chunk is copied, just enough to finish it.
//!
//! The parser is a function `(bytes, offset) -> used`: it reads whole records
//! from the front of `bytes` (whose first byte is at file offset `offset`) and
//! says how many bytes it used up. It must not act on the bytes it did not
//! use: they are offered again, with more after them, on the next call.

/// Bytes copied from a chunk to finish a held record on the first try; the
/// copy doubles until the record is complete.
const FIRST_BRIDGE: usize = 4096;

/// A record cut short by the end of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfinished {
    /// File offset of the record's first byte.
    pub offset: u64,
    /// The bytes of the record that arrived.
    pub bytes: Vec<u8>,
}

/// The unused tail of one file's chunks and the file offset where it starts.
#[derive(Clone, Debug, Default)]
pub struct Carry {
    held: Vec<u8>,
    /// File offset of `held[0]` (or of the next byte, when nothing is held).
    offset: u64,
}

impl Carry {
    /// A carry for a file read from its start.
    pub fn new() -> Self {
        Carry::default()
    }

    /// A carry for a file whose next chunk begins at file offset `offset`
    /// (after a header read apart).
    pub fn at(offset: u64) -> Self {
        Carry {
            held: Vec::new(),
            offset,
        }
    }

    /// File offset of the first byte not used up yet.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The bytes held back because they do not finish a record yet.
    pub fn held(&self) -> &[u8] {
        &self.held
    }

    /// True when no bytes are held back.
    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    /// Offers the held bytes followed by `chunk` to `parse` (see the module
    /// doc) and keeps what it leaves.
    pub fn feed(&mut self, chunk: &[u8], mut parse: impl FnMut(&[u8], u64) -> usize) {
        let mut rest = chunk;
        let mut bridge = self.held.len().max(FIRST_BRIDGE);
        while !self.held.is_empty() {
            if rest.is_empty() {
                return;
            }
            let carried = self.held.len();
            let (front, after) = rest.split_at(bridge.min(rest.len()));
            self.held.extend_from_slice(front);
            let used = parse(&self.held, self.offset).min(self.held.len());
            self.offset += used as u64;
            if used >= carried {
                // The carried bytes are used up: go on in the chunk itself.
                self.held.clear();
                rest = rest.get(used - carried..).unwrap_or_default();
                break;
            }
            self.held.drain(..used);
            rest = after;
            bridge = bridge.saturating_mul(2);
        }
        if rest.is_empty() {
            return;
        }
        let used = parse(rest, self.offset).min(rest.len());
        self.offset += used as u64;
        self.held
            .extend_from_slice(rest.get(used..).unwrap_or_default());
    }

    /// Skips `n` bytes of the held ones (or all of them) without parsing:
    /// for a parser that gave up on damage it cannot frame.
    pub fn discard(&mut self, n: usize) {
        let n = n.min(self.held.len());
        self.held.drain(..n);
        self.offset += n as u64;
    }

    /// At the end of the file: the record that never finished, if any.
    /// The carry is empty afterwards, its offset past the unfinished bytes.
    pub fn take_unfinished(&mut self) -> Option<Unfinished> {
        if self.held.is_empty() {
            return None;
        }
        let bytes = std::mem::take(&mut self.held);
        let offset = self.offset;
        self.offset += bytes.len() as u64;
        Some(Unfinished { offset, bytes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records of `[len u8][len bytes]`: the parser under test.
    fn records(bytes: &[u8], offset: u64, out: &mut Vec<(u64, Vec<u8>)>) -> usize {
        let mut at = 0;
        while let Some(&len) = bytes.get(at) {
            let Some(body) = bytes.get(at + 1..at + 1 + usize::from(len)) else {
                break;
            };
            out.push((offset + at as u64, body.to_vec()));
            at += 1 + usize::from(len);
        }
        at
    }

    fn stream(lens: &[u8]) -> Vec<u8> {
        let mut bytes = Vec::new();
        for (i, &len) in lens.iter().enumerate() {
            bytes.push(len);
            bytes.extend(std::iter::repeat_n(i as u8, usize::from(len)));
        }
        bytes
    }

    fn decode(bytes: &[u8], chunk: usize) -> (Vec<(u64, Vec<u8>)>, Option<Unfinished>) {
        let mut carry = Carry::new();
        let mut out = Vec::new();
        for part in bytes.chunks(chunk) {
            carry.feed(part, |b, o| records(b, o, &mut out));
        }
        (out, carry.take_unfinished())
    }

    #[test]
    fn every_chunking_gives_the_records_and_offsets_of_the_whole() {
        let bytes = stream(&[3, 0, 200, 1, 255, 7, 0, 0, 90]);
        let whole = decode(&bytes, bytes.len());
        assert_eq!(whole.0.len(), 9);
        assert_eq!(whole.0[2].0, 5);
        assert_eq!(whole.1, None);
        for chunk in 1..40 {
            assert_eq!(decode(&bytes, chunk), whole, "chunks of {chunk}");
        }
    }

    #[test]
    fn records_longer_than_the_first_bridge_are_joined() {
        // A 3-byte length prefix so one record is 10,000 bytes long.
        fn big(bytes: &[u8], offset: u64, out: &mut Vec<u64>) -> usize {
            let mut at = 0;
            while let Some(len) = bytes.get(at..at + 2) {
                let len = usize::from(u16::from_le_bytes([len[0], len[1]]));
                if bytes.len() < at + 2 + len {
                    break;
                }
                out.push(offset + at as u64);
                at += 2 + len;
            }
            at
        }
        let mut bytes = Vec::new();
        for len in [10u16, 10_000, 5, 9_000] {
            bytes.extend(len.to_le_bytes());
            bytes.extend(std::iter::repeat_n(0xab, usize::from(len)));
        }
        for chunk in [1, 7, 1000, 4095, 4096, 6000, bytes.len()] {
            let mut carry = Carry::new();
            let mut out = Vec::new();
            for part in bytes.chunks(chunk) {
                carry.feed(part, |b, o| big(b, o, &mut out));
            }
            assert_eq!(out, vec![0, 12, 10_014, 10_021], "chunks of {chunk}");
            assert!(carry.is_empty());
            assert_eq!(carry.offset(), bytes.len() as u64);
        }
    }

    #[test]
    fn a_cut_last_record_is_reported_with_its_offset_and_bytes() {
        let mut bytes = stream(&[2, 5]);
        bytes.truncate(bytes.len() - 2);
        for chunk in 1..bytes.len() + 1 {
            let (out, unfinished) = decode(&bytes, chunk);
            assert_eq!(out.len(), 1);
            let unfinished = unfinished.unwrap();
            assert_eq!(unfinished.offset, 3);
            assert_eq!(unfinished.bytes, vec![5, 1, 1, 1]);
        }
    }

    #[test]
    fn a_parser_that_stops_keeps_the_rest_held() {
        let mut carry = Carry::at(100);
        let mut seen = Vec::new();
        // Stops for good at a zero byte.
        let mut parse = |b: &[u8], o: u64| {
            let used = b.iter().position(|&x| x == 0).unwrap_or(b.len());
            seen.push((o, used));
            used
        };
        carry.feed(&[1, 2, 0, 3], &mut parse);
        carry.feed(&[4], &mut parse);
        assert_eq!(carry.offset(), 102);
        assert_eq!(carry.held(), &[0, 3, 4]);
        carry.discard(1);
        assert_eq!((carry.offset(), carry.held()), (103, &[3u8, 4][..]));
        carry.feed(&[], &mut parse);
        let unfinished = carry.take_unfinished().unwrap();
        assert_eq!((unfinished.offset, unfinished.bytes), (103, vec![3, 4]));
        assert_eq!(carry.offset(), 105);
        assert_eq!(carry.take_unfinished(), None);
    }
}
