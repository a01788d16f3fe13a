//! `window.flamedrop.diff()`: the trace on screen (base) against the
//! comparison trace (new), as `flamedrop diff --json` prints it —
//! `{unit, functions: [{name, base: {calls, total, self}, new: {...},
//! delta_self, delta_total}]}`, largest change in self time first; `null`
//! without a comparison, `{error}` when the traces cannot be compared
//! (different time units). Both are aggregated over their default source,
//! as the CLI does.

use crate::state::Loaded;
use flamedrop_core::analysis::compare;
use serde::Serialize;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

thread_local! {
    static COMPARE: RefCell<Option<Rc<Loaded>>> = const { RefCell::new(None) };
}

/// The app tells which comparison trace is open.
pub fn set_compare(loaded: Option<Rc<Loaded>>) {
    COMPARE.with_borrow_mut(|c| *c = loaded);
}

/// The comparison trace, if one is open.
pub fn comparison() -> Option<Rc<Loaded>> {
    COMPARE.with_borrow(|c| c.clone())
}

/// Adds `diff` to the `window.flamedrop` object.
pub fn install_into(api: &js_sys::Object) {
    let function: Closure<dyn Fn() -> JsValue> = Closure::new(diff);
    let _ = js_sys::Reflect::set(api, &JsValue::from_str("diff"), function.as_ref());
    function.forget(); // lives as long as the page
}

fn diff() -> JsValue {
    let Some(new) = COMPARE.with_borrow(|c| c.clone()) else {
        return JsValue::NULL;
    };
    let Some(base) = crate::js_api::loaded() else {
        return JsValue::NULL;
    };
    #[derive(Serialize)]
    struct Refused {
        error: String,
    }
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    match compare(&base.trace, &new.trace) {
        Ok((comparison, _)) => comparison.serialize(&serializer),
        Err(error) => Refused { error }.serialize(&serializer),
    }
    .unwrap_or(JsValue::NULL)
}
