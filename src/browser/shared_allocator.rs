//! The shared-memory build's allocator (see `wire::handover`): the system
//! one, except that a big block is grown by a new block and a copy made
//! outside the allocator's lock.
//!
//! The page and every decoding worker allocate from one heap behind one
//! lock, and the page's thread can only spin while another holds it. The
//! system allocator copies a block it cannot grow in place while holding
//! that lock, so a worker doubling a 100 MB column kept the page spinning
//! for as long as the copy took (main-thread tasks of 150–350 ms while
//! loading). Here the lock is held only to take the new block and to give
//! back the old one. A big zeroed block is cleared outside the lock too: the
//! system allocator's `calloc` clears every block it hands out while holding
//! the lock (its blocks never come straight from fresh memory), and clearing
//! a new column of tens of MB first touches every page of it.

use std::alloc::{GlobalAlloc, Layout, System};

/// Blocks from this size on grow (or are cleared) outside the lock: below
/// it a copy is shorter than taking the lock twice is worth.
const COPY_OUTSIDE_FROM: usize = 64 << 10;

/// The allocator of the shared-memory build.
pub struct SharedAllocator;

// SAFETY: every call goes to `System` with the caller's layout; `realloc`
// keeps `GlobalAlloc::realloc`'s contract by allocating a block of the new
// size and the old alignment, copying the smaller of the two sizes and
// freeing the old block, as the trait's default `realloc` does.
unsafe impl GlobalAlloc for SharedAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() < COPY_OUTSIDE_FROM {
            return unsafe { System.alloc_zeroed(layout) };
        }
        let block = unsafe { System.alloc(layout) };
        if !block.is_null() {
            // SAFETY: the block is valid for `layout.size()` bytes and ours alone.
            unsafe { std::ptr::write_bytes(block, 0, layout.size()) };
        }
        block
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A block that shrinks stays where it is and gives its tail back:
        // nothing is copied, and no second block is taken for a moment.
        if layout.size() < COPY_OUTSIDE_FROM || new_size <= layout.size() {
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        // SAFETY: the caller guarantees `new_size`, rounded up to the
        // alignment, does not overflow `isize`.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        let new = unsafe { System.alloc(new_layout) };
        if !new.is_null() {
            // SAFETY: both blocks are valid for the smaller size and distinct.
            unsafe {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                System.dealloc(ptr, layout);
            }
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: SharedAllocator = SharedAllocator;
