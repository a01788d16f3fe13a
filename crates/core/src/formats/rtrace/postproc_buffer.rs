//! What a 64-bit `sp-rtrace-postproc` reads past the end of a 2.0 HINF
//! packet. The 2.0 writer stores the heap statistics as twelve dwords (48
//! bytes), but the 64-bit reader takes the first two as 8-byte pointers, so
//! its last two fields come from the 8 bytes after the packet in its read
//! buffer — left there by an earlier read when HINF ends the file. Those
//! bytes follow from the file alone: postproc reads it in 4095-byte pieces
//! into an 8 KiB buffer, parses the whole packets and moves the rest to the
//! front. This replays that, so the listing can print what postproc
//! printed (notes §3 HINF; checked against `c-leaks`' references in
//! `tests/listing_rtrace.rs`).
//!
//! A part of the file decoded apart (`parts.rs`) starts the replay at its
//! first packet, not knowing what earlier reads left in the buffer: those
//! bytes are marked unknown, and a result that needs them is not trusted.

use super::framing::TAGS;

/// postproc's `BUFFER_SIZE`.
const BUFFER_SIZE: usize = 4096;
/// A 2.0 packet header: type, then payload length.
const HEADER: usize = 8;
/// The handshake's first byte, which stops postproc in mid-stream.
const HANDSHAKE_ID: u8 = 0xf0;

/// postproc's read buffer, replayed over the file's bytes.
pub struct PostprocBuffer {
    buffer: Vec<u8>,
    /// File bytes not yet "read" (fewer than a read takes).
    pending: Vec<u8>,
    /// Bytes of a packet cut by the last read, at the buffer's front.
    kept: usize,
    /// The first read (after the handshake's first byte) is done.
    started: bool,
    /// postproc stopped parsing (unknown packet, second handshake, damage).
    stopped: bool,
    /// The 8 bytes after the last 48-byte HINF payload.
    past_heap_info: Option<[u8; 8]>,
    /// Which bytes of `buffer` are known (all, unless mid-stream).
    known: Vec<bool>,
    /// Every byte is known (a replay from the file's start, until its part
    /// ends): `known` is then all true and not kept up per read.
    all_known: bool,
    /// The 8 bytes of `past_heap_info` were all known.
    past_known: bool,
    /// Bytes the next read takes (a part's first read ends where the whole
    /// file's would).
    next_read: usize,
    /// The next read is a part's first: what it leaves past its packets is
    /// not what the whole file's read would leave there.
    first_of_part: bool,
}

/// A part's replay, for the join (`parts.rs`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartReplay {
    /// postproc stopped parsing in this part.
    pub stopped: bool,
    /// The bytes past the part's last 48-byte HINF (None inside when they
    /// depend on bytes the part did not have).
    pub past_heap_info: Option<Option<[u8; 8]>>,
}

/// True for a protocol 2.0 trace of a 64-bit little-endian system, whose
/// postproc read buffer is replayed.
pub fn replayed_for(h: &super::handshake::Handshake) -> bool {
    h.major >= 2 && h.pointer_size == 8 && !h.big_endian
}

impl Default for PostprocBuffer {
    fn default() -> Self {
        PostprocBuffer {
            buffer: vec![0; 2 * BUFFER_SIZE],
            pending: Vec::new(),
            kept: 0,
            started: false,
            stopped: false,
            past_heap_info: None,
            known: vec![true; 2 * BUFFER_SIZE],
            all_known: true,
            past_known: true,
            next_read: BUFFER_SIZE - 1,
            first_of_part: false,
        }
    }
}

impl PostprocBuffer {
    /// A replay for a part of the file whose first packet starts at file
    /// offset `at` (after the handshake).
    pub fn mid_stream(at: u64) -> Self {
        // Reads start at file offsets 1 + k * (BUFFER_SIZE - 1).
        let step = (BUFFER_SIZE - 1) as u64;
        let into = at.saturating_sub(1) % step;
        PostprocBuffer {
            started: true,
            known: vec![false; 2 * BUFFER_SIZE],
            all_known: false,
            next_read: if into == 0 { 0 } else { (step - into) as usize },
            first_of_part: true,
            ..PostprocBuffer::default()
        }
    }

    /// The end of a part that is not the file's last: the read that
    /// crosses into the next part is done as far as this part's bytes go
    /// (the bytes after them are the next part's: unknown here).
    pub fn finish_part(mut self) -> PartReplay {
        if !self.stopped && !self.pending.is_empty() {
            let first = usize::from(!self.started);
            let piece = std::mem::take(&mut self.pending);
            let piece = piece.get(first..).unwrap_or(&[]);
            let from = if self.started { self.kept } else { 1 } + piece.len();
            let from = from.min(self.known.len());
            self.all_known = false;
            if let Some(after) = self.known.get_mut(from..) {
                after.fill(false);
            }
            self.read_only(piece);
        }
        self.part_replay()
    }

    /// [`PostprocBuffer::finish`] for the file's last part.
    pub fn finish_last_part(mut self) -> PartReplay {
        if !self.stopped && !self.pending.is_empty() {
            let first = usize::from(!self.started);
            let piece = std::mem::take(&mut self.pending);
            self.read(piece.get(first..).unwrap_or(&[]));
        }
        self.part_replay()
    }

    fn part_replay(&self) -> PartReplay {
        PartReplay {
            stopped: self.stopped,
            past_heap_info: self
                .past_heap_info
                .map(|bytes| Some(bytes).filter(|_| self.past_known)),
        }
    }

    /// Takes the next bytes of the file (from its first byte on).
    pub fn feed(&mut self, chunk: &[u8]) {
        if self.stopped {
            return;
        }
        let mut pending = std::mem::take(&mut self.pending);
        pending.extend_from_slice(chunk);
        let mut at = 0;
        loop {
            // The identification byte comes before the first read.
            let first = usize::from(!self.started);
            let end = at + first + self.next_read;
            let Some(piece) = pending.get(at + first..end).filter(|_| !self.stopped) else {
                break;
            };
            self.read(piece);
            self.next_read = BUFFER_SIZE - 1;
            at = end;
        }
        pending.drain(..at.min(pending.len()));
        self.pending = pending;
    }

    /// The end of the file: the last, short read. Returns the 8 bytes past
    /// the last 48-byte HINF packet postproc parsed, if it parsed one.
    pub fn finish(mut self) -> Option<[u8; 8]> {
        if !self.stopped && !self.pending.is_empty() {
            let first = usize::from(!self.started);
            let piece = std::mem::take(&mut self.pending);
            self.read(piece.get(first..).unwrap_or(&[]));
        }
        self.past_heap_info
    }

    /// One `read()` of `piece` into the buffer, then the packets it completes.
    fn read(&mut self, piece: &[u8]) {
        let Some(left) = self.read_only(piece) else {
            return;
        };
        if self.first_of_part {
            self.first_of_part = false;
            if let Some(stale) = self.known.get_mut(left..) {
                stale.fill(false);
            }
        }
        if left + BUFFER_SIZE - 1 > self.buffer.len() {
            self.stop();
        }
    }

    /// [`PostprocBuffer::read`] up to moving the unparsed bytes to the
    /// front; how many there are (None once stopped).
    fn read_only(&mut self, piece: &[u8]) -> Option<usize> {
        let (mut at, mut left) = if self.started {
            let end = self.kept + piece.len();
            match self.buffer.get_mut(self.kept..end) {
                Some(place) => place.copy_from_slice(piece),
                None => {
                    self.stop();
                    return None;
                }
            }
            if !self.all_known {
                if let Some(known) = self.known.get_mut(self.kept..end) {
                    known.fill(true);
                }
            }
            (0, end)
        } else {
            self.started = true;
            match self.buffer.get_mut(1..1 + piece.len()) {
                Some(place) => place.copy_from_slice(piece),
                None => {
                    self.stop();
                    return None;
                }
            }
            // The handshake: its length byte, then that many bytes.
            let skip = 1 + usize::from(piece.first().copied().unwrap_or(0));
            (1 + skip, piece.len().saturating_sub(skip))
        };
        while let Some(size) = self.packet(at, left) {
            at += size;
            left -= size;
        }
        if self.stopped {
            return None;
        }
        self.buffer.copy_within(at..at + left, 0);
        if !self.all_known {
            self.known.copy_within(at..at + left, 0);
        }
        self.kept = left;
        Some(left)
    }

    /// The whole packet at `at` (with `left` bytes after it): its size.
    fn packet(&mut self, at: usize, left: usize) -> Option<usize> {
        if left < HEADER {
            return None;
        }
        let bytes = self.buffer.get(at..at + left)?;
        let tag: [u8; 4] = bytes.get(..4)?.try_into().ok()?;
        let len = u32::from_le_bytes(bytes.get(4..8)?.try_into().ok()?) as usize;
        if tag[0] == HANDSHAKE_ID || !TAGS.contains(&&tag) {
            self.stop();
            return None;
        }
        let size = HEADER.checked_add(len)?;
        if size > left {
            return None;
        }
        if &tag == b"HINF" && len == 48 {
            let past = at + size;
            self.past_heap_info = self.buffer.get(past..past + 8)?.try_into().ok();
            self.past_known = self
                .known
                .get(past..past + 8)
                .is_some_and(|k| k.iter().all(|&k| k));
        }
        Some(size)
    }

    fn stop(&mut self) {
        self.stopped = true;
    }
}
