//! Cross-origin isolation: whether this page (or worker) runs isolated, so
//! that `SharedArrayBuffer` and shared `WebAssembly.Memory` exist.
//!
//! GitHub Pages cannot send the `Cross-Origin-Opener-Policy` /
//! `Cross-Origin-Embedder-Policy` headers, so our service worker (`www/sw.js`)
//! adds them to every response it serves, and `www/boot.js` reloads the page
//! once on the first visit so that the worker serves it. Where service
//! workers are unavailable the page runs as before, not isolated, and the
//! model is copied from the decoding worker as it always was.

use wasm_bindgen::JsValue;

/// `crossOriginIsolated` of the current global (page or worker).
pub fn isolated() -> bool {
    let global = js_sys::global();
    js_sys::Reflect::get(&global, &JsValue::from_str("crossOriginIsolated"))
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

/// True when `SharedArrayBuffer` can be made and shared with workers: the
/// global is isolated and the constructor exists. Code that shares memory
/// checks this first and takes the copying path otherwise.
pub fn shared_memory_available() -> bool {
    isolated()
        && js_sys::Reflect::has(&js_sys::global(), &JsValue::from_str("SharedArrayBuffer"))
            .unwrap_or(false)
}

/// "yes" or "no", as the summary shows it.
pub fn isolated_label() -> &'static str {
    if isolated() {
        "yes"
    } else {
        "no"
    }
}
