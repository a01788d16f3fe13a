//! Cross-origin isolation's part of `window.flamedrop` (installed by
//! `script_api::install`):
//!
//! - `isolated()`: `true` when the page is cross-origin isolated (our service
//!   worker served it with COOP/COEP, so `SharedArrayBuffer` exists), `false`
//!   on the fallback path (service workers blocked or unavailable). The
//!   summary shows the same as "isolated: yes/no".

use super::set;
use wasm_bindgen::prelude::*;

/// Adds `isolated` to the `window.flamedrop` object.
pub fn install_into(api: &js_sys::Object) {
    let isolated: Closure<dyn Fn() -> JsValue> =
        Closure::new(|| JsValue::from_bool(crate::browser::isolation::isolated()));
    set(api, "isolated", isolated);
}
