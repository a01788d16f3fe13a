//! The decoding worker's entry point: starts listening for decode requests.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    flamedrop_web::worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
