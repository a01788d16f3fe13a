//! [`Pace`]: lets long work on the page's main thread give way to the
//! browser every few milliseconds, so input, progress and frames are never
//! held up by more than one slice of it.

use super::now;
use std::cell::RefCell;
use std::collections::VecDeque;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{MessageChannel, MessagePort};

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
/// browsers stretch to 4 ms once timeouts nest. One channel serves every
/// pause: making a `MessageChannel` can itself take tens of ms when memory is
/// busy (seen while big columns were being copied).
pub async fn yield_to_browser() {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        let posted = CHANNEL.with(|channel| {
            let channel = channel.as_ref()?;
            WAITING.with_borrow_mut(|waiting| waiting.push_back(resolve.clone()));
            channel.port2.post_message(&JsValue::NULL).ok()
        });
        if posted.is_none() {
            let _ = resolve.call0(&JsValue::NULL);
        }
    });
    let _ = JsFuture::from(promise).await;
}

/// The channel behind [`yield_to_browser`]: each message on it resumes the
/// pause that has waited longest.
struct Channel {
    _port1: MessagePort,
    port2: MessagePort,
    _on_message: Closure<dyn FnMut()>,
}

thread_local! {
    static WAITING: RefCell<VecDeque<js_sys::Function>> = const { RefCell::new(VecDeque::new()) };
    static CHANNEL: Option<Channel> = open_channel();
}

fn open_channel() -> Option<Channel> {
    let channel = MessageChannel::new().ok()?;
    let on_message = Closure::<dyn FnMut()>::new(|| {
        if let Some(resolve) = WAITING.with_borrow_mut(VecDeque::pop_front) {
            let _ = resolve.call0(&JsValue::NULL);
        }
    });
    channel
        .port1()
        .set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    Some(Channel {
        _port1: channel.port1(),
        port2: channel.port2(),
        _on_message: on_message,
    })
}
