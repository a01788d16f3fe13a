//! Where the parts of a joining decode (sp-rtrace, see
//! `flamedrop_core::input::Decoder::joins_parts`) meet in the shared-memory
//! build: part 1's worker leaves its decoder's hand-over here and part 0's
//! worker takes it over before it builds the trace. Nothing is copied; the
//! hand-over is a `Box` in the memory both workers run on.
//!
//! The page makes one [`JoinSlot`] per split load and sends its address to
//! both workers (each takes over one counted reference, as with
//! `super::handover::Handover`). Part 1 [`JoinSlot::leave`]s its hand-over,
//! or [`JoinSlot::close`]s the slot empty when it has none (it failed, its
//! input could not be split); part 0 polls [`JoinSlot::closed`] and then
//! [`JoinSlot::take`]s what is there (nothing: it decodes the input whole).
//! Whichever side drops the last reference frees a hand-over left behind
//! (part 0 cancelled while part 1 was still reading), so none is lost and
//! none is freed twice.

use flamedrop_core::decoder::PartHandOver;
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering::SeqCst};
use std::sync::Arc;

/// One split load's meeting point in shared memory.
#[derive(Default)]
pub struct JoinSlot {
    /// Part 1 is over: its hand-over is in `left`, or it has none.
    closed: AtomicBool,
    /// Part 1's hand-over, or null.
    left: AtomicPtr<PartHandOver>,
}

impl JoinSlot {
    /// A new meeting point for one split load.
    pub fn new() -> Arc<JoinSlot> {
        Arc::new(JoinSlot::default())
    }

    /// The address to send to one worker: a counted reference that the
    /// worker takes over with [`JoinSlot::adopt`].
    pub fn share(self: &Arc<Self>) -> usize {
        Arc::into_raw(self.clone()) as usize
    }

    /// A worker's side of [`JoinSlot::share`].
    ///
    /// # Safety
    /// `address` must come from [`JoinSlot::share`] in this same memory (the
    /// shared-memory build), and be adopted once.
    pub unsafe fn adopt(address: usize) -> Arc<JoinSlot> {
        // SAFETY: the caller passes an address made by `share`, whose count
        // this takes over.
        unsafe { Arc::from_raw(address as *const JoinSlot) }
    }

    /// Part 1 leaves its hand-over for part 0 and closes the slot.
    pub fn leave(&self, hand_over: PartHandOver) {
        let boxed = Box::into_raw(Box::new(hand_over));
        let earlier = self.left.swap(boxed, SeqCst);
        if !earlier.is_null() {
            // SAFETY: made by `Box::into_raw` above in an earlier call; the
            // swap gave it back to this caller only.
            drop(unsafe { Box::from_raw(earlier) });
        }
        self.close();
    }

    /// Part 1 is over, whether or not it left anything.
    pub fn close(&self) {
        self.closed.store(true, SeqCst);
    }

    /// Whether part 1 is over (part 0 may then [`JoinSlot::take`]).
    pub fn closed(&self) -> bool {
        self.closed.load(SeqCst)
    }

    /// Part 0 takes part 1's hand-over (once: then `None`).
    pub fn take(&self) -> Option<PartHandOver> {
        let left = self.left.swap(ptr::null_mut(), SeqCst);
        // SAFETY: a non-null pointer was made by `Box::into_raw` in `leave`,
        // and the swap gives it to one caller only.
        (!left.is_null()).then(|| *unsafe { Box::from_raw(left) })
    }
}

impl Drop for JoinSlot {
    fn drop(&mut self) {
        drop(self.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// Counts its drops, to see a hand-over freed exactly once.
    struct Counted(Arc<AtomicUsize>);

    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.fetch_add(1, SeqCst);
        }
    }

    #[test]
    fn part_0_takes_what_part_1_left_once() {
        let page = JoinSlot::new();
        let (first, second) =
            unsafe { (JoinSlot::adopt(page.share()), JoinSlot::adopt(page.share())) };
        drop(page);
        assert!(!first.closed());
        second.leave(Box::new(7u32));
        drop(second);
        assert!(first.closed());
        let taken = first.take().and_then(|h| h.downcast::<u32>().ok());
        assert_eq!(taken.as_deref(), Some(&7));
        assert!(first.take().is_none());
    }

    #[test]
    fn a_hand_over_nobody_took_is_freed_by_the_last_side_once() {
        let drops = Arc::new(AtomicUsize::new(0));
        let page = JoinSlot::new();
        let (first, second) =
            unsafe { (JoinSlot::adopt(page.share()), JoinSlot::adopt(page.share())) };
        drop(page);
        drop(first); // part 0 cancelled before part 1 was done
        second.leave(Box::new(Counted(drops.clone())));
        assert_eq!(drops.load(SeqCst), 0);
        drop(second);
        assert_eq!(drops.load(SeqCst), 1);
    }

    #[test]
    fn a_slot_closed_empty_gives_nothing() {
        let slot = JoinSlot::new();
        slot.close();
        assert!(slot.closed());
        assert!(slot.take().is_none());
    }
}
