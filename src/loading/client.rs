//! The page's handle on one decoding worker: starts it, sends it the files
//! once it is ready, forwards what it says, and terminates it when dropped
//! (which is how a load is cancelled).
//!
//! A watchdog keeps the page alive when a decoder hangs: if the worker says
//! nothing for longer than its allowance, it is terminated and the load fails
//! with a message naming the file it was reading.

use crate::wire::handover::{Handover, SHARED_MEMORY};
use crate::wire::join::JoinSlot;
use crate::wire::protocol::{from_js, to_js, DecodeRequest, InputFile, WorkerEvent};
use flamedrop_core::Trace;
use gloo::timers::callback::Interval;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker};

/// A running decode. Dropping it stops the worker.
pub struct DecodeJob {
    worker: Worker,
    /// Where the worker leaves the trace (the shared-memory build only).
    handover: Option<Arc<Handover>>,
    /// The watchdog stopped the worker.
    heartbeat: Rc<Heartbeat>,
    /// The request until it is sent (its shared addresses are given back
    /// when it never is).
    pending: Rc<RefCell<Option<DecodeRequest>>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
    _watchdog: Interval,
}

/// How long a worker may stay silent: a base allowance, plus time for building
/// the trace in proportion to the input (the one step that sends no progress).
pub fn silence_allowance_ms(input_bytes: f64) -> f64 {
    const BASE_MS: f64 = 30_000.0;
    const MS_PER_MIB: f64 = 100.0;
    BASE_MS + input_bytes / (1 << 20) as f64 * MS_PER_MIB
}

/// What the watchdog knows: when the worker last spoke, and about what.
struct Heartbeat {
    last: Cell<f64>,
    file: RefCell<String>,
    fired: Cell<bool>,
}

impl Heartbeat {
    /// The worker spoke just now (it was started).
    fn new() -> Rc<Heartbeat> {
        Rc::new(Heartbeat {
            last: Cell::new(crate::browser::now()),
            file: RefCell::new(String::new()),
            fired: Cell::new(false),
        })
    }
}

impl DecodeJob {
    /// Starts a worker that decodes part `part` of `parts` of `files` (posting
    /// pictures of what it decoded so far when `preview`; splitting even where
    /// the format is faster in one worker when `split_anyway`: `?workers=2`);
    /// every event it sends (except
    /// `Ready`, handled here) goes to `on_event`.
    /// `allowance_ms` is how long the worker may stay silent before the
    /// watchdog stops it (see [`silence_allowance_ms`]). `join` is the
    /// address of the load's `JoinSlot` (shared-memory build, split load).
    pub fn start(
        files: Vec<InputFile>,
        (part, parts, preview, split_anyway): (u32, u32, bool, bool),
        selection: flamedrop_core::input::Selection,
        (allowance_ms, join): (f64, Option<usize>),
        on_event: impl Fn(WorkerEvent) + 'static,
    ) -> Result<DecodeJob, String> {
        let (worker, listening) = super::spare::take()?;
        let handover = SHARED_MEMORY.then(Handover::new);
        let on_event = Rc::new(on_event);
        let heartbeat = Heartbeat::new();
        let opened = match files.as_slice() {
            [one] => one.path.clone(),
            all => format!("{} files", all.len()),
        };
        // The request waits here until the worker says it is listening.
        let pending = Rc::new(RefCell::new(Some(DecodeRequest {
            files,
            part,
            parts,
            selection,
            preview,
            handover: handover.as_ref().map(Handover::share),
            join,
            split_anyway,
        })));

        let on_message = {
            let (worker, on_event, heartbeat, pending) = (
                worker.clone(),
                on_event.clone(),
                heartbeat.clone(),
                pending.clone(),
            );
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                if heartbeat.fired.get() {
                    return;
                }
                heartbeat.last.set(crate::browser::now());
                let message = from_js::<WorkerEvent>(event.data());
                if let Ok(WorkerEvent::Progress { file, .. }) = &message {
                    file.clone_into(&mut heartbeat.file.borrow_mut());
                }
                match message {
                    Ok(WorkerEvent::Ready) => send(&worker, &pending, &*on_event),
                    Ok(other) => on_event(other),
                    Err(message) => on_event(WorkerEvent::Failed { message }),
                }
            })
        };
        let watchdog = watchdog(&worker, &on_event, &heartbeat, allowance_ms, opened);
        let on_event_for_send = on_event.clone();
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
            event.prevent_default();
            let detail = event.message();
            on_event(WorkerEvent::Failed {
                message: if detail.is_empty() {
                    "the decoding worker stopped unexpectedly".to_owned()
                } else {
                    format!("the decoding worker stopped: {detail}")
                },
            });
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        if listening {
            // A worker started ahead of time said `Ready` already.
            send(&worker, &pending, &*on_event_for_send);
        }
        Ok(DecodeJob {
            worker,
            handover,
            heartbeat,
            pending,
            _on_message: on_message,
            _on_error: on_error,
            _watchdog: watchdog,
        })
    }

    /// The trace the worker left in shared memory, once it said
    /// [`WorkerEvent::Left`] (the shared-memory build).
    pub fn take_left(&self) -> Option<Box<Trace>> {
        self.handover.as_ref()?.take()
    }
}

/// Sends the request waiting in `pending` (once) to `worker`.
fn send(worker: &Worker, pending: &RefCell<Option<DecodeRequest>>, on_event: &dyn Fn(WorkerEvent)) {
    let Some(request) = pending.borrow_mut().take() else {
        return;
    };
    let sent = to_js(&request).and_then(|value| {
        worker
            .post_message(&value)
            .map_err(|e| format!("could not send the files to the worker: {e:?}"))
    });
    if let Err(message) = sent {
        on_event(WorkerEvent::Failed { message });
    }
}

/// Checks that the worker speaks at least every `allowance_ms`; if it
/// falls silent, terminates it and fails the load naming what it was doing.
fn watchdog(
    worker: &Worker,
    on_event: &Rc<impl Fn(WorkerEvent) + 'static>,
    heartbeat: &Rc<Heartbeat>,
    allowance_ms: f64,
    opened: String,
) -> Interval {
    let (worker, on_event, heartbeat) = (worker.clone(), on_event.clone(), heartbeat.clone());
    let every_ms = (allowance_ms / 4.0).clamp(10.0, 1_000.0) as u32;
    Interval::new(every_ms, move || {
        let silent = crate::browser::now() - heartbeat.last.get();
        if heartbeat.fired.get() || silent <= allowance_ms {
            return;
        }
        heartbeat.fired.set(true);
        worker.terminate();
        let file = heartbeat.file.borrow();
        let busy = match file.as_str() {
            "" => format!("opening {opened}"),
            crate::wire::protocol::BUILDING => format!("building the trace of {opened}"),
            path => format!("reading {path}"),
        };
        on_event(WorkerEvent::Failed {
            message: format!(
                "the decoder stopped responding while {busy} (silent for {:.0} s) and was \
                 stopped; the file may be damaged in a way flamedrop does not handle yet",
                silent / 1000.0
            ),
        });
    })
}

/// Keeps two decoding workers started while the page waits for files.
pub fn start_spares() {
    super::spare::keep(2);
}

impl Drop for DecodeJob {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        if let Some(unsent) = self.pending.borrow_mut().take() {
            // SAFETY: the addresses were shared for this request, which no
            // worker adopted: their counts come back here, once.
            unsafe {
                drop(unsent.handover.map(|a| Handover::adopt(a)));
                drop(unsent.join.map(|a| JoinSlot::adopt(a)));
            }
        }
        match &self.handover {
            // A worker of the shared-memory build stops at its next chunk
            // and closes itself (see `wire::handover`); one the watchdog
            // stopped is gone already.
            Some(handover) if !self.heartbeat.fired.get() => handover.cancel(),
            _ => self.worker.terminate(),
        }
    }
}
