//! [`Pace`]: lets long work on the page's main thread give way to the
//! browser every few milliseconds, so input, progress and frames are never
//! held up by more than one slice of it.

use crate::browser::now;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::MessageChannel;

/// Work between two pauses, in ms: well under the 50 ms that makes a task "long".
const SLICE_MS: f64 = 12.0;

/// Tracks how long the current slice of work has run.
pub struct Pace {
    since: f64,
}

impl Default for Pace {
    fn default() -> Self {
        Pace::new()
    }
}

impl Pace {
    /// Starts the first slice now.
    pub fn new() -> Pace {
        Pace { since: now() }
    }

    /// Pauses (yields to the browser) if the current slice is used up.
    pub async fn tick(&mut self) {
        if now() - self.since >= SLICE_MS {
            yield_to_browser().await;
            self.since = now();
        }
    }
}

/// Resumes in a new task. A message to ourselves, not `setTimeout(0)`, which
/// browsers stretch to 4 ms once timeouts nest.
pub async fn yield_to_browser() {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| match MessageChannel::new() {
        Ok(channel) => {
            channel.port1().set_onmessage(Some(resolve.unchecked_ref()));
            if channel.port2().post_message(&JsValue::NULL).is_err() {
                let _ = resolve.call0(&JsValue::NULL);
            }
        }
        Err(_) => {
            let _ = resolve.call0(&JsValue::NULL);
        }
    });
    let _ = JsFuture::from(promise).await;
}
