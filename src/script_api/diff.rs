//! `window.flamedrop.diff()`: the trace on screen (base) against the
//! comparison trace (new), as `flamedrop diff --json` prints it —
//! `{unit, functions: [{name, base: {calls, total, self}, new: {...},
//! delta_self, delta_total}]}`, largest change in self time first; `null`
//! without a comparison, `{error}` when the traces cannot be compared
//! (different time units). Both are aggregated over their default source,
//! as the CLI does.

use super::{set, Published, Snapshot};
use flamedrop_core::analysis::compare;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Adds `diff` to the `window.flamedrop` object.
pub fn install_into(api: &js_sys::Object, published: &Published) {
    let published = published.clone();
    let function: Closure<dyn Fn() -> JsValue> = Closure::new(move || diff(&published.borrow()));
    set(api, "diff", function);
}

fn diff(p: &Snapshot) -> JsValue {
    let Some(compared) = &p.comparison else {
        return JsValue::NULL;
    };
    let (base, new) = (&compared.base, &compared.new);
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
