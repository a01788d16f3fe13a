//! The reorder window: messages wait here, in time order, until enough of
//! the stream has come after them that no later message is likely to go
//! before them, and are then handed to the build one by one.
//!
//! The stream is only roughly in time order (notes §1: per-CPU buffers, and
//! library stamps taken before the kernel numbers the message), so each
//! message is held until its payload has a window's worth of newer payload
//! bytes behind it. A stream that fits in the window is put in exact
//! (time, stream offset) order; in a longer one, a message that comes
//! more than the window after messages with later times is released late
//! (the stream counts those). The window keeps only the payloads it holds,
//! in one arena that is compacted as released messages leave its front.

use std::collections::VecDeque;

/// A message waiting in the window: its header fields, where its payload
/// sits in the arena, and how its first reading chose to read it again.
#[derive(Clone, Copy, Debug)]
pub struct Kept {
    /// Nanoseconds since the epoch.
    pub time: i64,
    /// Stream offset of the header.
    pub offset: u64,
    /// Position of the payload in the arena, counted from the arena's
    /// first byte ever (compaction does not change it).
    start: u64,
    pub seq: u32,
    len: u32,
    pub id: u16,
    /// The layout its first reading chose (see `stream.rs`).
    pub how: u8,
}

impl Kept {
    /// The order messages are built in.
    fn key(&self) -> (i64, u64) {
        (self.time, self.offset)
    }
}

/// The header fields of a message about to be kept.
#[derive(Clone, Copy, Debug)]
pub struct Arrival {
    pub time: i64,
    pub offset: u64,
    pub seq: u32,
    pub id: u16,
    pub how: u8,
}

/// Pending messages in time order over an arena of their payloads.
#[derive(Debug)]
pub struct Window {
    order: VecDeque<Kept>,
    arena: Vec<u8>,
    /// Position of `arena[0]` counted from the first byte ever kept.
    origin: u64,
    /// Payload bytes of the messages in `order`.
    pending: usize,
    /// Payload bytes held before the earliest message is released.
    budget: usize,
}

/// The arena is compacted only once it is at least this big, so a small
/// window does not move its bytes for every few messages.
const COMPACT_AT_LEAST: usize = 1 << 20;

impl Window {
    /// A window that holds `budget` payload bytes (`usize::MAX`: all of them).
    pub fn new(budget: usize) -> Self {
        Window {
            order: VecDeque::new(),
            arena: Vec::new(),
            origin: 0,
            pending: 0,
            budget,
        }
    }

    /// Keeps a message, in time order among the pending ones (ties in
    /// stream order: it came last).
    pub fn insert(&mut self, arrival: Arrival, payload: &[u8]) {
        let kept = Kept {
            time: arrival.time,
            offset: arrival.offset,
            start: self.origin + self.arena.len() as u64,
            seq: arrival.seq,
            len: payload.len() as u32,
            id: arrival.id,
            how: arrival.how,
        };
        self.arena.extend_from_slice(payload);
        self.pending += payload.len();
        match self.order.back() {
            Some(last) if last.key() > kept.key() => {
                let at = self.order.partition_point(|k| k.key() < kept.key());
                self.order.insert(at, kept);
            }
            _ => self.order.push_back(kept),
        }
    }

    /// More payload is pending than the window holds.
    pub fn over_budget(&self) -> bool {
        self.pending > self.budget
    }

    /// The earliest pending message.
    pub fn front(&self) -> Option<&Kept> {
        self.order.front()
    }

    /// Takes the earliest pending message; its payload stays readable until
    /// the next [`Window::compact`].
    pub fn pop(&mut self) -> Option<Kept> {
        let kept = self.order.pop_front()?;
        self.pending = self.pending.saturating_sub(kept.len as usize);
        Some(kept)
    }

    /// The payload of a message that is pending or was just popped.
    pub fn payload(&self, kept: &Kept) -> &[u8] {
        let Some(from) = kept
            .start
            .checked_sub(self.origin)
            .and_then(|d| usize::try_from(d).ok())
        else {
            return &[];
        };
        from.checked_add(kept.len as usize)
            .and_then(|to| self.arena.get(from..to))
            .unwrap_or(&[])
    }

    /// Pending messages, in time order.
    pub fn pending(&self) -> impl Iterator<Item = &Kept> {
        self.order.iter()
    }

    /// Drops every pending message with id `id`.
    pub fn remove_id(&mut self, id: u16) {
        let mut freed = 0usize;
        self.order.retain(|k| {
            let drop = k.id == id;
            if drop {
                freed += k.len as usize;
            }
            !drop
        });
        self.pending = self.pending.saturating_sub(freed);
    }

    /// Puts the pending messages in stream order (to read a whole stream
    /// back as it was written).
    pub fn sort_by_offset(&mut self) {
        self.order.make_contiguous().sort_by_key(|k| k.offset);
    }

    /// Frees the arena's bytes before the first pending payload once
    /// released payloads are most of it (so each byte moves about once).
    pub fn compact(&mut self) {
        let size = self.arena.len();
        if size < COMPACT_AT_LEAST || size < 2 * self.pending {
            return;
        }
        let end = self.origin + size as u64;
        let first = self.order.iter().map(|k| k.start).min().unwrap_or(end);
        let cut = first.saturating_sub(self.origin).min(size as u64) as usize;
        self.arena.drain(..cut);
        self.origin += cut as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arrival(time: i64, offset: u64) -> Arrival {
        Arrival {
            time,
            offset,
            seq: 0,
            id: 1,
            how: 0,
        }
    }

    #[test]
    fn messages_leave_in_time_order_with_their_payloads() {
        let mut w = Window::new(usize::MAX);
        w.insert(arrival(10, 0), b"a");
        w.insert(arrival(30, 1), b"bb");
        w.insert(arrival(20, 2), b"ccc");
        w.insert(arrival(20, 3), b"dddd");
        let mut out = Vec::new();
        while let Some(k) = w.pop() {
            out.push((k.time, w.payload(&k).to_vec()));
        }
        let expected: Vec<(i64, Vec<u8>)> = vec![
            (10, b"a".to_vec()),
            (20, b"ccc".to_vec()),
            (20, b"dddd".to_vec()),
            (30, b"bb".to_vec()),
        ];
        assert_eq!(out, expected);
    }

    #[test]
    fn compaction_keeps_pending_payloads_readable() {
        let mut w = Window::new(1000);
        let payload = vec![7u8; 900];
        for i in 0..4000u64 {
            w.insert(arrival(i as i64, i), &payload);
            while w.over_budget() {
                let k = w.pop().expect("pending");
                assert_eq!(w.payload(&k), &payload[..]);
            }
            w.compact();
            // The arena stays near the window's size.
            assert!(w.arena.len() <= 2 * COMPACT_AT_LEAST);
        }
        assert!(w.pending().all(|k| w.payload(k) == &payload[..]));
    }
}
