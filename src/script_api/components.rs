//! The Components view's part of `window.flamedrop`:
//!
//! - `components({thread, other_below})`: time by component of the trace on
//!   screen over the ruler's range, the same object as
//!   `flamedrop components --json` (`thread`: a thread id as the tracer
//!   gave it, all threads when absent; `other_below`: percent, 0 when
//!   absent); `null` before a trace is loaded or for an unknown thread;
//! - `componentsRange()`: the ruler's range as `flamedrop components
//!   --range A-B` takes it (`[A, B]`, counted from the trace's first
//!   timestamp), or `null` without a range.

use super::{set, Published, Snapshot};
use crate::view_model::components::Choice;
use flamedrop_core::analysis::components::components as analyse;
use wasm_bindgen::prelude::*;

/// Adds `components` to the `window.flamedrop` object.
pub fn install_into(api: &js_sys::Object, published: &Published) {
    let for_range = published.clone();
    let published = published.clone();
    let function: Closure<dyn Fn(JsValue) -> JsValue> =
        Closure::new(move |options| components(&published.borrow(), &options));
    set(api, "components", function);
    let function: Closure<dyn Fn() -> JsValue> = Closure::new(move || {
        let p = for_range.borrow();
        match (&p.loaded, p.views.range) {
            (Some(loaded), Some((a, b))) => super::to_js(&(a - loaded.origin, b - loaded.origin)),
            _ => JsValue::NULL,
        }
    });
    set(api, "componentsRange", function);
}

fn components(p: &Snapshot, options: &JsValue) -> JsValue {
    let Some(loaded) = &p.loaded else {
        return JsValue::NULL;
    };
    let get = |key: &str| {
        if options.is_object() {
            js_sys::Reflect::get(options, &JsValue::from_str(key)).ok()
        } else {
            None
        }
    };
    let thread = match get("thread").and_then(|v| v.as_string()) {
        Some(id) => match loaded.trace.threads.iter().position(|t| t.id == id) {
            Some(i) => Some(i as u32),
            None => return JsValue::NULL,
        },
        None => None,
    };
    let choice = Choice {
        thread,
        other_below: get("other_below").and_then(|v| v.as_f64()).unwrap_or(0.0),
    };
    let report = analyse(&loaded.trace, &choice.options(p.views.range));
    super::to_js(&report)
}
