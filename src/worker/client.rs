//! The page's handle on one decoding job: starts a worker, sends it the files
//! once it is ready, forwards what it says, and terminates it when dropped
//! (which is how a load is cancelled).

use super::protocol::{from_js, to_js, DecodeRequest, InputFile, WorkerEvent};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker};

/// The worker's start script (`www/worker-loader.js`, copied next to
/// index.html). A relative URL, so the page works from any sub-path.
const WORKER_URL: &str = "./worker-loader.js";

/// A running decode. Dropping it stops the worker.
pub struct DecodeJob {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl DecodeJob {
    /// Starts a worker that decodes `files`; every event it sends (except
    /// `Ready`, handled here) goes to `on_event`.
    pub fn start(
        files: Vec<InputFile>,
        on_event: impl Fn(WorkerEvent) + 'static,
    ) -> Result<DecodeJob, String> {
        let worker = Worker::new(WORKER_URL)
            .map_err(|e| format!("could not start the decoding worker: {e:?}"))?;
        let on_event = Rc::new(on_event);
        // The request waits here until the worker says it is listening.
        let pending = Rc::new(RefCell::new(Some(DecodeRequest { files })));

        let on_message = {
            let (worker, on_event) = (worker.clone(), on_event.clone());
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                match from_js::<WorkerEvent>(event.data()) {
                    Ok(WorkerEvent::Ready) => {
                        let Some(request) = pending.borrow_mut().take() else {
                            return;
                        };
                        let sent = to_js(&request).and_then(|value| {
                            worker.post_message(&value).map_err(|e| {
                                format!("could not send the files to the worker: {e:?}")
                            })
                        });
                        if let Err(message) = sent {
                            on_event(WorkerEvent::Failed { message });
                        }
                    }
                    Ok(other) => on_event(other),
                    Err(message) => on_event(WorkerEvent::Failed { message }),
                }
            })
        };
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
        Ok(DecodeJob {
            worker,
            _on_message: on_message,
            _on_error: on_error,
        })
    }
}

impl Drop for DecodeJob {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}
