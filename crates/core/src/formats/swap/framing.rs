//! Framing of the stream: back-to-back messages, each a 20-byte little-endian
//! header (`id, seq, sec, nsec, len`) and `len` payload bytes, no padding and
//! no file header (notes §1). Also the sequence bookkeeping: gaps are
//! messages the target dropped, and the counter wraps at 2^32.

use super::ids;

/// Size of the message header.
pub const HEADER_LEN: usize = 20;
/// No message is longer than one 32 KiB sub-buffer, header included.
pub const MAX_MESSAGE: usize = 32 * 1024;

/// A message header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub id: u32,
    pub seq: u32,
    pub sec: u32,
    pub nsec: u32,
    pub len: u32,
}

impl Header {
    /// The header at the start of `bytes`, if 20 bytes are there.
    pub fn read(bytes: &[u8]) -> Option<Header> {
        let word = |at: usize| -> Option<u32> {
            let b: [u8; 4] = bytes.get(at..at + 4)?.try_into().ok()?;
            Some(u32::from_le_bytes(b))
        };
        Some(Header {
            id: word(0)?,
            seq: word(4)?,
            sec: word(8)?,
            nsec: word(12)?,
            len: word(16)?,
        })
    }

    /// The header's bytes.
    pub fn to_bytes(self) -> [u8; HEADER_LEN] {
        let mut out = [0u8; HEADER_LEN];
        for (i, v) in [self.id, self.seq, self.sec, self.nsec, self.len]
            .into_iter()
            .enumerate()
        {
            out[i * 4..i * 4 + 4].copy_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// True when the length fits in one sub-buffer and the nanoseconds are
    /// below one second: any header a producer could have written.
    pub fn is_sane(&self) -> bool {
        (self.len as usize) <= MAX_MESSAGE - HEADER_LEN && self.nsec < 1_000_000_000
    }

    /// A sane header with an id some producer writes: what detection and
    /// resynchronisation look for.
    pub fn is_plausible(&self) -> bool {
        self.is_sane() && (ids::is_known(self.id) || self.id & 0xFF00 == ids::PROBE_BIT)
    }
}

/// Sequence numbers seen, to count gaps and wrap-arounds at the end. Stream
/// order is not strict sequence order (per-CPU buffers), so gaps are counted
/// over the sorted, unwrapped set rather than between neighbours.
#[derive(Default)]
pub struct SequenceLog {
    unwrapped: Vec<u64>,
    epoch: u64,
    highest: Option<u32>,
    pub wraps: u64,
}

/// What the sequence numbers say about the stream.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SequenceSummary {
    /// Messages the target numbered but the stream lacks.
    pub missing: u64,
    /// Times the counter went from near 2^32 back to near 0.
    pub wraps: u64,
    /// Messages whose number was already seen.
    pub duplicates: u64,
}

impl SequenceLog {
    /// Notes one message's sequence number.
    pub fn push(&mut self, seq: u32) {
        if let Some(high) = self.highest {
            // A small number after one near the top is a wrap, not a reorder.
            if seq < high && high - seq > u32::MAX / 2 {
                self.epoch += 1;
                self.wraps += 1;
                self.highest = Some(seq);
            } else if seq > high {
                self.highest = Some(seq);
            }
        } else {
            self.highest = Some(seq);
        }
        self.unwrapped.push((self.epoch << 32) | u64::from(seq));
    }

    /// Gaps, wraps and duplicates over everything pushed.
    pub fn summary(mut self) -> SequenceSummary {
        self.unwrapped.sort_unstable();
        let total = self.unwrapped.len() as u64;
        self.unwrapped.dedup();
        let distinct = self.unwrapped.len() as u64;
        let missing = match (self.unwrapped.first(), self.unwrapped.last()) {
            (Some(&lo), Some(&hi)) => (hi - lo + 1).saturating_sub(distinct),
            _ => 0,
        };
        SequenceSummary {
            missing,
            wraps: self.wraps,
            duplicates: total - distinct,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trips_and_checks_limits() {
        let h = Header {
            id: ids::SAMPLE,
            seq: 5,
            sec: 1,
            nsec: 2,
            len: 20,
        };
        assert_eq!(Header::read(&h.to_bytes()), Some(h));
        assert!(h.is_plausible());
        assert!(!Header { len: 40_000, ..h }.is_sane());
        assert!(!Header { id: 0x4242, ..h }.is_plausible());
    }

    #[test]
    fn gaps_reorders_and_wraps_are_told_apart() {
        let mut log = SequenceLog::default();
        for seq in [u32::MAX - 2, u32::MAX, u32::MAX - 1, 1, 0, 4, 4] {
            log.push(seq);
        }
        let s = log.summary();
        assert_eq!(s.wraps, 1);
        assert_eq!(s.duplicates, 1);
        // Missing: 2 and 3 after the wrap.
        assert_eq!(s.missing, 2);
    }
}
