//! The narrowing stack's part of `window.flamedrop` (installed by
//! `script_api::install`):
//!
//! - `narrow()`: the applied stack in its text form (`""`: the whole trace),
//!   the text the URL fragment holds under `narrow` and `flamedrop report
//!   --transform` takes;
//! - `narrow(text)`: narrows to the stack `text` (replacing the whole
//!   stack; `""` shows the whole trace). Returns a promise that resolves with
//!   the applied stack's text once every view, `report()` and the URL show
//!   it, or rejects with an `Error` whose message says which step could not
//!   apply and why (a bad text, a bad pattern); the stack is then unchanged.
//!   Without a trace the stack is kept, applied to the next one, and the
//!   promise resolves at once;
//! - `narrowing()`: `{stack, steps, busy, error, notes, timing}`: the applied
//!   stack's text and its steps' breadcrumb labels, whether a narrowing is
//!   running, why the last request failed (or `null`), what the applied
//!   steps could not do (`[{step, message}]`, `step` counted from 0), and
//!   what the last narrowing took (`{apply_ms, apply_busy_ms,
//!   longest_slice_ms, slices, index_ms, steps}` or `null`; the steps are
//!   carried out in `slices` slices with pauses between them: `apply_ms`
//!   from the first to the last, `apply_busy_ms` the main thread's part;
//!   `steps` is 0 when a kept result was shown).

use super::{set, to_js, Published, Snapshot};
use crate::view_model::narrowing::{NarrowTiming, Narrowing};
use flamedrop_core::analysis::transform::Stack;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use yew::Callback;

/// How a script waiting on `narrow(text)` hears the end.
pub struct Settle {
    resolve: js_sys::Function,
    reject: js_sys::Function,
}

impl Settle {
    /// The stack `text` is shown.
    pub fn resolve(self, text: &str) {
        let _ = self.resolve.call1(&JsValue::NULL, &JsValue::from_str(text));
    }

    /// The request failed with `message`.
    pub fn reject(self, message: &str) {
        let error: JsValue = js_sys::Error::new(message).into();
        let _ = self.reject.call1(&JsValue::NULL, &error);
    }
}

/// Where `narrow(text)` sends the stack.
pub type NarrowCommand = Callback<(Stack, Settle)>;

/// `narrowing()`'s answer, copied from the page after each change.
#[derive(Clone, Debug, Default, Serialize)]
pub struct NarrowReport {
    pub stack: String,
    pub steps: Vec<String>,
    pub busy: bool,
    pub error: Option<String>,
    pub notes: Vec<NoteReport>,
    pub timing: Option<TimingReport>,
}

#[derive(Clone, Debug, Serialize)]
pub struct NoteReport {
    pub step: usize,
    pub message: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct TimingReport {
    pub apply_ms: f64,
    pub apply_busy_ms: f64,
    pub longest_slice_ms: f64,
    pub slices: usize,
    pub index_ms: f64,
    pub steps: usize,
}

impl NarrowReport {
    /// What `narrowing()` says about `narrowing`.
    pub fn of(narrowing: &Narrowing) -> NarrowReport {
        let applied = narrowing.applied();
        NarrowReport {
            stack: applied.to_string(),
            steps: applied.steps.iter().map(|s| s.label()).collect(),
            busy: narrowing.busy.is_some(),
            error: narrowing.error.clone(),
            notes: narrowing
                .notes()
                .map(|n| NoteReport {
                    step: n.step,
                    message: n.message.clone(),
                })
                .collect(),
            timing: narrowing.timing.map(|t: NarrowTiming| TimingReport {
                apply_ms: t.apply_ms,
                apply_busy_ms: t.apply_busy_ms,
                longest_slice_ms: t.longest_slice_ms,
                slices: t.slices,
                index_ms: t.index_ms,
                steps: t.steps,
            }),
        }
    }
}

/// Adds `narrow` and `narrowing` to the `window.flamedrop` object.
pub fn install_into(api: &js_sys::Object, published: &Published) {
    let p = published.clone();
    let narrow_fn: Closure<dyn Fn(JsValue) -> JsValue> = Closure::new(move |arg| narrow(&p, arg));
    set(api, "narrow", narrow_fn);
    let p = published.clone();
    let report: Closure<dyn Fn() -> JsValue> = Closure::new(move || narrowing(&p.borrow()));
    set(api, "narrowing", report);
}

fn narrowing(p: &Snapshot) -> JsValue {
    to_js(&p.narrowing)
}

fn narrow(p: &Published, arg: JsValue) -> JsValue {
    if arg.is_undefined() {
        return JsValue::from_str(&p.borrow().narrowing.stack);
    }
    let Some(text) = arg.as_string() else {
        return rejected("narrow(text): the stack must be text");
    };
    let stack: Stack = match text.parse() {
        Ok(stack) => stack,
        Err(e) => return rejected(&format!("narrow(text): {e}")),
    };
    // Not borrowed while the app takes the command in.
    let command = p.borrow().narrow_command.clone();
    let Some(command) = command else {
        return rejected("narrow(text): the page is not ready");
    };
    let mut stack = Some(stack);
    js_sys::Promise::new(&mut |resolve, reject| {
        if let Some(stack) = stack.take() {
            command.emit((stack, Settle { resolve, reject }));
        }
    })
    .into()
}

/// A promise rejected with an `Error` saying `message`.
fn rejected(message: &str) -> JsValue {
    js_sys::Promise::reject(&js_sys::Error::new(message).into()).into()
}
