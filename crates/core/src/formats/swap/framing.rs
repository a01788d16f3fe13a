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
        let fields = [self.id, self.seq, self.sec, self.nsec, self.len];
        for (bytes, v) in out.chunks_exact_mut(4).zip(fields) {
            bytes.copy_from_slice(&v.to_le_bytes());
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
/// over the sorted, unwrapped set rather than between neighbours. The set is
/// kept as runs of consecutive numbers: numbers are gathered, then sorted into
/// the runs a batch at a time, so a stream without gaps is one run however
/// long it is.
#[derive(Default)]
pub struct SequenceLog {
    /// Disjoint, non-adjacent runs `first..=last` of unwrapped numbers, ascending.
    runs: Vec<(u64, u64)>,
    /// Unwrapped numbers not merged into `runs` yet.
    batch: Vec<u64>,
    /// Numbers pushed.
    total: u64,
    epoch: u64,
    highest: Option<u32>,
    pub wraps: u64,
}

/// Numbers gathered before they are merged into the runs.
const BATCH: usize = 4096;

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
        self.total += 1;
        self.batch.push((self.epoch << 32) | u64::from(seq));
        if self.batch.len() >= BATCH {
            self.merge();
        }
    }

    /// Sorts the gathered numbers into the runs.
    fn merge(&mut self) {
        self.batch.sort_unstable();
        let mut incoming: Vec<(u64, u64)> = Vec::new();
        for &n in &self.batch {
            match incoming.last_mut() {
                // A repeat within the batch is counted at the end (as
                // pushed minus distinct); one run holds it once.
                Some(run) if n <= run.1 => {}
                Some(run) if n == run.1 + 1 => run.1 = n,
                _ => incoming.push((n, n)),
            }
        }
        self.batch.clear();
        let old = std::mem::take(&mut self.runs);
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(old.len() + incoming.len());
        let (mut a, mut b) = (old.into_iter().peekable(), incoming.into_iter().peekable());
        loop {
            let next = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) if x.0 <= y.0 => a.next(),
                (_, Some(_)) => b.next(),
                _ => a.next(),
            };
            let Some((first, last)) = next else { break };
            match merged.last_mut() {
                Some(run) if first <= run.1.saturating_add(1) => run.1 = run.1.max(last),
                _ => merged.push((first, last)),
            }
        }
        self.runs = merged;
    }

    /// Gaps, wraps and duplicates over everything pushed.
    pub fn summary(mut self) -> SequenceSummary {
        self.merge();
        let distinct: u64 = self.runs.iter().map(|r| r.1 - r.0 + 1).sum();
        let missing = match (self.runs.first(), self.runs.last()) {
            (Some(lo), Some(hi)) => (hi.1 - lo.0 + 1).saturating_sub(distinct),
            _ => 0,
        };
        SequenceSummary {
            missing,
            wraps: self.wraps,
            duplicates: self.total - distinct,
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

    /// Gaps and duplicates counted over the sorted set, the plain way.
    fn counted_plainly(unwrapped: &[u64]) -> (u64, u64) {
        let mut all = unwrapped.to_vec();
        all.sort_unstable();
        let total = all.len() as u64;
        all.dedup();
        let distinct = all.len() as u64;
        let missing = match (all.first(), all.last()) {
            (Some(lo), Some(hi)) => (hi - lo + 1) - distinct,
            _ => 0,
        };
        (missing, total - distinct)
    }

    #[test]
    fn runs_count_like_the_sorted_set_over_many_batches() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for round in 0..6 {
            let mut log = SequenceLog::default();
            let mut plain = Vec::new();
            let mut seq = 1_000_000u32;
            for _ in 0..3 * BATCH + 77 {
                // Mostly in order; some dropped, repeated or swapped.
                let n = match next(20) {
                    0 if round > 0 => seq.wrapping_add(next(50) as u32),
                    1 if round > 1 => seq.wrapping_sub(next(9000) as u32),
                    2 => seq,
                    _ => seq.wrapping_add(1),
                };
                seq = seq.max(n);
                log.push(n);
                plain.push(u64::from(n));
            }
            let (missing, duplicates) = counted_plainly(&plain);
            let s = log.summary();
            assert_eq!((s.missing, s.duplicates, s.wraps), (missing, duplicates, 0));
        }
    }
}
