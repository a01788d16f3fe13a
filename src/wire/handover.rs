//! The hand-off without a copy, in the shared-memory build (built with wasm
//! atomics by `scripts/build-shared.sh`, loaded by `www/boot.js` when the
//! page is cross-origin isolated): the page and its decoding workers run one
//! WebAssembly module on one shared memory, so a worker leaves the decoded
//! trace where it built it and the page takes it over, with no byte copied.
//!
//! Each job has a [`Handover`] in that memory. The page makes it and sends
//! its address with the request; the worker leaves the trace in it and says
//! so; the page takes the trace out. When the page gives up first (Cancel, a
//! new file), it marks the handover cancelled: the worker stops at its next
//! chunk, and whichever side comes last frees a trace left behind, so none
//! is lost and none is freed twice.
//!
//! Why the page never terminates a worker of this build while it runs (only
//! a silent one, through the watchdog): a worker stopped inside the
//! allocator would leave its lock taken, and the page's next allocation
//! would wait for it for ever. The worker closes itself once it is done.

use flamedrop_core::Trace;
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering::SeqCst};
use std::sync::Arc;

/// True in the shared-memory build: page and workers share one memory.
pub const SHARED_MEMORY: bool = cfg!(target_feature = "atomics");

/// One job's meeting point in shared memory.
#[derive(Default)]
pub struct Handover {
    /// The page no longer wants the trace.
    cancelled: AtomicBool,
    /// The trace the worker left, or null.
    trace: AtomicPtr<Trace>,
}

impl Handover {
    /// A new meeting point for one job.
    pub fn new() -> Arc<Handover> {
        Arc::new(Handover::default())
    }

    /// The address to send to the worker: a counted reference that the
    /// worker takes over with [`Handover::adopt`].
    pub fn share(self: &Arc<Self>) -> usize {
        Arc::into_raw(self.clone()) as usize
    }

    /// The worker's side of [`Handover::share`].
    ///
    /// # Safety
    /// `address` must come from [`Handover::share`] in this same memory (the
    /// shared-memory build), and be adopted once.
    pub unsafe fn adopt(address: usize) -> Arc<Handover> {
        // SAFETY: the caller passes an address made by `share`, whose count
        // this takes over.
        unsafe { Arc::from_raw(address as *const Handover) }
    }

    /// Whether the page gave up (checked by the worker between chunks).
    pub fn cancelled(&self) -> bool {
        self.cancelled.load(SeqCst)
    }

    /// The worker leaves `trace` for the page; freed at once if the page gave
    /// up meanwhile.
    pub fn leave(&self, trace: Trace) {
        self.trace.store(Box::into_raw(Box::new(trace)), SeqCst);
        if self.cancelled() {
            drop(self.take());
        }
    }

    /// The page takes the trace the worker left (once: then `None`).
    pub fn take(&self) -> Option<Box<Trace>> {
        let left = self.trace.swap(ptr::null_mut(), SeqCst);
        // SAFETY: a non-null pointer was made by `Box::into_raw` in `leave`,
        // and the swap gives it to one caller only.
        (!left.is_null()).then(|| unsafe { Box::from_raw(left) })
    }

    /// The page gives up: the worker stops, and a trace already left is freed.
    pub fn cancel(&self) {
        self.cancelled.store(true, SeqCst);
        drop(self.take());
    }
}

impl Drop for Handover {
    fn drop(&mut self) {
        drop(self.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trace_left_is_taken_once() {
        let handover = Handover::new();
        let worker = unsafe { Handover::adopt(handover.share()) };
        let mut trace = Trace::default();
        trace.metadata.push(("left".into(), "by the worker".into()));
        worker.leave(trace);
        drop(worker);
        let taken = handover.take().map(|t| t.metadata);
        assert_eq!(taken, Some(vec![("left".into(), "by the worker".into())]));
        assert!(handover.take().is_none());
    }

    #[test]
    fn a_trace_left_after_cancel_is_freed_by_the_worker() {
        let handover = Handover::new();
        let worker = unsafe { Handover::adopt(handover.share()) };
        handover.cancel();
        assert!(worker.cancelled());
        worker.leave(Trace::default());
        assert!(handover.take().is_none());
        assert_eq!(Arc::strong_count(&handover), 2);
    }
}
