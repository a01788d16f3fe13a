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
//! in blocks of 1 MiB that are let go of once every payload in them has left.

use std::collections::VecDeque;

/// A message waiting in the window: its header fields, where its payload
/// sits, and how its first reading chose to read it again.
#[derive(Clone, Copy, Debug)]
pub struct Kept {
    /// Nanoseconds since the epoch.
    pub time: i64,
    /// Stream offset of the header.
    pub offset: u64,
    /// The payload's block, counted from the first block ever.
    block: u64,
    /// Where the payload starts in its block.
    start: u32,
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

/// Pending messages in time order over blocks of their payloads.
#[derive(Debug)]
pub struct Window {
    order: VecDeque<Kept>,
    /// Payload blocks, oldest first; `None` once every payload in it left.
    blocks: VecDeque<Option<Block>>,
    /// Number of `blocks[0]`, counted from the first block ever.
    first_block: u64,
    /// A block let go of, kept to be filled again.
    spare: Option<Vec<u8>>,
    /// Payload bytes of the messages in `order`.
    pending: usize,
    /// Payload bytes held before the earliest message is released.
    budget: usize,
}

/// Payloads stored one after the other.
#[derive(Debug)]
struct Block {
    bytes: Vec<u8>,
    /// Messages whose payload is here and that have not left the window.
    waiting: u32,
}

/// Size of a payload block (a payload is at most 32 KiB).
const BLOCK: usize = 1 << 20;

impl Window {
    /// A window that holds `budget` payload bytes (`usize::MAX`: all of them).
    pub fn new(budget: usize) -> Self {
        Window {
            order: VecDeque::new(),
            blocks: VecDeque::new(),
            first_block: 0,
            spare: None,
            pending: 0,
            budget,
        }
    }

    /// Keeps a message, in time order among the pending ones (ties in
    /// stream order: it came last).
    pub fn insert(&mut self, arrival: Arrival, payload: &[u8]) {
        let fits = matches!(
            self.blocks.back(),
            Some(Some(b)) if b.bytes.capacity() - b.bytes.len() >= payload.len()
        );
        if !fits {
            let mut bytes = self.spare.take().unwrap_or_default();
            bytes.clear();
            bytes.reserve(BLOCK.max(payload.len()));
            self.blocks.push_back(Some(Block { bytes, waiting: 0 }));
        }
        let block = self.first_block + self.blocks.len() as u64 - 1;
        let Some(Some(last)) = self.blocks.back_mut() else {
            return;
        };
        let kept = Kept {
            time: arrival.time,
            offset: arrival.offset,
            block,
            start: last.bytes.len() as u32,
            seq: arrival.seq,
            len: payload.len() as u32,
            id: arrival.id,
            how: arrival.how,
        };
        last.bytes.extend_from_slice(payload);
        last.waiting += 1;
        self.pending += payload.len();
        match self.order.back() {
            Some(back) if back.key() > kept.key() => {
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
        self.left(&kept);
        Some(kept)
    }

    /// Counts a message out of the window.
    fn left(&mut self, kept: &Kept) {
        self.pending = self.pending.saturating_sub(kept.len as usize);
        if let Some(Some(block)) = self.block_mut(kept.block) {
            block.waiting = block.waiting.saturating_sub(1);
        }
    }

    fn block_mut(&mut self, block: u64) -> Option<&mut Option<Block>> {
        let at = usize::try_from(block.checked_sub(self.first_block)?).ok()?;
        self.blocks.get_mut(at)
    }

    /// The payload of a message that is pending or was just popped.
    pub fn payload(&self, kept: &Kept) -> &[u8] {
        let at = kept
            .block
            .checked_sub(self.first_block)
            .and_then(|d| usize::try_from(d).ok());
        let Some(Some(block)) = at.and_then(|at| self.blocks.get(at)) else {
            return &[];
        };
        let from = kept.start as usize;
        block
            .bytes
            .get(from..from + kept.len as usize)
            .unwrap_or(&[])
    }

    /// Pending messages, in time order.
    pub fn pending(&self) -> impl Iterator<Item = &Kept> {
        self.order.iter()
    }

    /// Drops every pending message with id `id`.
    pub fn remove_id(&mut self, id: u16) {
        let gone: Vec<Kept> = self.order.iter().filter(|k| k.id == id).copied().collect();
        self.order.retain(|k| k.id != id);
        for kept in &gone {
            self.left(kept);
        }
    }

    /// Puts the pending messages in stream order (to read a whole stream
    /// back as it was written).
    pub fn sort_by_offset(&mut self) {
        self.order.make_contiguous().sort_by_key(|k| k.offset);
    }

    /// Lets go of the blocks whose payloads have all left (but the one
    /// being filled).
    pub fn compact(&mut self) {
        let last = self.blocks.len().saturating_sub(1);
        for slot in self.blocks.iter_mut().take(last) {
            if slot.as_ref().is_some_and(|b| b.waiting == 0) {
                if let Some(block) = slot.take() {
                    if self.spare.is_none() {
                        self.spare = Some(block.bytes);
                    }
                }
            }
        }
        while matches!(self.blocks.front(), Some(None)) {
            self.blocks.pop_front();
            self.first_block += 1;
        }
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
    fn blocks_are_let_go_of_and_pending_payloads_stay_readable() {
        let mut w = Window::new(1000);
        let payload = vec![7u8; 900];
        for i in 0..4000u64 {
            w.insert(arrival(i as i64, i), &payload);
            while w.over_budget() {
                let k = w.pop().expect("pending");
                assert_eq!(w.payload(&k), &payload[..]);
            }
            w.compact();
            // Two blocks at most: the one being filled and the one before.
            assert!(w.blocks.iter().flatten().count() <= 2);
        }
        assert!(w.pending().all(|k| w.payload(k) == &payload[..]));
    }
}
