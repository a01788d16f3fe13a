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
        }
    }
}

impl PostprocBuffer {
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
            let end = at + first + BUFFER_SIZE - 1;
            let Some(piece) = pending.get(at + first..end).filter(|_| !self.stopped) else {
                break;
            };
            self.read(piece);
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
        let (mut at, mut left) = if self.started {
            let end = self.kept + piece.len();
            match self.buffer.get_mut(self.kept..end) {
                Some(place) => place.copy_from_slice(piece),
                None => return self.stop(),
            }
            (0, end)
        } else {
            self.started = true;
            match self.buffer.get_mut(1..1 + piece.len()) {
                Some(place) => place.copy_from_slice(piece),
                None => return self.stop(),
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
            return;
        }
        self.buffer.copy_within(at..at + left, 0);
        self.kept = left;
        if left + BUFFER_SIZE - 1 > self.buffer.len() {
            self.stop();
        }
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
        }
        Some(size)
    }

    fn stop(&mut self) {
        self.stopped = true;
    }
}
