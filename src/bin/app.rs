//! The page's entry point: mounts the Yew app.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    flamedrop_web::app::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
