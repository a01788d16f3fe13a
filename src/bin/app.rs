//! The page's entry point: mounts the Yew app. In the shared-memory build
//! (`scripts/build-shared.sh`) the same module is also the decoding
//! workers' code, entered through `worker_start`.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    flamedrop_web::app::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}

/// A decoding worker's entry in the shared-memory build: `www/worker-shared.js`
/// calls it once it has started this module on the page's memory (the
/// module's own start, `main`, runs on the page's thread only).
#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn worker_start() {
    console_error_panic_hook::set_once();
    flamedrop_web::worker::start();
}
