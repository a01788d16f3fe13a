//! Decoding one trace file in parts side by side (one per worker, see
//! [`crate::decoder::Decoder::keep_part`]), each reading only its own
//! stretch of bytes.
//!
//! Part k's stretch nominally starts at `size * k / parts`. Its real start
//! is the first packet border at or after that: found by a forward scan
//! (with the framer's own rules, at the offsets a packet can start at)
//! that asks for a few known packets in a row. The part before frames up
//! to that same border, found by the same scan, and checks that its last
//! packet ended exactly there; if it did not (damage, or a border that was
//! not one), it reads on to the end of the file and the parts after it are
//! dropped, so the join never guesses. The parts' sessions are joined in
//! order by part 0 (`Session::append`, `said::Record::replay`).

use super::framing::{Framer, KnownAt};
use super::handshake::Handshake;

/// Known packets in a row that make a border.
const BORDER_PACKETS: usize = 4;

/// What the reader hands on.
pub enum Action<'a> {
    /// The part's first packet starts here: start framing.
    Start(u64),
    /// The next bytes to frame.
    Bytes(&'a [u8]),
    /// The part's bytes end at this border; the answer says whether the
    /// last packet ended exactly there.
    End(u64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Looking for the first border.
    Seeking,
    /// Framing bytes before the next part's nominal start.
    Framing,
    /// Looking for the next part's border while holding the bytes.
    Tail,
    /// The border did not hold: framing to the end of the file.
    ToTheEnd,
    /// Ended at the next part's border.
    Done,
}

/// Which bytes of the file a part frames.
pub struct PartReader {
    framer: Framer,
    /// Offsets a packet can start at are this, modulo 4.
    align: u64,
    /// The first packet's offset (the handshake's length).
    first_packet: u64,
    size: u64,
    /// The next part's nominal start (None for the last part).
    until: Option<u64>,
    stage: Stage,
    held: Vec<u8>,
    /// File offset of `held[0]`.
    held_at: u64,
    /// File offset of the next byte fed.
    at: u64,
    /// The first offset still to try in a border scan.
    scan_from: u64,
}

impl PartReader {
    /// Part `part` of `parts` of a file of `size` bytes that starts with
    /// `handshake`.
    pub fn new(handshake: &Handshake, size: u64, part: usize, parts: usize) -> Self {
        let nominal = |k: usize| size.saturating_mul(k as u64) / parts.max(1) as u64;
        let from = nominal(part);
        let until = (part + 1 < parts).then(|| nominal(part + 1));
        let first = part == 0;
        let first_packet = handshake.len as u64;
        PartReader {
            framer: Framer::new(handshake),
            align: first_packet % 4,
            first_packet,
            size,
            until,
            stage: if first {
                Stage::Framing
            } else {
                Stage::Seeking
            },
            held: Vec::new(),
            held_at: from,
            at: if first { 0 } else { from },
            scan_from: from.max(first_packet),
        }
    }

    /// Where the part starts reading the file.
    pub fn start(&self) -> u64 {
        if self.stage == Stage::Seeking {
            self.held_at
        } else {
            0
        }
    }

    /// True once the part ended at the next part's border.
    pub fn done(&self) -> bool {
        self.stage == Stage::Done
    }

    /// True when the part framed on to the end of the file.
    pub fn to_the_end(&self) -> bool {
        self.stage != Stage::Done
    }

    /// Takes the next bytes of the file and says what to frame.
    pub fn feed(&mut self, chunk: &[u8], out: &mut impl FnMut(Action<'_>) -> bool) {
        let chunk_at = self.at;
        self.at += chunk.len() as u64;
        match self.stage {
            Stage::Done => {}
            Stage::ToTheEnd => {
                out(Action::Bytes(chunk));
            }
            Stage::Seeking | Stage::Tail => {
                self.held.extend_from_slice(chunk);
                self.scan(out);
            }
            Stage::Framing => {
                let Some(until) = self.until else {
                    out(Action::Bytes(chunk));
                    return;
                };
                let mine = until.saturating_sub(chunk_at).min(chunk.len() as u64) as usize;
                let (now, later) = chunk.split_at(mine);
                out(Action::Bytes(now));
                if chunk_at + chunk.len() as u64 > until {
                    self.stage = Stage::Tail;
                    self.held_at = chunk_at + mine as u64;
                    self.scan_from = until.max(self.held_at).max(self.first_packet);
                    self.held = later.to_vec();
                    self.scan(out);
                }
            }
        }
    }

    /// The file ended (or the caller stopped feeding).
    pub fn end(&mut self, out: &mut impl FnMut(Action<'_>) -> bool) {
        if matches!(self.stage, Stage::Seeking | Stage::Tail) {
            // The bytes ran out before the scan could tell: frame what is held.
            let held = std::mem::take(&mut self.held);
            if self.stage == Stage::Seeking {
                out(Action::Start(self.size));
            } else {
                out(Action::Bytes(&held));
            }
            self.stage = Stage::ToTheEnd;
        }
    }

    /// Scans the held bytes for a border and acts on it when found.
    fn scan(&mut self, out: &mut impl FnMut(Action<'_>) -> bool) {
        let Some(border) = self.border() else {
            return;
        };
        let held = std::mem::take(&mut self.held);
        let cut = (border.saturating_sub(self.held_at) as usize).min(held.len());
        let (before, after) = held.split_at(cut);
        if self.stage == Stage::Seeking {
            out(Action::Start(border));
            self.stage = Stage::Framing;
            self.at = border;
            self.feed(after, out);
            return;
        }
        out(Action::Bytes(before));
        if out(Action::End(border)) {
            self.stage = Stage::Done;
        } else {
            self.stage = Stage::ToTheEnd;
            out(Action::Bytes(after));
        }
    }

    /// The first border at or after `scan_from` in the held bytes (the end
    /// of the file when there is none); None while more bytes are needed.
    fn border(&mut self) -> Option<u64> {
        let held_end = self.held_at + self.held.len() as u64;
        let all_held = held_end >= self.size;
        let mut p = self.scan_from + (self.align + 4 - self.scan_from % 4) % 4;
        while p < held_end {
            match self.border_at(p, all_held) {
                Some(true) => return Some(p),
                Some(false) => p += 4,
                None => {
                    self.scan_from = p;
                    return None;
                }
            }
        }
        self.scan_from = p;
        all_held.then_some(self.size)
    }

    /// Whether `p` is a border: known packets follow in a row (or the file
    /// ends cleanly after them); None when the held bytes end too soon.
    fn border_at(&self, p: u64, all_held: bool) -> Option<bool> {
        let mut q = p;
        for _ in 0..BORDER_PACKETS {
            if q == self.size {
                return Some(true);
            }
            let at = (q - self.held_at) as usize;
            match self.framer.known_packet_at(&self.held, at) {
                KnownAt::Packet(n) => q += n as u64,
                KnownAt::No => return Some(false),
                KnownAt::NeedMore if all_held => return Some(false),
                KnownAt::NeedMore => return None,
            }
        }
        Some(true)
    }
}
