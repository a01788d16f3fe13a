//! Decoding workers started ahead of time. Starting a worker means fetching
//! and compiling its WebAssembly, about a tenth of a second; the page keeps two
//! started while it is idle, so a load begins decoding at once.
//! [`super::client::DecodeJob`] takes one when it can, or starts a new one.

use crate::wire::handover::SHARED_MEMORY;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

/// The worker's start script (`www/worker-loader.js`, copied next to
/// index.html): loads the `worker` binary. A relative URL, so the page
/// works from any sub-path.
const WORKER_URL: &str = "./worker-loader.js";

/// The shared-memory build's start script (`www/worker-shared.js`), a module
/// worker that runs the page's own WebAssembly module on the page's memory,
/// both sent to it as its first message.
const SHARED_WORKER_URL: &str = "./worker-shared.js";

/// A started worker waiting for a job.
struct Spare {
    worker: Worker,
    /// It has said it is listening (its first message).
    ready: Rc<Cell<bool>>,
    /// It failed to start (and is of no use).
    failed: Rc<Cell<bool>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

thread_local! {
    static SPARES: RefCell<Vec<Spare>> = const { RefCell::new(Vec::new()) };
}

/// Starts workers until `count` are waiting.
pub fn keep(count: usize) {
    SPARES.with_borrow_mut(|spares| {
        spares.retain(|s| !s.failed.get());
        while spares.len() < count {
            match start() {
                Some(spare) => spares.push(spare),
                None => break,
            }
        }
    });
}

/// Stops the workers still waiting once a load has taken the ones it needs:
/// an idle worker holds memory of its own (its JavaScript engine and stack),
/// and during a load that memory adds to the load's peak. The page starts
/// them again once it is idle (`client::start_spares`).
pub fn let_go() {
    SPARES.with_borrow_mut(|spares| {
        for spare in spares.drain(..) {
            // Its `Ready` may already be queued: with the handlers still
            // set, it would call a closure dropped here.
            spare.worker.set_onmessage(None);
            spare.worker.set_onerror(None);
            spare.worker.terminate();
        }
    });
}

/// A started worker and whether it is already listening: a waiting one when
/// there is one, else a new one.
pub fn take() -> Result<(Worker, bool), String> {
    let waiting = SPARES.with_borrow_mut(|spares| {
        while let Some(spare) = spares.pop() {
            if spare.failed.get() {
                spare.worker.terminate();
                continue;
            }
            // Its handlers go with it; the job sets its own right away, and
            // no message can arrive in between (one thread runs both).
            spare.worker.set_onmessage(None);
            spare.worker.set_onerror(None);
            return Some((spare.worker, spare.ready.get()));
        }
        None
    });
    match waiting {
        Some(found) => Ok(found),
        None => new_worker()
            .map(|w| (w, false))
            .map_err(|e| format!("could not start the decoding worker: {e:?}")),
    }
}

/// A new decoding worker of this build.
fn new_worker() -> Result<Worker, JsValue> {
    if !SHARED_MEMORY {
        return Worker::new(WORKER_URL);
    }
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    let worker = Worker::new_with_options(SHARED_WORKER_URL, &options)?;
    let start = js_sys::Object::new();
    js_sys::Reflect::set(&start, &"module".into(), &wasm_bindgen::module())?;
    js_sys::Reflect::set(&start, &"memory".into(), &wasm_bindgen::memory())?;
    worker.post_message(&start)?;
    Ok(worker)
}

fn start() -> Option<Spare> {
    let worker = new_worker().ok()?;
    let ready = Rc::new(Cell::new(false));
    let failed = Rc::new(Cell::new(false));
    let on_message = {
        let ready = ready.clone();
        // The only message a worker sends before it has a job is `Ready`.
        Closure::<dyn FnMut(MessageEvent)>::new(move |_event: MessageEvent| ready.set(true))
    };
    let on_error = {
        let failed = failed.clone();
        Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
            event.prevent_default();
            failed.set(true);
        })
    };
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Some(Spare {
        worker,
        ready,
        failed,
        _on_message: on_message,
        _on_error: on_error,
    })
}
