//! [`Release`]: letting go of the arrays the decoding workers transferred to
//! the page as soon as their contents are copied into wasm memory.
//!
//! Dropping the last reference to a transferred `ArrayBuffer` leaves its
//! memory to the next garbage collection, which may come only after the page
//! has made its own copy of every column, so that both stay in memory at
//! once (`ArrayBuffer.prototype.transfer(0)` does not free it either). A
//! buffer transferred to a worker that is terminated before it runs is freed
//! with that worker's message queue: copied columns go that way in batches.

use crate::browser::query_param;
use js_sys::{Array, ArrayBuffer};
use wasm_bindgen::JsValue;
use web_sys::Worker;

/// Bytes gathered before they are let go of in one batch (one short-lived
/// worker per batch).
const BATCH_BYTES: f64 = (64u64 << 20) as f64;

/// Buffers copied and no longer needed, waiting to be let go of.
/// Off by default: on a quiet machine the batches cost the 320 MB trace a
/// main-thread task of ~84 ms (57 ms without) and saved no memory; `?release=1`
/// turns it on for comparisons.
pub struct Release {
    spent: Array,
    bytes: f64,
    enabled: bool,
}

impl Default for Release {
    fn default() -> Self {
        Release::new()
    }
}

impl Release {
    pub fn new() -> Release {
        Release {
            spent: Array::new(),
            bytes: 0.0,
            enabled: query_param("release").as_deref() == Some("1"),
        }
    }

    /// Adds a buffer whose contents were copied; lets go of the batch once
    /// it is big enough.
    pub fn add(&mut self, buffer: ArrayBuffer) {
        if !self.enabled {
            return;
        }
        self.bytes += f64::from(buffer.byte_length());
        self.spent.push(&buffer);
        if self.bytes >= BATCH_BYTES {
            self.now();
        }
    }

    /// Lets go of every buffer added so far. When no worker can be started
    /// they are left to the garbage collector.
    pub fn now(&mut self) {
        if !self.enabled || self.spent.length() == 0 {
            return;
        }
        let spent = std::mem::replace(&mut self.spent, Array::new());
        self.bytes = 0.0;
        if let Ok(sink) = Worker::new(crate::worker::client::WORKER_URL) {
            // The worker never gets to run: terminated at once, it discards
            // the message and the buffers moved into it.
            let _ = sink.post_message_with_transfer(&JsValue::NULL, &spent);
            sink.terminate();
        }
    }
}

impl Drop for Release {
    fn drop(&mut self) {
        self.now();
    }
}
